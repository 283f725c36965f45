import { MessageHandler, ServerRedis } from '@nestjs/microservices';

type RedisServerOptions = ConstructorParameters<typeof ServerRedis>[0];

/**
 * The Redis transport with every channel under `prefix` (see pushRpcChannelPrefix): Redis pub/sub
 * is server-wide, so channels carry the database index that keys are isolated by.
 */
export class NamespacedRedisServer extends ServerRedis {
  constructor(
    private readonly prefix: string,
    options: RedisServerOptions,
  ) {
    super(options);
  }

  override getRequestPattern(pattern: string): string {
    return this.prefix + pattern;
  }

  override getHandlerByPattern(channel: string): MessageHandler | null {
    return super.getHandlerByPattern(channel.startsWith(this.prefix) ? channel.slice(this.prefix.length) : channel);
  }
}
