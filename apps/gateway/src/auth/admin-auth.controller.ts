import { Body, Controller, HttpCode, Post, Req, Res, UnauthorizedException } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { normaliseEmail } from '@platform/accounts';
import { AdminSessionService, RateLimiter, TokenPair, extractAdminToken } from '@platform/auth';
import { AuthEnv } from '@platform/config';
import { AdminLoginDto, AdminRefreshDto, AdminTokenResponse } from '@platform/contracts';
import { assertJsonContentType } from '../http/json-content-type.guard.js';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './refresh-cookie.js';
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
  @ApiOperation({
    summary: 'Log in a bot administrator with e-mail and password; answers an access and a refresh token',
    description: 'With refresh_token_in_cookie: true the refresh token is not in the answer but in an HttpOnly, SameSite=Strict cookie scoped to /v1/auth (browser sessions).',
  })
  async login(@Body() body: AdminLoginDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<AdminTokenResponse> {
    const account = { bucket: 'login-account', id: normaliseEmail(body.email), limit: this.env.AUTH_RATE_LIMIT_PER_ACCOUNT };
    await throttle(this.limiter, reply, [{ bucket: 'login-ip', id: req.ip, limit: this.env.AUTH_RATE_LIMIT_PER_IP }]);
    await throttle(this.limiter, reply, [account], { mode: 'failures' });
    const pair = await this.sessions.login(body.email, body.password, body.totp_code);
    if (!pair || pair === 'totp-invalid') {
      await this.limiter.recordFailure([account]);
      if (pair === 'totp-invalid') throw new UnauthorizedException({ message: 'The two-factor code is wrong or was used already', details: { totp_required: true } });
      throw new UnauthorizedException('Invalid e-mail or password');
    }
    // The password was right: the answer may say so, since only its holder gets this far.
    if (pair === 'totp-required') throw new UnauthorizedException({ message: 'Enter the code from your authenticator app (or a recovery code)', details: { totp_required: true } });
    if (body.refresh_token_in_cookie) return this.cookieAnswer(req, reply, pair);
    return tokenAnswer(reply, pair);
  }

  @Post('refresh')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Exchange a dashboard refresh token for a new pair (the old refresh token stops working)',
    description: 'Without refresh_token in the body, the session cookie of a cookie login is used and the new refresh token replaces it.',
  })
  async refresh(@Body() body: AdminRefreshDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<AdminTokenResponse> {
    await throttle(this.limiter, reply, [{ bucket: 'refresh-ip', id: req.ip, limit: this.env.AUTH_RATE_LIMIT_PER_IP }]);
    const fromCookie = body.refresh_token === undefined;
    // A cross-site form cannot send JSON without a CORS preflight: with SameSite=Strict, a second guard for the cookie.
    if (fromCookie) assertJsonContentType(req);
    const token = fromCookie ? readRefreshCookie(req) : body.refresh_token;
    if (!token) {
      // A session flag left without its refresh cookie (removed by hand, or from before the flag): gone too, so the console stops asking.
      if (fromCookie) clearRefreshCookie(reply, req);
      throw new UnauthorizedException('refresh_token is required (in the body, or the session cookie of a cookie login)');
    }
    const result = await this.sessions.refresh(token);
    if (!result.ok) {
      if (fromCookie) clearRefreshCookie(reply, req);
      throw new UnauthorizedException('The refresh token is invalid, expired or revoked');
    }
    return fromCookie ? this.cookieAnswer(req, reply, result.pair) : tokenAnswer(reply, result.pair);
  }

  @Post('logout')
  @HttpCode(200)
  @ApiOperation({ summary: 'End the dashboard session of the access token sent (x-auth-token or Authorization: Bearer)' })
  async logout(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    if (readRefreshCookie(req)) clearRefreshCookie(reply, req);
    const token = extractAdminToken(req);
    if (!token || !(await this.sessions.logout(token))) throw new UnauthorizedException('A valid dashboard access token is required');
    return { message: 'Logged out; the session and its tokens are revoked', status: 'success' };
  }

  private cookieAnswer(req: FastifyRequest, reply: FastifyReply, pair: TokenPair): AdminTokenResponse {
    setRefreshCookie(reply, req, pair.refreshToken!, this.env.AUTH_REFRESH_TOKEN_TTL_SECONDS);
    const { refresh_token: _inCookie, ...answer } = tokenAnswer(reply, pair);
    return answer;
  }
}

function tokenAnswer(reply: FastifyReply, pair: TokenPair): AdminTokenResponse {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  return { access_token: pair.accessToken, token_type: 'Bearer', expires_in: pair.expiresIn, refresh_token: pair.refreshToken!, scope: pair.scope };
}
