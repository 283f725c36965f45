import { FastifyInstance } from 'fastify';
import { logServerError, toErrorResponse } from './error-response.filter.js';

/**
 * Hooks on the Fastify instance itself, for what happens before Nest sees a request: body parsing
 * errors and unsupported content types get the platform's `{message,status}` body.
 */
export function configureFastify(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('text/plain');
  // Bodies of any type other than those with a registered parser are refused with 400 (spec: Content-Type application/json).
  fastify.addContentTypeParser('*', (req, _payload, done) => {
    const err = Object.assign(new Error(`Content-Type ${req.headers['content-type'] ?? '(none)'} is not supported; send application/json`), {
      statusCode: 400,
    });
    done(err, undefined);
  });
  // A campaign audience (text/csv) reaches its route as the request stream, parsed row by row there: up to 1,000,000 rows never sit in memory.
  fastify.addContentTypeParser('text/csv', (_req, payload, done) => done(null, payload));
  // Errors of Fastify routes (the carousel trigger) and of what runs before Nest: answered and logged as ErrorResponseFilter does.
  fastify.setErrorHandler((error, req, reply) => {
    const { statusCode, body, headers } = toErrorResponse(error);
    if (statusCode >= 500) logServerError(req.method, req.url, error);
    reply.status(statusCode).headers(headers).send(body);
  });
}
