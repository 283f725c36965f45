import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';

const FORM_ONLY_ROUTES = new Set(['/oauth/token', '/oauth/revoke']);

/**
 * /oauth/token and /oauth/revoke take only application/x-www-form-urlencoded (RFC 6749 §3.2). A route-level
 * Fastify onRequest hook, so it runs before body parsing (a JSON or other body is refused with an OAuth
 * error, not the platform's error body) and costs the other routes nothing, as a Nest middleware would
 * (it puts @fastify/middie in front of every request). Call before the routes are registered.
 */
export function refuseNonFormOAuthBodies(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    if (!FORM_ONLY_ROUTES.has(route.url) || !([] as string[]).concat(route.method).includes('POST')) return;
    route.onRequest = [...([] as onRequestHookHandler[]).concat(route.onRequest ?? []), formOnly];
  });
}

function formOnly(req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return done();
  void reply
    .status(400)
    .headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', pragma: 'no-cache' })
    .send(JSON.stringify({ error: 'invalid_request', error_description: 'Content-Type must be application/x-www-form-urlencoded' }));
}
