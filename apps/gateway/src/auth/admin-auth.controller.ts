import { Body, Controller, HttpCode, Post, Req, Res, UnauthorizedException } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminSessionService, RateLimiter, TokenPair, extractAdminToken, normaliseEmail } from '@platform/auth';
import { AuthEnv } from '@platform/config';
import { AdminLoginDto, AdminRefreshDto, AdminTokenResponse } from '@platform/contracts';
import { throttle } from './throttle.js';

/** Dashboard sessions of bot administrators (the tokens AdminTokenGuard accepts). */
@ApiTags('auth')
@Controller('v1/auth')
export class AdminAuthController {
  constructor(
    private readonly sessions: AdminSessionService,
    private readonly limiter: RateLimiter,
    private readonly env: AuthEnv,
  ) {}

  @Post('login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Log in a bot administrator with e-mail and password; answers an access and a refresh token' })
  async login(@Body() body: AdminLoginDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<AdminTokenResponse> {
    const account = { bucket: 'login-account', id: normaliseEmail(body.email), limit: this.env.AUTH_RATE_LIMIT_PER_ACCOUNT };
    await throttle(this.limiter, reply, [{ bucket: 'login-ip', id: req.ip, limit: this.env.AUTH_RATE_LIMIT_PER_IP }]);
    await throttle(this.limiter, reply, [account], { mode: 'failures' });
    const pair = await this.sessions.login(body.email, body.password);
    if (!pair) {
      await this.limiter.recordFailure([account]);
      throw new UnauthorizedException('Invalid e-mail or password');
    }
    return tokenAnswer(reply, pair);
  }

  @Post('refresh')
  @HttpCode(200)
  @ApiOperation({ summary: 'Exchange a dashboard refresh token for a new pair (the old refresh token stops working)' })
  async refresh(@Body() body: AdminRefreshDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<AdminTokenResponse> {
    await throttle(this.limiter, reply, [{ bucket: 'refresh-ip', id: req.ip, limit: this.env.AUTH_RATE_LIMIT_PER_IP }]);
    const result = await this.sessions.refresh(body.refresh_token);
    if (!result.ok) throw new UnauthorizedException('The refresh token is invalid, expired or revoked');
    return tokenAnswer(reply, result.pair);
  }

  @Post('logout')
  @HttpCode(200)
  @ApiOperation({ summary: 'End the dashboard session of the access token sent (x-auth-token or Authorization: Bearer)' })
  async logout(@Req() req: FastifyRequest) {
    const token = extractAdminToken(req);
    if (!token || !(await this.sessions.logout(token))) throw new UnauthorizedException('A valid dashboard access token is required');
    return { message: 'Logged out; the session and its tokens are revoked', status: 'success' };
  }
}

function tokenAnswer(reply: FastifyReply, pair: TokenPair): AdminTokenResponse {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  return { access_token: pair.accessToken, token_type: 'Bearer', expires_in: pair.expiresIn, refresh_token: pair.refreshToken!, scope: pair.scope };
}
