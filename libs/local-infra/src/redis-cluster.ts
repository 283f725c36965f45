import { ChildProcess, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './ports.js';
import { ensureRedisServerInstalled, spawnRedisServer } from './redis.js';
import { killAndWait } from './wait-for-port.js';

export interface LocalRedisClusterNode {
  port: number;
  /** Kills the node's process at once (SIGKILL: no goodbye to the cluster, like a crashed host). */
  kill(): Promise<void>;
  /** Starts the killed node again with its data and cluster state; it rejoins as a replica of its successor. */
  start(): Promise<void>;
}

export interface LocalRedisCluster {
  /** Every node (`host:port`, comma-separated): the value of REDIS_CLUSTER_NODES. */
  seeds: string;
  nodes: LocalRedisClusterNode[];
  /** Ports of the nodes that are masters now (read from a live node). */
  masterPorts(): Promise<number[]>;
  /** Resolves once every live node reports `cluster_state:ok` and every live replica's link to its master is up. */
  waitUntilHealthy(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface LocalRedisClusterOptions {
  dataDir: string;
  /** Masters; each gets `replicasPerMaster` replicas (6 nodes by default: 3 masters, 3 replicas). */
  masters?: number;
  replicasPerMaster?: number;
  /** How long a master may be silent before its replica takes over (Redis' cluster-node-timeout). */
  nodeTimeoutMs?: number;
}

/**
 * Starts a Redis Cluster on 127.0.0.1 from Debian's redis-server (`--cluster-enabled yes`, AOF with
 * appendfsync always like startLocalRedis) and joins it with `redis-cli --cluster create`. Node and
 * bus ports are picked free, so several clusters can run side by side.
 */
export async function startLocalRedisCluster(opts: LocalRedisClusterOptions): Promise<LocalRedisCluster> {
  const bin = ensureRedisServerInstalled();
  const masters = opts.masters ?? 3;
  const replicas = opts.replicasPerMaster ?? 1;
  const count = masters * (1 + replicas);
  const nodeTimeoutMs = opts.nodeTimeoutMs ?? 1500;
  const nodes: Array<LocalRedisClusterNode & { proc?: ChildProcess }> = [];

  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const busPort = await freePort();
    const dir = join(opts.dataDir, `node-${port}`);
    mkdirSync(dir, { recursive: true });
    const node: LocalRedisClusterNode & { proc?: ChildProcess } = {
      port,
      start: async () => {
        node.proc = await spawnRedisServer(bin, port, [
          '--dir',
          dir,
          '--cluster-enabled',
          'yes',
          '--cluster-port',
          String(busPort),
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          String(nodeTimeoutMs),
          // A replica takes over however long it was cut off from its master (tests kill masters at will).
          '--cluster-replica-validity-factor',
          '0',
        ]);
      },
      kill: () => killAndWait(node.proc, 'SIGKILL'),
    };
    nodes.push(node);
  }
  const stopAll = async () => {
    for (const node of nodes) await killAndWait(node.proc, 'SIGTERM');
  };
  try {
    await Promise.all(nodes.map((n) => n.start()));
    const created = spawnSync('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', String(replicas), '--cluster-yes'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stderr || created.stdout}`);
  } catch (err) {
    await stopAll();
    throw err;
  }

  const cli = (port: number, ...args: string[]) => spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8', timeout: 5000 });
  const live = () => nodes.filter((n) => n.proc && n.proc.exitCode === null && n.proc.signalCode === null);
  const cluster: LocalRedisCluster = {
    seeds: nodes.map((n) => `127.0.0.1:${n.port}`).join(','),
    nodes,
    async masterPorts() {
      for (const node of live()) {
        const out = cli(node.port, 'CLUSTER', 'NODES');
        if (out.status !== 0) continue;
        return out.stdout
          .split('\n')
          .filter((line) => {
            const flags = (line.split(' ')[2] ?? '').split(',');
            return flags.includes('master') && !flags.includes('fail') && !flags.includes('fail?');
          })
          .map((line) => Number(line.split(' ')[1].split('@')[0].split(':').pop()));
      }
      throw new Error('no cluster node answers');
    },
    async waitUntilHealthy(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const ok = live().every((n) => {
          if (!/cluster_state:ok/.test(cli(n.port, 'CLUSTER', 'INFO').stdout ?? '')) return false;
          const replication = cli(n.port, 'INFO', 'replication').stdout ?? '';
          return /role:master/.test(replication) || /master_link_status:up/.test(replication);
        });
        if (ok) return;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`the Redis Cluster did not become healthy within ${timeoutMs} ms`);
    },
    stop: stopAll,
  };
  await cluster.waitUntilHealthy();
  return cluster;
}
