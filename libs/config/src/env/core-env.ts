import { IsIn, IsOptional, Matches } from 'class-validator';
import { IntEnv } from '../env-decorators.js';

/** What every app reads: its Postgres, its Redis and its log level. */
export class CoreEnv {
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_URL: string;

  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL: string;

  /** Upper bound on how long a request waits for Redis before it is answered 500. */
  @IntEnv({ min: 50 })
  REDIS_COMMAND_TIMEOUT_MS: number = 1500;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
  })
  LOG_LEVEL: string = 'info';
}
