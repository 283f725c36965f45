import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createChannelWorker } from '../apps/channel-worker/src/create-channel-worker.js';
import { ConversationRepository, MessageRepository } from '@platform/database';
import { type RedisClient, lifecycleStreamKey } from '@platform/queue';
import { WhatsAppCloudSandbox } from '@platform/sandbox';
import { MovableClock, carouselBody, testRedis, triggerCarousel, until } from '@platform/testing';
import { useStack } from './e2e-stack.js';
import { openWhatsAppConversation, postReply } from './whatsapp-support.js';

/**
 * Retries last as long as an outage, up to the message's validity (4 h by default), not a number of
 * attempts. The worker runs on a clock 100 times as fast as the system's (its backoff waits shrink
 * alike), at the default settings: a 2-minute outage passes in about a second, and `advance` moves
 * the clock on by hours at once.
 */
const SPEED = 100;

describe('WhatsApp sends through a Cloud API outage: retried until validity ends, then expired', () => {
  const cloud = new WhatsAppCloudSandbox();
  const clock = new MovableClock(SPEED);
  const stack = useStack({ cloud, seed: true }, 120_000);
  let worker: NestFastifyApplication;
  let redis: RedisClient;
  stack.defer(async () => {
    redis?.disconnect();
    await worker?.close();
  });

  beforeAll(async () => {
    worker = await createChannelWorker(stack.env, clock);
    redis = testRedis(stack.env);
  }, 120_000);

  beforeEach(() => {
    clock.reset();
    cloud.outage = undefined;
  });

  /** Requests the Cloud API got for `recipient` (answered or not). */
  const tries = (recipient: string) => cloud.messages.filter((r) => (r.body as { to?: string })?.to === recipient).length;

  const openConversation = (userId: string) => openWhatsAppConversation(stack, userId);
  const reply = (conversationId: string, text: string) => postReply(stack, conversationId, { text });

  it('a 2-minute outage at the default validity loses nothing: every message is sent, exactly once, when the Cloud API is back', async () => {
    cloud.outage = { status: 503, errorMessage: 'Service temporarily unavailable' };
    const recipients = ['919811000001', '919811000002', '919811000003'];
    const msgIds = await Promise.all(recipients.map((r) => triggerCarousel(stack.url, stack.seed, carouselBody(stack.seed, 3, `+${r}`))));
    const replyUser = '919811000009';
    const replyId = await reply(await openConversation(replyUser), 'still there?');
    const everyone = [...recipients, replyUser];

    // Two minutes on the worker's clock (its default backoff: 2 s doubled per try), and more tries of
    // each message than the default 5 attempts.
    const start = clock.now();
    await until(async () => (clock.now() - start >= 120_000 && everyone.every((r) => tries(r) >= 6) ? true : undefined), 60_000, 'two minutes of outage and six tries each');
    cloud.outage = undefined;

    const messages = stack.gateway.get(MessageRepository);
    for (const msgId of msgIds) {
      await until(async () => ((await messages.findForBot(stack.seed.botId, msgId))?.status === 'sent' ? true : undefined), 60_000, `message ${msgId} sent`);
    }
    const conversations = stack.gateway.get(ConversationRepository, { strict: false });
    await until(async () => ((await conversations.findMessage(replyId))?.status === 'sent' ? true : undefined), 60_000, 'the reply sent');
    for (const r of everyone) expect(cloud.accepted.get(r)).toHaveLength(1);
  }, 240_000);

  it('a message whose validity ends during an outage fails with code expired and a lifecycle event; a reply expires after 4 h', async () => {
    cloud.outage = { status: 503 };
    const recipient = '919822000001';
    const body = { ...carouselBody(stack.seed, 3, `+${recipient}`), config: { validitySeconds: 60 } };
    const msgId = await triggerCarousel(stack.url, stack.seed, body);
    const replyUser = '919822000009';
    const replyId = await reply(await openConversation(replyUser), 'anyone?');
    await until(async () => (tries(recipient) >= 2 && tries(replyUser) >= 2 ? true : undefined), 60_000, 'tries during the outage');

    clock.advance(61_000);
    const messages = stack.gateway.get(MessageRepository);
    const failed = await until(
      async () => {
        const m = await messages.findForBot(stack.seed.botId, msgId);
        return m?.status === 'failed' ? m : undefined;
      },
      60_000,
      'the message failing',
    );
    expect(failed.lastErrorCode).toBe('expired');
    expect(failed.lastErrorText).toMatch(/validity of 60 s/);
    // Published right after the row is written: wait for it.
    const entries = await until(
      async () => {
        const events = await redis.xrange(lifecycleStreamKey(stack.env), '-', '+');
        const fields = events.map(([, f]) => Object.fromEntries(Array.from({ length: f.length / 2 }, (_, i) => [f[2 * i], f[2 * i + 1]])));
        const mine = fields.filter((f) => f.messageId === msgId);
        return mine.length > 0 ? mine : undefined;
      },
      30_000,
      'the lifecycle entry',
    );
    expect(entries).toEqual([expect.objectContaining({ status: 'failed', errorCode: 'expired' })]);

    const conversations = stack.gateway.get(ConversationRepository, { strict: false });
    expect((await conversations.findMessage(replyId))?.status).toBe('processing'); // its own validity (4 h) runs on
    clock.advance(4 * 3600 * 1000);
    const expired = await until(
      async () => {
        const m = await conversations.findMessage(replyId);
        return m?.status === 'failed' ? m : undefined;
      },
      60_000,
      'the reply failing',
    );
    expect(expired.lastErrorCode).toBe('expired');
    expect(cloud.accepted.get(recipient)).toBeUndefined();
    expect(cloud.accepted.get(replyUser)).toBeUndefined();
  }, 240_000);
});
