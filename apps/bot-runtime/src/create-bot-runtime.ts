import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { BotRuntimeServerEnv, CoreEnv, loadEnv, readEnv } from '@platform/config';
import { PinoNestLogger, createLogger, oneLineRequestLogging } from '@platform/logger';
import { BOT_RUNTIME_ENV } from './bot-runtime-env.js';
import { BotRuntimeModule } from './bot-runtime.module.js';

/**
 * The hosted bots' runtime: the bot-turn worker, with a small HTTP server for /health and /metrics on
 * BOT_RUNTIME_HEALTH_PORT. `env` overrides process.env (tests).
 */
export async function createBotRuntime(env: Record<string, string> = {}): Promise<NestFastifyApplication> {
  const config = loadEnv(BOT_RUNTIME_ENV, readEnv(env));
  const server = config.get(BotRuntimeServerEnv);
  const logger = createLogger('bot-runtime', config.get(CoreEnv).LOG_LEVEL);
  const app = await NestFactory.create<NestFastifyApplication>(
    BotRuntimeModule.forRoot(config),
    // Only /health and /metrics: nothing to drain, and a connection left open must not hold the close.
    new FastifyAdapter({ loggerInstance: logger, forceCloseConnections: true, ...oneLineRequestLogging() }),
    { logger: new PinoNestLogger(logger), abortOnError: false }, // a start-up refusal (StartupError) reaches runMain, which prints it
  );
  app.enableShutdownHooks();
  await app.listen({ port: server.BOT_RUNTIME_HEALTH_PORT, host: server.HOST });
  return app;
}
