import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { createGateway } from '../apps/gateway/src/create-gateway.js';
import { TriggerBatcher } from '../apps/gateway/src/carousel/trigger-batcher.js';
import { CarouselDispatchJob, QueueNames } from '@platform/contracts';
import { REQUEST_REDIS } from '@platform/queue';
import { createTestEnv } from '@platform/testing';

type Chunk = { chunk: Buffer | string };

/** Triggers accepted in one event-loop turn reach Redis in one socket write, each as its own durable job. */
describe('carousel trigger batching against real Redis', () => {
  let gateway: NestFastifyApplication;
  let queue: Queue;

  beforeAll(async () => {
    const env = await createTestEnv();
    gateway = await createGateway(env);
    await gateway.init();
    queue = new Queue(QueueNames.carouselDispatch, { connection: { url: env.REDIS_URL } });
  });

  afterAll(async () => {
    await queue?.close();
    await gateway?.close();
  });

  const job = (messageId: string): CarouselDispatchJob => ({
    messageId,
    botId: randomUUID(),
    templateId: randomUUID(),
    senderId: randomUUID(),
    channel: 'whatsapp',
    recipient: '15550001111',
    cards: [{ mediaLink: 'https://cdn.example.com/a.jpg' }],
  });

  it('writes the batch once and answers after every job is in Redis with its options', async () => {
    const redis = gateway.get<Redis>(REQUEST_REDIS);
    // The gateway's request connection queues nothing while it connects (a loaded host may still be connecting).
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
    await redis.ping();
    const socket = redis.stream as Socket & { _write: Function; _writev: Function };
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const writes: string[] = [];
    const write = socket._write;
    const writev = socket._writev;
    socket._write = function (chunk: Buffer, ...rest: unknown[]) {
      writes.push(String(chunk));
      return write.call(this, chunk, ...rest);
    };
    socket._writev = function (chunks: Chunk[], ...rest: unknown[]) {
      writes.push(chunks.map((c) => String(c.chunk)).join(''));
      return writev.call(this, chunks, ...rest);
    };
    try {
      const batcher = gateway.get(TriggerBatcher);
      await Promise.all(ids.map((id) => batcher.enqueue(job(id))));
    } finally {
      socket._write = write;
      socket._writev = writev;
    }
    const carrying = writes.filter((w) => ids.some((id) => w.includes(id)));
    expect(carrying).toHaveLength(1);
    expect(ids.every((id) => carrying[0].includes(id))).toBe(true);

    for (const id of ids) {
      const stored = await queue.getJob(id);
      expect(stored?.data.messageId).toBe(id);
      expect(stored?.opts).toMatchObject({ attempts: 5, backoff: { type: 'exponential' } });
    }
  });
});
