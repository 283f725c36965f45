import { BadRequestException, Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UserInputError } from '@platform/accounts';
import { AdminSessionService, AdminTokenGuard, RateLimiter, RequireBotRole } from '@platform/auth';
import { AuthEnv } from '@platform/config';
import { AcceptInvitationDto, CreateInvitationDto, InvitationTokenDto } from '@platform/contracts';
import { setRefreshCookie } from '../auth/refresh-cookie.js';
import { throttle } from '../auth/throttle.js';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { AuditService } from './audit.service.js';
import { InvitationService, InvitationView } from './invitation.service.js';

/** A bot's admins invite people without an account by link. */
@ApiTags('members')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/bots/:botId/invitations')
@UseGuards(AdminTokenGuard)
@RequireBotRole('admin')
export class InvitationsController {
  constructor(private readonly invitations: InvitationService) {}

  @Get()
  @ApiOperation({ summary: 'Pending invitations: e-mail, role, expiry (never the link)' })
  async list(@Param('botId') botId: string): Promise<{ invitations: InvitationView[] }> {
    return { invitations: await this.invitations.pending(botId) };
  }

  @Post()
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: 'Invite an e-mail address with a role: answers the link (single use, 7 days), once; 409 when the address has an account' })
  async create(@Param('botId') botId: string, @Body() body: CreateInvitationDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    try {
      const inv = await this.invitations.create(botId, req.adminUser!.userId, body.email, body.role);
      reply.header('cache-control', 'no-store');
      return inv;
    } catch (err) {
      if (err instanceof UserInputError) throw new BadRequestException(err.message);
      throw err;
    }
  }

  @Delete(':invitationId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Withdraw a pending invitation: its link stops working' })
  async revoke(@Param('botId') botId: string, @Param('invitationId') id: string) {
    await this.invitations.revoke(botId, id);
    return { message: 'Invitation withdrawn', status: 'success' };
  }
}

/** The invited person's side: what the link is for, and accepting it (no account yet, so no token). */
@ApiTags('members')
@Controller('v1/invitations')
@UseGuards(JsonContentTypeGuard)
export class InvitationAcceptController {
  constructor(
    private readonly invitations: InvitationService,
    private readonly sessions: AdminSessionService,
    private readonly audit: AuditService,
    private readonly limiter: RateLimiter,
    private readonly env: AuthEnv,
  ) {}

  // The token travels in the body, never the URL: URLs end up in logs.
  @Post('lookup')
  @HttpCode(200)
  @ApiOperation({ summary: "An invitation's e-mail, bot and role, from its token; 404 when unknown, used, withdrawn or expired" })
  async lookup(@Body() body: InvitationTokenDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await throttle(this.limiter, reply, [{ bucket: 'invitation-ip', id: req.ip, limit: this.env.AUTH_RATE_LIMIT_PER_IP }]);
    return this.invitations.lookup(body.token);
  }

  @Post('accept')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Accept an invitation: creates the account with this password and the invited role, and signs it in (as POST /v1/auth/login answers)',
  })
  async accept(@Body() body: AcceptInvitationDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await throttle(this.limiter, reply, [{ bucket: 'invitation-ip', id: req.ip, limit: this.env.AUTH_RATE_LIMIT_PER_IP }]);
    let account: { userId: string; botId: string; email: string };
    try {
      account = await this.invitations.accept(body.token, body.password);
    } catch (err) {
      if (err instanceof UserInputError) throw new BadRequestException(err.message);
      throw err;
    }
    await this.audit.record(req, { userId: account.userId, botId: account.botId, email: account.email }, 'invitations.accept', 200);
    const pair = await this.sessions.openSession(account.userId);
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    const answer = { access_token: pair.accessToken, token_type: 'Bearer', expires_in: pair.expiresIn, scope: pair.scope };
    if (body.refresh_token_in_cookie) {
      setRefreshCookie(reply, req, pair.refreshToken!, this.env.AUTH_REFRESH_TOKEN_TTL_SECONDS);
      return answer;
    }
    return { ...answer, refresh_token: pair.refreshToken };
  }
}
