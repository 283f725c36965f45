import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { bearerToken } from '../bearer-token.js';
import { ApiKeyPrincipal, ApiKeyService } from '@platform/accounts';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: ApiKeyPrincipal;
  }
}

/**
 * Accepts a bot API key from `x-api-key` (the carousel trigger, as the spec has it) or from
 * `Authorization: Bearer` (every /v1 route). When the route names a bot (`?bot=` or `:botId`),
 * the key must belong to that bot; every failure looks the same to the caller.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly apiKeys: ApiKeyService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await authenticateApiKey(context.switchToHttp().getRequest<FastifyRequest>(), this.apiKeys);
    return true;
  }
}

/** The guard's check, for routes served outside Nest's pipeline: sets `req.apiKey` or throws 401. */
export async function authenticateApiKey(req: FastifyRequest, apiKeys: ApiKeyService): Promise<ApiKeyPrincipal> {
  const key = extractKey(req);
  return admitPrincipal(req, key ? await apiKeys.verify(key) : null);
}

/**
 * authenticateApiKey answered from the key cache alone, without a promise (the trigger's hot path);
 * undefined when the cache cannot answer and authenticateApiKey must be awaited.
 */
export function authenticateCachedApiKey(req: FastifyRequest, apiKeys: ApiKeyService): ApiKeyPrincipal | undefined {
  const key = extractKey(req);
  const principal = key ? apiKeys.verifyCached(key) : null;
  return principal === undefined ? undefined : admitPrincipal(req, principal);
}

function admitPrincipal(req: FastifyRequest, principal: ApiKeyPrincipal | null): ApiKeyPrincipal {
  if (!principal) throw new UnauthorizedException('A valid API key is required');
  const params = req.params as Record<string, string | undefined>;
  const query = req.query as Record<string, unknown>;
  const routeBot = params?.botId ?? (typeof query?.bot === 'string' ? query.bot : undefined);
  if (routeBot !== undefined && routeBot !== '' && routeBot !== principal.botId) {
    throw new UnauthorizedException('A valid API key is required');
  }
  req.apiKey = principal;
  return principal;
}

function extractKey(req: FastifyRequest): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header) return header.trim();
  return bearerToken(req.headers);
}
