import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { CoreEnv } from '@platform/config';
import { REQUEST_REDIS, createRequestRedis, withTimeout } from '@platform/queue';

const REVOKED_CHANNEL = 'platform:api-key-revoked';

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
  private subscriber?: Redis;

  constructor(
    private readonly env: CoreEnv,
    @Inject(REQUEST_REDIS) private readonly redis: Redis,
  ) {}

  async onModuleInit() {
    this.subscriber = createRequestRedis(this.env.REDIS_URL, 'api-key-revocations', { enableOfflineQueue: true, maxRetriesPerRequest: null });
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('message', (_channel, hash: string) => this.revokedListeners.forEach((l) => l(hash)));
    this.subscriber.on('ready', () => this.listeningListeners.forEach((l) => l()));
    await this.subscriber.subscribe(REVOKED_CHANNEL).catch((err) => this.logger.warn(`revocation channel not ready: ${err}`));
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
    await withTimeout(this.redis.publish(REVOKED_CHANNEL, hash), this.env.REDIS_COMMAND_TIMEOUT_MS, 'announcing the revocation');
  }

  onRevoked(listener: (hash: string) => void): void {
    this.revokedListeners.push(listener);
  }

  /** Called each time the subscription becomes ready, the first time included. */
  onListening(listener: () => void): void {
    this.listeningListeners.push(listener);
  }
}
