import type { IncomingHttpHeaders } from 'node:http';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The token of an `Authorization: Bearer <token>` header (RFC 6750: scheme case-insensitive); undefined when there is none. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const auth = headers.authorization;
  return typeof auth === 'string' ? BEARER.exec(auth)?.[1] : undefined;
}
