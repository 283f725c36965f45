import { ForbiddenException, UnauthorizedException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { API_KEY_PREFIX } from '@platform/accounts';
import { AccessPrincipal, TokenService, extractAdminToken } from '@platform/auth';

/**
 * The user of a console session's access token. Account changes (password, two-factor) are the person's
 * own: an OAuth token, which an application holds for them, may not make them (403).
 */
export async function dashboardPrincipal(req: FastifyRequest, tokens: TokenService): Promise<AccessPrincipal> {
  const token = extractAdminToken(req);
  if (!token || token.startsWith(API_KEY_PREFIX)) throw new UnauthorizedException('An administrator access token is required (x-auth-token or Authorization: Bearer)');
  const principal = await tokens.verifyAccessToken(token);
  if (!principal) throw new UnauthorizedException('The access token is invalid, expired or revoked');
  if (principal.clientId !== null) throw new ForbiddenException('Account settings change only from a console session, not with an OAuth token');
  return principal;
}
