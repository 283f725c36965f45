import type { FastifyReply, FastifyRequest } from 'fastify';

/** Name of the cookie that holds a dashboard refresh token for browser sessions (the console). */
export const REFRESH_COOKIE = 'bp_refresh';
/** The cookie is sent only to the session routes, never to the rest of the API. */
const COOKIE_PATH = '/v1/auth';
/**
 * Beside it, a cookie the console's page scripts may read, holding no secret ("1"): that a refresh cookie
 * may exist. It comes and goes with the refresh cookie (same lifetime), so a console opened without a
 * session signs in straight away instead of asking /v1/auth/refresh for a 401 (a red error in the
 * browser's console on every signed-out load). The token itself stays HttpOnly.
 */
export const SESSION_FLAG_COOKIE = 'bp_session';
const FLAG_PATH = '/console';

/** The refresh token of the request's session cookie, if any. */
export function readRefreshCookie(req: FastifyRequest): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === REFRESH_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return value ? value : undefined;
    }
  }
  return undefined;
}

/**
 * Sets the refresh token as a cookie page scripts cannot read (HttpOnly), sent only to /v1/auth and
 * only by pages of this site (SameSite=Strict), over https only when the request came over https.
 */
export function setRefreshCookie(reply: FastifyReply, req: FastifyRequest, token: string, maxAgeSeconds: number): void {
  reply.header('set-cookie', [cookie(req, `${REFRESH_COOKIE}=${token}`, maxAgeSeconds, COOKIE_PATH), cookie(req, `${SESSION_FLAG_COOKIE}=1`, maxAgeSeconds, FLAG_PATH)]);
}

export function clearRefreshCookie(reply: FastifyReply, req: FastifyRequest): void {
  reply.header('set-cookie', [cookie(req, `${REFRESH_COOKIE}=`, 0, COOKIE_PATH), cookie(req, `${SESSION_FLAG_COOKIE}=`, 0, FLAG_PATH)]);
}

/** The refresh cookie (its path) is HttpOnly; the session flag (the console's path) is for the console's scripts to read. */
function cookie(req: FastifyRequest, pair: string, maxAgeSeconds: number, path: typeof COOKIE_PATH | typeof FLAG_PATH): string {
  const secure = req.protocol === 'https' ? '; Secure' : '';
  const httpOnly = path === COOKIE_PATH ? '; HttpOnly' : '';
  return `${pair}; Max-Age=${maxAgeSeconds}; Path=${path}${httpOnly}; SameSite=Strict${secure}`;
}
