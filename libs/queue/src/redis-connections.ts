import { Cluster, ClusterNode, ClusterOptions, Redis, RedisOptions, ReplyError } from 'ioredis';
import { RedisUnavailableError } from './redis-unavailable.error.js';

/** A connection to the platform's Redis: one server, or an ioredis Cluster client when a cluster is configured. */
export type RedisClient = Redis | Cluster;

/** Where the platform's Redis is (CoreEnv has these fields). */
export interface RedisTarget {
  REDIS_URL?: string;
  REDIS_CLUSTER_NODES?: string;
  REDIS_KEY_PREFIX?: string;
}

/** True when the target is a Redis Cluster. */
export function isClusterTarget(target: RedisTarget): boolean {
  return Boolean(target.REDIS_CLUSTER_NODES);
}

/**
 * `key` under the deployment's REDIS_KEY_PREFIX. Every key and channel the platform names itself goes
 * through here (BullMQ's keys through bullPrefix), so one Redis or cluster can hold several deployments.
 */
export function redisKey(target: RedisTarget, key: string): string {
  return `${target.REDIS_KEY_PREFIX ?? ''}${key}`;
}

/**
 * BullMQ's `prefix` for queue `queueName`. On one Redis it is BullMQ's usual `bull` (after
 * REDIS_KEY_PREFIX). On a cluster it is a hash tag per queue, `{<prefix>bull:<queue>}`: BullMQ's scripts
 * touch several keys of a queue at once, which a cluster allows only within one hash slot, and a tag per
 * queue (not one for all) spreads the queues over the masters.
 */
export function bullPrefix(target: RedisTarget, queueName: string): string {
  return isClusterTarget(target) ? `{${redisKey(target, 'bull')}:${queueName}}` : redisKey(target, 'bull');
}

/** The seed nodes of REDIS_CLUSTER_NODES, with the credentials and TLS of its first URL entry. */
export function parseClusterNodes(spec: string): { nodes: ClusterNode[]; redisOptions: RedisOptions } {
  const redisOptions: RedisOptions = {};
  let credentialsTaken = false;
  const nodes = spec
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const url = new URL(/^rediss?:\/\//.test(entry) ? entry : `redis://${entry}`);
      if (!credentialsTaken && /^rediss?:\/\//.test(entry)) {
        credentialsTaken = true;
        if (url.username) redisOptions.username = decodeURIComponent(url.username);
        if (url.password) redisOptions.password = decodeURIComponent(url.password);
        if (url.protocol === 'rediss:') redisOptions.tls = {};
      }
      return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 6379) };
    });
  return { nodes, redisOptions };
}

/**
 * ioredis's Cluster client, whose disconnect always ends and whose connect always settles.
 *
 * - ioredis ends a cluster's disconnect when its pool of node connections drains; a client that has
 *   lost every node connection (between reconnect attempts, as after a failover) has nothing left to
 *   drain, so it stays `disconnecting` and never emits `end`, and whoever waits for that (BullMQ's
 *   Worker.close, for its blocking connection) waits forever. Here such a disconnect ends at once, as
 *   ioredis does for a client that never connected.
 * - When the ready check of a connect fails (`cluster_state` not ok, as while a dead master's replica
 *   is promoted), ioredis reconnects by itself but leaves that connect's promise pending for ever, even
 *   once a later attempt is ready. BullMQ's worker awaits that promise when it reconnects its blocking
 *   connection after an error, so its fetch loop would stop for good, silently. Here connect settles with
 *   the client: when it is ready, or when it ends.
 *
 * Duplicates (BullMQ's blocking connections) are of this class too.
 */
export class PlatformCluster extends Cluster {
  constructor(
    private readonly seeds: ClusterNode[],
    options: ClusterOptions,
  ) {
    super(seeds, options);
  }

  override connect(): Promise<void> {
    const attempt = super.connect();
    return new Promise<void>((resolve, reject) => {
      const ready = () => settle(() => resolve());
      // ioredis's own text for a closed connection, which BullMQ reads as a connection error (not reported).
      const ended = () => settle(() => reject(new Error('Connection is closed.')));
      const settle = (then: () => void) => {
        this.off('ready', ready);
        this.off('end', ended);
        then();
      };
      this.once('ready', ready);
      this.once('end', ended);
      attempt.then(ready, (err: unknown) => settle(() => reject(err)));
    });
  }

  override disconnect(reconnect = false): void {
    const nothingToDrain = this.status !== 'wait' && this.status !== 'end' && this.nodes().length === 0;
    super.disconnect(reconnect);
    if (nothingToDrain && !reconnect) {
      // What ioredis's own disconnect does for a client in `wait` (these members are private in its types).
      const self = this as unknown as { setStatus(status: string): void; handleCloseEvent(): void };
      self.setStatus('close');
      self.handleCloseEvent();
    }
  }

  override duplicate(overrideStartupNodes: ClusterNode[] = [], overrideOptions: ClusterOptions = {}): Cluster {
    return new PlatformCluster(overrideStartupNodes.length > 0 ? overrideStartupNodes : this.seeds.slice(), { ...this.options, ...overrideOptions });
  }
}

/**
 * A connection with `options` to the target: a Redis, or a Cluster whose node connections get those
 * options. Options that are the cluster client's own in ioredis (offline queue, reconnect strategy,
 * lazy connect, auto-pipelining) are moved to it.
 */
export function connectRedis(target: RedisTarget, options: RedisOptions): RedisClient {
  if (!isClusterTarget(target)) return new Redis(target.REDIS_URL!, options);
  const { nodes, redisOptions } = parseClusterNodes(target.REDIS_CLUSTER_NODES!);
  const { enableOfflineQueue, retryStrategy, lazyConnect, enableAutoPipelining, ...perNode } = options;
  const clusterOptions: ClusterOptions = {
    redisOptions: { ...redisOptions, ...perNode },
    enableOfflineQueue: enableOfflineQueue ?? true,
    lazyConnect: lazyConnect ?? false,
    enableAutoPipelining: enableAutoPipelining ?? false,
    // A failed-over master's slots move within a node timeout or two: ask for the new map soon and often.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    retryDelayOnTryAgain: 200,
    slotsRefreshTimeout: 2000,
    clusterRetryStrategy: (times) => (retryStrategy ? (retryStrategy(times) ?? null) : Math.min(times * 200, 2000)),
  };
  return new PlatformCluster(nodes, clusterOptions);
}

/**
 * Connection for request paths (producers, caches): commands fail at once while Redis is down instead
 * of queueing in memory, so a request can be answered 500 quickly; reconnection happens by itself.
 */
export function createRequestRedis(target: RedisTarget, name: string, extra: RedisOptions = {}): RedisClient {
  return connectRedis(target, {
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    ...extra,
  });
}

/** Connection for BullMQ workers: blocking commands, retried forever (BullMQ requires maxRetriesPerRequest null). */
export function createWorkerRedis(target: RedisTarget, name: string): RedisClient {
  return connectRedis(target, {
    connectionName: name,
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
}

/**
 * Opens connections of either kind to `target`, for code outside this lib that opens its own (the
 * messaging transport): `blocking` as createWorkerRedis, `commands` as createRequestRedis with an offline
 * queue (commands wait while it connects, each still bounded by the caller).
 */
export function redisConnector(target: RedisTarget): (connectionName: string, purpose: 'blocking' | 'commands') => RedisClient {
  return (name, purpose) => (purpose === 'blocking' ? createWorkerRedis(target, name) : createRequestRedis(target, name, { enableOfflineQueue: true }));
}

/**
 * Error answers by which Redis says it cannot serve now (a cluster between a master's failure and its
 * replica's promotion, a server still loading its data): outages, not answers.
 */
const UNAVAILABLE_ANSWER = /^(CLUSTERDOWN|TRYAGAIN|LOADING|MASTERDOWN|READONLY)\b/;

/**
 * Resolves with `promise`, a command (or commands) on one of our Redis connections, bounded to `ms`, so
 * no request waits on Redis longer than that. An error answer of Redis (ReplyError: Redis answered)
 * passes through, unless it says Redis cannot serve now; any other failure, or no answer in `ms`,
 * rejects with RedisUnavailableError.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisUnavailableError(`${what} timed out after ${ms} ms`)), ms);
  });
  const answer = promise.catch((err: unknown) => {
    if (err instanceof RedisUnavailableError) throw err;
    if (err instanceof ReplyError && !UNAVAILABLE_ANSWER.test((err as Error).message)) throw err;
    throw new RedisUnavailableError(`${what} failed: ${(err as Error)?.message ?? err}`, err);
  });
  return Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
}
