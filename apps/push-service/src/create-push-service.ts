import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { CoreEnv, PushEnv, loadEnv, readEnv } from '@platform/config';
import { pushRpcChannelPrefix, redisOptionsFromUrl } from '@platform/contracts';
import { PinoNestLogger, createLogger } from '@platform/logger';
import { PUSH_SERVICE_ENV } from './push-service-env.js';
import { PushServiceModule } from './push-service.module.js';
import { NamespacedRedisServer } from './rpc/namespaced-redis.server.js';

/**
 * The push service: answers the gateway's requests over the Redis transport, runs the fan-out
 * worker, and serves GET /health on PUSH_SERVICE_HEALTH_PORT. `env` overrides process.env (tests).
 */
export async function createPushService(env: Record<string, string> = {}): Promise<NestFastifyApplication> {
  const config = loadEnv(PUSH_SERVICE_ENV, readEnv(env));
  const core = config.get(CoreEnv);
  const push = config.get(PushEnv);
  const logger = createLogger('push-service', core.LOG_LEVEL);
  const app = await NestFactory.create<NestFastifyApplication>(PushServiceModule.forRoot(config), new FastifyAdapter({ loggerInstance: logger }), {
    logger: new PinoNestLogger(logger),
  });
  app.connectMicroservice({
    strategy: new NamespacedRedisServer(pushRpcChannelPrefix(core.REDIS_URL), {
      ...redisOptionsFromUrl(core.REDIS_URL),
      connectionName: 'push-service-rpc',
      retryAttempts: Number.MAX_SAFE_INTEGER,
      retryDelay: 1000,
    }),
  });
  app.enableShutdownHooks();
  await app.startAllMicroservices();
  await app.listen({ port: push.PUSH_SERVICE_HEALTH_PORT, host: push.HOST });
  return app;
}
