/**
 * Redis could not be asked: no connection, the connection was lost, or no answer in time. Thrown by
 * `withTimeout` for any failure of a command on our connections other than an error answer of Redis
 * itself (ioredis' ReplyError, which passes through as it is).
 */
export class RedisUnavailableError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'RedisUnavailableError';
  }
}
