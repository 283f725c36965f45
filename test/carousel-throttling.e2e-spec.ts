import type { Queue } from 'bullmq';
import { QueueNames } from '@platform/contracts';
import { whatsappPaceKeys } from '@platform/queue';
import { THROTTLING_REPLIES, WhatsAppCloudSandbox } from '@platform/sandbox';
import { carouselBody, testQueue, testRedis, triggerCarousel, until, waitForMessageStatus } from '@platform/testing';
import { useStack } from './e2e-stack.js';

/**
 * Meta's throttling answers (HTTP 400 with 130429, 131056, 80007, 4) delay the message and try again
 * without using up its attempts, for as long as its validity lasts.
 */
describe('carousel dispatch: Meta throttling answers', () => {
  const cloud = new WhatsAppCloudSandbox();
  const stack = useStack({ cloud, worker: true, seed: true, env: { WHATSAPP_BACKOFF_MS: '20', WHATSAPP_MAX_ATTEMPTS: '2' } });
  let queue: Queue;
  let recipientSeq = 100;

  beforeAll(() => {
    queue = testQueue(QueueNames.carouselDispatch, stack.env);
  });
  stack.defer(() => queue?.close());

  const newRecipient = () => `91987650${recipientSeq++}`;
  const send = (recipient: string) => triggerCarousel(stack.url, stack.seed, carouselBody(stack.seed, 3, `+${recipient}`));
  const requestsTo = (recipient: string) => cloud.messages.filter((m) => (m.body as { to?: string }).to === recipient);

  it.each([
    ['130429', 130429],
    ['80007', 80007],
    ['4', 4],
  ] as const)(
    '%s: the message waits and is sent, its attempt not used up',
    async (_name, code) => {
      const recipient = newRecipient();
      cloud.replyTo(recipient, { ...THROTTLING_REPLIES[code], retryAfterSeconds: 1 });
      const msgId = await send(recipient);
      const final = await waitForMessageStatus(stack.url, stack.seed, msgId, ['sent', 'failed'], 20_000);
      expect(final).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
      expect(requestsTo(recipient)).toHaveLength(2);
      // the row says sent just before BullMQ completes the job that sent it
      const job = await until(async () => ((await queue.getJob(msgId))?.finishedOn ? queue.getJob(msgId) : undefined), 10_000, 'job completed');
      expect(job?.attemptsMade).toBe(1); // the run that sent it; the throttled one is not counted
      expect(job?.data.throttles).toBe(1);
    },
    30_000,
  );

  it("130429 slows the sender number's pacing down", async () => {
    const redis = testRedis(stack.env);
    try {
      const recipient = newRecipient();
      cloud.replyTo(recipient, { ...THROTTLING_REPLIES[130429], retryAfterSeconds: 0 });
      const msgId = await send(recipient);
      await waitForMessageStatus(stack.url, stack.seed, msgId, ['sent', 'failed'], 20_000);
      expect(Number(await redis.hget(whatsappPaceKeys(stack.env, stack.seed.phoneNumberId).state, 'factor'))).toBeLessThan(1);
    } finally {
      redis.disconnect();
    }
  }, 120_000);

  it("131056 (pair rate) delays only that recipient's message; others go on", async () => {
    const throttled = newRecipient();
    const other = newRecipient();
    cloud.replyTo(throttled, THROTTLING_REPLIES[131056]);
    const first = await send(throttled);
    const second = await send(other);
    const otherFinal = await waitForMessageStatus(stack.url, stack.seed, second, ['sent', 'failed'], 20_000);
    expect(otherFinal.status).toBe('sent');
    expect((await waitForMessageStatus(stack.url, stack.seed, first, ['processing', 'sent', 'failed'])).status).toBe('processing');

    const final = await waitForMessageStatus(stack.url, stack.seed, first, ['sent', 'failed'], 20_000);
    expect(final).toMatchObject({ status: 'sent', attempts: 1 });
    expect(requestsTo(throttled)).toHaveLength(2);
    expect(Date.parse(final.sentAt!)).toBeGreaterThan(Date.parse(otherFinal.sentAt!));
  }, 120_000);

  it('throttling answers, however many, keep the message waiting, not failing: it is sent once Meta stops throttling', async () => {
    const recipient = newRecipient();
    const limit = { ...THROTTLING_REPLIES[4], retryAfterSeconds: 0 };
    cloud.replyTo(recipient, ...Array.from({ length: 25 }, () => limit));
    const msgId = await send(recipient);
    const final = await waitForMessageStatus(stack.url, stack.seed, msgId, ['sent', 'failed'], 40_000);
    // far more throttles than WHATSAPP_MAX_ATTEMPTS (2), none of them an attempt
    expect(final).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(requestsTo(recipient)).toHaveLength(26);
  }, 120_000);

  it("any other 4xx still fails at once with Meta's code and text", async () => {
    const recipient = newRecipient();
    cloud.replyTo(recipient, { status: 400, errorCode: 131026, errorMessage: 'Message undeliverable' });
    const msgId = await send(recipient);
    const final = await waitForMessageStatus(stack.url, stack.seed, msgId, ['sent', 'failed'], 20_000);
    expect(final).toMatchObject({ status: 'failed', attempts: 1, lastError: { code: '131026', text: 'Message undeliverable' } });
    expect(requestsTo(recipient)).toHaveLength(1);
  }, 120_000);
});
