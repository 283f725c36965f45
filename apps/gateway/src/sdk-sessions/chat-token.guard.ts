import { CanActivate, ExecutionContext, Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { bearerToken } from '@platform/auth';
import type { SdkSession } from '@platform/database';
import { SdkSessionService } from './sdk-session.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    sdkSession?: SdkSession;
  }
}

/**
 * Routes of one SDK session: `Authorization: Bearer <chat auth token>` of that session (401), live session
 * (404). A request that passes counts as use: the session's expiry slides.
 */
@Injectable()
export class ChatTokenGuard implements CanActivate {
  constructor(private readonly sessions: SdkSessionService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const token = bearerToken(req.headers);
    if (!token) throw new UnauthorizedException('Authorization: Bearer <chat auth token> is required');
    const params = req.params as { botId: string; sessionId: string };
    const result = await this.sessions.check(params.botId, params.sessionId, token);
    if (result === 'unauthorized') throw new UnauthorizedException('The chat auth token is not valid for this session');
    if (result === 'gone') throw new NotFoundException('Unknown or expired session; start a new one');
    req.sdkSession = result;
    return true;
  }
}
