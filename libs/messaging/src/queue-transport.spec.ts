import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { firstValueFrom, throwError } from 'rxjs';
import { createTestRedisUrl } from '@platform/testing';
import { countConsumers } from './consumer-registry.js';
import { NoConsumerError } from './no-consumer.error.js';
import { QueueTransportClient } from './queue-transport.client.js';
import { QueueTransportServer } from './queue-transport.server.js';
import { QueuedRequest } from './queued-request.js';
import { RequestTimeoutError } from './request-timeout.error.js';
import type { RequestJobData } from './request-job.js';

const QUEUE = 'spec-requests';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Client and servers of the queue transport against a Redis database of their own. */
describe('QueueTransportClient and QueueTransportServer', () => {
  let url: string;
  let redis: Redis;
  const servers: QueueTransportServer[] = [];
  const clients: QueueTransportClient[] = [];

  beforeEach(async () => {
    url = await createTestRedisUrl();
    redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    await new Promise((resolve) => redis.once('ready', resolve));
  });

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const s of servers.splice(0)) await s.close();
    redis.disconnect();
  });

  const connect = (connectionName: string) => new Redis(url, { connectionName, maxRetriesPerRequest: null });

  const client = (timeoutMs = 2000) => {
    const c = new QueueTransportClient({ queueName: QUEUE, redis, connect, timeoutMs, commandTimeoutMs: 1000, consumerCheckMs: 0 });
    clients.push(c);
    return c;
  };

  /** A listening server whose `echo` handler records each call under the server's name. */
  const server = async (name: string, calls: Array<{ server: string; data: unknown }>, delayMs = 0) => {
    const s = new QueueTransportServer({ queueName: QUEUE, connect, concurrency: 4 });
    s.addHandler('echo', async (data: unknown) => {
      calls.push({ server: name, data });
      if (delayMs) await sleep(delayMs);
      return { echoed: data, by: name };
    });
    s.addHandler('refuse', async () => throwError(() => ({ status: 'error', message: 'refused' })));
    s.addHandler('happened', async (data: unknown) => void calls.push({ server: name, data: { event: data } }), true);
    await new Promise<void>((resolve, reject) => s.listen((err?: unknown) => (err ? reject(err) : resolve())));
    servers.push(s);
    return s;
  };

  it('answers a request with its handler’s value, and says who listens', async () => {
    const calls: Array<{ server: string; data: unknown }> = [];
    await server('a', calls);
    expect(await countConsumers(redis, QUEUE)).toBe(1);
    expect(await firstValueFrom(client().send('echo', { n: 1 }))).toEqual({ echoed: { n: 1 }, by: 'a' });
    expect(calls).toEqual([{ server: 'a', data: { n: 1 } }]);
    await servers.pop()!.close();
    expect(await countConsumers(redis, QUEUE)).toBe(0);
  });

  it('hands each request to exactly one of three competing servers', async () => {
    const calls: Array<{ server: string; data: unknown }> = [];
    for (const name of ['a', 'b', 'c']) await server(name, calls, 20);
    const c = client(10_000);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, n) => firstValueFrom(c.send('echo', n))));
    expect(answers.map((a) => (a as { echoed: number }).echoed)).toEqual(Array.from({ length: 60 }, (_, n) => n));
    expect(calls.map((x) => x.data).sort((x, y) => (x as number) - (y as number))).toEqual(Array.from({ length: 60 }, (_, n) => n));
    expect(new Set(calls.map((x) => x.server)).size).toBeGreaterThan(1);
  });

  it('fails at once with NoConsumerError when no server listens, queueing nothing', async () => {
    await expect(firstValueFrom(client().send('echo', 1))).rejects.toBeInstanceOf(NoConsumerError);
    expect(await new Queue(QUEUE, { connection: redis }).getJobCounts('wait')).toEqual({ wait: 0 });
  });

  it('delivers a handler’s error value as the error, and the job is gone so the same id may run again', async () => {
    await server('a', []);
    await expect(firstValueFrom(client().send('refuse', new QueuedRequest({}, { jobId: 'once' })))).rejects.toEqual({ status: 'error', message: 'refused' });
    expect(await new Queue(QUEUE, { connection: redis }).getJob('once')).toBeUndefined();
  });

  it('gives the first answer again for a repeated job id, running the handler once', async () => {
    const calls: Array<{ server: string; data: unknown }> = [];
    await server('a', calls);
    const c = client();
    const first = await firstValueFrom(c.send('echo', new QueuedRequest('first', { jobId: 'key-1' })));
    const again = await firstValueFrom(c.send('echo', new QueuedRequest('second', { jobId: 'key-1' })));
    expect(again).toEqual(first);
    expect(calls).toHaveLength(1);
  });

  it('times out, and a server that starts afterwards never runs the request', async () => {
    await server('gone', []);
    const c = client(300);
    await firstValueFrom(c.send('echo', 'warm-up')); // the consumer is seen; it then stops
    await servers.pop()!.close();
    const calls: Array<{ server: string; data: unknown }> = [];
    (c as unknown as { consumersSeenUntil: number }).consumersSeenUntil = Date.now() + 60_000; // as within the 1 s a gateway trusts a seen consumer
    await expect(firstValueFrom(c.send('echo', 'late'))).rejects.toBeInstanceOf(RequestTimeoutError);
    await server('late', calls);
    await sleep(500);
    expect(calls).toEqual([]);
  });

  it('drops a request taken after its deadline without running its handler', async () => {
    const queue = new Queue<RequestJobData>(QUEUE, { connection: redis });
    await queue.add('echo', { data: 'expired', deadline: Date.now() - 1 }, { jobId: 'expired', removeOnFail: false });
    const calls: Array<{ server: string; data: unknown }> = [];
    await server('a', calls);
    for (let i = 0; i < 100 && (await queue.getJobState('expired')) !== 'failed'; i++) await sleep(20);
    expect(await queue.getJobState('expired')).toBe('failed');
    expect((await queue.getJob('expired'))?.failedReason).toMatch(/^echo: dropped, its caller stopped waiting \d+ ms ago$/);
    expect(calls).toEqual([]);
    await queue.close();
  });

  it('emits an event that one server’s @EventPattern handler receives', async () => {
    const calls: Array<{ server: string; data: unknown }> = [];
    await server('a', calls);
    await server('b', calls);
    await firstValueFrom(client().emit('happened', { id: 7 }), { defaultValue: undefined });
    for (let i = 0; i < 100 && calls.length === 0; i++) await sleep(20);
    await sleep(100);
    expect(calls.map((x) => x.data)).toEqual([{ event: { id: 7 } }]);
  });
});
