import { Body, Controller, Get, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { normaliseEmail } from '@platform/accounts';
import { AuthorizationService, AuthorizeOutcome, PendingAuthorization, RateLimitExceededError, RateLimiter } from '@platform/auth';
import { AuthEnv, HttpEnv } from '@platform/config';
import { BotRepository } from '@platform/database';
import { consentPage, errorPage } from './consent-page.js';
import { readCookie } from './form-fields.js';
import { sendPage } from './html.js';
import { OAuthPageExceptionFilter } from './oauth-page.filter.js';

/** RFC 6749 §4.1.1: the browser-facing authorization endpoint with its login and consent form. */
@ApiExcludeController()
@Controller('oauth/authorize')
@UseFilters(OAuthPageExceptionFilter)
export class OAuthAuthorizeController {
  constructor(
    private readonly authorization: AuthorizationService,
    private readonly limiter: RateLimiter,
    private readonly bots: BotRepository,
    private readonly env: AuthEnv,
    private readonly http: HttpEnv,
  ) {}

  @Get()
  async start(@Query() query: Record<string, unknown>, @Res() reply: FastifyReply) {
    await this.render(reply, await this.authorization.start(query ?? {}));
  }

  @Post()
  async submit(@Body() body: Record<string, unknown> | undefined, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const field = (name: string) => (typeof body?.[name] === 'string' ? (body[name] as string) : undefined);
    if (type !== 'application/x-www-form-urlencoded') return sendPage(reply, 400, errorPage('The form must be sent as application/x-www-form-urlencoded.'));
    const pending = await this.authorization.find(field('request_id') ?? '');
    if (!pending) {
      return sendPage(reply, 400, errorPage('This authorization request was already answered or has expired. Start again from the application.'));
    }
    if (!this.authorization.checkCsrf(pending, field('csrf_token'), readCookie(req.headers.cookie, csrfCookie(pending)))) {
      return sendPage(reply, 403, errorPage('The form could not be verified (missing or wrong anti-forgery token). Start again from the application.'));
    }
    const decision = field('decision');
    if (decision === 'deny') return this.render(reply, await this.authorization.deny(pending));
    if (decision !== 'approve') return sendPage(reply, 400, errorPage('The form must be answered with approve or deny.'));
    const email = field('email') ?? '';
    const password = field('password') ?? '';
    // Same limits as POST /v1/auth/login: every attempt per IP, failed passwords per account.
    const account = { bucket: 'login-account', id: normaliseEmail(email), limit: this.env.AUTH_RATE_LIMIT_PER_ACCOUNT };
    try {
      await this.limiter.consume([{ bucket: 'consent-ip', id: req.ip, limit: this.env.AUTH_RATE_LIMIT_PER_IP }]);
      await this.limiter.assertUnder([account]);
    } catch (err) {
      if (!(err instanceof RateLimitExceededError)) throw err;
      reply.header('retry-after', String(err.retryAfterSeconds));
      return this.render(reply, { kind: 'form', pending, error: `Too many attempts. Try again in ${err.retryAfterSeconds} seconds.` }, 429, email);
    }
    if (!email || !password) return this.render(reply, { kind: 'form', pending, error: 'Enter your e-mail and password.' }, 200, email);
    const outcome = await this.authorization.approve(pending, email, password, field('totp_code') ?? undefined);
    if (outcome.kind === 'form' && outcome.wrongPassword) await this.limiter.recordFailure([account]);
    await this.render(reply, outcome, 200, email);
  }

  private async render(reply: FastifyReply, outcome: AuthorizeOutcome, formStatus = 200, email = '') {
    switch (outcome.kind) {
      case 'error-page':
        return sendPage(reply, outcome.status, errorPage(outcome.message));
      case 'redirect':
        return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(outcome.location, 303);
      case 'form': {
        const bot = await this.bots.findById(outcome.pending.botId);
        reply.header('set-cookie', this.cookieHeader(outcome.pending));
        return sendPage(reply, formStatus, consentPage(outcome.pending, bot?.name ?? outcome.pending.botId, outcome.error, email), [formActionSource(outcome.pending.redirectUri)]);
      }
    }
  }

  private cookieHeader(pending: PendingAuthorization): string {
    const secure = this.http.AUTH_URL.startsWith('https:') ? '; Secure' : '';
    return `${csrfCookie(pending)}=${pending.csrf}; Path=/oauth/authorize; Max-Age=${this.env.AUTH_CONSENT_TTL_SECONDS}; HttpOnly; SameSite=Strict${secure}`;
  }
}

/** One cookie per pending request, so two authorizations in two tabs do not overwrite each other's token. */
function csrfCookie(pending: PendingAuthorization): string {
  return `oauth_csrf_${pending.id}`;
}

function formActionSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.origin !== 'null' ? url.origin : url.protocol;
}
