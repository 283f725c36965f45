import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SdkEnv } from '@platform/config';
import { API_KEY_PREFIX } from '@platform/accounts';
import { ApiKeyGuard, RateLimiter, bearerToken } from '@platform/auth';
import { chatUserId, isChatToken, isUuid } from '@platform/contracts';
import { BotRepository } from '@platform/database';
import { throttleAppCaller } from '../sdk-sessions/sdk-throttle.js';

/** Who registers a device: the bot's backend (API key, names the user) or the app itself (chat auth token, is the user). */
export type DeviceCaller = { kind: 'apiKey' } | { kind: 'chatUser'; userId: string };

declare module 'fastify' {
  interface FastifyRequest {
    deviceCaller?: DeviceCaller;
  }
}

/**
 * Device routes take `Authorization: Bearer <API key>` (server callers) or `Bearer <chat auth token>`
 * (the SDK in an app, where an API key must never ship). A chat-token caller acts only as its own
 * chat user, the id bots see in session.started and address events to.
 */
@Injectable()
export class DeviceCallerGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeyGuard,
    private readonly bots: BotRepository,
    private readonly limiter: RateLimiter,
    private readonly env: SdkEnv,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const bearer = bearerToken(req.headers);
    if (bearer === undefined || bearer.startsWith(API_KEY_PREFIX) || req.headers['x-api-key'] !== undefined) {
      await this.apiKeys.canActivate(context);
      req.deviceCaller = { kind: 'apiKey' };
      return true;
    }
    // Callers without an API key share the SDK's per-IP limit (what a script registering junk would hit).
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    await throttleAppCaller(this.limiter, this.env, req, reply);
    const botId = (req.params as { botId: string }).botId;
    if (!isChatToken(bearer) || !isUuid(botId) || !(await this.bots.findById(botId))) {
      throw new UnauthorizedException('Authorization: Bearer <API key of the bot or chat auth token> is required');
    }
    req.deviceCaller = { kind: 'chatUser', userId: chatUserId(bearer) };
    return true;
  }
}
