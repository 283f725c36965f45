import { IsOptional, Matches } from 'class-validator';
import { BoolEnv, IntEnv } from '../env-decorators.js';

/** How an app's connection pool talks to Postgres, directly or through a pooler such as PgBouncer. */
export class DatabaseEnv {
  /**
   * Connections one process keeps open to DATABASE_URL. Replicas × this is what Postgres (or the
   * pooler's client limit) must accept; the pool-size guide is in docs/deployment.md.
   */
  @IntEnv({ min: 1, max: 1000 })
  DATABASE_POOL_SIZE: number = 10;

  /**
   * Longest wait for a connection (a new one, or a free one of the pool) before the request answers
   * 500: short, so an outage answers fast; raise it where logins are slow (a distant or loaded server).
   */
  @IntEnv({ min: 100, max: 60000 })
  DATABASE_CONNECT_TIMEOUT_MS: number = 1000;

  /**
   * Longest wait for the answer to one statement on a connection already open. A Postgres that holds
   * its connections but answers nothing (frozen, or cut off without a reset) makes every request wait
   * this long before its 500: 1.5 s keeps outage answers within the 2 s docs/api.md promises. The
   * platform's statements take milliseconds; raise it only for a server that is slow when healthy.
   */
  @IntEnv({ min: 100, max: 600000 })
  DATABASE_QUERY_TIMEOUT_MS: number = 1500;

  /**
   * Named prepared statements on the hot paths. Set false behind PgBouncer in transaction mode older
   * than 1.21 (or without max_prepared_statements): a statement prepared on one server connection is
   * missing on the next, so statements then go unnamed (parsed on every run).
   */
  @BoolEnv()
  DATABASE_PREPARED_STATEMENTS: boolean = true;

  /**
   * Postgres itself when DATABASE_URL is a transaction-mode pooler: the migrator's session lock and the
   * gateway's one LISTEN connection (the builder's live try-it trace) need a session of their own.
   */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_DIRECT_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_DIRECT_URL?: string;
}
