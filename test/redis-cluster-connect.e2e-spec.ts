import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalRedisCluster, startLocalRedisCluster } from '@platform/local-infra';
import { PlatformCluster } from '@platform/queue';
import { until } from '@platform/testing';

const clusterState = (port: number) => /cluster_state:(\w+)/.exec(spawnSync('redis-cli', ['-p', String(port), 'CLUSTER', 'INFO'], { encoding: 'utf8' }).stdout ?? '')?.[1];

/**
 * A cluster client connecting while the cluster is down (a master dead, no replica to promote: the
 * state a failover passes through) fails its ready check and reconnects by itself. The connect it was
 * asked for must settle once the cluster is whole again: BullMQ's worker awaits it when it reconnects
 * its blocking connection, and a connect left pending stops the worker's fetch loop for good.
 */
describe('Redis Cluster client connecting during an outage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cluster-connect-'));
  let cluster: LocalRedisCluster;

  beforeAll(async () => {
    cluster = await startLocalRedisCluster({ dataDir: dir, masters: 3, replicasPerMaster: 0, nodeTimeoutMs: 500 });
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('settles the connect once the cluster is whole again, and ends it when the client is closed meanwhile', async () => {
    const [dead, alive] = cluster.nodes;
    await dead.kill();
    await until(async () => (clusterState(alive.port) === 'fail' ? true : undefined), 10_000, 'cluster_state:fail');
    const seeds = cluster.nodes.map((n) => ({ host: '127.0.0.1', port: n.port }));

    const waiting = new PlatformCluster(seeds, { lazyConnect: true, clusterRetryStrategy: () => 200 });
    waiting.on('error', () => undefined);
    let outcome = 'pending';
    const connecting = waiting.connect().then(() => (outcome = 'ready'));
    const closed = new PlatformCluster(seeds, { lazyConnect: true, clusterRetryStrategy: () => 200 });
    closed.on('error', () => undefined);
    const closing = closed.connect().then(
      () => 'ready',
      (err: Error) => err.message,
    );
    await new Promise((r) => setTimeout(r, 1500)); // ready checks failed, reconnecting
    expect(outcome).toBe('pending');
    closed.disconnect();
    expect(await closing).toBe('Connection is closed.');

    await dead.start();
    await cluster.waitUntilHealthy();
    await connecting;
    expect(outcome).toBe('ready');
    expect(await waiting.ping()).toBe('PONG');
    waiting.disconnect();
  }, 120_000);
});
