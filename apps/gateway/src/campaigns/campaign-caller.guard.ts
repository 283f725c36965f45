import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { API_KEY_PREFIX, ApiKeyService } from '@platform/accounts';
import { AdminTokenGuard, authenticateApiKey, bearerToken } from '@platform/auth';

/**
 * Campaign routes take the bot's API key (`Authorization: Bearer bpk_…`, for integrations and the CLI)
 * or an administrator access token of a developer or above (the console), and set `req.campaignBotId`.
 */
@Injectable()
export class CampaignCallerGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeyService,
    private readonly admins: AdminTokenGuard,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const bearer = bearerToken(req.headers);
    if (typeof req.headers['x-api-key'] === 'string' || bearer?.startsWith(API_KEY_PREFIX)) {
      await authenticateApiKey(req, this.apiKeys);
      return true;
    }
    return this.admins.canActivate(context);
  }
}
