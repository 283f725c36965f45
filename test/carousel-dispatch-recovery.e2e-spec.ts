import { ChildProcess, spawn } from 'node:child_process';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createChannelWorker } from '../apps/channel-worker/src/create-channel-worker.js';
import { CarouselDispatchJob, QueueNames } from '@platform/contracts';
import { MessageRepository } from '@platform/database';
import { WhatsAppCloudSandbox } from '@platform/sandbox';
import { testQueue, triggerCarousel, until } from '@platform/testing';
import { useStack } from './e2e-stack.js';

/** Nothing is lost when a worker dies mid-job, and a message that reached a final state is never sent again. */
describe('carousel dispatch: worker crash recovery and no double sends', () => {
  const cloud = new WhatsAppCloudSandbox();
  const stack = useStack({ cloud, seed: true, env: { WHATSAPP_BACKOFF_MS: '20', WORKER_LOCK_MS: '1000' } });
  let child: ChildProcess | undefined;
  let worker: NestFastifyApplication | undefined;

  stack.defer(async () => {
    child?.kill('SIGKILL');
    await worker?.close();
  });

  it("a worker process killed (SIGKILL) mid-send: the job is recovered once the dead run's claim has ended, and the message is sent", async () => {
    // The built worker runs as a real process; the provider never answers its request, then the process dies.
    // Its claim holds the message for its 1 s lock, 1.5 s of pacing, the 15 s timeout and 5 s: 22.5 s.
    cloud.reply({ hang: true });
    child = spawn(process.execPath, ['dist/apps/channel-worker/src/main.js'], {
      env: { ...process.env, ...stack.env, WHATSAPP_TIMEOUT_MS: '15000' },
      stdio: 'ignore',
    });
    const msgId = await triggerCarousel(stack.url, stack.seed);
    // A process starting on a busy host (a cluster run starts six Redis nodes too) can take many seconds.
    await until(async () => (cloud.messages.length === 1 ? true : undefined), 90_000, 'the worker process sending');
    child.kill('SIGKILL');

    worker = await createChannelWorker(stack.env);
    const messages = stack.gateway.get(MessageRepository);
    const final = await until(
      async () => {
        const m = await messages.findForBot(stack.seed.botId, msgId);
        return m && (m.status === 'sent' || m.status === 'failed') ? m : undefined;
      },
      90_000,
      'the message sent by the second worker',
    );
    expect(final.status).toBe('sent');
    expect(final.attempts).toBe(2);
    expect(cloud.messages).toHaveLength(2);
  }, 180_000);

  it('a job delivered again for a message already sent does not send it twice', async () => {
    worker ??= await createChannelWorker(stack.env);
    const msgId = await triggerCarousel(stack.url, stack.seed);
    const messages = stack.gateway.get(MessageRepository);
    await until(async () => ((await messages.findForBot(stack.seed.botId, msgId))?.status === 'sent' ? true : undefined));
    const sentBefore = cloud.messages.length;

    const queue = testQueue<CarouselDispatchJob>(QueueNames.carouselDispatch, stack.env);
    const original = await queue.getJob(msgId);
    const again = await queue.add('send', original!.data);
    await until(async () => ((await again.getState()) === 'completed' ? true : undefined));
    await queue.close();

    expect(cloud.messages.length).toBe(sentBefore);
    expect((await messages.findForBot(stack.seed.botId, msgId))?.attempts).toBe(1);
  }, 120_000);
});
