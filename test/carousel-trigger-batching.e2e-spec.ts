import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import { Cluster } from 'ioredis';
import { createGateway } from '../apps/gateway/src/create-gateway.js';
import { TriggerBatcher } from '../apps/gateway/src/carousel/trigger-batcher.js';
import { CarouselDispatchJob, QueueNames } from '@platform/contracts';
import { REQUEST_REDIS, type RedisClient } from '@platform/queue';
import { createTestEnv, testQueue } from '@platform/testing';

type Chunk = { chunk: Buffer | string };

/** Triggers accepted in one event-loop turn reach Redis in one socket write, each as its own durable job. */
describe('carousel trigger batching against real Redis', () => {
  let gateway: NestFastifyApplication;
  let queue: Queue;

  beforeAll(async () => {
    const env = await createTestEnv();
    gateway = await createGateway(env);
    await gateway.init();
    queue = testQueue(QueueNames.carouselDispatch, env);
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

  /** Enqueues `ids` in one event-loop turn; the request connection's socket writes that carried any of them. */
  async function writesCarrying(ids: string[]): Promise<string[]> {
    // The request connection: one socket, or on a Redis Cluster one per master (the queue's keys share
    // one slot, so its jobs all go to one of them).
    const redis = gateway.get<RedisClient>(REQUEST_REDIS);
    const batcher = gateway.get(TriggerBatcher);
    await batcher.enqueue({ job: job(randomUUID()) }); // connections open and BullMQ's script loaded
    const sockets = (redis instanceof Cluster ? redis.nodes('master') : [redis]).map((node) => node.stream as Socket & { _write: (...args: any[]) => unknown; _writev: (...args: any[]) => unknown });
    const writes: string[] = [];
    const originals = sockets.map((socket) => ({ socket, write: socket._write, writev: socket._writev }));
    for (const { socket, write, writev } of originals) {
      socket._write = function (chunk: Buffer, ...rest: unknown[]) {
        writes.push(String(chunk));
        return write.call(this, chunk, ...rest);
      };
      socket._writev = function (chunks: Chunk[], ...rest: unknown[]) {
        writes.push(chunks.map((c) => String(c.chunk)).join(''));
        return writev.call(this, chunks, ...rest);
      };
    }
    try {
      await Promise.all(ids.map((id) => batcher.enqueue({ job: job(id) })));
    } finally {
      for (const { socket, write, writev } of originals) {
        socket._write = write;
        socket._writev = writev;
      }
    }
    return writes.filter((w) => ids.some((id) => w.includes(id)));
  }

  it('writes the batch once and answers after every job is in Redis with its options', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const carrying = await writesCarrying(ids);
    expect(carrying).toHaveLength(1);
    expect(ids.every((id) => carrying[0].includes(id))).toBe(true);

    for (const id of ids) {
      const stored = await queue.getJob(id);
      expect(stored?.data.messageId).toBe(id);
      expect(stored?.opts).toMatchObject({ attempts: 5, backoff: { type: 'exponential' } });
    }
  });

  it('a turn of more triggers than a batch holds sends its early batches in one write too, not one write per job', async () => {
    // 40 in one turn: two batches leave as they fill (16 each), the rest at the turn's end.
    const ids = Array.from({ length: 40 }, () => randomUUID());
    const carrying = await writesCarrying(ids);
    expect(carrying.length).toBeLessThanOrEqual(3);
    expect(ids.every((id) => carrying.some((w) => w.includes(id)))).toBe(true);
    expect((await Promise.all(ids.map((id) => queue.getJob(id)))).map((j) => j?.data.messageId)).toEqual(ids);
  });
});
