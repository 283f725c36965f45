import fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One line per request, at info: `GET /health 200 3 ms`, with the request's id bound. Fastify's own
 * logging writes two records per request ("incoming request", "request completed", with the request
 * and reply serialized), about 15 lines on `npm run up`'s screen. The path only: a query string can
 * carry a ticket or a token, which must not reach the logs. A request that errored keeps its error
 * record (with the error), and Fastify's other records (stream errors, 5xx of its default handler) stay.
 */
class OneLineLogController extends fastify.LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const query = request.url.indexOf('?');
    const line = `${request.method} ${query === -1 ? request.url : request.url.slice(0, query)} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`;
    if (error) reply.log.error({ err: error }, line);
    else reply.log.info(line);
  }

  /** The completed line says 404 already. */
  override routeNotFound(): void {}
}

/** Fastify options of every app's server: spread into the adapter's options. */
export function oneLineRequestLogging(): { logController: InstanceType<typeof fastify.LogController> } {
  return { logController: new OneLineLogController() };
}
