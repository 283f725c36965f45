import { BadRequestException, Body, Controller, Delete, Get, HttpCode, Post, Req, Res, UnauthorizedException, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TwoFactorError, TwoFactorService, UserInputError, UserService } from '@platform/accounts';
import { RateLimiter, TokenService } from '@platform/auth';
import { AuthEnv } from '@platform/config';
import { ChangePasswordDto, DisableTwoFactorDto, TwoFactorCodeDto } from '@platform/contracts';
import { AccountSecurityRepository } from '@platform/database';
import { Clock } from '@platform/accounts';
import { throttle } from '../auth/throttle.js';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { AuditService } from './audit.service.js';
import { dashboardPrincipal } from './dashboard-principal.js';

/** The signed-in person's own account: password and two-factor sign-in. Each change is in the audit log (bot: none). */
@ApiTags('auth')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Access token of a console session (or Authorization: Bearer)' })
@Controller('v1/me')
export class AccountSecurityController {
  constructor(
    private readonly tokens: TokenService,
    private readonly users: UserService,
    private readonly twoFactor: TwoFactorService,
    private readonly security: AccountSecurityRepository,
    private readonly audit: AuditService,
    private readonly limiter: RateLimiter,
    private readonly env: AuthEnv,
    private readonly clock: Clock,
  ) {}

  @Post('password')
  @UseGuards(JsonContentTypeGuard)
  @HttpCode(200)
  @ApiOperation({ summary: 'Change the password (the current one is required); every other session of the account ends' })
  async changePassword(@Body() body: ChangePasswordDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const me = await dashboardPrincipal(req, this.tokens);
    const bucket = { bucket: 'password-account', id: me.userId, limit: this.env.AUTH_RATE_LIMIT_PER_ACCOUNT };
    await throttle(this.limiter, reply, [bucket], { mode: 'failures' });
    let changed: boolean;
    try {
      changed = await this.users.changePassword(me.userId, body.current_password, body.new_password);
    } catch (err) {
      if (err instanceof UserInputError) throw new BadRequestException(err.message);
      throw err;
    }
    if (!changed) {
      await this.limiter.recordFailure([bucket]);
      await this.audit.record(req, { userId: me.userId, botId: null }, 'account.password.update', 401);
      throw new UnauthorizedException('current_password is wrong');
    }
    await this.security.revokeOtherGrants(me.userId, me.grantId, this.clock.now());
    await this.audit.record(req, { userId: me.userId, botId: null }, 'account.password.update', 200);
    return { message: 'Password changed; your other sessions are signed out', status: 'success' };
  }

  @Get('two-factor')
  @ApiOperation({ summary: 'Whether two-factor sign-in is on, since when, and how many recovery codes are left' })
  async status(@Req() req: FastifyRequest) {
    const me = await dashboardPrincipal(req, this.tokens);
    return this.twoFactor.status(me.userId);
  }

  @Post('two-factor')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start enrolling an authenticator app: a new TOTP secret and its otpauth:// URI (not in force until confirmed)' })
  async start(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const me = await dashboardPrincipal(req, this.tokens);
    const user = await this.users.findById(me.userId);
    if (!user) throw new UnauthorizedException('The access token is invalid, expired or revoked');
    const enrolment = await this.twoFactor.startEnrolment(user).catch(asBadRequest);
    reply.header('cache-control', 'no-store');
    return { secret: enrolment.secret, otpauth_uri: enrolment.otpauthUri };
  }

  @Post('two-factor/confirm')
  @UseGuards(JsonContentTypeGuard)
  @HttpCode(200)
  @ApiOperation({ summary: 'Confirm the enrolment with a code from the app: two-factor sign-in is on; answers 10 recovery codes, once' })
  async confirm(@Body() body: TwoFactorCodeDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const me = await dashboardPrincipal(req, this.tokens);
    const codes = await this.twoFactor.confirm(me.userId, body.code.trim()).catch(asBadRequest);
    await this.audit.record(req, { userId: me.userId, botId: null }, 'account.two-factor.enable', 200);
    reply.header('cache-control', 'no-store');
    return { message: 'Two-factor sign-in is on', status: 'success', recovery_codes: codes };
  }

  @Delete('two-factor')
  @UseGuards(JsonContentTypeGuard)
  @HttpCode(200)
  @ApiOperation({ summary: 'Turn two-factor sign-in off (password and a current code required)' })
  async disable(@Body() body: DisableTwoFactorDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const me = await dashboardPrincipal(req, this.tokens);
    const bucket = { bucket: 'password-account', id: me.userId, limit: this.env.AUTH_RATE_LIMIT_PER_ACCOUNT };
    await throttle(this.limiter, reply, [bucket], { mode: 'failures' });
    const user = await this.users.findById(me.userId);
    const passwordOk = user ? await this.users.authenticate(user.email, body.password) : null;
    const codeOk = passwordOk ? await this.twoFactor.check(passwordOk, body.code) : 'invalid';
    if (!passwordOk || codeOk !== 'ok') {
      await this.limiter.recordFailure([bucket]);
      throw new UnauthorizedException(!passwordOk ? 'password is wrong' : codeOk === 'required' ? 'Two-factor sign-in is not on' : 'code is wrong or was used already');
    }
    await this.twoFactor.disable(me.userId);
    await this.audit.record(req, { userId: me.userId, botId: null }, 'account.two-factor.delete', 200);
    return { message: 'Two-factor sign-in is off', status: 'success' };
  }
}

function asBadRequest(err: unknown): never {
  if (err instanceof TwoFactorError) throw new BadRequestException(err.message);
  throw err;
}
