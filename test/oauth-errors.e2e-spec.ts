import { SeededAdmin, addressPerRequest, authorizeCode, oauthPost, openAuthorize, pkcePair, registerOAuthClient, seedBotAdmin, seedBotWithAdmin } from '@platform/testing';
import { useStack } from './e2e-stack.js';

const REDIRECT = 'https://client.example.com/cb';

/** Every error of the authorization, token and revocation endpoints, in the RFCs' shapes. */
describe('OAuth errors (RFC 6749 §4.1.2.1 and §5.2, RFC 7009)', () => {
  const stack = useStack({ env: { TRUST_PROXY: 'true' } });
  let botId: string;
  let admin: SeededAdmin;
  let client: { id: string; client_id: string; client_secret: string };
  let other: { client_id: string; client_secret: string };
  let noRefresh: { client_id: string; client_secret: string };
  let pub: { client_id: string };
  const from = addressPerRequest('198.18.0.');

  beforeAll(async () => {
    ({ botId, admin } = await seedBotWithAdmin(stack.gateway, 'errors bot'));
    client = await registerOAuthClient(stack.url, botId, admin.accessToken, {
      name: 'main',
      type: 'confidential',
      redirect_uris: [REDIRECT, 'http://127.0.0.1:8765/cb'],
      scopes: ['bot:read', 'bot:admin'],
    });
    other = await registerOAuthClient(stack.url, botId, admin.accessToken, { name: 'other', type: 'confidential', redirect_uris: [REDIRECT] });
    noRefresh = await registerOAuthClient(stack.url, botId, admin.accessToken, {
      name: 'no refresh',
      type: 'confidential',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code'],
    });
    pub = await registerOAuthClient(stack.url, botId, admin.accessToken, { name: 'spa', type: 'public', redirect_uris: ['http://localhost:3000/cb'] });
  });

  const login = () => ({ email: admin.email, password: admin.password });
  const codeFor = (c: { client_id: string }, extra: Record<string, string> = {}) =>
    authorizeCode(stack.url, { client_id: c.client_id, response_type: 'code', redirect_uri: REDIRECT, ...extra }, login(), from()).then((r) => r.code);
  const token = (fields: Record<string, string>, opts: Parameters<typeof oauthPost>[3] = {}) => oauthPost(stack.url, '/oauth/token', fields, { ...opts, headers: { ...from(), ...opts.headers } });
  const withSecret = (fields: Record<string, string>, c: { client_id: string; client_secret: string } = client) => token({ client_id: c.client_id, client_secret: c.client_secret, ...fields });

  async function expectError(res: Response, status: number, error: string) {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body).toEqual({ error, error_description: expect.any(String) });
    expect(body).not.toHaveProperty('status');
    return body;
  }

  describe('GET /oauth/authorize: an HTML error page, never a redirect, when client or redirect URI cannot be trusted', () => {
    it.each([
      ['unknown client', { client_id: 'bci_nope', response_type: 'code', redirect_uri: REDIRECT }],
      ['missing client_id', { response_type: 'code', redirect_uri: REDIRECT }],
      ['missing redirect_uri', { client_id: 'CLIENT', response_type: 'code' }],
      ['unregistered redirect_uri', { client_id: 'CLIENT', response_type: 'code', redirect_uri: 'https://evil.example/cb' }],
      ['redirect_uri with a trailing slash', { client_id: 'CLIENT', response_type: 'code', redirect_uri: `${REDIRECT}/` }],
      ['redirect_uri with an extra query', { client_id: 'CLIENT', response_type: 'code', redirect_uri: `${REDIRECT}?x=1` }],
      ['redirect_uri of another case', { client_id: 'CLIENT', response_type: 'code', redirect_uri: REDIRECT.toUpperCase() }],
      ['loopback redirect with another port', { client_id: 'CLIENT', response_type: 'code', redirect_uri: 'http://127.0.0.1:9999/cb' }],
    ])('%s → 400 page', async (_name, params: Record<string, string>) => {
      const p = { ...params };
      if (p.client_id === 'CLIENT') p.client_id = client.client_id;
      const page = await openAuthorize(stack.url, { ...p, state: 'abc' }, from());
      expect(page.status).toBe(400);
      expect(page.location).toBeUndefined();
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.html).toContain('Authorization error');
    });

    it('repeated client_id → 400 page', async () => {
      const res = await fetch(`${stack.url}/oauth/authorize?client_id=${client.client_id}&client_id=${other.client_id}&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}`, {
        redirect: 'manual',
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    });
  });

  describe('GET /oauth/authorize: other errors redirect with error and state', () => {
    const base = () => ({ client_id: client.client_id, redirect_uri: REDIRECT, state: 'keep-me' });
    it.each([
      ['missing response_type', {}, 'invalid_request'],
      ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
      ['unknown scope', { response_type: 'code', scope: 'bot:admin everything' }, 'invalid_scope'],
      ['scope beyond the client', { response_type: 'code', scope: 'bot:write' }, 'invalid_scope'],
      ['code_challenge_method=plain', { response_type: 'code', code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, 'invalid_request'],
      ['code_challenge without method', { response_type: 'code', code_challenge: 'a'.repeat(43) }, 'invalid_request'],
      ['malformed code_challenge', { response_type: 'code', code_challenge: 'short', code_challenge_method: 'S256' }, 'invalid_request'],
    ])('%s → %s', async (_name, extra: Record<string, string>, error) => {
      const page = await openAuthorize(stack.url, { ...base(), ...extra }, from());
      expect(page.status).toBe(303);
      expect(page.location!.origin + page.location!.pathname).toBe(REDIRECT);
      expect(page.location!.searchParams.get('error')).toBe(error);
      expect(page.location!.searchParams.get('state')).toBe('keep-me');
      expect(page.location!.searchParams.get('code')).toBeNull();
    });

    it('a repeated parameter → invalid_request', async () => {
      const res = await fetch(`${stack.url}/oauth/authorize?client_id=${client.client_id}&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=bot:read&scope=bot:admin&state=s`, {
        redirect: 'manual',
      });
      const location = new URL(res.headers.get('location')!);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('state')).toBe('s');
    });
  });

  describe('POST /oauth/token', () => {
    it('a JSON body → 400 invalid_request in OAuth form, not the platform body', async () => {
      const res = await fetch(`${stack.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...from() },
        body: JSON.stringify({ grant_type: 'authorization_code' }),
      });
      expect((await expectError(res, 400, 'invalid_request')).error_description).toMatch(/x-www-form-urlencoded/);
    });

    it('a text/plain body → 400 invalid_request', async () => {
      const res = await fetch(`${stack.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'text/plain', ...from() }, body: 'grant_type=x' });
      expect((await expectError(res, 400, 'invalid_request')).error_description).toMatch(/x-www-form-urlencoded/);
    });

    it('missing grant_type → invalid_request', async () => {
      await expectError(await withSecret({ code: 'x' }), 400, 'invalid_request');
    });

    it('a repeated parameter → invalid_request', async () => {
      const res = await fetch(`${stack.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...from() },
        body: `grant_type=authorization_code&grant_type=refresh_token&client_id=${client.client_id}&client_secret=${client.client_secret}`,
      });
      await expectError(res, 400, 'invalid_request');
    });

    it('grant_type=password → unsupported_grant_type', async () => {
      await expectError(await withSecret({ grant_type: 'password', username: 'a', password: 'b' }), 400, 'unsupported_grant_type');
    });

    it('grant_type=client_credentials → unsupported_grant_type', async () => {
      await expectError(await withSecret({ grant_type: 'client_credentials' }), 400, 'unsupported_grant_type');
    });

    describe('invalid_client (401)', () => {
      it('unknown client', async () => {
        const body = await expectError(await token({ grant_type: 'authorization_code', code: 'x', client_id: 'bci_unknown', client_secret: 'bcs_x' }), 401, 'invalid_client');
        expect(body.error_description).not.toMatch(/bcs_x/);
      });

      it('wrong secret by post: no WWW-Authenticate', async () => {
        const res = await withSecret({ grant_type: 'authorization_code', code: 'x' }, { ...client, client_secret: 'bcs_wrong' });
        await expectError(res, 401, 'invalid_client');
        expect(res.headers.get('www-authenticate')).toBeNull();
      });

      it('wrong secret by HTTP Basic: 401 with WWW-Authenticate: Basic', async () => {
        const res = await token({ grant_type: 'authorization_code', code: 'x' }, { basic: { id: client.client_id, secret: 'bcs_wrong' } });
        await expectError(res, 401, 'invalid_client');
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="oauth"/);
      });

      it('malformed Basic header', async () => {
        const res = await token({ grant_type: 'authorization_code', code: 'x' }, { headers: { authorization: 'Basic !!!' } });
        await expectError(res, 401, 'invalid_client');
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
      });

      it('no client authentication at all', async () => {
        await expectError(await token({ grant_type: 'authorization_code', code: 'x' }), 401, 'invalid_client');
      });

      it('a confidential client without its secret', async () => {
        await expectError(await token({ grant_type: 'authorization_code', code: 'x', client_id: client.client_id }), 401, 'invalid_client');
      });

      it('a public client sending a secret', async () => {
        await expectError(await token({ grant_type: 'authorization_code', code: 'x', client_id: pub.client_id, client_secret: 'bcs_x' }), 401, 'invalid_client');
      });

      it('a revoked client', async () => {
        const gone = await registerOAuthClient(stack.url, botId, admin.accessToken, { name: 'gone', type: 'confidential', redirect_uris: [REDIRECT] });
        await fetch(`${stack.url}/v1/bots/${botId}/oauth-clients/${gone.id}`, { method: 'DELETE', headers: { 'x-auth-token': admin.accessToken } });
        await expectError(await withSecret({ grant_type: 'authorization_code', code: 'x' }, gone), 401, 'invalid_client');
      });
    });

    it('HTTP Basic and client_secret together → invalid_request', async () => {
      const res = await token({ grant_type: 'authorization_code', code: 'x', client_secret: client.client_secret }, { basic: { id: client.client_id, secret: client.client_secret } });
      await expectError(res, 400, 'invalid_request');
    });

    it('refresh_token grant for a client registered without it → unauthorized_client', async () => {
      const code = await codeFor(noRefresh);
      const tokens = await (await withSecret({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, noRefresh)).json();
      expect(tokens.refresh_token).toBeUndefined();
      expect(tokens.access_token).toMatch(/^bat_/);
      await expectError(await withSecret({ grant_type: 'refresh_token', refresh_token: 'brt_x' }, noRefresh), 400, 'unauthorized_client');
    });

    describe('authorization_code', () => {
      it('missing code → invalid_request', async () => {
        await expectError(await withSecret({ grant_type: 'authorization_code', redirect_uri: REDIRECT }), 400, 'invalid_request');
      });

      it('missing redirect_uri → invalid_request', async () => {
        await expectError(await withSecret({ grant_type: 'authorization_code', code: 'bac_x' }), 400, 'invalid_request');
      });

      it('an unknown code → invalid_grant', async () => {
        await expectError(await withSecret({ grant_type: 'authorization_code', code: 'bac_' + 'q'.repeat(43), redirect_uri: REDIRECT }), 400, 'invalid_grant');
      });

      it("another client's code → invalid_grant", async () => {
        const code = await codeFor(client);
        await expectError(await withSecret({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, other), 400, 'invalid_grant');
        // Not burnt by the wrong client: its own client can still redeem it.
        expect((await withSecret({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).status).toBe(200);
      });

      it('a redirect_uri other than the authorization request’s → invalid_grant', async () => {
        const code = await codeFor(client);
        await expectError(await withSecret({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:8765/cb' }), 400, 'invalid_grant');
      });

      it('a code_verifier for a code requested without PKCE → invalid_grant', async () => {
        const code = await codeFor(client);
        await expectError(await withSecret({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: pkcePair().verifier }), 400, 'invalid_grant');
      });

      it('a malformed code_verifier → invalid_request', async () => {
        const code = await codeFor(client, { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' });
        await expectError(await withSecret({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: 'short' }), 400, 'invalid_request');
      });
    });

    describe('refresh_token', () => {
      it('missing refresh_token → invalid_request', async () => {
        await expectError(await withSecret({ grant_type: 'refresh_token' }), 400, 'invalid_request');
      });

      it('an unknown refresh token → invalid_grant', async () => {
        await expectError(await withSecret({ grant_type: 'refresh_token', refresh_token: 'brt_' + 'z'.repeat(43) }), 400, 'invalid_grant');
      });

      it("another client's refresh token → invalid_grant", async () => {
        const code = await codeFor(client);
        const tokens = await (await withSecret({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).json();
        await expectError(await withSecret({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, other), 400, 'invalid_grant');
      });

      it('a dashboard session refresh token → invalid_grant', async () => {
        await expectError(await withSecret({ grant_type: 'refresh_token', refresh_token: admin.refreshToken }), 400, 'invalid_grant');
      });

      it('a scope beyond the grant → invalid_scope; a narrower one is granted', async () => {
        const code = await codeFor(client, { scope: 'bot:read' });
        const tokens = await (await withSecret({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).json();
        await expectError(await withSecret({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, scope: 'bot:admin' }), 400, 'invalid_scope');
        await expectError(await withSecret({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, scope: 'bot:nope' }), 400, 'invalid_scope');

        const wide = await (await withSecret({ grant_type: 'authorization_code', code: await codeFor(client), redirect_uri: REDIRECT })).json();
        expect(wide.scope).toBe('bot:read bot:admin');
        const narrow = await withSecret({ grant_type: 'refresh_token', refresh_token: wide.refresh_token, scope: 'bot:read' });
        expect(narrow.status).toBe(200);
        expect((await narrow.json()).scope).toBe('bot:read');
      });
    });
  });

  describe('POST /oauth/revoke', () => {
    it('missing token → invalid_request', async () => {
      await expectError(await oauthPost(stack.url, '/oauth/revoke', { client_id: client.client_id, client_secret: client.client_secret }, { headers: from() }), 400, 'invalid_request');
    });

    it('no client authentication → invalid_client', async () => {
      await expectError(await oauthPost(stack.url, '/oauth/revoke', { token: 'bat_x' }, { headers: from() }), 401, 'invalid_client');
    });

    it("another client's token: 200 and no effect", async () => {
      const code = await codeFor(client);
      const tokens = await (await withSecret({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).json();
      const res = await oauthPost(stack.url, '/oauth/revoke', { token: tokens.access_token, client_id: other.client_id, client_secret: other.client_secret }, { headers: from() });
      expect(res.status).toBe(200);
      expect((await fetch(`${stack.url}/v1/bots/${botId}/api-keys`, { headers: { 'x-auth-token': tokens.access_token } })).status).toBe(200);
    });

    it('a JSON body → invalid_request', async () => {
      const res = await fetch(`${stack.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/json', ...from() }, body: '{"token":"x"}' });
      await expectError(res, 400, 'invalid_request');
    });
  });

  describe('client registration (platform API, admin only)', () => {
    const reg = (body: unknown, token = admin.accessToken) =>
      fetch(`${stack.url}/v1/bots/${botId}/oauth-clients`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-auth-token': token }, body: JSON.stringify(body) });

    it.each([
      ['http redirect to a public host', { name: 'x', type: 'public', redirect_uris: ['http://example.com/cb'] }, /redirect_uris\[0\]/],
      ['a fragment', { name: 'x', type: 'public', redirect_uris: ['https://example.com/cb#frag'] }, /fragment/],
      ['a relative URI', { name: 'x', type: 'public', redirect_uris: ['/cb'] }, /absolute/],
      ['no redirect URI', { name: 'x', type: 'public', redirect_uris: [] }, /redirect_uris/],
      ['an unknown type', { name: 'x', type: 'trusted', redirect_uris: [REDIRECT] }, /type/],
      ['an unknown scope', { name: 'x', type: 'public', redirect_uris: [REDIRECT], scopes: ['root'] }, /scopes/],
      ['only refresh_token', { name: 'x', type: 'public', redirect_uris: [REDIRECT], grant_types: ['refresh_token'] }, /grant_types/],
    ])('refuses %s with 400', async (_name, body, message) => {
      const res = await reg(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: expect.stringMatching(message), status: 'error' });
    });

    it('a public client gets no secret; a confidential one gets it once', async () => {
      const p = await (await reg({ name: 'p', type: 'public', redirect_uris: [REDIRECT] })).json();
      expect(p.client_secret).toBeUndefined();
      const c = await (await reg({ name: 'c', type: 'confidential', redirect_uris: [REDIRECT] })).json();
      expect(c.client_secret).toMatch(/^bcs_/);
      const list = await (await fetch(`${stack.url}/v1/bots/${botId}/oauth-clients`, { headers: { 'x-auth-token': admin.accessToken } })).text();
      expect(list).toContain(c.client_id);
      expect(list).not.toContain(c.client_secret);
    });

    it('a developer of the bot may not register clients (403)', async () => {
      const dev = await seedBotAdmin(stack.gateway, botId, 'developer');
      expect((await reg({ name: 'x', type: 'public', redirect_uris: [REDIRECT] }, dev.accessToken)).status).toBe(403);
    });
  });
});
