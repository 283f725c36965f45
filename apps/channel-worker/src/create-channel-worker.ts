import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Clock } from '@platform/common';
import { CoreEnv, WorkerEnv, loadEnv, readEnv } from '@platform/config';
import { PinoNestLogger, createLogger, oneLineRequestLogging } from '@platform/logger';
import { CHANNEL_WORKER_ENV } from './channel-worker-env.js';
import { ChannelWorkerModule } from './channel-worker.module.js';

/**
 * The dispatch worker, with a small HTTP server for /health on WORKER_HEALTH_PORT; `clock` judges
 * messages' validity (the system's by default).
 */
export async function createChannelWorker(env: Record<string, string> = {}, clock?: Clock): Promise<NestFastifyApplication> {
  const config = loadEnv(CHANNEL_WORKER_ENV, readEnv(env));
  const worker = config.get(WorkerEnv);
  const logger = createLogger('channel-worker', config.get(CoreEnv).LOG_LEVEL);
  const app = await NestFactory.create<NestFastifyApplication>(
    ChannelWorkerModule.forRoot(config, clock),
    // Its HTTP server only answers /health and /metrics: nothing to drain, and a connection left open
    // (a browser's, a monitor's) must not hold its close, which comes before the worker's own shutdown.
    new FastifyAdapter({ loggerInstance: logger, forceCloseConnections: true, ...oneLineRequestLogging() }),
    { logger: new PinoNestLogger(logger), abortOnError: false }, // a start-up refusal (StartupError) reaches runMain, which prints it
  );
  app.enableShutdownHooks();
  await app.listen({ port: worker.WORKER_HEALTH_PORT, host: worker.HOST });
  return app;
}
