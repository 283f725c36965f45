import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

const FORM_ONLY_ROUTES = new Set(['/oauth/token', '/oauth/revoke']);

/**
 * /oauth/token and /oauth/revoke take only application/x-www-form-urlencoded (RFC 6749 §3.2). A Fastify
 * onRequest hook, so it runs before body parsing: a JSON or other body is refused with an OAuth error,
 * not the platform's error body. (A Nest middleware would put @fastify/middie in front of every request.)
 */
export function refuseNonFormOAuthBodies(req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (req.method !== 'POST' || !FORM_ONLY_ROUTES.has(req.routeOptions.url ?? '')) return done();
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return done();
  void reply
    .status(400)
    .headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', pragma: 'no-cache' })
    .send(JSON.stringify({ error: 'invalid_request', error_description: 'Content-Type must be application/x-www-form-urlencoded' }));
}
