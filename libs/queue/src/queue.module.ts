import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { CoreEnv } from '@platform/config';
import { createRequestRedis } from './redis-connections.js';

/** Token of the shared request-path Redis connection (fail-fast, see createRequestRedis). */
export const REQUEST_REDIS = Symbol('REQUEST_REDIS');

export function queueToken(name: string): string {
  return `BullQueue:${name}`;
}

/** Injects the producer Queue registered under `name` by QueueModule.forProducers. */
export const InjectQueue = (name: string) => Inject(queueToken(name));

class RedisCloser implements OnApplicationShutdown {
  constructor(private readonly items: Array<{ close(): Promise<unknown> } | Redis>) {}
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
    const created: Array<Queue | Redis> = [];
    const redisProvider = {
      provide: REQUEST_REDIS,
      inject: [CoreEnv],
      useFactory: (env: CoreEnv) => {
        const redis = createRequestRedis(env.REDIS_URL, 'platform-request');
        redis.on('error', () => undefined); // surfaced per command; avoid unhandled 'error' events
        created.push(redis);
        return redis;
      },
    };
    const queueProviders = queueNames.map((name) => ({
      provide: queueToken(name),
      inject: [REQUEST_REDIS],
      useFactory: (redis: Redis) => {
        const queue = new Queue(name, { connection: redis });
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
