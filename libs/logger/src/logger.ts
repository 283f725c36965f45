import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

/** Paths that may carry secrets anywhere in a log record; pino replaces them with "[redacted]". */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-auth-token"]',
  'req.headers.cookie',
  '*.password',
  '*.client_secret',
  '*.private_key',
  '*.privateKey',
  '*.accessToken',
  '*.access_token',
  '*.refresh_token',
  '*.apiKey',
  '*.token',
];

export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: pino.stdSerializers.err },
  });
}

/**
 * Nest's start-up chatter: a line per module loaded and per route mapped (161 lines for the gateway),
 * which buried what `npm run up` prints. It is logged at debug: LOG_LEVEL=debug shows it again.
 */
export const NEST_STARTUP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication', 'NestMicroservice']);

/** Routes NestJS's own log calls through pino so every line of a process has one format. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    if (context && NEST_STARTUP_CONTEXTS.has(context)) this.logger.debug({ context }, String(message));
    else this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
