import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { QueryConfig } from 'pg';
import { DatabaseEnv } from '@platform/config';
import { DatabaseUnavailableError, PrismaService } from '@platform/database';

const PROBE_INTERVAL_MS = 1000;
const PROBE_TIMEOUT_MS = 1000;
/** Probes in a row that ran out of time before Postgres counts as down. */
const SLOW_PROBES_FOR_DOWN = 3;

/**
 * Whether Postgres answers, for request paths that do not touch it themselves (the carousel trigger only
 * queues to Redis) but must still refuse work while it is down. A `SELECT 1` probe goes every second,
 * at most one in flight.
 *
 * Down at once on a refusal: a pooled connection breaks (a stopped or restarted server) or a probe fails
 * before any timeout could fire (connection refused, the server says it cannot serve). A probe that only ran out of
 * time is weaker evidence: on a loaded host, or behind a pooler whose server connections are all lent,
 * a healthy Postgres can take longer than a second to answer, and refusing triggers then would turn load
 * into errors (an accepted trigger waits in Redis until Postgres answers, so accepting one during a real
 * outage loses nothing). So slow probes mark it down only after three in a row. Up again on the next
 * probe that succeeds.
 */
@Injectable()
export class PostgresLiveness implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('PostgresLiveness');
  private reachable = true;
  private probing = false;
  private slowProbes = 0;
  private timer?: NodeJS.Timeout;
  private readonly onPoolError = () => this.set(false);

  /** A failure sooner than this was not a timeout (the probe's own, or the wait for a pooled connection). */
  private readonly refusedWithinMs: number;

  constructor(
    private readonly db: PrismaService,
    env: DatabaseEnv,
  ) {
    this.refusedWithinMs = Math.min(PROBE_TIMEOUT_MS, env.DATABASE_CONNECT_TIMEOUT_MS);
  }

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
    const started = Date.now();
    try {
      await this.db.query({ text: 'SELECT 1', query_timeout: PROBE_TIMEOUT_MS } as QueryConfig);
      this.slowProbes = 0;
      this.set(true);
    } catch {
      const refused = Date.now() - started < this.refusedWithinMs;
      this.slowProbes = refused ? 0 : this.slowProbes + 1;
      if (refused || this.slowProbes >= SLOW_PROBES_FOR_DOWN) this.set(false);
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
