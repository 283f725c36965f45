import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { CoreEnv } from '@platform/config';
import { RedisClient, bullPrefix, createRequestRedis } from './redis-connections.js';

/** Token of the shared request-path Redis connection (fail-fast, see createRequestRedis); a Redis or a Cluster. */
export const REQUEST_REDIS = Symbol('REQUEST_REDIS');

export function queueToken(name: string): string {
  return `BullQueue:${name}`;
}

/** Injects the producer Queue registered under `name` by QueueModule.forProducers. */
export const InjectQueue = (name: string) => Inject(queueToken(name));

class RedisCloser implements OnApplicationShutdown {
  constructor(private readonly items: Array<{ close(): Promise<unknown> } | RedisClient>) {}
  async onApplicationShutdown() {
    for (const item of this.items) {
      if ('quit' in item) await item.quit().catch(() => item.disconnect());
      else await item.close().catch(() => undefined);
    }
  }
}

/** Producer side of BullMQ for request-serving apps: queues share one fail-fast connection. */
@Global()
@Module({})
export class QueueModule {
  static forProducers(queueNames: string[]): DynamicModule {
    const created: Array<Queue | RedisClient> = [];
    const redisProvider = {
      provide: REQUEST_REDIS,
      inject: [CoreEnv],
      useFactory: (env: CoreEnv) => {
        const redis = createRequestRedis(env, 'platform-request');
        redis.on('error', () => undefined); // surfaced per command; avoid unhandled 'error' events
        created.push(redis);
        return redis;
      },
    };
    const queueProviders = queueNames.map((name) => ({
      provide: queueToken(name),
      inject: [REQUEST_REDIS, CoreEnv],
      useFactory: (redis: RedisClient, env: CoreEnv) => {
        const queue = new Queue(name, { connection: redis, prefix: bullPrefix(env, name) });
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
