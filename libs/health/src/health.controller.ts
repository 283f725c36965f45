import { Controller, Get, Inject } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { PrismaService } from '@platform/database';
import { REQUEST_REDIS, type RedisClient, queueWorkerLiveness } from '@platform/queue';

/**
 * GET /health: 200 when this process reaches Postgres and Redis and each of its queue workers still
 * takes jobs; 503 naming what is down otherwise. GET /health/live: 200 while the process answers.
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly db: PrismaService,
    @Inject(REQUEST_REDIS) private readonly redis: RedisClient,
  ) {}

  /** Liveness: 200 while the event loop answers, whatever Postgres and Redis do (a dependency's outage must not restart every pod). */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([
      () =>
        this.indicators
          .check('postgres')
          .attempt(() => this.db.$queryRaw`SELECT 1`.then(() => undefined))
          .withTimeout(1500),
      () =>
        this.indicators
          .check('redis')
          .attempt(() => this.redis.ping().then(() => undefined))
          .withTimeout(1500),
      () => {
        const stopped = queueWorkerLiveness.stopped();
        const workers = this.indicators.check('queue-workers');
        return stopped.length ? workers.down({ stopped }) : workers.up();
      },
    ]);
  }
}
