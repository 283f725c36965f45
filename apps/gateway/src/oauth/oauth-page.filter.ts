import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterUnavailableError } from '@platform/auth';
import { outageMessage } from '../http/error-response.filter.js';
import { errorPage } from './consent-page.js';
import { sendPage } from './html.js';

/** Failures of the browser-facing /oauth/authorize: an HTML page, never a redirect and never internals. */
@Catch()
export class OAuthPageExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('OAuth');

  catch(exception: unknown, host: ArgumentsHost) {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const req = host.switchToHttp().getRequest<FastifyRequest>();
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      return sendPage(reply, exception.getStatus(), errorPage(exception.message));
    }
    this.logger.error(`${req.method} ${req.url.split('?')[0]} failed: ${exception instanceof Error ? `${exception.name}: ${exception.message}` : String(exception)}`);
    if (exception instanceof RateLimiterUnavailableError || outageMessage(exception) !== undefined) {
      reply.header('retry-after', '5');
      return sendPage(reply, 503, errorPage('The sign-in service is temporarily unavailable. Try again in a moment.'));
    }
    return sendPage(reply, 500, errorPage('Something went wrong. Try again from the application.'));
  }
}
