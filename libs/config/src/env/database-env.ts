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
   * Named prepared statements on the hot paths. Set false behind PgBouncer in transaction mode older
   * than 1.21 (or without max_prepared_statements): a statement prepared on one server connection is
   * missing on the next, so statements then go unnamed (parsed on every run).
   */
  @BoolEnv()
  DATABASE_PREPARED_STATEMENTS: boolean = true;
}
