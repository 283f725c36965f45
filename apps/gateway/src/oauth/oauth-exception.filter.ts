import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OAuthError } from '@platform/accounts';
import { RateLimitExceededError, RateLimiterUnavailableError } from '@platform/auth';
import { outageMessage } from '../http/error-response.filter.js';

/**
 * Errors of /oauth/token and /oauth/revoke in RFC 6749 §5.2 form (`{error, error_description}`),
 * not the platform's `{message, status}`: OAuth client libraries parse these.
 */
@Catch()
export class OAuthExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('OAuth');

  catch(exception: unknown, host: ArgumentsHost) {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const req = host.switchToHttp().getRequest<FastifyRequest>();
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    const send = (status: number, error: string, description: string) => reply.status(status).send({ error, error_description: description });

    if (exception instanceof OAuthError) {
      if (exception.status === 401 && exception.basicAttempted) reply.header('www-authenticate', 'Basic realm="oauth", charset="UTF-8"');
      return send(exception.status, exception.error, exception.description);
    }
    if (exception instanceof RateLimitExceededError) {
      reply.header('retry-after', String(exception.retryAfterSeconds));
      return send(429, 'too_many_requests', exception.message);
    }
    if (exception instanceof RateLimiterUnavailableError) {
      reply.header('retry-after', '5');
      return send(503, 'temporarily_unavailable', exception.message);
    }
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      return send(400, 'invalid_request', exception.message);
    }
    this.logger.error(`${req.method} ${req.url.split('?')[0]} failed: ${exception instanceof Error ? `${exception.name}: ${exception.message}` : String(exception)}`);
    if (outageMessage(exception) !== undefined) {
      reply.header('retry-after', '5');
      return send(503, 'temporarily_unavailable', 'A backing service is unavailable; retry later');
    }
    return send(500, 'server_error', 'Internal server error');
  }
}
