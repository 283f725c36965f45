import 'reflect-metadata';
import type { Clock } from '@platform/accounts';
import type { AuthEnv } from '@platform/config';
import { sha256Hex } from '@platform/crypto';
import type { AuthGrant } from '@platform/database';
import { InMemoryTokenRepository } from '@platform/testing';
import { TokenService } from './token.service.js';

const T0 = Date.parse('2026-12-16T10:00:00Z');
const ENV = { AUTH_ACCESS_TOKEN_TTL_SECONDS: 900, AUTH_REFRESH_TOKEN_TTL_SECONDS: 30 * 86_400 } as AuthEnv;

/** The real TokenService over an in-memory TokenRepository. */
function setup() {
  let now = T0;
  const store = new InMemoryTokenRepository(() => new Date(now));
  const repo = store.asRepository();
  const service = new TokenService(repo, ENV, { now: () => new Date(now) } as Clock);
  const grant = (over: Partial<AuthGrant> = {}) => repo.createGrant({ kind: 'oauth', userId: 'user-1', botId: 'bot-1', clientId: 'client-1', scope: 'bot:read bot:write', ...over } as never);
  const { grants, access, refresh } = store;
  return { service, repo, grants, access, refresh, grant, advance: (ms: number) => (now += ms), raceRotation: (fn: () => void) => (store.beforeMarkRotated = fn) };
}

describe('TokenService', () => {
  it('issues prefixed tokens stored only as their SHA-256, with the configured lifetimes', async () => {
    const { service, access, refresh, grant } = setup();
    const g = await grant();
    const pair = await service.issuePair(g, 'bot:read');
    expect(pair).toEqual({ accessToken: expect.stringMatching(/^bat_[A-Za-z0-9_-]{43}$/), refreshToken: expect.stringMatching(/^brt_[A-Za-z0-9_-]{43}$/), expiresIn: 900, scope: 'bot:read' });
    expect(access[0]).toMatchObject({ tokenHash: sha256Hex(pair.accessToken), grantId: g.id, userId: 'user-1', clientId: 'client-1', scope: 'bot:read', expiresAt: new Date(T0 + 900_000) });
    // The refresh token keeps the grant's whole scope, so a later refresh may ask for more than this access token had.
    expect(refresh[0]).toMatchObject({ tokenHash: sha256Hex(pair.refreshToken!), scope: g.scope, expiresAt: new Date(T0 + 30 * 86_400_000) });
    expect(JSON.stringify([access, refresh])).not.toContain(pair.accessToken.slice(4));
    expect(JSON.stringify([access, refresh])).not.toContain(pair.refreshToken!.slice(4));
  });

  it('issues no refresh token when the grant may not be refreshed', async () => {
    const { service, refresh, grant } = setup();
    const pair = await service.issuePair(await grant(), undefined, undefined, false);
    expect(pair.refreshToken).toBeUndefined();
    expect(pair.scope).toBe('bot:read bot:write');
    expect(refresh).toHaveLength(0);
  });

  it('verifies a live access token to its principal, and nothing else', async () => {
    const { service, grant, advance } = setup();
    const g = await grant({ botId: null, clientId: null, kind: 'login' });
    const pair = await service.issuePair(g);
    await expect(service.verifyAccessToken(pair.accessToken)).resolves.toEqual({
      tokenId: 'at-0',
      grantId: g.id,
      userId: 'user-1',
      botId: null,
      clientId: null,
      scopes: ['bot:read', 'bot:write'],
    });
    // A refresh token, a foreign string and a near miss are no access tokens.
    await expect(service.verifyAccessToken(pair.refreshToken!)).resolves.toBeNull();
    await expect(service.verifyAccessToken('bat_' + 'x'.repeat(43))).resolves.toBeNull();
    await expect(service.verifyAccessToken('bat_' + 'x'.repeat(300))).resolves.toBeNull();
    advance(900_000 - 1);
    await expect(service.verifyAccessToken(pair.accessToken)).resolves.not.toBeNull();
    advance(1);
    await expect(service.verifyAccessToken(pair.accessToken)).resolves.toBeNull();
  });

  it('refuses a revoked access token and every token of a revoked grant', async () => {
    const { service, grant } = setup();
    const g = await grant();
    const a = await service.issuePair(g);
    const b = await service.issuePair(g);
    await service.revokeAccessToken('at-0');
    await expect(service.verifyAccessToken(a.accessToken)).resolves.toBeNull();
    await expect(service.verifyAccessToken(b.accessToken)).resolves.not.toBeNull();
    await service.revokeGrant(g.id);
    await expect(service.verifyAccessToken(b.accessToken)).resolves.toBeNull();
    await expect(service.rotate(b.refreshToken!, 'client-1')).resolves.toEqual({ ok: false, reason: 'invalid' });
  });

  it('rotates a refresh token into a new pair, once', async () => {
    const { service, grant, refresh } = setup();
    const g = await grant();
    const first = await service.issuePair(g);
    const result = await service.rotate(first.refreshToken!, 'client-1');
    expect(result).toMatchObject({ ok: true, grant: { id: g.id }, pair: { scope: g.scope, expiresIn: 900 } });
    if (!result.ok) throw new Error('unreachable');
    expect(result.pair.refreshToken).not.toBe(first.refreshToken);
    expect(refresh[0].rotatedAt).toEqual(new Date(T0));
    await expect(service.verifyAccessToken(result.pair.accessToken)).resolves.toMatchObject({ grantId: g.id });
  });

  it('answers a replayed refresh token with reused and revokes the whole grant', async () => {
    const { service, grant, grants } = setup();
    const g = await grant();
    const first = await service.issuePair(g);
    const second = await service.rotate(first.refreshToken!, 'client-1');
    if (!second.ok) throw new Error('unreachable');
    await expect(service.rotate(first.refreshToken!, 'client-1')).resolves.toEqual({ ok: false, reason: 'reused' });
    expect(grants[0].revokedAt).toEqual(new Date(T0));
    // The thief's copy and the rightful holder's newer tokens are all dead now.
    await expect(service.verifyAccessToken(second.pair.accessToken)).resolves.toBeNull();
    await expect(service.rotate(second.pair.refreshToken!, 'client-1')).resolves.toEqual({ ok: false, reason: 'invalid' });
  });

  it('treats losing a race to rotate the same token as a reuse', async () => {
    const { service, grant, grants, refresh, raceRotation } = setup();
    const g = await grant();
    const first = await service.issuePair(g);
    raceRotation(() => (refresh[0].rotatedAt ??= new Date(T0)));
    await expect(service.rotate(first.refreshToken!, 'client-1')).resolves.toEqual({ ok: false, reason: 'reused' });
    expect(grants[0].revokedAt).not.toBeNull();
  });

  it('refuses a refresh token presented by another client, or by a dashboard session, without revoking anything', async () => {
    const { service, grant, grants } = setup();
    const first = await service.issuePair(await grant());
    await expect(service.rotate(first.refreshToken!, 'client-2')).resolves.toEqual({ ok: false, reason: 'invalid' });
    await expect(service.rotate(first.refreshToken!, null)).resolves.toEqual({ ok: false, reason: 'invalid' });
    expect(grants[0].revokedAt).toBeNull();
    await expect(service.rotate(first.refreshToken!, 'client-1')).resolves.toMatchObject({ ok: true });
  });

  it('refuses an expired refresh token and strings that are no refresh tokens', async () => {
    const { service, grant, advance } = setup();
    const first = await service.issuePair(await grant());
    await expect(service.rotate(first.accessToken, 'client-1')).resolves.toEqual({ ok: false, reason: 'invalid' });
    await expect(service.rotate('brt_unknown', 'client-1')).resolves.toEqual({ ok: false, reason: 'invalid' });
    advance(30 * 86_400_000);
    await expect(service.rotate(first.refreshToken!, 'client-1')).resolves.toEqual({ ok: false, reason: 'invalid' });
  });

  it('narrows the new access token to a requested scope within the grant, and refuses a wider or unknown one', async () => {
    const { service, grant, refresh } = setup();
    const first = await service.issuePair(await grant());
    await expect(service.rotate(first.refreshToken!, 'client-1', 'bot:admin')).resolves.toEqual({ ok: false, reason: 'invalid_scope' });
    await expect(service.rotate(first.refreshToken!, 'client-1', 'no-such-scope')).resolves.toEqual({ ok: false, reason: 'invalid_scope' });
    // A refused scope spends nothing: the token still rotates.
    expect(refresh[0].rotatedAt).toBeNull();
    const narrowed = await service.rotate(first.refreshToken!, 'client-1', 'bot:read');
    expect(narrowed).toMatchObject({ ok: true, pair: { scope: 'bot:read' } });
    if (!narrowed.ok) throw new Error('unreachable');
    await expect(service.verifyAccessToken(narrowed.pair.accessToken)).resolves.toMatchObject({ scopes: ['bot:read'] });
    expect(refresh[1].scope).toBe('bot:read bot:write');
  });
});
