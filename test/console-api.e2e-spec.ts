import { randomUUID } from 'node:crypto';
import { PrismaService } from '@platform/database';
import { carouselBody, seedBotAdmin, seedCarouselBot } from '@platform/testing';
import { sqlRows } from './push-support.js';
import { useStack } from './e2e-stack.js';

/** The admin HTTP API the console is built on: cookie sessions, /v1/me, the message log, members, the console's files. */
describe('console API: cookie sessions, account, message log, members, served console', () => {
  // The loopback Cloud API answers the live check of a sender's token when it is saved.
  const stack = useStack({ seed: true, cloud: true });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${stack.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const get = (path: string, token: string) => fetch(`${stack.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const cookieOf = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('bp_refresh=')) ?? '';
  /** The readable `bp_session` cookie that comes and goes with the refresh cookie (the console asks to refresh only with it). */
  const flagOf = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('bp_session=')) ?? '';
  const pairOf = (setCookie: string) => setCookie.split(';')[0]!;

  describe('refresh token in an HttpOnly cookie', () => {
    it('login with refresh_token_in_cookie sets the cookie (HttpOnly, SameSite=Strict, Path=/v1/auth) and leaves the token out of the answer', async () => {
      const admin = await seedBotAdmin(stack.gateway, stack.seed.botId);
      const res = await post('/v1/auth/login', { email: admin.email, password: admin.password, refresh_token_in_cookie: true });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toEqual({ access_token: expect.stringMatching(/^bat_/), token_type: 'Bearer', expires_in: expect.any(Number), scope: 'bot:admin' });
      const cookie = cookieOf(res);
      expect(cookie).toMatch(/^bp_refresh=brt_[A-Za-z0-9_-]+; Max-Age=\d+; Path=\/v1\/auth; HttpOnly; SameSite=Strict$/);
      expect(cookie).not.toMatch(/Secure/); // plain http here; https requests get Secure
      // Beside it, for the console's scripts: no secret, not HttpOnly, the same lifetime, sent to the console's files only.
      const maxAge = /Max-Age=(\d+)/.exec(cookie)![1];
      expect(flagOf(res)).toBe(`bp_session=1; Max-Age=${maxAge}; Path=/console; SameSite=Strict`);
      expect(res.headers.getSetCookie()).toHaveLength(2);
    });

    it('refresh reads the cookie, rotates it, and the old cookie is then refused and cleared', async () => {
      const admin = await seedBotAdmin(stack.gateway, stack.seed.botId);
      const login = await post('/v1/auth/login', { email: admin.email, password: admin.password, refresh_token_in_cookie: true });
      const first = pairOf(cookieOf(login));

      const res = await post('/v1/auth/refresh', {}, { cookie: first });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.refresh_token).toBeUndefined();
      expect((await get('/v1/me', body.access_token)).status).toBe(200);
      const second = pairOf(cookieOf(res));
      expect(second).toMatch(/^bp_refresh=brt_/);
      expect(second).not.toBe(first);

      const replay = await post('/v1/auth/refresh', {}, { cookie: first });
      expect(replay.status).toBe(401);
      expect(cookieOf(replay)).toMatch(/^bp_refresh=; Max-Age=0; Path=\/v1\/auth; HttpOnly; SameSite=Strict/);
      expect(flagOf(res)).toMatch(/^bp_session=1; Max-Age=[1-9]\d*; Path=\/console; SameSite=Strict$/); // renewed with the rotated cookie
      expect(flagOf(replay)).toBe('bp_session=; Max-Age=0; Path=/console; SameSite=Strict'); // and gone with it
    });

    it('a cookie refresh needs a JSON body (no cross-site form posts); no cookie and no body token is 401 naming refresh_token', async () => {
      const admin = await seedBotAdmin(stack.gateway, stack.seed.botId);
      const login = await post('/v1/auth/login', { email: admin.email, password: admin.password, refresh_token_in_cookie: true });
      const form = await fetch(`${stack.url}/v1/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: pairOf(cookieOf(login)) },
        body: 'a=b',
      });
      expect(form.status).toBe(400);
      const none = await post('/v1/auth/refresh', {});
      expect(none.status).toBe(401);
      expect((await none.json()).message).toMatch(/refresh_token is required/);
    });

    it('the JSON-body contract is unchanged: refresh_token in the body, answered in the body', async () => {
      const admin = await seedBotAdmin(stack.gateway, stack.seed.botId);
      const res = await post('/v1/auth/refresh', { refresh_token: admin.refreshToken });
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect((await res.json()).refresh_token).toMatch(/^brt_/);
    });

    it('logout clears the cookie and ends the session', async () => {
      const admin = await seedBotAdmin(stack.gateway, stack.seed.botId);
      const login = await post('/v1/auth/login', { email: admin.email, password: admin.password, refresh_token_in_cookie: true });
      const cookie = pairOf(cookieOf(login));
      const { access_token } = await login.json();
      const out = await post('/v1/auth/logout', {}, { cookie, authorization: `Bearer ${access_token}` });
      expect(out.status).toBe(200);
      expect(cookieOf(out)).toMatch(/^bp_refresh=; Max-Age=0/);
      expect(flagOf(out)).toMatch(/^bp_session=; Max-Age=0; Path=\/console/);
      expect((await post('/v1/auth/refresh', {}, { cookie })).status).toBe(401);
    });
  });

  describe('GET /v1/me', () => {
    it('names the user and the bots the token opens with the role on each', async () => {
      await seedCarouselBot(stack.gateway); // a bot the user has no role on: not listed
      const admin = await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer');
      const res = await get('/v1/me', admin.accessToken);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ userId: admin.userId, email: admin.email, bots: [{ id: stack.seed.botId, name: 'test bot', role: 'viewer' }] });
    });

    it('refuses a missing token, an API key and an unknown token with 401', async () => {
      expect((await fetch(`${stack.url}/v1/me`)).status).toBe(401);
      expect((await get('/v1/me', stack.seed.apiKey)).status).toBe(401);
      expect((await get('/v1/me', 'bat_unknown')).status).toBe(401);
    });
  });

  describe('message log: GET /v1/bots/:botId/messages', () => {
    let viewer: string;
    const ids: string[] = [];

    beforeAll(async () => {
      viewer = (await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer')).accessToken;
      const db = stack.gateway.get(PrismaService, { strict: false });
      const sender = await db.channelSender.findFirstOrThrow({ where: { botId: stack.seed.botId } });
      const statuses = ['read', 'failed', 'sent', 'delivered', 'read'] as const;
      for (let i = 0; i < 30; i++) {
        const id = randomUUID();
        ids.push(id);
        await db.message.create({
          data: {
            id,
            botId: stack.seed.botId,
            templateId: stack.seed.templateId,
            senderId: sender.id,
            channel: 'whatsapp',
            recipient: i % 2 ? '919876543210' : '447700900123',
            status: statuses[i % statuses.length],
            attempts: 1,
            providerMessageId: `wamid.${i}`,
            lastErrorCode: i % 5 === 1 ? '131026' : null,
            lastErrorText: i % 5 === 1 ? 'Message undeliverable' : null,
            createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
          },
        });
      }
    });

    const list = async (query: string, token = viewer) => {
      const res = await get(`/v1/bots/${stack.seed.botId}/messages${query}`, token);
      return { status: res.status, body: await res.json() };
    };

    it('lists newest first and pages by cursor without gaps or repeats', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const { status, body }: { status: number; body: { messages: Array<{ msgId: string }>; nextCursor: string | null } } = await list(`?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
        expect(status).toBe(200);
        seen.push(...body.messages.map((m) => m.msgId));
        cursor = body.nextCursor;
      } while (cursor);
      expect(seen).toEqual([...ids].reverse());
    });

    it('filters by status, recipient prefix and time window', async () => {
      const failed = await list('?status=failed');
      expect(failed.body.messages).toHaveLength(6);
      expect(failed.body.messages[0]).toMatchObject({ status: 'failed', lastError: { code: '131026', text: 'Message undeliverable' }, templateName: 'summer_carousel', sender: '15550001111' });
      const uk = await list('?recipient=%2B4477&limit=100');
      expect(uk.body.messages).toHaveLength(15);
      expect(uk.body.messages.every((m: { recipient: string }) => m.recipient === '447700900123')).toBe(true);
      const window = await list(`?since=${new Date(Date.UTC(2026, 0, 1, 0, 10)).toISOString()}&until=${new Date(Date.UTC(2026, 0, 1, 0, 13)).toISOString()}`);
      expect(window.body.messages.map((m: { msgId: string }) => m.msgId)).toEqual([ids[12], ids[11], ids[10]]);
    });

    it('answers 400 naming the bad field', async () => {
      expect(await list('?status=lost')).toEqual({ status: 400, body: { message: expect.stringMatching(/^status must be one of/), status: 'error' } });
      expect((await list('?limit=500')).body.message).toMatch(/^limit must be an integer from 1 to 100/);
      expect((await list('?since=yesterday')).body.message).toMatch(/^since must be an ISO 8601/);
      expect((await list('?cursor=bm9wZQ')).body.message).toMatch(/^cursor must be a cursor/);
    });

    it('shows one message with its attempts, provider id, error and timestamps', async () => {
      const res = await get(`/v1/bots/${stack.seed.botId}/messages/${ids[1]}`, viewer);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ msgId: ids[1], status: 'failed', attempts: 1, providerMessageId: 'wamid.1', lastError: { code: '131026' } });
      expect((await get(`/v1/bots/${stack.seed.botId}/messages/${randomUUID()}`, viewer)).status).toBe(404);
    });

    it('is closed to members of other bots (403) and to API keys (401)', async () => {
      const other = await seedCarouselBot(stack.gateway);
      const stranger = (await seedBotAdmin(stack.gateway, other.botId)).accessToken;
      expect((await list('', stranger)).status).toBe(403);
      expect((await list('', stack.seed.apiKey)).status).toBe(401);
    });
  });

  describe('members: GET/PUT/DELETE /v1/bots/:botId/members', () => {
    it('lists members, sets a role by e-mail, removes a member, and keeps the last admin', async () => {
      const bot = await seedCarouselBot(stack.gateway);
      const owner = await seedBotAdmin(stack.gateway, bot.botId, 'admin');
      const other = await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer'); // an account with no role on `bot` yet
      const auth = { authorization: `Bearer ${owner.accessToken}` };
      const put = (body: unknown) => fetch(`${stack.url}/v1/bots/${bot.botId}/members`, { method: 'PUT', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify(body) });

      const added = await put({ email: other.email.toUpperCase(), role: 'developer' });
      expect(added.status).toBe(200);
      expect((await added.json()).member).toMatchObject({ userId: other.userId, email: other.email, role: 'developer' });
      const listed = await (await get(`/v1/bots/${bot.botId}/members`, owner.accessToken)).json();
      expect(listed.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
        [owner.email, 'admin'],
        [other.email, 'developer'],
      ]);

      expect(await (await put({ email: 'nobody@example.com', role: 'viewer' })).json()).toEqual({ message: expect.stringMatching(/^No user with e-mail nobody@example.com/), status: 'error' });
      expect((await (await put({ email: other.email, role: 'owner' })).json()).message).toBe('role must be one of admin, developer, viewer');
      const lowerLast = await put({ email: owner.email, role: 'viewer' });
      expect(lowerLast.status).toBe(409);

      // A developer may read the list but not change it.
      expect((await get(`/v1/bots/${bot.botId}/members`, other.accessToken)).status).toBe(200);
      const forbidden = await fetch(`${stack.url}/v1/bots/${bot.botId}/members/${owner.userId}`, { method: 'DELETE', headers: { authorization: `Bearer ${other.accessToken}` } });
      expect(forbidden.status).toBe(403);

      const removed = await fetch(`${stack.url}/v1/bots/${bot.botId}/members/${other.userId}`, { method: 'DELETE', headers: auth });
      expect(removed.status).toBe(200);
      expect((await get(`/v1/bots/${bot.botId}/members`, other.accessToken)).status).toBe(403);
    });
  });

  describe('push test send for administrators', () => {
    it('needs the admin role (403 for a viewer) and names a missing token (400)', async () => {
      const viewer = (await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer')).accessToken;
      const admin = (await seedBotAdmin(stack.gateway, stack.seed.botId, 'admin')).accessToken;
      expect((await post(`/v1/bots/${stack.seed.botId}/push/test`, { token: 'x' }, { authorization: `Bearer ${viewer}` })).status).toBe(403);
      const missing = await post(`/v1/bots/${stack.seed.botId}/push/test`, {}, { authorization: `Bearer ${admin}` });
      expect(missing.status).toBe(400);
      expect((await missing.json()).message).toBe('token is required');
    });
  });

  describe('WhatsApp senders, templates and the test carousel for members', () => {
    it('lists senders without their token, adds one (token write-only), refuses a duplicate, replaces a token', async () => {
      const bot = await seedCarouselBot(stack.gateway);
      const admin = (await seedBotAdmin(stack.gateway, bot.botId)).accessToken;
      const viewer = (await seedBotAdmin(stack.gateway, bot.botId, 'viewer')).accessToken;
      const call = (method: string, path: string, token: string, body?: unknown) =>
        fetch(`${stack.url}/v1/bots/${bot.botId}/whatsapp${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });

      const listed = await (await call('GET', '/senders', viewer)).json();
      expect(listed.senders).toEqual([
        {
          id: expect.any(String),
          channel: 'whatsapp',
          number: '+15550001111',
          phoneNumberId: bot.phoneNumberId,
          accessTokenSet: true,
          wabaId: null,
          throughput: 80,
          messagingLimitTier: null,
          messagingLimitReadAt: null,
          createdAt: expect.any(String),
          recentFailures: 0,
          lastError: null,
        },
      ]);
      expect(JSON.stringify(listed)).not.toContain(bot.accessToken);

      expect((await call('POST', '/senders', viewer, { number: '+15550002222', phoneNumberId: '1', accessToken: 'x' })).status).toBe(403);
      const bad = await call('POST', '/senders', admin, { number: '12', phoneNumberId: '1065', accessToken: 'EAAG-x' });
      expect(await bad.json()).toEqual({ message: expect.stringMatching(/^number must be a number with country code/), status: 'error' });
      const created = await call('POST', '/senders', admin, { number: '+15550002222', phoneNumberId: '1065000002', accessToken: 'EAAG-new-token', throughput: 200 });
      expect(created.status).toBe(201);
      const sender = await created.json();
      expect(sender).toMatchObject({ number: '+15550002222', phoneNumberId: '1065000002', accessTokenSet: true, throughput: 200 });
      expect(JSON.stringify(sender)).not.toContain('EAAG-new-token');
      expect((await call('POST', '/senders', admin, { number: '15550002222', phoneNumberId: '1', accessToken: 'y' })).status).toBe(409);

      const patched = await call('PATCH', `/senders/${sender.id}`, admin, { accessToken: 'EAAG-rotated', phoneNumberId: '1065000003' });
      expect(patched.status).toBe(200);
      expect(await patched.json()).toMatchObject({ phoneNumberId: '1065000003' });
      const [row] = await sqlRows<{ access_token_encrypted: string }>(stack.env.DATABASE_URL, 'SELECT access_token_encrypted FROM channel_senders WHERE id = $1', [sender.id]);
      expect(row!.access_token_encrypted).toMatch(/^v1\./);
      expect(row!.access_token_encrypted).not.toContain('EAAG');
      expect((await call('PATCH', `/senders/${randomUUID()}`, admin, { accessToken: 'z' })).status).toBe(404);

      const paced = await call('PATCH', `/senders/${sender.id}`, admin, { throughput: 20 });
      expect(await paced.json()).toMatchObject({ throughput: 20, phoneNumberId: '1065000003' });
      const tooFast = await call('PATCH', `/senders/${sender.id}`, admin, { throughput: 5000 });
      expect(tooFast.status).toBe(400);
      expect(await tooFast.json()).toEqual({ message: 'throughput must be an integer from 1 to 1000 (messages per second)', status: 'error' });
    });

    it('lists templates and sends a test carousel with an access token (developer and up)', async () => {
      const bot = await seedCarouselBot(stack.gateway);
      const developer = (await seedBotAdmin(stack.gateway, bot.botId, 'developer')).accessToken;
      const viewer = (await seedBotAdmin(stack.gateway, bot.botId, 'viewer')).accessToken;
      const templates = await (await get(`/v1/bots/${bot.botId}/whatsapp/templates`, viewer)).json();
      expect(templates.templates).toEqual([
        {
          id: bot.templateId,
          channel: 'whatsapp',
          name: 'summer_carousel',
          language: 'en_US',
          category: 'MARKETING',
          cardCount: 3,
          cardHeaderFormat: 'image',
          status: 'APPROVED',
          source: 'manual',
          bodyParameterCount: 0,
          cards: null,
          updatedAt: expect.any(String),
          createdAt: expect.any(String),
        },
      ]);
      const send = (token: string, body: unknown) => post(`/v1/bots/${bot.botId}/whatsapp/test-carousel`, body, { authorization: `Bearer ${token}` });
      expect((await send(viewer, carouselBody(bot))).status).toBe(403);
      const sent = await send(developer, carouselBody(bot));
      expect(sent.status).toBe(200);
      const { msgId } = await sent.json();
      expect((await get(`/v1/bots/${bot.botId}/messages/${msgId}`, viewer)).status).toBe(200);
      const wrong = await send(developer, carouselBody(bot, 2));
      expect(await wrong.json()).toEqual({ message: 'notification.params.cards must have exactly 3 cards for this template (got 2)', status: 'error' });
    });
  });

  describe('registered devices for administrators', () => {
    it('counts and pages the devices, unlinks one, and needs admin to unlink', async () => {
      const bot = await seedCarouselBot(stack.gateway);
      const admin = (await seedBotAdmin(stack.gateway, bot.botId)).accessToken;
      const viewer = (await seedBotAdmin(stack.gateway, bot.botId, 'viewer')).accessToken;
      await sqlRows(
        stack.env.DATABASE_URL,
        `INSERT INTO push_devices (id, bot_id, user_id, token, platform, updated_at, dead_at, dead_reason)
         SELECT gen_random_uuid(), $1::uuid, 'user-' || i, 'fcm-token-' || i || '-abcdefghijklmnop', 'android', now(),
                CASE WHEN i % 4 = 0 THEN now() END, CASE WHEN i % 4 = 0 THEN 'UNREGISTERED' END
         FROM generate_series(1, 12) AS i`,
        [bot.botId],
      );
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await get(`/v1/bots/${bot.botId}/push/devices?limit=5${cursor ? `&cursor=${cursor}` : ''}`, viewer);
        const body: { total: number; live: number; dead: number; devices: Array<{ id: string; tokenPreview: string }>; nextCursor: string | null } = await res.json();
        expect(body).toMatchObject({ total: 12, live: 9, dead: 3 });
        for (const d of body.devices) expect(d.tokenPreview).toMatch(/^fcm-token-.{1,2}…mnop$/);
        expect(JSON.stringify(body)).not.toMatch(/abcdefghijklmnop/);
        seen.push(...body.devices.map((d) => d.id));
        cursor = body.nextCursor;
      } while (cursor);
      expect(new Set(seen).size).toBe(12);

      const unlink = (id: string, token: string) => fetch(`${stack.url}/v1/bots/${bot.botId}/push/devices/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
      expect((await unlink(seen[0]!, viewer)).status).toBe(403);
      expect((await unlink(seen[0]!, admin)).status).toBe(200);
      expect((await unlink(seen[0]!, admin)).status).toBe(404);
      expect((await (await get(`/v1/bots/${bot.botId}/push/devices`, viewer)).json()).total).toBe(11);
      expect((await (await get(`/v1/bots/${bot.botId}/push/devices?cursor=nope`, viewer)).json()).message).toMatch(/^cursor must be a cursor/);
    });

    it('removing the service account needs the admin role', async () => {
      const viewer = (await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer')).accessToken;
      const res = await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/push/config`, { method: 'DELETE', headers: { authorization: `Bearer ${viewer}` } });
      expect(res.status).toBe(403);
    });
  });

  describe('OpenAPI', () => {
    it('describes every route the console uses', async () => {
      const doc = await (await fetch(`${stack.url}/docs/openapi.json`)).json();
      const routes = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
      expect(routes).toEqual(
        expect.arrayContaining([
          'GET /v1/me',
          'GET /v1/bots/{botId}/messages',
          'GET /v1/bots/{botId}/messages/{msgId}',
          'POST /v1/bots/{botId}/messages/stream-ticket',
          'GET /v1/bots/{botId}/messages/stream',
          'GET /v1/bots/{botId}/members',
          'PUT /v1/bots/{botId}/members',
          'DELETE /v1/bots/{botId}/members/{userId}',
          'GET /v1/bots/{botId}/whatsapp/senders',
          'POST /v1/bots/{botId}/whatsapp/senders',
          'PATCH /v1/bots/{botId}/whatsapp/senders/{senderId}',
          'GET /v1/bots/{botId}/whatsapp/templates',
          'POST /v1/bots/{botId}/whatsapp/templates/sync',
          'POST /v1/bots/{botId}/whatsapp/test-carousel',
          'POST /v1/bots/{botId}/push/test',
          'DELETE /v1/bots/{botId}/push/config',
          'GET /v1/bots/{botId}/push/devices',
          'DELETE /v1/bots/{botId}/push/devices/{deviceId}',
        ]),
      );
      expect(Object.keys(doc.paths['/v1/bots/{botId}/messages/stream'].get.responses['200'].content)).toEqual(['text/event-stream']);
      const logParams = doc.paths['/v1/bots/{botId}/messages'].get.parameters.map((p: { name: string }) => p.name);
      expect(logParams).toEqual(expect.arrayContaining(['status', 'recipient', 'since', 'until', 'cursor', 'limit']));
      const login = doc.paths['/v1/auth/login'].post.requestBody.content['application/json'].schema;
      const schema = login.$ref ? doc.components.schemas[login.$ref.split('/').pop()] : login;
      expect(Object.keys(schema.properties)).toContain('refresh_token_in_cookie');
    });
  });

  describe('the console at /console', () => {
    it('serves index.html with a strict CSP and no-cache, hashed assets cached for a year', async () => {
      const redirect = await fetch(`${stack.url}/console`, { redirect: 'manual' });
      expect(redirect.status).toBe(301);
      expect(redirect.headers.get('location')).toBe('/console/');
      const page = await fetch(`${stack.url}/console/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('cache-control')).toBe('no-cache');
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain('unsafe');
      const html = await page.text();
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
      const asset = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)![1]!;
      const js = await fetch(`${stack.url}${asset}`);
      expect(js.status).toBe(200);
      expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await fetch(`${stack.url}/console/nope.js`)).status).toBe(404);
    });
  });
});
