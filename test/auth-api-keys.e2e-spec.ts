import { randomUUID } from 'node:crypto';
import { BotRepository } from '@platform/database';
import { SeededAdmin, seedBotAdmin } from '@platform/testing';
import { useStack } from './e2e-stack.js';

/** Administrators manage their bot's API keys; a revocation reaches every gateway replica within 1 s. */
describe('API keys managed by bot administrators, across two gateway replicas', () => {
  const stack = useStack(); // one database and one Redis for both replicas
  let urlB: string;
  let botId: string;
  let admin: SeededAdmin;

  beforeAll(async () => {
    urlB = (await stack.replica()).url;
    botId = (await stack.gateway.get(BotRepository, { strict: false }).create('keys bot')).id;
    admin = await seedBotAdmin(stack.gateway, botId);
  });

  const keysUrl = (base: string, bot = botId) => `${base}/v1/bots/${bot}/api-keys`;
  const create = (name: string, token = admin.accessToken) =>
    fetch(keysUrl(stack.url), { method: 'POST', headers: { 'content-type': 'application/json', 'x-auth-token': token }, body: JSON.stringify({ name }) });
  const list = async (base = stack.url) => (await (await fetch(keysUrl(base), { headers: { 'x-auth-token': admin.accessToken } })).json()).keys;
  // A key-protected route: 404 for an unknown message means the key was accepted, 401 that it was refused.
  const useKey = (base: string, key: string) => fetch(`${base}/v1/messages/${randomUUID()}`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);

  it('creates a key shown once, lists it without secret, records last use', async () => {
    const res = await create('ci pipeline');
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toEqual({
      id: expect.any(String),
      name: 'ci pipeline',
      prefix: created.key.slice(0, 12),
      key: expect.stringMatching(/^bpk_[A-Za-z0-9_-]{43}$/),
      createdAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(await useKey(stack.url, created.key)).toBe(404);

    const deadline = Date.now() + 5000;
    let listed;
    do {
      listed = (await list()).find((k: { id: string }) => k.id === created.id);
    } while (!listed.lastUsedAt && Date.now() < deadline && (await new Promise((r) => setTimeout(r, 50)), true));
    expect(listed).toEqual({ id: created.id, name: 'ci pipeline', prefix: created.prefix, createdAt: created.createdAt, lastUsedAt: expect.any(String), revokedAt: null });
    const raw = JSON.stringify(await list());
    expect(raw).not.toContain(created.key);
    expect(raw).not.toMatch(/hash/i);
  });

  it('a key revoked through replica A is refused by replica B within 1 s', async () => {
    const { key, id } = await (await create('to revoke')).json();
    // Warm both replicas' caches with the key.
    expect(await useKey(stack.url, key)).toBe(404);
    expect(await useKey(urlB, key)).toBe(404);
    expect(await useKey(urlB, key)).toBe(404);

    const del = await fetch(`${keysUrl(stack.url)}/${id}`, { method: 'DELETE', headers: { 'x-auth-token': admin.accessToken } });
    expect(del.status).toBe(200);
    const revokedAt = Date.now();
    expect(await useKey(stack.url, key)).toBe(401);

    let status = await useKey(urlB, key);
    while (status !== 401 && Date.now() - revokedAt < 1000) {
      await new Promise((r) => setTimeout(r, 20));
      status = await useKey(urlB, key);
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
    expect((await list(urlB)).find((k: { id: string }) => k.id === id).revokedAt).not.toBeNull();
  });

  it('revoking twice or an unknown key → 404; another bot’s key → 404; another bot’s admin → 403', async () => {
    const { id } = await (await create('once')).json();
    const revoke = (keyId: string, bot = botId) => fetch(`${keysUrl(stack.url, bot)}/${keyId}`, { method: 'DELETE', headers: { 'x-auth-token': admin.accessToken } });
    expect((await revoke(id)).status).toBe(200);
    expect((await revoke(id)).status).toBe(404);
    expect((await revoke(randomUUID())).status).toBe(404);
    expect((await revoke('not-a-uuid')).status).toBe(404);

    const otherBot = (await stack.gateway.get(BotRepository, { strict: false }).create('other')).id;
    const otherAdmin = await seedBotAdmin(stack.gateway, otherBot);
    expect((await create('not theirs', otherAdmin.accessToken)).status).toBe(403);
    const own = await (
      await fetch(keysUrl(stack.url, otherBot), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth-token': otherAdmin.accessToken },
        body: JSON.stringify({ name: 'theirs' }),
      })
    ).json();
    expect((await revoke(own.id)).status).toBe(404);
    expect(await useKey(stack.url, own.key)).toBe(404); // still live
  });

  it('refuses a key name that is missing or too long with 400 naming the field', async () => {
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(101) }]) {
      const res = await fetch(keysUrl(stack.url), { method: 'POST', headers: { 'content-type': 'application/json', 'x-auth-token': admin.accessToken }, body: JSON.stringify(body) });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toMatch(/^name /);
    }
  });

  it('guards every key route: 401 without a token, 403 for a viewer, API keys are not admin tokens', async () => {
    const viewer = await seedBotAdmin(stack.gateway, botId, 'viewer');
    const { key, id } = await (await create('guarded')).json();
    const routes: Array<[string, string]> = [
      ['GET', keysUrl(urlB)],
      ['POST', keysUrl(urlB)],
      ['DELETE', `${keysUrl(urlB)}/${id}`],
    ];
    for (const [method, u] of routes) {
      const init = (headers: Record<string, string>) => (method === 'POST' ? { method, headers: { 'content-type': 'application/json', ...headers }, body: '{"name":"x"}' } : { method, headers });
      expect((await fetch(u, init({}))).status).toBe(401);
      expect((await fetch(u, init({ 'x-auth-token': key }))).status).toBe(401);
      expect((await fetch(u, init({ authorization: `Bearer ${key}` }))).status).toBe(401);
      expect((await fetch(u, init({ 'x-auth-token': viewer.accessToken }))).status).toBe(403);
    }
    expect(await useKey(stack.url, key)).toBe(404);
  });
});
