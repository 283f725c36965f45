import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import { REQUEST_REDIS, type RedisClient, apiKeyRevocationsChannel, createRequestRedis, withTimeout } from '@platform/queue';

/**
 * The revocation broadcast between replicas: Redis pub/sub on its own subscriber connection. A listener
 * hears every revoked key hash, and hears when the subscription (re)starts, since anything revoked while
 * it was down went unheard.
 */
@Injectable()
export class KeyRevocations implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(KeyRevocations.name);
  private readonly revokedListeners: Array<(hash: string) => void> = [];
  private readonly listeningListeners: Array<() => void> = [];
  private subscriber?: RedisClient;
  private readonly channel: string;

  constructor(
    private readonly env: CoreEnv,
    @Inject(REQUEST_REDIS) private readonly redis: RedisClient,
  ) {
    this.channel = apiKeyRevocationsChannel(env);
  }

  async onModuleInit() {
    const subscriber = (this.subscriber = createRequestRedis(this.env, 'api-key-revocations', { enableOfflineQueue: true, maxRetriesPerRequest: null }));
    subscriber.on('error', () => undefined);
    subscriber.on('message', (_channel: string, hash: string) => this.revokedListeners.forEach((l) => l(hash)));
    subscriber.on('ready', () => this.listeningListeners.forEach((l) => l()));
    await subscriber.subscribe(this.channel).catch((err) => this.logger.warn(`revocation channel not ready: ${err}`));
  }

  onModuleDestroy() {
    this.subscriber?.disconnect();
  }

  /** True while revocations published by any replica reach this one. */
  get listening(): boolean {
    return this.subscriber?.status === 'ready';
  }

  /** Tells every replica (this one included) that the key with this hash is revoked. */
  async publish(hash: string): Promise<void> {
    await withTimeout(this.redis.publish(this.channel, hash), this.env.REDIS_COMMAND_TIMEOUT_MS, 'announcing the revocation');
  }

  onRevoked(listener: (hash: string) => void): void {
    this.revokedListeners.push(listener);
  }

  /** Called each time the subscription becomes ready, the first time included. */
  onListening(listener: () => void): void {
    this.listeningListeners.push(listener);
  }
}
