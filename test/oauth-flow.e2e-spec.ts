import {
  SeededAdmin,
  addressPerRequest,
  adminTokenAnswer,
  advanceClock,
  authorizeCode,
  createBot,
  oauthPost,
  openAuthorize,
  pkcePair,
  registerOAuthClient,
  seedBotAdmin,
  seedBotWithAdmin,
  submitConsent,
} from '@platform/testing';
import { useStack } from './e2e-stack.js';

const ISSUER = 'https://auth.example.test';
const REDIRECT = 'https://client.example.com/callback?tenant=7';

describe('OAuth 2.0 authorization server: the authorization code flow end to end', () => {
  const stack = useStack({ env: { AUTH_URL: ISSUER, AUTH_CODE_TTL_SECONDS: '60', TRUST_PROXY: 'true' } });
  let botId: string;
  let admin: SeededAdmin;
  let confidential: { client_id: string; client_secret: string };
  let publicClient: { client_id: string };
  const from = addressPerRequest('192.0.2.');

  beforeAll(async () => {
    ({ botId, admin } = await seedBotWithAdmin(stack.gateway, 'Support bot'));
    confidential = await registerOAuthClient(stack.url, botId, admin.accessToken, { name: 'Acme CRM', type: 'confidential', redirect_uris: [REDIRECT] });
    publicClient = await registerOAuthClient(stack.url, botId, admin.accessToken, { name: 'Acme mobile', type: 'public', redirect_uris: ['com.acme.app:/oauth'] });
  });

  const login = () => ({ email: admin.email, password: admin.password });
  const listKeys = (token: string) => fetch(`${stack.url}/v1/bots/${botId}/api-keys`, { headers: { 'x-auth-token': token } });
  const authParams = (extra: Record<string, string> = {}) => ({
    client_id: confidential.client_id,
    response_type: 'code',
    redirect_uri: REDIRECT,
    state: 'st-123',
    ...extra,
  });
  const post = (fields: Record<string, string>) =>
    oauthPost(stack.url, '/oauth/token', { client_id: confidential.client_id, client_secret: confidential.client_secret, ...fields }, { headers: from() });
  const basic = (fields: Record<string, string>) => oauthPost(stack.url, '/oauth/token', fields, { basic: { id: confidential.client_id, secret: confidential.client_secret }, headers: from() });

  it('authorize → login and consent form → code → token → admin route → refresh → old refresh token refused (grant revoked)', async () => {
    const { verifier, challenge } = pkcePair();
    const page = await openAuthorize(stack.url, authParams({ scope: 'bot:admin', code_challenge: challenge, code_challenge_method: 'S256' }), from());
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.html).toContain('Acme CRM');
    expect(page.html).toContain('Support bot');
    expect(page.form?.cookie).toMatch(/^oauth_csrf_/);
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict; Secure/);

    const done = await submitConsent(stack.url, page.form!, login(), from());
    expect(done.status).toBe(303);
    expect(done.location!.origin + done.location!.pathname).toBe('https://client.example.com/callback');
    expect(done.location!.searchParams.get('tenant')).toBe('7');
    expect(done.location!.searchParams.get('state')).toBe('st-123');
    expect(done.location!.searchParams.get('iss')).toBe(ISSUER);
    const code = done.location!.searchParams.get('code')!;
    expect(code).toMatch(/^bac_/);

    const res = await post({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    const tokens = await res.json();
    expect(tokens).toEqual(adminTokenAnswer(900));

    expect((await listKeys(tokens.access_token)).status).toBe(200);
    const bearer = await fetch(`${stack.url}/v1/bots/${botId}/api-keys`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(bearer.status).toBe(200);

    const refreshed = await basic({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.get('cache-control')).toBe('no-store');
    const next = await refreshed.json();
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect(next.access_token).not.toBe(tokens.access_token);
    expect((await listKeys(next.access_token)).status).toBe(200);

    const reused = await basic({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(reused.status).toBe(400);
    expect(await reused.json()).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    // Reuse of a rotated refresh token revokes the whole grant: the newer pair dies with it.
    expect((await listKeys(next.access_token)).status).toBe(401);
    expect((await basic({ grant_type: 'refresh_token', refresh_token: next.refresh_token })).status).toBe(400);
  });

  it('revocation (RFC 7009): an access token alone, then a refresh token with its whole grant', async () => {
    const { code } = await authorizeCode(stack.url, authParams(), login(), from());
    const tokens = await (await basic({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).json();
    expect((await listKeys(tokens.access_token)).status).toBe(200);

    const revokeAccess = await oauthPost(
      stack.url,
      '/oauth/revoke',
      { token: tokens.access_token, token_type_hint: 'access_token' },
      {
        basic: { id: confidential.client_id, secret: confidential.client_secret },
        headers: from(),
      },
    );
    expect(revokeAccess.status).toBe(200);
    expect((await listKeys(tokens.access_token)).status).toBe(401);

    const refreshed = await (await basic({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).json();
    expect((await listKeys(refreshed.access_token)).status).toBe(200);
    const revokeRefresh = await oauthPost(
      stack.url,
      '/oauth/revoke',
      { token: refreshed.refresh_token, client_id: confidential.client_id, client_secret: confidential.client_secret },
      { headers: from() },
    );
    expect(revokeRefresh.status).toBe(200);
    expect((await listKeys(refreshed.access_token)).status).toBe(401);
    const after = await basic({ grant_type: 'refresh_token', refresh_token: refreshed.refresh_token });
    expect((await after.json()).error).toBe('invalid_grant');

    const unknown = await oauthPost(
      stack.url,
      '/oauth/revoke',
      { token: 'bat_' + 'x'.repeat(43) },
      {
        basic: { id: confidential.client_id, secret: confidential.client_secret },
        headers: from(),
      },
    );
    expect(unknown.status).toBe(200);
  });

  it('a code is single-use: the second exchange fails with invalid_grant and revokes the tokens issued from it', async () => {
    const { code } = await authorizeCode(stack.url, authParams(), login(), from());
    const first = await post({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect(first.status).toBe(200);
    const tokens = await first.json();
    expect((await listKeys(tokens.access_token)).status).toBe(200);

    const second = await post({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect(second.status).toBe(400);
    expect((await second.json()).error).toBe('invalid_grant');
    expect((await listKeys(tokens.access_token)).status).toBe(401);
    expect((await (await post({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).json()).error).toBe('invalid_grant');
  });

  it('a code expires after AUTH_CODE_TTL_SECONDS (injected clock)', async () => {
    const { code } = await authorizeCode(stack.url, authParams(), login(), from());
    const restore = advanceClock(stack.gateway, 61_000);
    try {
      const res = await post({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) });
    } finally {
      restore();
    }
  });

  it('a code is still good just before it expires', async () => {
    const { code } = await authorizeCode(stack.url, authParams(), login(), from());
    const restore = advanceClock(stack.gateway, 59_000);
    try {
      expect((await post({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).status).toBe(200);
    } finally {
      restore();
    }
  });

  describe('PKCE (S256)', () => {
    const mobile = (extra: Record<string, string>) => ({
      client_id: publicClient.client_id,
      response_type: 'code',
      redirect_uri: 'com.acme.app:/oauth',
      state: 'm1',
      ...extra,
    });
    const publicToken = (fields: Record<string, string>) =>
      oauthPost(stack.url, '/oauth/token', { client_id: publicClient.client_id, grant_type: 'authorization_code', redirect_uri: 'com.acme.app:/oauth', ...fields }, { headers: from() });

    it('a public client with the right verifier gets tokens (no secret) and can refresh', async () => {
      const { verifier, challenge } = pkcePair();
      const { code, location } = await authorizeCode(stack.url, mobile({ code_challenge: challenge, code_challenge_method: 'S256' }), login(), from());
      expect(location.protocol).toBe('com.acme.app:');
      const res = await publicToken({ code, code_verifier: verifier });
      expect(res.status).toBe(200);
      const tokens = await res.json();
      expect((await listKeys(tokens.access_token)).status).toBe(200);
      const refreshed = await oauthPost(stack.url, '/oauth/token', { client_id: publicClient.client_id, grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, { headers: from() });
      expect(refreshed.status).toBe(200);
    });

    it('a wrong verifier is refused with invalid_grant', async () => {
      const { challenge } = pkcePair();
      const { code } = await authorizeCode(stack.url, mobile({ code_challenge: challenge, code_challenge_method: 'S256' }), login(), from());
      const res = await publicToken({ code, code_verifier: pkcePair().verifier });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/code_verifier/) });
    });

    it('a missing verifier is refused with invalid_grant', async () => {
      const { challenge } = pkcePair();
      const { code } = await authorizeCode(stack.url, mobile({ code_challenge: challenge, code_challenge_method: 'S256' }), login(), from());
      expect((await (await publicToken({ code })).json()).error).toBe('invalid_grant');
    });

    it('is required for public clients: authorize without code_challenge redirects with invalid_request', async () => {
      const page = await openAuthorize(stack.url, mobile({}), from());
      expect(page.status).toBe(303);
      expect(page.location!.searchParams.get('error')).toBe('invalid_request');
      expect(page.location!.searchParams.get('state')).toBe('m1');
      expect(page.location!.searchParams.get('code')).toBeNull();
    });

    it('plain is refused', async () => {
      const page = await openAuthorize(stack.url, mobile({ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }), from());
      expect(page.location!.searchParams.get('error')).toBe('invalid_request');
    });
  });

  describe('client authentication', () => {
    it('HTTP Basic (client_secret_basic)', async () => {
      const { code } = await authorizeCode(stack.url, authParams(), login(), from());
      expect((await basic({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).status).toBe(200);
    });

    it('form fields (client_secret_post)', async () => {
      const { code } = await authorizeCode(stack.url, authParams(), login(), from());
      expect((await post({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).status).toBe(200);
    });
  });

  describe('the login and consent form', () => {
    it('deny redirects with access_denied and the state', async () => {
      const page = await openAuthorize(stack.url, authParams(), from());
      const done = await submitConsent(stack.url, page.form!, { decision: 'deny' }, from());
      expect(done.status).toBe(303);
      expect(done.location!.searchParams.get('error')).toBe('access_denied');
      expect(done.location!.searchParams.get('state')).toBe('st-123');
    });

    it('a wrong password shows the form again with an error, and no code', async () => {
      const page = await openAuthorize(stack.url, authParams(), from());
      const done = await submitConsent(stack.url, page.form!, { email: admin.email, password: 'not the password' }, from());
      expect(done.status).toBe(200);
      expect(done.location).toBeUndefined();
      expect(done.html).toContain('Invalid e-mail or password');
      // The same form still works with the right password.
      const ok = await submitConsent(stack.url, page.form!, login(), from());
      expect(ok.location!.searchParams.get('code')).toMatch(/^bac_/);
    });

    it('a user without a role on the bot gets no code', async () => {
      const otherBot = await createBot(stack.gateway, 'other');
      const stranger = await seedBotAdmin(stack.gateway, otherBot);
      const page = await openAuthorize(stack.url, authParams(), from());
      const done = await submitConsent(stack.url, page.form!, { email: stranger.email, password: stranger.password }, from());
      expect(done.status).toBe(200);
      expect(done.location).toBeUndefined();
      expect(done.html).toContain('no role on the bot');
    });

    it('refuses a submission without the CSRF cookie, with a wrong token, or twice', async () => {
      const page = await openAuthorize(stack.url, authParams(), from());
      const noCookie = await submitConsent(stack.url, { ...page.form!, cookie: 'other=1' }, login(), from());
      expect(noCookie.status).toBe(403);
      expect(noCookie.location).toBeUndefined();
      const wrongToken = await submitConsent(stack.url, page.form!, { ...login(), csrf_token: 'x'.repeat(43) }, from());
      expect(wrongToken.status).toBe(403);
      const ok = await submitConsent(stack.url, page.form!, login(), from());
      expect(ok.status).toBe(303);
      const again = await submitConsent(stack.url, page.form!, login(), from());
      expect(again.status).toBe(400);
      expect(again.location).toBeUndefined();
    });

    it('escapes what it shows', async () => {
      const evil = await registerOAuthClient(stack.url, botId, admin.accessToken, {
        name: '<script>alert(1)</script>"',
        type: 'confidential',
        redirect_uris: [REDIRECT],
      });
      const page = await openAuthorize(stack.url, { client_id: evil.client_id, response_type: 'code', redirect_uri: REDIRECT, state: '"><img src=x onerror=alert(1)>' }, from());
      expect(page.status).toBe(200);
      expect(page.html).not.toContain('<script>alert(1)');
      expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;');
      expect(page.html).not.toContain('<img');
    });

    it("a viewer's approval yields bot:read only, which the admin routes refuse with 403", async () => {
      const viewer = await seedBotAdmin(stack.gateway, botId, 'viewer');
      const { code } = await authorizeCode(stack.url, authParams({ scope: 'bot:admin' }), { email: viewer.email, password: viewer.password }, from());
      const tokens = await (await post({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).json();
      expect(tokens.scope).toBe('bot:read');
      expect((await listKeys(tokens.access_token)).status).toBe(403);
    });
  });

  it('a token with scope bot:read is refused on admin routes even for an admin (403)', async () => {
    const { code } = await authorizeCode(stack.url, authParams({ scope: 'bot:read' }), login(), from());
    const tokens = await (await post({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).json();
    expect(tokens.scope).toBe('bot:read');
    const res = await listKeys(tokens.access_token);
    expect(res.status).toBe(403);
    expect((await res.json()).message).toMatch(/scope/);
  });

  it('an OAuth token is bound to its client’s bot: 403 on another bot the user administers', async () => {
    const otherBot = await createBot(stack.gateway, 'second');
    await fetch(`${stack.url}/v1/bots/${otherBot}/api-keys`, { headers: { 'x-auth-token': admin.accessToken } });
    const { code } = await authorizeCode(stack.url, authParams(), login(), from());
    const tokens = await (await post({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).json();
    const { UserService } = await import('@platform/accounts');
    await stack.gateway.get(UserService, { strict: false }).setRole(admin.userId, otherBot, 'admin');
    expect((await fetch(`${stack.url}/v1/bots/${otherBot}/api-keys`, { headers: { 'x-auth-token': admin.accessToken } })).status).toBe(200);
    expect((await fetch(`${stack.url}/v1/bots/${otherBot}/api-keys`, { headers: { 'x-auth-token': tokens.access_token } })).status).toBe(403);
  });

  it('revoking the client revokes its tokens', async () => {
    const client = await registerOAuthClient(stack.url, botId, admin.accessToken, { name: 'short-lived', type: 'confidential', redirect_uris: [REDIRECT] });
    const { code } = await authorizeCode(stack.url, { ...authParams(), client_id: client.client_id }, login(), from());
    const tokens = await (
      await oauthPost(
        stack.url,
        '/oauth/token',
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.client_id, client_secret: client.client_secret },
        { headers: from() },
      )
    ).json();
    expect((await listKeys(tokens.access_token)).status).toBe(200);
    const del = await fetch(`${stack.url}/v1/bots/${botId}/oauth-clients/${client.id}`, { method: 'DELETE', headers: { 'x-auth-token': admin.accessToken } });
    expect(del.status).toBe(200);
    expect((await listKeys(tokens.access_token)).status).toBe(401);
    const list = await (await fetch(`${stack.url}/v1/bots/${botId}/oauth-clients`, { headers: { 'x-auth-token': admin.accessToken } })).json();
    const listed = list.clients.find((c: { id: string }) => c.id === client.id);
    expect(listed.revoked_at).not.toBeNull();
    expect(JSON.stringify(list)).not.toContain(client.client_secret);
    expect(JSON.stringify(list)).not.toMatch(/secret/);
  });

  it('publishes RFC 8414 metadata with issuer = AUTH_URL', async () => {
    const res = await fetch(`${stack.url}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oauth/authorize`,
      token_endpoint: `${ISSUER}/oauth/token`,
      revocation_endpoint: `${ISSUER}/oauth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: expect.arrayContaining(['client_secret_basic', 'client_secret_post', 'none']),
      scopes_supported: expect.arrayContaining(['bot:read', 'bot:admin']),
    });
  });
});
