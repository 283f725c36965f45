import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { QueryConfig } from 'pg';
import { DatabaseUnavailableError, PrismaService } from '@platform/database';

const PROBE_INTERVAL_MS = 1000;
const PROBE_TIMEOUT_MS = 1000;

/**
 * Whether Postgres answers, for request paths that do not touch it themselves (the carousel trigger only
 * queues to Redis) but must still refuse work while it is down. Down at once when a pooled connection
 * breaks (a stopped or restarted server), or when a `SELECT 1` probe, sent every second, fails or takes
 * more than a second; up again on the next probe that succeeds. At most one probe is in flight.
 */
@Injectable()
export class PostgresLiveness implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('PostgresLiveness');
  private reachable = true;
  private probing = false;
  private timer?: NodeJS.Timeout;
  private readonly onPoolError = () => this.set(false);

  constructor(private readonly db: PrismaService) {}

  onModuleInit() {
    this.db.pool.on('error', this.onPoolError);
    this.timer = setInterval(() => void this.probe(), PROBE_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy() {
    clearInterval(this.timer);
    this.db.pool.off('error', this.onPoolError);
  }

  /** Throws DatabaseUnavailableError while Postgres is known to be down. */
  assertReachable(): void {
    if (!this.reachable) throw new DatabaseUnavailableError('the last connection check of Postgres failed');
  }

  private async probe(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      await this.db.query({ text: 'SELECT 1', query_timeout: PROBE_TIMEOUT_MS } as QueryConfig);
      this.set(true);
    } catch {
      this.set(false);
    } finally {
      this.probing = false;
    }
  }

  private set(reachable: boolean) {
    if (reachable === this.reachable) return;
    this.reachable = reachable;
    if (reachable) this.logger.log('Postgres answers again');
    else this.logger.error('Postgres is unreachable; requests that need it answer 500 until it answers again');
  }
}
