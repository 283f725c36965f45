import { Controller, Get, Req, UnauthorizedException } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { API_KEY_PREFIX } from '@platform/accounts';
import { TokenService, extractAdminToken } from '@platform/auth';
import { AccountResponse } from '@platform/contracts';
import { AccountService } from './account.service.js';

/** The signed-in administrator: the console reads it to know which bots to offer. */
@ApiTags('auth')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/me')
export class AccountController {
  constructor(
    private readonly tokens: TokenService,
    private readonly account: AccountService,
  ) {}

  @Get()
  @ApiOperation({ summary: "The access token's user (e-mail) and the bots it opens, with the role it acts with on each" })
  async me(@Req() req: FastifyRequest): Promise<AccountResponse> {
    const token = extractAdminToken(req);
    if (!token || token.startsWith(API_KEY_PREFIX)) throw new UnauthorizedException('An administrator access token is required (x-auth-token or Authorization: Bearer)');
    const principal = await this.tokens.verifyAccessToken(token);
    if (!principal) throw new UnauthorizedException('The access token is invalid, expired or revoked');
    return this.account.describe(principal);
  }
}
