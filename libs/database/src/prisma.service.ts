import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { CoreEnv, DatabaseEnv } from '@platform/config';
import { PrismaClient } from './generated/client.js';
import { PostgresPool } from './postgres-pool.js';

/**
 * The Prisma client over node-postgres. Connection attempts and statements time out fast so outages answer 500, not hang;
 * every failure to reach Postgres, through Prisma or `query`, rejects with DatabaseUnavailableError
 * (PostgresPool).
 * `pool` is the same node-postgres pool, for the few hot-path statements where Prisma's own per-query
 * work would cost more than the query (prepared, multi-row; see MessageRepository).
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  readonly pool: pg.Pool;

  constructor(env: CoreEnv, db: DatabaseEnv) {
    const pool = new PostgresPool({
      connectionString: env.DATABASE_URL,
      connectionTimeoutMillis: db.DATABASE_CONNECT_TIMEOUT_MS,
      query_timeout: db.DATABASE_QUERY_TIMEOUT_MS,
      max: db.DATABASE_POOL_SIZE,
      preparedStatements: db.DATABASE_PREPARED_STATEMENTS,
    });
    pool.on('error', () => undefined); // an idle client's connection dropped (Postgres restarted): the pool replaces it
    super({ adapter: new PrismaPg(pool) });
    this.pool = pool;
  }

  /** A statement on the pool; a failure to reach Postgres surfaces as DatabaseUnavailableError. */
  query<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
    return this.pool.query<R>(config);
  }

  /**
   * At application shutdown, not module destroy (which Nest runs first): the workers' and the HTTP
   * server's in-flight work, drained in earlier shutdown steps, still needs the pool. This global
   * module's shutdown hook runs after the apps' own.
   */
  async onApplicationShutdown() {
    await this.$disconnect();
    await this.pool.end().catch(() => undefined);
  }
}
