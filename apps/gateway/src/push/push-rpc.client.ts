import { HttpException, Inject, Injectable, InternalServerErrorException, Logger, OnApplicationShutdown, ServiceUnavailableException } from '@nestjs/common';
import { firstValueFrom } from 'rxjs';
import { CoreEnv, PushRpcEnv } from '@platform/config';
import { PushOutcome, PushPattern, PushRequestQueue, PushRpcRequest, isPushFailure } from '@platform/contracts';
import { sha256Hex } from '@platform/crypto';
import { NoConsumerError, QueueTransportClient, QueuedRequest, RequestTimeoutError, TransportUnavailableError } from '@platform/messaging';
import { REQUEST_REDIS, type RedisClient, bullPrefix, redisConnector } from '@platform/queue';
import { pushFailureHttpException } from './push-failure.http.js';

/** An Idempotency-Key's answer is kept a day. */
const IDEMPOTENT_ANSWER_MS = 24 * 3600_000;

/**
 * Hands authenticated requests to the push service over the request queue (one replica takes each)
 * and turns its answer into the HTTP answer. Never waits longer than PUSH_RPC_TIMEOUT_MS; when no
 * push service listens (checked at most once a second) or Redis is down it answers 503 at once.
 */
@Injectable()
export class PushRpcClient implements OnApplicationShutdown {
  private readonly logger = new Logger('PushRpc');
  private readonly client: QueueTransportClient;

  constructor(
    private readonly env: PushRpcEnv,
    core: CoreEnv,
    @Inject(REQUEST_REDIS) redis: RedisClient,
  ) {
    this.client = new QueueTransportClient({
      queueName: PushRequestQueue,
      redis,
      connect: redisConnector(core),
      prefix: bullPrefix(core, PushRequestQueue),
      keyPrefix: core.REDIS_KEY_PREFIX,
      timeoutMs: env.PUSH_RPC_TIMEOUT_MS,
      commandTimeoutMs: core.REDIS_COMMAND_TIMEOUT_MS,
      keepAnswerMs: IDEMPOTENT_ANSWER_MS,
    });
  }

  /**
   * Result of `pattern` for `botId`; throws the HTTP answer to the push service's failure, or 503. With an
   * `idempotencyKey` the same key gets the first answer again for a day instead of a second action.
   */
  async call<T>(pattern: PushPattern, botId: string, body: unknown, idempotencyKey?: string): Promise<T> {
    const request: PushRpcRequest<unknown> = { botId, body };
    const jobId = idempotencyKey ? `idem-${sha256Hex(`${pattern}\n${botId}\n${idempotencyKey}`)}` : undefined;
    let outcome: PushOutcome<T>;
    try {
      outcome = await firstValueFrom(this.client.send<PushOutcome<T>>(pattern, new QueuedRequest(request, { jobId })));
    } catch (err) {
      throw this.failure(err, pattern, botId, idempotencyKey !== undefined);
    }
    if (outcome.kind !== 'done') throw pushFailureHttpException(outcome);
    return outcome.value;
  }

  async onApplicationShutdown() {
    await this.client.close();
  }

  private failure(err: unknown, pattern: string, botId: string, idempotent: boolean): HttpException {
    if (isPushFailure(err)) return pushFailureHttpException(err);
    if (err instanceof NoConsumerError) return new ServiceUnavailableException('The push service is not running; nothing was done. Retry later.');
    if (err instanceof RequestTimeoutError) {
      this.logger.error(`${pattern} for bot ${botId}: no answer within ${this.env.PUSH_RPC_TIMEOUT_MS} ms`);
      return new ServiceUnavailableException(`The push service did not answer within ${this.env.PUSH_RPC_TIMEOUT_MS} ms. Retry later${idempotent ? ' with the same Idempotency-Key' : ''}.`);
    }
    if (err instanceof TransportUnavailableError) {
      this.logger.error(`${pattern} for bot ${botId}: ${err.message}`);
      return new ServiceUnavailableException('The push service cannot be reached (Redis is unavailable); nothing was done. Retry later.');
    }
    this.logger.error(`${pattern} for bot ${botId}: the push service answered ${JSON.stringify(err)?.slice(0, 300)}`);
    return new InternalServerErrorException('The push service failed to handle the request');
  }
}
