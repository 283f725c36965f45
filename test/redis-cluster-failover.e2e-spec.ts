import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Queue } from 'bullmq';
import type { Cluster } from 'ioredis';
import { createChannelWorker } from '../apps/channel-worker/src/create-channel-worker.js';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { QueueNames } from '@platform/contracts';
import { MessageRepository } from '@platform/database';
import { LocalRedisCluster, startLocalRedisCluster } from '@platform/local-infra';
import { RedisEvictionPolicyError, bullPrefix, checkRedisAtStartup } from '@platform/queue';
import { WhatsAppCloudSandbox } from '@platform/sandbox';
import { SeededBot, carouselBody, createTestEnv, seedCarouselBot, testRedis, testRedisIsCluster, until } from '@platform/testing';

interface Answer {
  status: number;
  ms: number;
  at: number;
  msgId?: string;
  error?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const describeOnCluster = testRedisIsCluster() ? describe : describe.skip;

/**
 * A master of a Redis Cluster dies under a steady trigger load: its replica takes over (node timeout
 * 1 s), every trigger answered 200 is delivered to the Cloud API afterwards, triggers answered during
 * the switch get a 5xx within 2 s, and the same gateway and worker serve again without a restart.
 * It starts a cluster of its own (so it may kill a node); it runs with TEST_REDIS=cluster.
 */
describeOnCluster('Redis Cluster failover under trigger load', () => {
  const cloud = new WhatsAppCloudSandbox();
  const dir = mkdtempSync(join(tmpdir(), 'failover-'));
  let cluster: LocalRedisCluster;
  let env: Record<string, string>;
  let gateway: NestFastifyApplication;
  let worker: NestFastifyApplication;
  let url: string;
  let seed: SeededBot;

  beforeAll(async () => {
    cluster = await startLocalRedisCluster({ dataDir: dir, nodeTimeoutMs: 1000 });
    env = await createTestEnv({
      REDIS_CLUSTER_NODES: cluster.seeds,
      REDIS_KEY_PREFIX: 'failover:',
      // The bound on each Redis call (1500 ms by default) kept well under the 2 s promised for a refusal,
      // so that a loaded test host's own delays still fit.
      REDIS_COMMAND_TIMEOUT_MS: '1000',
      WHATSAPP_API_BASE_URL: `${await cloud.listen()}/v21.0`,
      WORKER_HEALTH_PORT: '0',
    });
    gateway = await createGateway(env);
    url = await listenGateway(gateway);
    worker = await createChannelWorker(env);
    seed = await seedCarouselBot(gateway);
  }, 120_000);

  afterAll(async () => {
    // The apps close after a failover too (ioredis's Cluster does not end the disconnect of a client
    // that has lost every node connection, and BullMQ's worker close waits for that end; PlatformCluster
    // ends it). Bounded, so that a close that does not finish fails the suite instead of hanging it.
    const unclosed: string[] = [];
    const closing = async (what: string, app?: NestFastifyApplication) => {
      const at = Date.now();
      const closed = await Promise.race([app?.close().then(() => true), sleep(30_000).then(() => false)]);
      process.stdout.write(`failover: ${what} ${closed ? `closed in ${Date.now() - at} ms` : 'did not close within 30 s'}\n`);
      if (!closed) unclosed.push(what);
    };
    await closing('channel worker', worker);
    await closing('gateway', gateway);
    await cloud.close();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
    if (unclosed.length > 0) throw new Error(`did not close within 30 s after the failover: ${unclosed.join(', ')}`);
  }, 180_000);

  /** The master that holds the trigger queue's hash slot. */
  async function queueMasterPort(): Promise<number> {
    const redis = testRedis(env) as Cluster;
    try {
      const slot = Number(await redis.cluster('KEYSLOT', `${bullPrefix(env, QueueNames.carouselDispatch)}:x`));
      await until(async () => (redis.slots[slot]?.[0] ? true : undefined), 10_000, 'the slot map');
      return Number(redis.slots[slot][0].split(':').pop());
    } finally {
      redis.disconnect();
    }
  }

  it('refuses a cluster one of whose masters may evict keys, naming that node', async () => {
    const [port] = await cluster.masterPorts();
    const redis = testRedis(env) as Cluster;
    const node = testRedis({ REDIS_URL: `redis://127.0.0.1:${port}` });
    const lines: string[] = [];
    const logger = { log: (l: string) => void lines.push(l), warn: (l: string) => void lines.push(l) };
    try {
      await checkRedisAtStartup(redis, false, logger);
      expect(lines.filter((l) => l.includes('AOF on (appendfsync always), maxmemory-policy noeviction'))).toHaveLength(3);
      await node.config('SET', 'maxmemory-policy', 'volatile-lru');
      const refusal = checkRedisAtStartup(redis, false, logger);
      await expect(refusal).rejects.toBeInstanceOf(RedisEvictionPolicyError);
      await expect(refusal).rejects.toThrow(`Redis 127.0.0.1:${port} has maxmemory-policy volatile-lru`);
    } finally {
      await node.config('SET', 'maxmemory-policy', 'noeviction');
      node.disconnect();
      redis.disconnect();
    }
  });

  it('answers 200 (delivered), or 5xx within 2 s, while a master fails over, and serves again without a restart', async () => {
    const answers: Answer[] = [];
    let stop = false;
    const load = async () => {
      while (!stop) {
        const at = Date.now();
        const res = await fetch(`${url}/api/engagements/notifications/v2/push?bot=${seed.botId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': seed.apiKey },
          body: JSON.stringify(carouselBody(seed)),
          signal: AbortSignal.timeout(10_000),
        }).catch(() => undefined);
        const ms = Date.now() - at;
        if (!res) answers.push({ status: 0, ms, at });
        else if (res.status === 200) answers.push({ status: res.status, ms, at, msgId: ((await res.json()) as { msgId: string }).msgId });
        else answers.push({ status: res.status, ms, at, error: ((await res.json()) as { message: string }).message });
        await sleep(20);
      }
    };
    const loops = [load(), load(), load()];
    await sleep(2000);
    const victim = await queueMasterPort();
    const killedAt = Date.now();
    await cluster.nodes.find((n) => n.port === victim)!.kill();
    // Until the gateway has accepted triggers again for 3 s after the first failure (at most 40 s).
    await until(
      async () => {
        const firstFailure = answers.find((a) => a.at >= killedAt && a.status !== 200);
        const since = firstFailure ? answers.filter((a) => a.at > firstFailure.at && a.status === 200) : [];
        return (since.length > 0 && Date.now() - since[0].at > 3000) || Date.now() - killedAt > 40_000 ? true : undefined;
      },
      45_000,
      'recovery',
    );
    stop = true;
    await Promise.all(loops);

    const accepted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    const firstRefusal = refused.find((a) => a.at + a.ms >= killedAt);
    const recoveredAt = accepted.find((a) => a.at > killedAt && refused.some((r) => r.at < a.at && r.at >= killedAt))?.at;
    const figures = {
      triggers: answers.length,
      accepted: accepted.length,
      refused: refused.length,
      refusedStatuses: [...new Set(refused.map((a) => a.status))],
      // answered before the kill: a healthy cluster's refusals (an overloaded host exceeding the Redis bound)
      refusedBeforeKill: refused.filter((a) => a.at + a.ms < killedAt).length,
      refusals: [...new Set(refused.map((a) => a.error))],
      slowestRefusalMs: Math.max(0, ...refused.map((a) => a.ms)),
      slowestAnswerMs: Math.max(0, ...answers.map((a) => a.ms)),
      firstRefusalAfterKillMs: firstRefusal ? firstRefusal.at + firstRefusal.ms - killedAt : null,
      servingAgainAfterKillMs: recoveredAt ? recoveredAt - killedAt : null,
    };
    process.stdout.write(`failover figures: ${JSON.stringify(figures)}\n`);

    expect(accepted.length).toBeGreaterThan(0);
    expect(recoveredAt).toBeDefined(); // the same processes accept triggers again
    for (const a of refused) {
      expect(a.status).toBeGreaterThanOrEqual(500);
      expect(a.ms).toBeLessThan(2000);
    }
    // Every accepted trigger reaches the Cloud API: its message ends sent.
    const messages = gateway.get(MessageRepository);
    const pending = new Set(accepted.map((a) => a.msgId!));
    await until(
      async () => {
        for (const id of [...pending]) if ((await messages.findForBot(seed.botId, id))?.status === 'sent') pending.delete(id);
        return pending.size === 0 ? true : undefined;
      },
      90_000,
      'delivery of every accepted trigger',
    ).catch(async (err: Error) => {
      // Where the undelivered jobs are tells a worker that stopped fetching (wait) from one stuck in its jobs (active).
      const connection = testRedis(env);
      const queue = new Queue(QueueNames.carouselDispatch, { connection, prefix: bullPrefix(env, QueueNames.carouselDispatch) });
      const counts = await queue.getJobCounts('wait', 'active', 'delayed', 'completed', 'failed').catch((e: Error) => e.message);
      await queue.close();
      connection.disconnect();
      throw new Error(`${err.message}: ${pending.size} of ${accepted.length} not sent; Cloud API received ${cloud.messages.length}; queue ${JSON.stringify(counts)}`);
    });
    expect(pending.size).toBe(0);

    // The dead node comes back as a replica of its successor, and the cluster is whole again.
    await cluster.nodes.find((n) => n.port === victim)!.start();
    await cluster.waitUntilHealthy(60_000);
    expect(await cluster.masterPorts()).not.toContain(victim);
  }, 240_000);
});
