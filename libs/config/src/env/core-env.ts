import { IsIn, IsOptional, Matches, ValidateIf } from 'class-validator';
import { BoolEnv, IntEnv } from '../env-decorators.js';
import type { CrossFieldRules } from '../env-loader.js';

/** One seed node of REDIS_CLUSTER_NODES: `host:port`, or a redis:// / rediss:// URL with credentials. */
const CLUSTER_NODE = String.raw`(?:rediss?:\/\/(?:[^@\s,]*@)?)?[A-Za-z0-9.\-\[\]:]+:\d{1,5}\/?`;

/** What every app reads: its Postgres, its Redis (one server or a cluster) and its log level. */
export class CoreEnv implements CrossFieldRules {
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_URL: string;

  /** One Redis server; required unless REDIS_CLUSTER_NODES names a cluster. */
  @ValidateIf((env: CoreEnv) => !env.REDIS_CLUSTER_NODES)
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// or rediss:// URL (or set REDIS_CLUSTER_NODES for a Redis Cluster)' })
  REDIS_URL: string;

  /**
   * A Redis Cluster instead of one server: comma-separated seed nodes (`host:port`, or
   * `redis[s]://[user:password@]host:port`; the credentials and TLS of the first URL apply to every node).
   */
  @IsOptional()
  @Matches(new RegExp(`^${CLUSTER_NODE}(,\\s*${CLUSTER_NODE})*$`), {
    message: 'REDIS_CLUSTER_NODES must be comma-separated host:port seed nodes (or redis[s]://[user:password@]host:port URLs)',
  })
  REDIS_CLUSTER_NODES?: string;

  /** Prepended to every Redis key and channel the platform uses, so deployments (or test runs) can share one Redis or cluster. */
  @Matches(/^[A-Za-z0-9:_.-]{0,64}$/, { message: 'REDIS_KEY_PREFIX may hold only letters, digits and : _ . - (at most 64)' })
  REDIS_KEY_PREFIX: string = '';

  /** Start even though Redis may evict keys (maxmemory-policy other than noeviction): queued jobs could be lost. */
  @BoolEnv()
  REDIS_ALLOW_EVICTION: boolean = false;

  /** Upper bound on how long a request waits for Redis before it is answered 500. */
  @IntEnv({ min: 50 })
  REDIS_COMMAND_TIMEOUT_MS: number = 1500;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
  })
  LOG_LEVEL: string = 'info';

  crossFieldProblems(): string[] {
    return this.REDIS_URL && this.REDIS_CLUSTER_NODES ? ['Set either REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both'] : [];
  }
}
