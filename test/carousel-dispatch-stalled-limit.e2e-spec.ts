import { ChildProcess, spawn } from 'node:child_process';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Queue, Worker } from 'bullmq';
import { createChannelWorker } from '../apps/channel-worker/src/create-channel-worker.js';
import { MessageStatusResponse, QueueNames } from '@platform/contracts';
import { WhatsAppCloudSandbox } from '@platform/sandbox';
import { bullPrefix } from '@platform/queue';
import { messageStatus, testRedis, triggerCarousel, until, waitForMessageStatus } from '@platform/testing';
import { useStack } from './e2e-stack.js';

/**
 * A message whose job stalls more often than WORKER_MAX_STALLED_COUNT allows (its worker process keeps
 * dying mid-send) is failed by BullMQ without running the job again; the message ends `failed` too.
 */
describe('carousel dispatch: a job that stalls too often fails its message', () => {
  const cloud = new WhatsAppCloudSandbox();
  const stack = useStack({
    cloud,
    seed: true,
    env: {
      WORKER_LOCK_MS: '1000',
      WORKER_MAX_STALLED_COUNT: '0', // the first stall fails the job
    },
  });
  const CHILD_LOCK_MS = 10_000;
  let child: ChildProcess | undefined;
  let worker: NestFastifyApplication | undefined;

  stack.defer(async () => {
    child?.kill('SIGKILL');
    await worker?.close();
  });

  const status = (msgId: string) => messageStatus(stack.url, stack.seed, msgId);

  /** Triggers a message, lets a built worker process take it (the Cloud API never answers), then kills the process. */
  async function stallOnce(): Promise<string> {
    cloud.reply({ hang: true });
    const sent = cloud.messages.length;
    child = spawn(process.execPath, ['dist/apps/channel-worker/src/main.js'], {
      // A longer lock than the in-process workers': a process just started on a loaded host can miss a
      // renewal of a 1 s lock, and its own stalled check would then fail the job before it is killed.
      env: { ...process.env, ...stack.env, WHATSAPP_TIMEOUT_MS: '60000', WORKER_LOCK_MS: String(CHILD_LOCK_MS) },
      stdio: 'ignore',
    });
    const msgId = await triggerCarousel(stack.url, stack.seed);
    // A process starting on a busy host (a cluster run starts six Redis nodes too) can take many seconds.
    await until(async () => (cloud.messages.length === sent + 1 ? true : undefined), 90_000, 'the worker process sending');
    child.kill('SIGKILL');
    return msgId;
  }

  const expectStalledFailure = (s: MessageStatusResponse) => {
    expect(s).toMatchObject({ status: 'failed', attempts: 1, providerMessageId: null, lastError: { code: 'stalled' } });
    expect(s.lastError!.text).toBe('The delivery job stalled too often (its worker process stopped mid-run 1 time, more than WORKER_MAX_STALLED_COUNT allows); the message is not tried again.');
  };

  it('the worker that fails the job (its stalled checker) fails the message, and it is not sent again', async () => {
    const msgId = await stallOnce();
    expect((await status(msgId)).status).toBe('processing');

    worker = await createChannelWorker(stack.env);
    expectStalledFailure(await waitForMessageStatus(stack.url, stack.seed, msgId, ['failed', 'sent'], CHILD_LOCK_MS + 30_000));
    await new Promise((r) => setTimeout(r, 300));
    expect(cloud.messages).toHaveLength(1);
  }, 180_000);

  it('a job failed for stalling while no channel worker settled it: the next worker to start fails its message', async () => {
    await worker?.close();
    worker = undefined;
    const msgId = await stallOnce();

    // A bare BullMQ worker (not ours) fails the job for stalling; nothing settles the message.
    const connection = testRedis(stack.env, { maxRetriesPerRequest: null });
    const prefix = bullPrefix(stack.env, QueueNames.carouselDispatch);
    const bare = new Worker(QueueNames.carouselDispatch, async () => Promise.reject(new Error('not expected to run')), {
      connection,
      prefix,
      lockDuration: 1000,
      stalledInterval: 500,
      maxStalledCount: 0,
    });
    const queue = new Queue(QueueNames.carouselDispatch, { connection, prefix });
    const failed = await until(async () => {
      const job = await queue.getJob(msgId);
      return job?.finishedOn ? job : undefined;
    }, CHILD_LOCK_MS + 30_000);
    expect(failed.failedReason).toBe('job stalled more than allowable limit');
    expect(await failed.getState()).toBe('failed');
    await bare.close();
    await queue.close();
    connection.disconnect();
    expect((await status(msgId)).status).toBe('processing');

    worker = await createChannelWorker(stack.env);
    expectStalledFailure(await waitForMessageStatus(stack.url, stack.seed, msgId, ['failed', 'sent'], CHILD_LOCK_MS + 30_000));
    expect(cloud.messages).toHaveLength(2);
  }, 120_000);
});
