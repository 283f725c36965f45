import { BadRequestException, CanActivate, ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { BotRole } from '@platform/database';
import { API_KEY_PREFIX } from '@platform/accounts';
import { bearerToken } from '../bearer-token.js';
import { ROLE_SCOPES, roleAllowedByScopes, roleRank } from '@platform/accounts';
import { TokenService } from '../tokens/token.service.js';
import { UserService } from '@platform/accounts';
import { REQUIRED_BOT_ROLE } from './require-bot-role.decorator.js';

/** Who called an administrator route, set by AdminTokenGuard. */
export interface AdminPrincipal {
  userId: string;
  botId: string;
  /** The user's role on the bot (not lowered by the token's scope). */
  role: BotRole;
  scopes: string[];
  /** OAuth client the token was issued to; null for a dashboard login. */
  clientId: string | null;
  grantId: string;
  tokenId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    adminUser?: AdminPrincipal;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Administrator routes: an access token (dashboard login or OAuth) in `x-auth-token` or
 * `Authorization: Bearer`, for the bot named by `:botId` or `?bot=`. 401 when the token is missing,
 * unknown, expired or revoked (an API key is not an access token); 403 when the user's role on that
 * bot, or the token's scope, is below the route's RequireBotRole (default 'admin').
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly users: UserService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const required = this.reflector.getAllAndOverride<BotRole | undefined>(REQUIRED_BOT_ROLE, [context.getHandler(), context.getClass()]) ?? 'admin';
    const token = extractAdminToken(req);
    if (!token) throw new UnauthorizedException('An administrator access token is required (x-auth-token or Authorization: Bearer)');
    if (token.startsWith(API_KEY_PREFIX)) {
      throw new UnauthorizedException('An API key is not accepted here; send an administrator access token');
    }
    const principal = await this.tokens.verifyAccessToken(token);
    if (!principal) throw new UnauthorizedException('The access token is invalid, expired or revoked');

    const botId = routeBotId(req);
    if (!botId) throw new BadRequestException('query parameter bot is required');
    if (principal.botId !== null && principal.botId !== botId) throw new ForbiddenException('This access token was not issued for this bot');
    const role = UUID.test(botId) ? await this.users.roleOn(principal.userId, botId) : null;
    if (!role || roleRank(role) < roleRank(required)) {
      throw new ForbiddenException(`This operation needs the ${required} role on this bot`);
    }
    const scopeRole = roleAllowedByScopes(principal.scopes);
    if (!scopeRole || roleRank(scopeRole) < roleRank(required)) {
      throw new ForbiddenException(`The access token's scope does not allow this operation (needs ${ROLE_SCOPES[required]})`);
    }
    req.adminUser = {
      userId: principal.userId,
      botId,
      role,
      scopes: principal.scopes,
      clientId: principal.clientId,
      grantId: principal.grantId,
      tokenId: principal.tokenId,
    };
    return true;
  }
}

/** The token of `x-auth-token` or of `Authorization: Bearer` (x-auth-token wins when both are sent). */
export function extractAdminToken(req: FastifyRequest): string | undefined {
  const header = req.headers['x-auth-token'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  return bearerToken(req.headers);
}

function routeBotId(req: FastifyRequest): string | undefined {
  const params = req.params as Record<string, string | undefined> | undefined;
  const query = req.query as Record<string, unknown> | undefined;
  const bot = params?.botId ?? (typeof query?.bot === 'string' ? query.bot : undefined);
  return bot ? bot : undefined;
}
