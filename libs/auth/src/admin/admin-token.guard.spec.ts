import { BadRequestException, ExecutionContext, ForbiddenException, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { BotRole } from '@platform/database';
import type { AccessPrincipal, TokenService } from '../tokens/token.service.js';
import type { UserService } from '@platform/accounts';
import { AdminTokenGuard } from './admin-token.guard.js';
import { RequireBotRole } from './require-bot-role.decorator.js';

const BOT = '11111111-1111-4111-8111-111111111111';
const OTHER_BOT = '22222222-2222-4222-8222-222222222222';
const TOKEN = 'bat_' + 'x'.repeat(43);

class Routes {
  @RequireBotRole('viewer')
  viewer() {}
  undecorated() {}
}

function setup(principal: Partial<AccessPrincipal> | null, role: BotRole | null) {
  const tokens = {
    verifyAccessToken: async (t: string) => (t === TOKEN && principal ? { tokenId: 't', grantId: 'g', userId: 'u', botId: null, clientId: null, scopes: ['bot:admin'], ...principal } : null),
  } as unknown as TokenService;
  const users = { roleOn: async () => role } as unknown as UserService;
  return new AdminTokenGuard(new Reflector(), tokens, users);
}

function context(req: Record<string, unknown>, handler: keyof Routes = 'undecorated'): { ctx: ExecutionContext; req: any } {
  const full = { headers: {}, params: {}, query: {}, ...req };
  const ctx = {
    switchToHttp: () => ({ getRequest: () => full }),
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
  } as unknown as ExecutionContext;
  return { ctx, req: full };
}

describe('AdminTokenGuard', () => {
  it('takes the bot from ?bot= and sets req.adminUser', async () => {
    const { ctx, req } = context({ headers: { 'x-auth-token': TOKEN }, query: { bot: BOT } });
    await expect(setup({}, 'admin').canActivate(ctx)).resolves.toBe(true);
    expect(req.adminUser).toMatchObject({ userId: 'u', botId: BOT, role: 'admin', clientId: null });
  });

  it('takes the bot from :botId and the token from Authorization: Bearer', async () => {
    const { ctx, req } = context({ headers: { authorization: `Bearer ${TOKEN}` }, params: { botId: BOT } });
    await expect(setup({}, 'admin').canActivate(ctx)).resolves.toBe(true);
    expect(req.adminUser.botId).toBe(BOT);
  });

  it('demands admin without RequireBotRole, the stated role with it', async () => {
    const guard = setup({}, 'viewer');
    await expect(guard.canActivate(context({ headers: { 'x-auth-token': TOKEN }, query: { bot: BOT } }).ctx)).rejects.toBeInstanceOf(ForbiddenException);
    await expect(guard.canActivate(context({ headers: { 'x-auth-token': TOKEN }, query: { bot: BOT } }, 'viewer').ctx)).resolves.toBe(true);
  });

  it('401 for a missing or unknown token and for an API key', async () => {
    const guard = setup({}, 'admin');
    for (const headers of [{}, { 'x-auth-token': 'bat_unknown' }, { 'x-api-key': 'bpk_' + 'a'.repeat(43) }, { authorization: 'Bearer bpk_' + 'a'.repeat(43) }]) {
      await expect(guard.canActivate(context({ headers, query: { bot: BOT } }).ctx)).rejects.toBeInstanceOf(UnauthorizedException);
    }
  });

  it('400 when the route names no bot', async () => {
    await expect(setup({}, 'admin').canActivate(context({ headers: { 'x-auth-token': TOKEN } }).ctx)).rejects.toBeInstanceOf(BadRequestException);
  });

  it('403 for a user without a role, a token bound to another bot, or a scope below the role needed', async () => {
    const req = { headers: { 'x-auth-token': TOKEN }, query: { bot: BOT } };
    await expect(setup({}, null).canActivate(context(req).ctx)).rejects.toBeInstanceOf(ForbiddenException);
    await expect(setup({ botId: OTHER_BOT }, 'admin').canActivate(context(req).ctx)).rejects.toBeInstanceOf(ForbiddenException);
    await expect(setup({ scopes: ['bot:read'] }, 'admin').canActivate(context(req).ctx)).rejects.toBeInstanceOf(ForbiddenException);
    await expect(setup({ scopes: ['bot:read'] }, 'admin').canActivate(context(req, 'viewer').ctx)).resolves.toBe(true);
  });
});
