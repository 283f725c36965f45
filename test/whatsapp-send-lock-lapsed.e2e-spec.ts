import { ChildProcess, spawn } from 'node:child_process';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createChannelWorker } from '../apps/channel-worker/src/create-channel-worker.js';
import { ConversationQueueNames, QueueNames } from '@platform/contracts';
import { ConversationRepository, MessageRepository } from '@platform/database';
import { carouselBody, testQueue, triggerCarousel, until } from '@platform/testing';
import { useStack } from './e2e-stack.js';
import { openWhatsAppConversation, postReply } from './whatsapp-support.js';

/**
 * A worker whose job lock lapses while it is still sending (its process stopped for longer than the
 * lock, as a starved host or a lock lost in a Redis failover can do): the queue hands the job to another
 * worker, which must not send the message a second time while the first may still be sending it.
 */
describe('WhatsApp sends: a job lock that lapses mid-send', () => {
  const stack = useStack({ cloud: true, seed: true, env: { WORKER_LOCK_MS: '1000', WHATSAPP_TIMEOUT_MS: '8000' } }, 120_000);
  let child: ChildProcess | undefined;
  let worker: NestFastifyApplication | undefined;
  const stopWorkers = async () => {
    child?.kill('SIGCONT');
    child?.kill('SIGKILL');
    await worker?.close();
    child = worker = undefined;
  };
  stack.defer(stopWorkers);
  afterEach(stopWorkers);

  /**
   * Starts a worker process whose first send the Cloud API takes and answers only once released; the
   * process is stopped (SIGSTOP) the moment the send arrives. Then `enqueue` runs; resolves once the
   * stopped worker is sending.
   */
  async function stoppedWhileSending<T>(enqueue: () => Promise<T>): Promise<{ queued: T; release: () => void }> {
    child = spawn(process.execPath, ['dist/apps/channel-worker/src/main.js'], { env: { ...process.env, ...stack.env }, stdio: 'ignore' });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let sending = false;
    stack.cloud.onNextAccept(() => {
      child!.kill('SIGSTOP');
      sending = true;
      return released;
    });
    const queued = await enqueue();
    // A process starting on a busy host can take many seconds.
    await until(async () => (sending ? true : undefined), 90_000, 'the first worker sending');
    return { queued, release };
  }

  /** A second worker takes the job over once the stopped one's lock lapses: it waits (delayed) or, wrongly, sends again (completed). */
  async function takenOver(queueName: string, jobId: string): Promise<void> {
    worker = await createChannelWorker(stack.env);
    const queue = testQueue(queueName, stack.env);
    try {
      const job = await until(
        async () => {
          const j = await queue.getJob(jobId);
          const state = await j?.getState();
          return state === 'delayed' || state === 'completed' ? { state, stalled: j!.stalledCounter } : undefined;
        },
        60_000,
        'the second worker taking the job over',
      );
      expect(job.stalled).toBeGreaterThanOrEqual(1);
    } finally {
      await queue.close();
    }
  }

  async function completed(queueName: string, jobId: string): Promise<void> {
    const queue = testQueue(queueName, stack.env);
    try {
      await until(async () => ((await (await queue.getJob(jobId))?.getState()) === 'completed' ? true : undefined), 60_000, `job ${jobId} completed`);
    } finally {
      await queue.close();
    }
  }

  it('a conversation reply: the second worker waits for the first run to record it, and the reply is sent once', async () => {
    const recipient = '919800000811';
    const repo = stack.gateway.get(ConversationRepository, { strict: false });
    const conversationId = await openWhatsAppConversation(stack, recipient);
    const { queued: messageId, release } = await stoppedWhileSending(() => postReply(stack, conversationId, { text: 'once' }));
    await takenOver(ConversationQueueNames.conversationReply, messageId);
    expect(stack.cloud.accepted.get(recipient)).toHaveLength(1); // the first worker's send, not answered yet

    // The first worker goes on, hears Meta's answer and records the reply sent; the second worker's run after the lease skips it.
    child!.kill('SIGCONT');
    release();
    const sent = await until(
      async () => {
        const m = await repo.findMessage(messageId);
        return m?.status === 'sent' ? m : undefined;
      },
      60_000,
      'the reply recorded sent',
    );
    await completed(ConversationQueueNames.conversationReply, messageId);
    await new Promise((r) => setTimeout(r, 500));

    expect(stack.cloud.accepted.get(recipient)).toHaveLength(1);
    expect(sent.providerMessageId).toBe(stack.cloud.accepted.get(recipient)![0]);
    expect(sent.attempts).toBe(1);
  }, 240_000);

  it('a carousel message: the second worker waits for the first run to record it, and the message is sent once', async () => {
    const recipient = '919800000812';
    const { queued: messageId, release } = await stoppedWhileSending(() => triggerCarousel(stack.url, stack.seed, carouselBody(stack.seed, 3, `+${recipient}`)));
    await takenOver(QueueNames.carouselDispatch, messageId);
    expect(stack.cloud.accepted.get(recipient)).toHaveLength(1);

    child!.kill('SIGCONT');
    release();
    const messages = stack.gateway.get(MessageRepository);
    const sent = await until(
      async () => {
        const m = await messages.findForBot(stack.seed.botId, messageId);
        return m?.status === 'sent' ? m : undefined;
      },
      60_000,
      'the message recorded sent',
    );
    await completed(QueueNames.carouselDispatch, messageId);
    await new Promise((r) => setTimeout(r, 500));

    expect(stack.cloud.accepted.get(recipient)).toHaveLength(1);
    expect(sent.providerMessageId).toBe(stack.cloud.accepted.get(recipient)![0]);
    expect(sent.attempts).toBe(1);
  }, 240_000);
});
