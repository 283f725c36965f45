import 'reflect-metadata';
import type { Clock } from '@platform/accounts';
import { OAuthError, generateSecret } from '@platform/accounts';
import type { AuthEnv } from '@platform/config';
import { sha256Hex } from '@platform/crypto';
import type { AuthorizationCodeRepository, OAuthClient } from '@platform/database';
import { InMemoryTokenRepository } from '@platform/testing';
import { TokenService } from '../tokens/token.service.js';
import { OAuthTokenService } from './oauth-token.service.js';
import { s256 } from './pkce.js';

const T0 = Date.parse('2026-12-16T10:00:00Z');
const REDIRECT = 'https://app.example.com/callback';
const VERIFIER = 'v'.repeat(43);

interface Code {
  id: string;
  codeHash: string;
  clientId: string;
  userId: string;
  botId: string;
  redirectUri: string;
  scope: string;
  codeChallenge: string | null;
  expiresAt: Date;
  usedAt: Date | null;
  grantId: string | null;
}

/** The real TokenService over in-memory token and code repositories. */
function setup() {
  let now = T0;
  const tokenStore = new InMemoryTokenRepository(() => new Date(now));
  const { grants, access, refresh } = tokenStore;
  const store = tokenStore.asRepository();
  const codes: Code[] = [];
  const codeRepo = {
    findByHash: async (h: string) => (codes.find((c) => c.codeHash === h) ? { ...codes.find((c) => c.codeHash === h)! } : null),
    consume: async (id: string, at: Date) => {
      const c = codes.find((x) => x.id === id && !x.usedAt);
      if (c) c.usedAt = at;
      return !!c;
    },
    setGrant: async (id: string, grantId: string) =>
      Object.assign(
        codes.find((c) => c.id === id)!,
        { grantId },
      ),
  } as unknown as AuthorizationCodeRepository;
  const clock = { now: () => new Date(now) } as Clock;
  const tokens = new TokenService(store, { AUTH_ACCESS_TOKEN_TTL_SECONDS: 900, AUTH_REFRESH_TOKEN_TTL_SECONDS: 86_400 } as AuthEnv, clock);
  const service = new OAuthTokenService(codeRepo, tokens, store, clock);
  /** An unused code as AuthorizationService stores it: only its hash. */
  const issueCode = (over: Partial<Code> = {}) => {
    const code = generateSecret('code');
    codes.push({
      id: `code-${codes.length}`,
      codeHash: code.hash,
      clientId: 'client-db-1',
      userId: 'user-1',
      botId: 'bot-1',
      redirectUri: REDIRECT,
      scope: 'bot:read bot:write',
      codeChallenge: s256(VERIFIER),
      expiresAt: new Date(now + 60_000),
      usedAt: null,
      grantId: null,
      ...over,
    });
    return code.value;
  };
  return { service, tokens, grants, access, refresh, codes, issueCode, advance: (ms: number) => (now += ms) };
}

const client = (over: Partial<OAuthClient> = {}) => ({ id: 'client-db-1', clientId: 'bci_one', grantTypes: ['authorization_code', 'refresh_token'], ...over }) as OAuthClient;
const exchange = (code: string, over: Record<string, string> = {}) => ({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER, ...over });

async function oauthError(p: Promise<unknown>): Promise<{ error: string; description: string; status: number }> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OAuthError);
  const { error, description, status } = err as OAuthError;
  return { error, description, status };
}

describe('OAuthTokenService', () => {
  it('exchanges a code with its PKCE verifier for a Bearer pair on a new OAuth grant', async () => {
    const { service, tokens, grants, codes, issueCode } = setup();
    const code = issueCode();
    const answer = await service.grant(client(), exchange(code));
    expect(answer).toEqual({ access_token: expect.stringMatching(/^bat_/), token_type: 'Bearer', expires_in: 900, refresh_token: expect.stringMatching(/^brt_/), scope: 'bot:read bot:write' });
    expect(grants).toEqual([expect.objectContaining({ kind: 'oauth', userId: 'user-1', botId: 'bot-1', clientId: 'client-db-1', scope: 'bot:read bot:write' })]);
    expect(codes[0]).toMatchObject({ usedAt: new Date(T0), grantId: grants[0].id });
    await expect(tokens.verifyAccessToken(answer.access_token)).resolves.toMatchObject({ botId: 'bot-1', clientId: 'client-db-1' });
  });

  it('answers no refresh token to a client without the refresh_token grant', async () => {
    const { service, issueCode, refresh } = setup();
    const answer = await service.grant(client({ grantTypes: ['authorization_code'] }), exchange(issueCode()));
    expect(answer.refresh_token).toBeUndefined();
    expect(refresh).toHaveLength(0);
  });

  it('refuses a second presentation of a code and revokes the tokens issued from the first', async () => {
    const { service, tokens, issueCode } = setup();
    const code = issueCode();
    const first = await service.grant(client(), exchange(code));
    expect(await oauthError(service.grant(client(), exchange(code)))).toEqual({
      error: 'invalid_grant',
      description: 'The authorization code was already used; the tokens issued from it are revoked',
      status: 400,
    });
    await expect(tokens.verifyAccessToken(first.access_token)).resolves.toBeNull();
    await expect(service.grant(client(), { grant_type: 'refresh_token', refresh_token: first.refresh_token! })).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('burns a code on a failed exchange too: the right verifier afterwards is a reuse', async () => {
    const { service, codes, issueCode, grants } = setup();
    const code = issueCode();
    expect(await oauthError(service.grant(client(), exchange(code, { code_verifier: 'w'.repeat(43) })))).toMatchObject({
      error: 'invalid_grant',
      description: 'code_verifier does not match the code_challenge',
    });
    expect(codes[0].usedAt).toEqual(new Date(T0));
    expect(await oauthError(service.grant(client(), exchange(code)))).toMatchObject({ description: expect.stringContaining('already used') });
    expect(grants).toHaveLength(0);
  });

  it('refuses an expired code', async () => {
    const { service, issueCode, advance } = setup();
    const code = issueCode();
    advance(60_000);
    expect(await oauthError(service.grant(client(), exchange(code)))).toMatchObject({ error: 'invalid_grant', description: 'The authorization code has expired' });
  });

  it("refuses another client's code as if unknown, without spending it", async () => {
    const { service, issueCode, codes } = setup();
    const code = issueCode();
    expect(await oauthError(service.grant(client({ id: 'client-db-2' }), exchange(code)))).toMatchObject({ error: 'invalid_grant', description: 'The authorization code is invalid' });
    expect(codes[0].usedAt).toBeNull();
    expect(await oauthError(service.grant(client(), exchange('bac_unknown')))).toMatchObject({ description: 'The authorization code is invalid' });
    expect(await oauthError(service.grant(client(), exchange(generateSecret('access').value)))).toMatchObject({ description: 'The authorization code is invalid' });
  });

  it('refuses a redirect_uri other than the one of the request', async () => {
    const { service, issueCode } = setup();
    expect(await oauthError(service.grant(client(), exchange(issueCode(), { redirect_uri: 'https://app.example.com/other' })))).toMatchObject({
      error: 'invalid_grant',
      description: 'redirect_uri differs from the one of the authorization request',
    });
  });

  it('refuses a missing verifier for a PKCE code, and a verifier for a code without challenge', async () => {
    const { service, issueCode } = setup();
    const noVerifier = exchange(issueCode());
    delete (noVerifier as Record<string, string | undefined>).code_verifier;
    expect(await oauthError(service.grant(client(), noVerifier))).toMatchObject({ description: 'code_verifier does not match the code_challenge' });
    expect(await oauthError(service.grant(client(), exchange(issueCode({ codeChallenge: null }))))).toMatchObject({
      description: 'code_verifier sent for a code requested without code_challenge',
    });
    const plain = exchange(issueCode({ codeChallenge: null }));
    delete (plain as Record<string, string | undefined>).code_verifier;
    await expect(service.grant(client(), plain)).resolves.toMatchObject({ token_type: 'Bearer' });
  });

  it('names each missing or malformed request parameter', async () => {
    const { service, issueCode, codes } = setup();
    const code = issueCode();
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ grant_type: 'password' }, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token'],
      [{ grant_type: 'authorization_code', redirect_uri: REDIRECT }, 'invalid_request', 'code is required'],
      [{ grant_type: 'authorization_code', code }, 'invalid_request', 'redirect_uri is required'],
      [exchange(code, { code_verifier: 'short' }), 'invalid_request', 'code_verifier must be 43 to 128 unreserved characters'],
      [{ grant_type: 'refresh_token' }, 'invalid_request', 'refresh_token is required'],
    ];
    for (const [body, error, description] of cases) expect(await oauthError(service.grant(client(), body))).toEqual({ error, description, status: 400 });
    expect(codes[0].usedAt).toBeNull();
  });

  it('refuses a grant type the client is not registered for', async () => {
    const { service, issueCode } = setup();
    expect(await oauthError(service.grant(client({ grantTypes: ['authorization_code'] }), { grant_type: 'refresh_token', refresh_token: 'brt_x' }))).toMatchObject({
      error: 'unauthorized_client',
      description: 'this client may not use the refresh_token grant',
    });
    expect(await oauthError(service.grant(client({ grantTypes: ['refresh_token'] }), exchange(issueCode())))).toMatchObject({ error: 'unauthorized_client' });
  });

  it('rotates a refresh token; a replayed one revokes the grant; a wider scope is invalid_scope', async () => {
    const { service, tokens, issueCode } = setup();
    const first = await service.grant(client(), exchange(issueCode()));
    expect(await oauthError(service.grant(client(), { grant_type: 'refresh_token', refresh_token: first.refresh_token!, scope: 'bot:admin' }))).toMatchObject({
      error: 'invalid_scope',
      description: 'scope exceeds the scope of the grant',
    });
    const second = await service.grant(client(), { grant_type: 'refresh_token', refresh_token: first.refresh_token!, scope: 'bot:read' });
    expect(second).toMatchObject({ scope: 'bot:read', refresh_token: expect.stringMatching(/^brt_/) });
    expect(await oauthError(service.grant(client(), { grant_type: 'refresh_token', refresh_token: first.refresh_token! }))).toMatchObject({
      error: 'invalid_grant',
      description: 'The refresh token was already used; the grant is revoked',
    });
    await expect(tokens.verifyAccessToken(second.access_token)).resolves.toBeNull();
    expect(await oauthError(service.grant(client(), { grant_type: 'refresh_token', refresh_token: second.refresh_token! }))).toMatchObject({
      description: 'The refresh token is invalid, expired or revoked',
    });
  });

  it("refuses another client's refresh token", async () => {
    const { service, issueCode } = setup();
    const first = await service.grant(client(), exchange(issueCode()));
    expect(await oauthError(service.grant(client({ id: 'client-db-2' }), { grant_type: 'refresh_token', refresh_token: first.refresh_token! }))).toMatchObject({
      error: 'invalid_grant',
      description: 'The refresh token is invalid, expired or revoked',
    });
    await expect(service.grant(client(), { grant_type: 'refresh_token', refresh_token: first.refresh_token! })).resolves.toMatchObject({ token_type: 'Bearer' });
  });

  describe('revoke', () => {
    it('revokes an access token alone, or a refresh token with its whole grant', async () => {
      const { service, tokens, issueCode, grants } = setup();
      const a = await service.grant(client(), exchange(issueCode()));
      const b = await service.grant(client(), exchange(issueCode()));
      await service.revoke(client(), { token: a.access_token });
      await expect(tokens.verifyAccessToken(a.access_token)).resolves.toBeNull();
      expect(grants[0].revokedAt).toBeNull();
      await expect(service.grant(client(), { grant_type: 'refresh_token', refresh_token: a.refresh_token! })).resolves.toMatchObject({ token_type: 'Bearer' });
      await service.revoke(client(), { token: b.refresh_token! });
      expect(grants[1].revokedAt).toEqual(new Date(T0));
      await expect(tokens.verifyAccessToken(b.access_token)).resolves.toBeNull();
    });

    it("leaves unknown tokens and another client's tokens alone, without telling", async () => {
      const { service, tokens, issueCode, grants } = setup();
      const a = await service.grant(client(), exchange(issueCode()));
      const other = client({ id: 'client-db-2' });
      await expect(service.revoke(other, { token: a.access_token })).resolves.toBeUndefined();
      await expect(service.revoke(other, { token: a.refresh_token! })).resolves.toBeUndefined();
      await expect(service.revoke(client(), { token: 'bat_unknown' })).resolves.toBeUndefined();
      await expect(service.revoke(client(), { token: 'something else' })).resolves.toBeUndefined();
      expect(grants[0].revokedAt).toBeNull();
      await expect(tokens.verifyAccessToken(a.access_token)).resolves.not.toBeNull();
    });

    it('requires the token parameter', async () => {
      const { service } = setup();
      expect(await oauthError(service.revoke(client(), {}))).toEqual({ error: 'invalid_request', description: 'token is required', status: 400 });
    });
  });

  it('looks codes up by their SHA-256 only', async () => {
    const { service, issueCode, codes } = setup();
    const code = issueCode();
    expect(codes[0].codeHash).toBe(sha256Hex(code));
    expect(JSON.stringify(codes)).not.toContain(code);
    await expect(service.grant(client(), exchange(code))).resolves.toBeDefined();
  });
});
