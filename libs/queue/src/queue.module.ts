import { DynamicModule, Global, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { CoreEnv } from '@platform/config';
import type { QueueName } from '@platform/contracts';
import { ProducerQueueTokens, type ProducerQueueToken } from './producer-queues.js';
import { QueueDeclarations } from './queue-declarations.js';
import { RedisClient, bullPrefix, createRequestRedis } from './redis-connections.js';
import { checkRedisAtStartup } from './redis-startup-check.js';

/** Token of the shared request-path Redis connection (fail-fast, see createRequestRedis); a Redis or a Cluster. */
export const REQUEST_REDIS = Symbol('REQUEST_REDIS');

/** The injection token of queue `name`'s producer (a class whose instance type is `ProducerQueue<Q>`, see producer-queues.ts). */
export function queueToken<Q extends QueueName>(name: Q): ProducerQueueToken<Q> {
  return ProducerQueueTokens[name];
}

class RedisCloser implements OnApplicationShutdown {
  constructor(private readonly items: Array<{ close(): Promise<unknown> } | RedisClient>) {}
  async onApplicationShutdown() {
    for (const item of this.items) {
      if ('quit' in item) await item.quit().catch(() => item.disconnect());
      else await item.close().catch(() => undefined);
    }
  }
}

/**
 * Producer side of BullMQ for request-serving apps: queues share one fail-fast connection, and each is
 * created with its declared default job options (queue-declarations.ts), so the app must load each
 * queue's env class. Unless
 * `startupCheck` is false (one-shot commands), the app's start waits until that connection is ready (a
 * few seconds at most) and checks the Redis it reaches (checkRedisAtStartup): one that may evict keys
 * stops the app.
 */
@Global()
@Module({})
export class QueueModule {
  static forProducers(queueNames: QueueName[], options: { startupCheck?: boolean } = {}): DynamicModule {
    const created: Array<Queue | RedisClient> = [];
    const redisProvider = {
      provide: REQUEST_REDIS,
      inject: [CoreEnv],
      useFactory: async (env: CoreEnv) => {
        const redis = createRequestRedis(env, 'platform-request');
        redis.on('error', () => undefined); // surfaced per command; avoid unhandled 'error' events
        created.push(redis);
        if (options.startupCheck !== false) {
          await checkRedisAtStartup(redis, env.REDIS_ALLOW_EVICTION, new Logger('Redis')).catch((err: unknown) => {
            redis.disconnect();
            throw err;
          });
        }
        return redis;
      },
    };
    const queueProviders = queueNames.map((name) => ({
      provide: queueToken(name),
      inject: [REQUEST_REDIS, CoreEnv, QueueDeclarations[name].env],
      useFactory: (redis: RedisClient, env: CoreEnv, queueEnv: unknown) => {
        const defaultJobOptions = QueueDeclarations[name].jobOptions(queueEnv);
        const queue = new Queue(name, { connection: redis, prefix: bullPrefix(env, name), defaultJobOptions });
        queue.on('error', () => undefined);
        created.unshift(queue);
        return queue;
      },
    }));
    const closer = { provide: RedisCloser, useFactory: () => new RedisCloser(created) };
    return {
      module: QueueModule,
      providers: [redisProvider, ...queueProviders, closer],
      exports: [REQUEST_REDIS, ...queueProviders.map((p) => p.provide)],
    };
  }
}
