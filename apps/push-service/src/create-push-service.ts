import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { CoreEnv, PushEnv, loadEnv, readEnv } from '@platform/config';
import { PushRequestQueue } from '@platform/contracts';
import { PinoNestLogger, createLogger, oneLineRequestLogging } from '@platform/logger';
import { QueueTransportServer } from '@platform/messaging';
import { bullPrefix, redisConnector } from '@platform/queue';
import { PUSH_SERVICE_ENV } from './push-service-env.js';
import { PushServiceModule } from './push-service.module.js';

/** Gateway requests one push service handles at once (each mostly waits on Postgres; test sends on FCM). */
const REQUEST_CONCURRENCY = 32;

/**
 * The push service: takes the gateway's requests off the push-requests queue, runs the fan-out
 * worker, and serves GET /health on PUSH_SERVICE_HEALTH_PORT. `env` overrides process.env (tests).
 */
export async function createPushService(env: Record<string, string> = {}): Promise<NestFastifyApplication> {
  const config = loadEnv(PUSH_SERVICE_ENV, readEnv(env));
  const core = config.get(CoreEnv);
  const push = config.get(PushEnv);
  const logger = createLogger('push-service', core.LOG_LEVEL);
  // Its HTTP server only answers /health and /metrics: nothing to drain, and a connection left open
  // (a browser's, a monitor's) must not hold its close, which comes before the workers' own shutdown.
  const app = await NestFactory.create<NestFastifyApplication>(
    PushServiceModule.forRoot(config),
    new FastifyAdapter({ loggerInstance: logger, forceCloseConnections: true, ...oneLineRequestLogging() }),
    {
      logger: new PinoNestLogger(logger),
      abortOnError: false, // a start-up refusal (StartupError) reaches runMain, which prints it
    },
  );
  app.connectMicroservice({
    strategy: new QueueTransportServer({
      queueName: PushRequestQueue,
      connect: redisConnector(core),
      prefix: bullPrefix(core, PushRequestQueue),
      keyPrefix: core.REDIS_KEY_PREFIX,
      concurrency: REQUEST_CONCURRENCY,
      connectionName: 'push-service-requests',
    }),
  });
  app.enableShutdownHooks();
  await app.startAllMicroservices();
  await app.listen({ port: push.PUSH_SERVICE_HEALTH_PORT, host: push.HOST });
  return app;
}
