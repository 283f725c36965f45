import { HttpException, Inject, Injectable, Logger, OnApplicationShutdown, ServiceUnavailableException } from '@nestjs/common';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { TimeoutError, firstValueFrom, timeout } from 'rxjs';
import { CoreEnv, PushRpcEnv } from '@platform/config';
import { PushPattern, PushRpcRequest, PushRpcResult, pushRpcChannelPrefix, redisOptionsFromUrl } from '@platform/contracts';
import { sha256Hex } from '@platform/crypto';
import { REQUEST_REDIS, withTimeout } from '@platform/queue';
import { NamespacedRedisClient } from './namespaced-redis.client.js';

const LISTENER_CHECK_TTL_MS = 1000;

/**
 * Hands authenticated requests to the push service over the Redis transport and turns its result
 * into the answer. Never waits longer than PUSH_RPC_TIMEOUT_MS; when no push service listens (checked
 * with PUBSUB NUMSUB, at most once a second) or Redis is down it answers 503 at once.
 */
@Injectable()
export class PushRpcClient implements OnApplicationShutdown {
  private readonly logger = new Logger('PushRpc');
  private readonly client: NamespacedRedisClient;
  private readonly prefix: string;
  private readonly listenersSeen = new Map<string, number>();

  constructor(
    private readonly env: PushRpcEnv,
    private readonly core: CoreEnv,
    @Inject(REQUEST_REDIS) private readonly redis: Redis,
  ) {
    this.prefix = pushRpcChannelPrefix(this.core.REDIS_URL);
    this.client = new NamespacedRedisClient(this.prefix, {
      ...redisOptionsFromUrl(this.core.REDIS_URL),
      connectionName: 'gateway-push-rpc',
      connectTimeout: 1000,
      retryAttempts: Number.MAX_SAFE_INTEGER,
      retryDelay: 1000,
    });
  }

  /**
   * Result of `pattern` for `botId`; throws the push service's HTTP error or 503. With an
   * `idempotencyKey` the same key gets the first answer again for a day instead of a second action.
   */
  async call<T>(pattern: PushPattern, botId: string, body: unknown, idempotencyKey?: string): Promise<T> {
    await this.ensureListener(pattern);
    const requestId = idempotencyKey ? `idem:${sha256Hex(`${pattern}\n${botId}\n${idempotencyKey}`)}` : randomUUID();
    const request: PushRpcRequest<unknown> = { requestId, botId, body };
    let result: PushRpcResult<T>;
    try {
      result = await firstValueFrom(this.client.send<PushRpcResult<T>>(pattern, request).pipe(timeout({ first: this.env.PUSH_RPC_TIMEOUT_MS })));
    } catch (err) {
      if (err instanceof TimeoutError) {
        this.logger.error(`${pattern} for bot ${botId}: no answer within ${this.env.PUSH_RPC_TIMEOUT_MS} ms`);
        throw new ServiceUnavailableException(`The push service did not answer within ${this.env.PUSH_RPC_TIMEOUT_MS} ms. Retry later${idempotencyKey ? ' with the same Idempotency-Key' : ''}.`);
      }
      this.logger.error(`${pattern} for bot ${botId}: ${(err as Error)?.message ?? err}`);
      throw new ServiceUnavailableException('The push service cannot be reached (Redis is unavailable); nothing was done. Retry later.');
    }
    if (!result.ok) throw new HttpException({ message: result.message, ...(result.details ? { details: result.details } : {}) }, result.status);
    return result.value;
  }

  async onApplicationShutdown() {
    await this.client.close().catch(() => undefined);
  }

  private async ensureListener(pattern: string): Promise<void> {
    const channel = this.prefix + pattern;
    if ((this.listenersSeen.get(channel) ?? 0) > Date.now()) return;
    let listeners: number;
    try {
      const reply = (await withTimeout(this.redis.call('PUBSUB', 'NUMSUB', channel), this.core.REDIS_COMMAND_TIMEOUT_MS, 'asking Redis for push-service listeners')) as [string, number];
      listeners = Number(reply[1]);
    } catch {
      throw new ServiceUnavailableException('The push service cannot be reached (Redis is unavailable); nothing was done. Retry later.');
    }
    if (listeners === 0) throw new ServiceUnavailableException('The push service is not running; nothing was done. Retry later.');
    this.listenersSeen.set(channel, Date.now() + LISTENER_CHECK_TTL_MS);
  }
}
