// Baseline of `npm run bench:trigger`: the least a trigger endpoint can do. A plain Fastify server whose
// POST route only queues a BullMQ job of the same shape and size as the gateway's (one `queue.add` per
// request, default Queue and ioredis settings: no auto-pipelining, no batching) and answers 200 JSON.
// No validation, no API key, no Postgres. Run from dist by bench/trigger.ts:
//   REDIS_URL=redis://127.0.0.1:6379 PORT=3100 node dist/bench/baseline/fastify-bullmq-server.js
// BASELINE_CLAIM_KEYS=1: the least a trigger honouring an Idempotency-Key can do besides: the `add` claims
// the key with BullMQ's deduplication (bot and key, 24 h), as the gateway's does; a repeat answers the
// holder's id.
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import Fastify from 'fastify';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const queueName = process.env.BASELINE_QUEUE ?? 'bench-baseline-trigger';
const port = Number(process.env.PORT ?? 3100);
const claimKeys = process.env.BASELINE_CLAIM_KEYS === '1';

interface Body {
  userDetails: { number: string };
  notification: { templateId: string; type: string; params: { cards: Array<{ media: { mediaLink: string } }> } };
}

// The gateway resolves the sender's id from its catalog; a UUID of the same length stands in for it.
const senderId = randomUUID();

const queue = new Queue(queueName, { connection: { url: redisUrl } });
const app = Fastify();

app.get('/health', async () => ({ status: 'ok' }));

app.post('/api/engagements/notifications/v2/push', async (req) => {
  const { userDetails, notification } = req.body as Body;
  const msgId = randomUUID();
  const bot = (req.query as { bot: string }).bot;
  const key = claimKeys ? req.headers['idempotency-key'] : undefined;
  // The gateway's job (CarouselDispatchJob): the same fields and sizes, with the same job options.
  const job = await queue.add(
    'send',
    {
      messageId: msgId,
      botId: bot,
      templateId: notification.templateId,
      senderId,
      channel: notification.type,
      recipient: userDetails.number.replace(/^\+/, ''),
      cards: notification.params.cards.map((c) => ({ mediaLink: c.media.mediaLink })),
    },
    {
      jobId: msgId,
      attempts: 5,
      backoff: { type: 'exponential', delay: 2000, jitter: 0.5 },
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: 7 * 24 * 3600 },
      ...(typeof key === 'string' && { deduplication: { id: `${bot}:${key}`, ttl: 24 * 3600_000 } }),
    },
  );
  return { message: 'Carousel template queued for delivery', status: 'success', msgId: job.id };
});

await app.listen({ port, host: '127.0.0.1' });

process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => queue.close())
    .finally(() => process.exit(0));
});
