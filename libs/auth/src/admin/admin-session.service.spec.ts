import 'reflect-metadata';
import type { Clock, TwoFactorService, UserService } from '@platform/accounts';
import type { AuthEnv } from '@platform/config';
import { InMemoryTokenRepository } from '@platform/testing';
import { TokenService } from '../tokens/token.service.js';
import { AdminSessionService } from './admin-session.service.js';

const T0 = Date.parse('2026-12-16T10:00:00Z');

/** The real TokenService over an in-memory TokenRepository; users and two-factor stubbed. */
function setup(second: 'ok' | 'required' | 'invalid' = 'ok') {
  let now = T0;
  const store = new InMemoryTokenRepository(() => new Date(now));
  const { grants } = store;
  const repo = store.asRepository();
  const tokens = new TokenService(repo, { AUTH_ACCESS_TOKEN_TTL_SECONDS: 900, AUTH_REFRESH_TOKEN_TTL_SECONDS: 86_400 } as AuthEnv, { now: () => new Date(now) } as Clock);
  const checked: Array<string | undefined> = [];
  const users = { authenticate: async (email: string, password: string) => (email === 'ann@example.com' && password === 'correct horse' ? { id: 'user-1' } : null) } as unknown as UserService;
  const twoFactor = {
    check: async (_user: unknown, code?: string) => {
      checked.push(code);
      return second;
    },
  } as unknown as TwoFactorService;
  const service = new AdminSessionService(users, tokens, repo, twoFactor);
  return { service, tokens, repo, grants, checked, advance: (ms: number) => (now += ms) };
}

describe('AdminSessionService', () => {
  it('opens a dashboard session: a login grant over no one bot, with admin scope, refreshable', async () => {
    const { service, tokens, grants, checked } = setup();
    const pair = await service.login('ann@example.com', 'correct horse', '123456');
    expect(pair).toMatchObject({ accessToken: expect.stringMatching(/^bat_/), refreshToken: expect.stringMatching(/^brt_/), expiresIn: 900, scope: 'bot:admin' });
    expect(checked).toEqual(['123456']);
    expect(grants).toEqual([expect.objectContaining({ kind: 'login', userId: 'user-1', botId: null, clientId: null, scope: 'bot:admin' })]);
    if (!pair || typeof pair === 'string') throw new Error('unreachable');
    await expect(tokens.verifyAccessToken(pair.accessToken)).resolves.toMatchObject({ userId: 'user-1', botId: null, clientId: null, scopes: ['bot:admin'] });
  });

  it('answers null for a wrong e-mail or password, before asking for the second factor', async () => {
    const { service, grants, checked } = setup();
    await expect(service.login('ann@example.com', 'wrong')).resolves.toBeNull();
    await expect(service.login('bob@example.com', 'correct horse')).resolves.toBeNull();
    expect(checked).toEqual([]);
    expect(grants).toHaveLength(0);
  });

  it('holds a two-factor account at its code: required without one, invalid with a wrong one, no session either way', async () => {
    const required = setup('required');
    await expect(required.service.login('ann@example.com', 'correct horse')).resolves.toBe('totp-required');
    const invalid = setup('invalid');
    await expect(invalid.service.login('ann@example.com', 'correct horse', '000000')).resolves.toBe('totp-invalid');
    expect([...required.grants, ...invalid.grants]).toHaveLength(0);
  });

  it('refreshes with rotation; a replayed refresh token ends the session', async () => {
    const { service, tokens } = setup();
    const pair = await service.openSession('user-1');
    const next = await service.refresh(pair.refreshToken!);
    expect(next).toMatchObject({ ok: true, pair: { scope: 'bot:admin' } });
    if (!next.ok) throw new Error('unreachable');
    await expect(service.refresh(pair.refreshToken!)).resolves.toEqual({ ok: false, reason: 'reused' });
    await expect(tokens.verifyAccessToken(next.pair.accessToken)).resolves.toBeNull();
  });

  it('refuses to refresh an OAuth client’s refresh token as a dashboard session', async () => {
    const { service, tokens, repo, grants } = setup();
    const grant = await repo.createGrant({ kind: 'oauth', userId: 'user-1', botId: 'bot-1', clientId: 'client-1', scope: 'bot:read' });
    const pair = await tokens.issuePair(grant);
    await expect(service.refresh(pair.refreshToken!)).resolves.toEqual({ ok: false, reason: 'invalid' });
    expect(grants[0].revokedAt).toBeNull();
  });

  it('logs out a dashboard session (its refresh token too), and only a live dashboard token', async () => {
    const { service, tokens, repo, grants, advance } = setup();
    const pair = await service.openSession('user-1');
    await expect(service.logout(pair.accessToken)).resolves.toBe(true);
    expect(grants[0].revokedAt).toEqual(new Date(T0));
    await expect(service.refresh(pair.refreshToken!)).resolves.toEqual({ ok: false, reason: 'invalid' });
    await expect(service.logout(pair.accessToken)).resolves.toBe(false);
    await expect(service.logout('bat_unknown')).resolves.toBe(false);

    const oauthGrant = await repo.createGrant({ kind: 'oauth', userId: 'user-1', botId: 'bot-1', clientId: 'client-1', scope: 'bot:read' });
    const oauth = await tokens.issuePair(oauthGrant);
    await expect(service.logout(oauth.accessToken)).resolves.toBe(false);
    expect(grants[1].revokedAt).toBeNull();

    const expired = await service.openSession('user-1');
    advance(900_000);
    await expect(service.logout(expired.accessToken)).resolves.toBe(false);
  });
});
