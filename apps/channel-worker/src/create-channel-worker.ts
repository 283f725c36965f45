import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadPlatformEnv } from '@platform/config';
import { PinoNestLogger, createLogger } from '@platform/logger';
import { ChannelWorkerModule } from './channel-worker.module.js';

/** The dispatch worker, with a small HTTP server for /health on WORKER_HEALTH_PORT. */
export async function createChannelWorker(env: Record<string, string> = {}): Promise<NestFastifyApplication> {
  const config = loadPlatformEnv({ ...process.env, ...env });
  const logger = createLogger('channel-worker', config.LOG_LEVEL);
  const app = await NestFactory.create<NestFastifyApplication>(
    ChannelWorkerModule.forRoot(env),
    new FastifyAdapter({ loggerInstance: logger }),
    { logger: new PinoNestLogger(logger) },
  );
  app.enableShutdownHooks();
  await app.listen({ port: config.WORKER_HEALTH_PORT, host: config.HOST });
  return app;
}
