import { Body, Controller, HttpCode, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ClientCredentials, OAuthClientService, OAuthError, parseClientCredentials } from '@platform/accounts';
import { OAuthTokenAnswer, OAuthTokenService, RateCheck, RateLimiter } from '@platform/auth';
import { AuthEnv } from '@platform/config';
import { formFields } from './form-fields.js';
import { OAuthExceptionFilter } from './oauth-exception.filter.js';

/** RFC 6749 §3.2 token endpoint and RFC 7009 revocation endpoint (form bodies, RFC error bodies). */
@ApiTags('oauth')
@Controller('oauth')
@UseFilters(OAuthExceptionFilter)
export class OAuthTokenController {
  constructor(
    private readonly clients: OAuthClientService,
    private readonly tokens: OAuthTokenService,
    private readonly limiter: RateLimiter,
    private readonly env: AuthEnv,
  ) {}

  @Post('token')
  @HttpCode(200)
  @ApiOperation({ summary: 'Exchange an authorization code or a refresh token (application/x-www-form-urlencoded)' })
  async token(@Body() raw: unknown, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<OAuthTokenAnswer> {
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    const body = formFields(raw);
    await this.throttle('token', req, body);
    if (!body.grant_type) throw new OAuthError('invalid_request', 'grant_type is required');
    const client = await this.clients.authenticate(parseClientCredentials(req.headers.authorization, body));
    return this.tokens.grant(client, body);
  }

  @Post('revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an access or refresh token (RFC 7009); 200 whether or not the token was known' })
  async revoke(@Body() raw: unknown, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    const body = formFields(raw);
    await this.throttle('revoke', req, body);
    const client = await this.clients.authenticate(parseClientCredentials(req.headers.authorization, body));
    await this.tokens.revoke(client, body);
  }

  /** Per IP and per claimed client, before any secret is checked, so guessing secrets is throttled too. */
  private async throttle(endpoint: string, req: FastifyRequest, body: Record<string, string>) {
    const checks: RateCheck[] = [{ bucket: `${endpoint}-ip`, id: req.ip, limit: this.env.AUTH_RATE_LIMIT_PER_IP }];
    const clientId = claimedClientId(req.headers.authorization, body);
    if (clientId) checks.push({ bucket: `${endpoint}-client`, id: clientId, limit: this.env.AUTH_RATE_LIMIT_PER_CLIENT });
    await this.limiter.consume(checks);
  }
}

function claimedClientId(authorization: string | undefined, body: Record<string, string>): string | undefined {
  try {
    return (parseClientCredentials(authorization, body) as ClientCredentials).clientId;
  } catch {
    return body.client_id;
  }
}
