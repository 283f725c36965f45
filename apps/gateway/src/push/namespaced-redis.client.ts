import { ClientRedis } from '@nestjs/microservices';

type RedisClientOptions = ConstructorParameters<typeof ClientRedis>[0];

/** The Redis transport's client with every channel under `prefix` (the push service listens there). */
export class NamespacedRedisClient extends ClientRedis {
  constructor(
    private readonly prefix: string,
    options: RedisClientOptions,
  ) {
    super(options);
  }

  override getRequestPattern(pattern: string): string {
    return this.prefix + pattern;
  }

  override getReplyPattern(pattern: string): string {
    return `${this.prefix}${pattern}.reply`;
  }
}
