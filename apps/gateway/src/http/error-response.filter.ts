import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseUnavailableError } from '@platform/database';
import { RedisUnavailableError } from '@platform/queue';

/**
 * Every error answer is `{message, status:"error"}`. 5xx never carry internals: the detail goes
 * to the log, the caller gets a sentence saying what was unavailable.
 */
const logger = new Logger('HTTP');

/** A 5xx's detail, for the log only (the caller gets a sentence). */
export function logServerError(method: string, url: string, exception: unknown): void {
  logger.error(`${method} ${url} failed: ${errorText(exception)}`);
}

@Catch()
export class ErrorResponseFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost) {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const req = host.switchToHttp().getRequest<FastifyRequest>();
    const { statusCode, body, headers } = toErrorResponse(exception);
    if (statusCode >= 500) logServerError(req.method, req.url, exception);
    for (const [k, v] of Object.entries(headers)) reply.header(k, v);
    reply.status(statusCode).send(body);
  }
}

/**
 * The sentence a caller gets when `exception` is an outage of a backing store, or undefined when it is
 * not one. The OAuth filters ask this too, so every route decides outages the same way.
 */
export function outageMessage(exception: unknown): string | undefined {
  if (exception instanceof DatabaseUnavailableError) return 'The database is unavailable; nothing was done. Retry later.';
  if (exception instanceof RedisUnavailableError) return 'The message queue is unavailable; nothing was queued. Retry later.';
  return undefined;
}

export function toErrorResponse(exception: unknown): {
  statusCode: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
} {
  if (exception instanceof HttpException) {
    const statusCode = exception.getStatus();
    const res = exception.getResponse();
    const message =
      typeof res === 'string'
        ? res
        : Array.isArray((res as { message?: unknown }).message)
          ? (res as { message: string[] }).message.join('; ')
          : String((res as { message?: unknown }).message ?? exception.message);
    const extra = typeof res === 'object' && res !== null ? (res as { details?: unknown }).details : undefined;
    // `errors`: a refused bot definition's list (InvalidBotDefinitionError), each naming its journey, node and field.
    const errors = typeof res === 'object' && res !== null ? (res as { errors?: unknown }).errors : undefined;
    return { statusCode, body: { message, status: 'error', ...(extra ? { details: extra } : {}), ...(Array.isArray(errors) ? { errors } : {}) }, headers: {} };
  }
  const fastifyStatus = (exception as { statusCode?: number })?.statusCode;
  if (typeof fastifyStatus === 'number' && fastifyStatus >= 400 && fastifyStatus < 500) {
    return { statusCode: fastifyStatus, body: { message: (exception as Error).message, status: 'error' }, headers: {} };
  }
  const infra = outageMessage(exception);
  return {
    // The spec's error table has 500 for every server-side failure; the message says which part is down.
    statusCode: HttpStatus.INTERNAL_SERVER_ERROR,
    body: { message: infra ?? 'Internal server error', status: 'error' },
    headers: infra ? { 'retry-after': '5' } : {},
  };
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
