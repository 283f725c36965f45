import { UserService } from '@platform/accounts';
import { SeededAdmin, addressPerRequest, adminTokenAnswer, advanceClock, createBot, seedBotAdmin, seedBotWithAdmin } from '@platform/testing';
import { useStack } from './e2e-stack.js';

describe('bot administrators: login, refresh, logout and AdminTokenGuard', () => {
  const stack = useStack({ env: { AUTH_ACCESS_TOKEN_TTL_SECONDS: '60', TRUST_PROXY: 'true' } });
  let botId: string;
  let admin: SeededAdmin;
  const from = addressPerRequest('198.51.100.');

  beforeAll(async () => {
    ({ botId, admin } = await seedBotWithAdmin(stack.gateway, 'admin bot'));
  });

  const listKeys = (headers: Record<string, string>, bot = botId) => fetch(`${stack.url}/v1/bots/${bot}/api-keys`, { headers });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${stack.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...from(), ...headers },
      body: JSON.stringify(body),
    });

  it('logs in with e-mail and password and the token opens the admin routes (x-auth-token and Bearer)', async () => {
    const res = await post('/v1/auth/login', { email: admin.email.toUpperCase(), password: admin.password });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body).toEqual(adminTokenAnswer(60));
    expect((await listKeys({ 'x-auth-token': body.access_token })).status).toBe(200);
    expect((await listKeys({ authorization: `Bearer ${body.access_token}` })).status).toBe(200);
  });

  it('refuses a wrong password or an unknown e-mail with the same 401', async () => {
    const wrong = await post('/v1/auth/login', { email: admin.email, password: 'wrong password!' });
    const unknown = await post('/v1/auth/login', { email: 'nobody@example.com', password: 'wrong password!' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it('refuses a login body without password with 400 naming the field', async () => {
    const res = await post('/v1/auth/login', { email: admin.email });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/password/);
  });

  describe('401', () => {
    it.each([
      ['no token', {}],
      ['unknown token', { 'x-auth-token': 'bat_' + 'A'.repeat(43) }],
      ['garbage', { 'x-auth-token': 'hello' }],
      ['malformed Authorization', { authorization: 'Basic Zm9vOmJhcg==' }],
    ])('%s', async (_name, headers) => {
      const res = await listKeys(headers as Record<string, string>);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: expect.any(String), status: 'error' });
    });

    it('an API key of the bot is not an admin token', async () => {
      const created = await (
        await fetch(`${stack.url}/v1/bots/${botId}/api-keys`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-auth-token': admin.accessToken },
          body: JSON.stringify({ name: 'not an admin token' }),
        })
      ).json();
      expect((await listKeys({ 'x-auth-token': created.key })).status).toBe(401);
      expect((await listKeys({ authorization: `Bearer ${created.key}` })).status).toBe(401);
    });

    it('an expired token', async () => {
      const other = await seedBotAdmin(stack.gateway, botId);
      expect((await listKeys({ 'x-auth-token': other.accessToken })).status).toBe(200);
      const restore = advanceClock(stack.gateway, 61_000);
      try {
        expect((await listKeys({ 'x-auth-token': other.accessToken })).status).toBe(401);
      } finally {
        restore();
      }
    });

    it('a token after logout', async () => {
      const other = await seedBotAdmin(stack.gateway, botId);
      const out = await post('/v1/auth/logout', {}, { 'x-auth-token': other.accessToken });
      expect(out.status).toBe(200);
      expect((await listKeys({ 'x-auth-token': other.accessToken })).status).toBe(401);
      const refresh = await post('/v1/auth/refresh', { refresh_token: other.refreshToken });
      expect(refresh.status).toBe(401);
    });
  });

  describe('403', () => {
    it.each(['developer', 'viewer'] as const)('a %s of the bot on an admin route', async (role) => {
      const user = await seedBotAdmin(stack.gateway, botId, role);
      const res = await listKeys({ 'x-auth-token': user.accessToken });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ message: expect.stringMatching(/admin role/), status: 'error' });
    });

    it('an admin of another bot', async () => {
      const otherBot = await createBot(stack.gateway, 'other');
      const otherAdmin = await seedBotAdmin(stack.gateway, otherBot);
      expect((await listKeys({ 'x-auth-token': otherAdmin.accessToken }, otherBot)).status).toBe(200);
      expect((await listKeys({ 'x-auth-token': otherAdmin.accessToken })).status).toBe(403);
    });

    it('a user whose role was lowered after login', async () => {
      const user = await seedBotAdmin(stack.gateway, botId);
      expect((await listKeys({ 'x-auth-token': user.accessToken })).status).toBe(200);
      await stack.gateway.get(UserService, { strict: false }).setRole(user.userId, botId, 'viewer');
      expect((await listKeys({ 'x-auth-token': user.accessToken })).status).toBe(403);
    });
  });

  it('refresh rotates: the new pair works, the old refresh token is refused and its reuse ends the session', async () => {
    const user = await seedBotAdmin(stack.gateway, botId);
    const res = await post('/v1/auth/refresh', { refresh_token: user.refreshToken });
    expect(res.status).toBe(200);
    const pair = await res.json();
    expect(pair.refresh_token).not.toBe(user.refreshToken);
    expect((await listKeys({ 'x-auth-token': pair.access_token })).status).toBe(200);

    expect((await post('/v1/auth/refresh', { refresh_token: user.refreshToken })).status).toBe(401);
    expect((await listKeys({ 'x-auth-token': pair.access_token })).status).toBe(401);
    expect((await post('/v1/auth/refresh', { refresh_token: pair.refresh_token })).status).toBe(401);
  });

  it('throttles login per account with 429 and Retry-After, whatever the address', async () => {
    const user = await seedBotAdmin(stack.gateway, botId);
    const limit = 10; // AUTH_RATE_LIMIT_PER_ACCOUNT default
    for (let i = 0; i < limit; i++) {
      expect((await post('/v1/auth/login', { email: user.email, password: 'wrong password!' })).status).toBe(401);
    }
    const res = await post('/v1/auth/login', { email: user.email, password: user.password });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.json()).toEqual({ message: expect.any(String), status: 'error' });
  });

  it('throttles login per IP with 429 and Retry-After', async () => {
    const from = { 'x-forwarded-for': '203.0.113.77' };
    for (let i = 0; i < 30; i++) {
      expect((await post('/v1/auth/login', { email: `u${i}@example.com`, password: 'wrong password!' }, from)).status).toBe(401);
    }
    const res = await post('/v1/auth/login', { email: admin.email, password: admin.password }, from);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
