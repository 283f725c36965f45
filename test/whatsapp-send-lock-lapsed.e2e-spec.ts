import { ChildProcess, spawn } from 'node:child_process';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createChannelWorker } from '../apps/channel-worker/src/create-channel-worker.js';
import { ConversationQueueNames, ConversationReplyJob } from '@platform/contracts';
import { ConversationRepository } from '@platform/database';
import { testQueue, until } from '@platform/testing';
import { useStack } from './e2e-stack.js';

/**
 * A worker whose job lock lapses while it is still sending (its process stopped for longer than the
 * lock, as a starved host or a Redis failover can do): the queue hands the job to another worker, which
 * must not send the reply a second time while the first may still be sending it.
 */
describe('WhatsApp reply: a lock that lapses mid-send', () => {
  const stack = useStack({ cloud: true, seed: true, env: { WORKER_LOCK_MS: '1000', WHATSAPP_TIMEOUT_MS: '8000' } }, 120_000);
  let child: ChildProcess | undefined;
  let worker: NestFastifyApplication | undefined;
  stack.defer(async () => {
    child?.kill('SIGCONT');
    child?.kill('SIGKILL');
    await worker?.close();
  });

  it('the second worker waits for the first run to record it, and the reply is sent once', async () => {
    const recipient = '919800000811';
    const repo = stack.gateway.get(ConversationRepository, { strict: false });
    const [sender] = await repo.findSendersByPhoneNumberId(stack.seed.phoneNumberId);
    const { message: inbound } = await repo.recordInbound({
      botId: stack.seed.botId,
      channel: 'whatsapp',
      userId: recipient,
      senderId: sender.id,
      type: 'text',
      content: { text: 'hi' },
      at: new Date(),
    });

    let output = '';
    child = spawn(process.execPath, ['dist/apps/channel-worker/src/main.js'], { env: { ...process.env, ...stack.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (c: Buffer) => (output += c));
    child.stderr!.on('data', (c: Buffer) => (output += c));
    // The Cloud API takes the first worker's send, which then stops before it hears the answer.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let accepted = false;
    stack.cloud.onNextAccept(() => {
      child!.kill('SIGSTOP');
      accepted = true;
      return released;
    });

    const res = await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/conversations/${inbound.conversationId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.seed.apiKey}` },
      body: JSON.stringify({ text: 'once' }),
    });
    expect(res.status).toBe(202);
    const { messageId } = (await res.json()) as { messageId: string };
    // A process starting on a busy host can take many seconds.
    await until(async () => (accepted ? true : undefined), 90_000, 'the first worker sending');

    // A second worker takes the job over once the stopped one's lock lapses.
    worker = await createChannelWorker(stack.env);
    const queue = testQueue<ConversationReplyJob>(ConversationQueueNames.conversationReply, stack.env);
    try {
      const job = await until(
        async () => {
          const j = await queue.getJob(messageId);
          const state = await j?.getState();
          // Delayed: it waits for the first run's lease. Completed: it sent the reply again.
          return state === 'delayed' || state === 'completed' ? { state, stalled: j!.stalledCounter } : undefined;
        },
        60_000,
        'the second worker taking the job over',
      );
      expect(job.stalled).toBeGreaterThanOrEqual(1); // taken over from the stopped worker
      expect(stack.cloud.accepted.get(recipient)).toHaveLength(1); // the first worker's send, not answered yet

      // The first worker goes on, hears Meta's answer and records the reply sent.
      child.kill('SIGCONT');
      release();
      const sent = await until(
        async () => {
          const m = await repo.findMessage(messageId);
          return m?.status === 'sent' ? m : undefined;
        },
        60_000,
        'the reply recorded sent',
      );
      // The second worker's run after the lease skips it.
      await until(async () => ((await (await queue.getJob(messageId))?.getState()) === 'completed' ? true : undefined), 60_000, 'the job completed');
      await new Promise((r) => setTimeout(r, 500));

      expect(stack.cloud.accepted.get(recipient)).toHaveLength(1);
      expect(sent.providerMessageId).toBe(stack.cloud.accepted.get(recipient)![0]);
      expect(sent.attempts).toBe(1);
    } finally {
      await queue.close();
    }
  }, 240_000);
});
