import pg from 'pg';
import { FcmErrors, TestServiceAccount } from '@platform/sandbox';
import { seedBotAdmin, seedCarouselBot } from '@platform/testing';
import { PushSandboxes, botApi, saveServiceAccount, sqlRows, waitForNotification } from './push-support.js';
import { useStack } from './e2e-stack.js';

/** Save config → register devices → send → FCM over HTTP/2 → counts, against real Postgres and Redis. */
describe('push notifications: saveBotConfig, devices, fan-out through FCM HTTP v1', () => {
  const sandboxes = new PushSandboxes();
  const { oauth, fcm } = sandboxes;
  const stack = useStack({ push: sandboxes, pushService: true, seed: true, env: { FCM_BACKOFF_MS: '20', PUSH_JOB_BACKOFF_MS: '50', PUSH_BATCH_SIZE: '2' } });
  let botId: string;
  let apiKey: string;
  let adminToken: string;
  let account: TestServiceAccount;

  beforeAll(async () => {
    ({ botId, apiKey } = stack.seed);
    adminToken = (await seedBotAdmin(stack.gateway, botId, 'admin')).accessToken;
    account = oauth.createServiceAccount('demo-push');
  });

  const saveConfig = (serviceAccount: unknown, token = adminToken, bot = botId) => saveServiceAccount(stack.url, bot, token, serviceAccount);
  const api = (method: string, path: string, body?: unknown, key = apiKey, extra: Record<string, string> = {}) => botApi(stack.url, botId, key)(method, path, body, extra);

  /** POST /notifications, which must answer 202; returns the notification id. */
  async function notify(body: unknown, key = apiKey, extra: Record<string, string> = {}): Promise<string> {
    const res = await api('POST', '/notifications', body, key, extra);
    const answer = await res.json();
    if (res.status !== 202) throw new Error(`send answered ${res.status}: ${JSON.stringify(answer)}`);
    return answer.notificationId;
  }

  const register = (userId: string, token: string, platform = 'android') => api('POST', '/devices', { userId, token, platform });
  const waitForCompletion = (id: string, timeoutMs?: number) => waitForNotification(botApi(stack.url, botId, apiKey), id, timeoutMs);
  const sql = <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) => sqlRows<T>(stack.env.DATABASE_URL, text, params);

  describe('saveBotConfig', () => {
    it('stores the service account and answers {message, status}', async () => {
      const res = await saveConfig(account);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ message: expect.any(String), status: 'success' });
    });

    it('keeps only ciphertext in Postgres: no key material, no client e-mail', async () => {
      const [row] = await sql<{ credentials_encrypted: string; key_id: string; project_id: string }>('SELECT credentials_encrypted, key_id, project_id FROM push_configs WHERE bot_id = $1', [botId]);
      expect(row.key_id).toBe('test1');
      expect(row.project_id).toBe('demo-push');
      expect(row.credentials_encrypted).toMatch(/^v1\.test1\./);
      const keyBody = account.private_key.split('\n')[5];
      for (const clear of ['PRIVATE KEY', keyBody, account.client_email, account.private_key_id]) {
        expect(row.credentials_encrypted).not.toContain(clear);
      }
    });

    it('shows administrators project id, client e-mail and saved-at, nothing secret', async () => {
      const res = await fetch(`${stack.url}/api/data/vault/botConfig?bot=${botId}`, { headers: { 'x-auth-token': adminToken } });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.notification.firebaseConfig).toEqual({
        projectId: 'demo-push',
        clientEmail: account.client_email,
        privateKeyId: account.private_key_id,
        savedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect(JSON.stringify(body)).not.toContain('PRIVATE KEY');
    });

    it.each([
      ['type', { type: 'authorized_user' }, 'notification.firebaseConfig.serviceAccount.type must be "service_account"'],
      ['project_id', { project_id: undefined }, 'notification.firebaseConfig.serviceAccount.project_id'],
      ['client_email', { client_email: 'not-an-email' }, 'notification.firebaseConfig.serviceAccount.client_email'],
      ['private_key', { private_key: '-----BEGIN PRIVATE KEY-----\nMIIEv\n-----END PRIVATE KEY-----\n' }, 'private_key is not a PEM RSA private key'],
      ['token_uri', { token_uri: 'http://oauth2.example.com/token' }, 'notification.firebaseConfig.serviceAccount.token_uri must be an https URL'],
    ])('400 naming a bad %s', async (_field, change, message) => {
      const res = await saveConfig({ ...account, ...change });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.status).toBe('error');
      expect(body.message).toContain(message);
      expect(JSON.stringify(body)).not.toContain('PRIVATE KEY-----\nMII');
    });

    it('400 when serviceAccount is missing', async () => {
      const res = await fetch(`${stack.url}/api/data/vault/saveBotConfig?bot=${botId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth-token': adminToken },
        body: JSON.stringify({ notification: { firebaseConfig: {} } }),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain('notification.firebaseConfig.serviceAccount');
    });

    it('401 without a token, with an unknown token, or with an API key', async () => {
      for (const token of ['', 'not-a-real-token', apiKey]) {
        const res = await saveConfig(account, token);
        expect(res.status).toBe(401);
      }
    });

    it("403 for a non-administrator of the bot and for another bot's administrator", async () => {
      const viewer = await seedBotAdmin(stack.gateway, botId, 'viewer');
      expect((await saveConfig(account, viewer.accessToken)).status).toBe(403);
      const other = await seedCarouselBot(stack.gateway);
      const otherAdmin = await seedBotAdmin(stack.gateway, other.botId, 'admin');
      expect((await saveConfig(account, otherAdmin.accessToken)).status).toBe(403);
      const read = await fetch(`${stack.url}/api/data/vault/botConfig?bot=${botId}`, { headers: { 'x-auth-token': viewer.accessToken } });
      expect(read.status).toBe(403);
    });
  });

  describe('device registry', () => {
    it('registers, treats the same token as one device (moving it to the new user) and unlinks', async () => {
      const first = await register('user-a', 'tok-dup:APA91b');
      expect(first.status).toBe(201);
      const again = await register('user-b', 'tok-dup:APA91b', 'ios');
      expect(again.status).toBe(200);
      const [a, b] = [await first.json(), await again.json()];
      expect(b.deviceId).toBe(a.deviceId);
      const rows = await sql<{ user_id: string; platform: string }>('SELECT user_id, platform FROM push_devices WHERE bot_id = $1 AND token = $2', [botId, 'tok-dup:APA91b']);
      expect(rows).toEqual([{ user_id: 'user-b', platform: 'ios' }]);

      const del = await api('DELETE', `/devices/${encodeURIComponent('tok-dup:APA91b')}`);
      expect(del.status).toBe(200);
      expect((await api('DELETE', `/devices/${encodeURIComponent('tok-dup:APA91b')}`)).status).toBe(404);
    });

    it('accepts a real-length FCM token in the DELETE path', async () => {
      const token = `fK3${'x'.repeat(20)}:APA91b${'Y'.repeat(140)}`;
      expect((await register('user-long', token)).status).toBe(201);
      expect((await api('DELETE', `/devices/${encodeURIComponent(token)}`)).status).toBe(200);
    });

    it.each([
      ['empty token', { userId: 'u', token: '', platform: 'android' }, 'token must not be empty or blank'],
      ['blank token', { userId: 'u', token: '   ', platform: 'android' }, 'token must not be empty or blank'],
      ['missing token', { userId: 'u', platform: 'android' }, 'token is required'],
      ['bad platform', { userId: 'u', token: 't', platform: 'blackberry' }, 'platform must be one of: android, ios, web'],
      ['blank user', { userId: ' ', token: 't', platform: 'web' }, 'userId must not be empty or blank'],
    ])('400 for %s', async (_name, body, message) => {
      const res = await api('POST', '/devices', body);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain(message);
    });

    it("401 without a key or with another bot's key", async () => {
      expect((await api('POST', '/devices', { userId: 'u', token: 't', platform: 'web' }, 'bpk_' + 'A'.repeat(43))).status).toBe(401);
      const other = await seedCarouselBot(stack.gateway);
      expect((await api('POST', '/devices', { userId: 'u', token: 't', platform: 'web' }, other.apiKey)).status).toBe(401);
      expect((await api('POST', '/notifications', { all: true, title: 't', body: 'b' }, other.apiKey)).status).toBe(401);
    });
  });

  describe('send', () => {
    it('sends to 3 devices: 2 sent, 1 UNREGISTERED marked dead and never sent to again', async () => {
      await register('alice', 'tok-alice-1');
      await register('alice', 'tok-alice-2', 'ios');
      await register('bob', 'tok-bob-gone');
      fcm.always('tok-bob-gone', FcmErrors.unregistered);

      const res = await api('POST', '/notifications', {
        userIds: ['alice', 'bob'],
        title: 'Your order shipped',
        body: 'Tap to track it',
        journeySlug: 'order-tracking',
        data: { orderId: '42' },
        ttlSeconds: 3600,
        priority: 'high',
      });
      expect(res.status).toBe(202);
      const accepted = await res.json();
      expect(accepted).toEqual({ message: expect.any(String), status: 'success', notificationId: expect.any(String) });

      const final = await waitForCompletion(accepted.notificationId);
      expect(final).toMatchObject({ status: 'completed', total: 3, sent: 2, failed: 0, invalidTokens: 1, skipped: 0, pending: 0, failureReason: null });

      const msg = fcm.received('tok-alice-1')[0];
      expect(msg.projectId).toBe('demo-push');
      expect(msg.message).toEqual({
        token: 'tok-alice-1',
        notification: { title: 'Your order shipped', body: 'Tap to track it' },
        data: { orderId: '42', botId, journeySlug: 'order-tracking' },
        android: { priority: 'HIGH', ttl: expect.stringMatching(/^3\d{3}s$/) },
        apns: { headers: { 'apns-priority': '10', 'apns-expiration': expect.stringMatching(/^\d+$/) } },
        webpush: { headers: { Urgency: 'high', TTL: expect.stringMatching(/^3\d{3}$/) } },
      });
      const [dead] = await sql<{ dead_at: Date | null; dead_reason: string }>('SELECT dead_at, dead_reason FROM push_devices WHERE token = $1', ['tok-bob-gone']);
      expect(dead.dead_at).not.toBeNull();
      expect(dead.dead_reason).toBe('UNREGISTERED');

      const before = fcm.received('tok-bob-gone').length;
      const second = await notify({ userIds: ['bob', 'alice'], title: 'Again', body: '...' });
      expect(await waitForCompletion(second)).toMatchObject({ total: 2, sent: 2, invalidTokens: 0 });
      expect(fcm.received('tok-bob-gone')).toHaveLength(before);
    });

    it('marks SENDER_ID_MISMATCH and invalid-token answers dead too', async () => {
      await register('carol', 'tok-carol-mismatch');
      await register('carol', 'tok-carol-garbage');
      fcm.always('tok-carol-mismatch', FcmErrors.senderIdMismatch).always('tok-carol-garbage', FcmErrors.invalidToken);
      const notificationId = await notify({ userIds: ['carol'], title: 'Hi', body: 'there' });
      expect(await waitForCompletion(notificationId)).toMatchObject({ total: 2, sent: 0, invalidTokens: 2, pending: 0 });
      const rows = await sql<{ dead_reason: string }>("SELECT dead_reason FROM push_devices WHERE user_id = 'carol' ORDER BY dead_reason");
      expect(rows.map((r) => r.dead_reason)).toEqual(['INVALID_TOKEN', 'SENDER_ID_MISMATCH']);
    });

    it('retries 503 (and 500) then counts the device sent once', async () => {
      await register('dave', 'tok-dave');
      fcm.script('tok-dave', FcmErrors.unavailable, FcmErrors.internal, 'ok');
      const notificationId = await notify({ userIds: ['dave'], title: 'Hi', body: 'retry' });
      expect(await waitForCompletion(notificationId)).toMatchObject({ status: 'completed', total: 1, sent: 1, failed: 0, pending: 0 });
      expect(
        fcm
          .received('tok-dave')
          .slice(-3)
          .map((m) => m.status),
      ).toEqual([503, 500, 200]);
    });

    it('honours Retry-After on 429 QUOTA_EXCEEDED', async () => {
      await register('erin', 'tok-erin');
      fcm.script('tok-erin', FcmErrors.quotaExceeded(1), 'ok');
      const notificationId = await notify({ userIds: ['erin'], title: 'Hi', body: 'quota' });
      expect(await waitForCompletion(notificationId)).toMatchObject({ sent: 1, pending: 0 });
      const [limited, ok] = fcm.received('tok-erin').slice(-2);
      expect([limited.status, ok.status]).toEqual([429, 200]);
      expect(ok.at - limited.at).toBeGreaterThanOrEqual(1000);
    });

    it('counts devices still failing after the retries as failed, once, after the batch job retried', async () => {
      await register('frank', 'tok-frank-down');
      // FCM_MAX_ATTEMPTS (4) per run × PUSH_JOB_ATTEMPTS (5) runs: every request fails.
      fcm.always('tok-frank-down', FcmErrors.unavailable);
      const notificationId = await notify({ userIds: ['frank'], title: 'Hi', body: 'down' });
      expect(await waitForCompletion(notificationId, 20_000)).toMatchObject({ status: 'completed', total: 1, sent: 0, failed: 1, pending: 0 });
      expect(fcm.received('tok-frank-down')).toHaveLength(20);
    });

    it('sends to every live device with all: true, in several batches, without counting anyone twice', async () => {
      const notificationId = await notify({ all: true, title: 'Everyone', body: 'hello', priority: 'normal' });
      const final = await waitForCompletion(notificationId);
      const [{ live }] = await sql<{ live: string }>('SELECT count(*) AS live FROM push_devices WHERE bot_id = $1 AND dead_at IS NULL', [botId]);
      expect(final.total).toBe(Number(live));
      expect(final.sent + final.failed + final.invalidTokens + final.skipped).toBe(final.total);
      const [{ batches }] = await sql<{ batches: string }>('SELECT count(*) AS batches FROM push_notification_batches WHERE notification_id = $1', [notificationId]);
      expect(Number(batches)).toBe(Math.ceil(final.total / 2));
      const normal = fcm.messages.find((m) => m.message.token === 'tok-alice-1' && (m.message.notification as { title: string }).title === 'Everyone');
      expect(normal?.message).toMatchObject({ android: { priority: 'NORMAL' }, apns: { headers: { 'apns-priority': '5' } }, webpush: { headers: { Urgency: 'normal' } } });
    });

    it('an Idempotency-Key gives the same notification back instead of a second one', async () => {
      const body = { userIds: ['alice'], title: 'Once', body: 'only once' };
      const a = await (await api('POST', '/notifications', body, apiKey, { 'idempotency-key': 'order-42-shipped' })).json();
      const b = await (await api('POST', '/notifications', body, apiKey, { 'idempotency-key': 'order-42-shipped' })).json();
      expect(b.notificationId).toBe(a.notificationId);
      await waitForCompletion(a.notificationId);
      expect(fcm.messages.filter((m) => (m.message.notification as { title: string }).title === 'Once')).toHaveLength(2);
    });

    it.each([
      ['no target', { title: 't', body: 'b' }, 'a target is required'],
      ['both targets', { all: true, userIds: ['u'], title: 't', body: 'b' }, 'not both'],
      ['reserved key from', { all: true, title: 't', body: 'b', data: { from: 'x' } }, 'data.from is a reserved FCM key'],
      ['reserved key google.', { all: true, title: 't', body: 'b', data: { 'google.c.a': 'x' } }, 'data.google.c.a is reserved'],
      ['reserved key gcm.', { all: true, title: 't', body: 'b', data: { 'gcm.n.e': '1' } }, 'data.gcm.n.e is reserved'],
      ['message_type', { all: true, title: 't', body: 'b', data: { message_type: 'x' } }, 'data.message_type is a reserved FCM key'],
      ['notification key', { all: true, title: 't', body: 'b', data: { notification: 'x' } }, 'data.notification is a reserved FCM key'],
      ['botId in data', { all: true, title: 't', body: 'b', data: { botId: 'x' } }, 'data.botId is set by the platform'],
      ['non-string value', { all: true, title: 't', body: 'b', data: { n: 1 } }, 'data.n must be a string'],
      ['too big', { all: true, title: 't', body: 'b', data: { big: 'x'.repeat(4100) } }, 'FCM allows at most 4096'],
      ['bad priority', { all: true, title: 't', body: 'b', priority: 'urgent' }, 'priority must be one of: normal, high'],
      ['bad ttl', { all: true, title: 't', body: 'b', ttlSeconds: -1 }, 'ttlSeconds must be at least 0'],
      ['empty userIds', { userIds: [], title: 't', body: 'b' }, 'userIds must name at least 1 user'],
    ])('400 for %s', async (_name, body, message) => {
      const res = await api('POST', '/notifications', body);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain(message);
    });

    it('404 for an unknown notification id', async () => {
      expect((await api('GET', '/notifications/3b0f3c1e-0000-4000-8000-000000000000')).status).toBe(404);
      expect((await api('GET', '/notifications/not-a-uuid')).status).toBe(404);
    });

    it('400 when the bot has no service account', async () => {
      const other = await seedCarouselBot(stack.gateway);
      const res = await fetch(`${stack.url}/v1/bots/${other.botId}/notifications`, {
        method: 'POST',
        headers: { authorization: `Bearer ${other.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ all: true, title: 't', body: 'b' }),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain('saveBotConfig');
    });
  });

  describe('test send', () => {
    it("returns FCM's answer as is: accepted", async () => {
      const res = await api('POST', '/notifications/test', { token: 'tok-test-ok' });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ status: 'success', accepted: true, fcm: { httpStatus: 200, body: { name: expect.stringMatching(/^projects\/demo-push\/messages\//) } } });
      expect(fcm.received('tok-test-ok')[0].message.data).toEqual({ botId });
    });

    it("returns FCM's answer as is: UNREGISTERED", async () => {
      fcm.script('tok-test-gone', FcmErrors.unregistered);
      const body = await (await api('POST', '/notifications/test', { token: 'tok-test-gone' })).json();
      expect(body).toMatchObject({ accepted: false, fcm: { httpStatus: 404, body: { error: { status: 'NOT_FOUND', details: [{ errorCode: 'UNREGISTERED' }] } } } });
    });

    it('400 for a blank token', async () => {
      expect((await api('POST', '/notifications/test', { token: ' ' })).status).toBe(400);
    });
  });

  describe('credentials', () => {
    it('reuses the access token instead of minting one per message', async () => {
      const before = oauth.tokenRequests.length;
      const notificationId = await notify({ userIds: ['alice'], title: 'cached', body: 'token' });
      await waitForCompletion(notificationId);
      expect(oauth.tokenRequests.length).toBe(before);
    });

    it('mints a new access token when FCM refuses the cached one (401)', async () => {
      oauth.expireAllTokens();
      const notificationId = await notify({ userIds: ['alice'], title: 'refresh', body: 'token' });
      expect(await waitForCompletion(notificationId)).toMatchObject({ sent: 2, failed: 0 });
    });

    it('fails the notification with a reason an administrator understands when Google rejects the key', async () => {
      const other = await seedCarouselBot(stack.gateway);
      const otherAdmin = await seedBotAdmin(stack.gateway, other.botId, 'admin');
      const revoked = oauth.createServiceAccount('demo-revoked');
      expect((await saveConfig(revoked, otherAdmin.accessToken, other.botId)).status).toBe(200);
      await fetch(`${stack.url}/v1/bots/${other.botId}/devices`, {
        method: 'POST',
        headers: { authorization: `Bearer ${other.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ userId: 'x', token: 'tok-revoked', platform: 'android' }),
      });
      oauth.revoke(revoked.client_email);
      const send = await fetch(`${stack.url}/v1/bots/${other.botId}/notifications`, {
        method: 'POST',
        headers: { authorization: `Bearer ${other.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ all: true, title: 't', body: 'b' }),
      });
      const { notificationId } = await send.json();
      const deadline = Date.now() + 10_000;
      let status;
      do {
        status = await (await fetch(`${stack.url}/v1/bots/${other.botId}/notifications/${notificationId}`, { headers: { authorization: `Bearer ${other.apiKey}` } })).json();
      } while (status.status !== 'failed' && Date.now() < deadline && (await new Promise((r) => setTimeout(r, 50))) === undefined);
      expect(status.status).toBe('failed');
      expect(status.failureReason).toContain('Google refused the Firebase service account');
      expect(status.failureReason).toContain('invalid_grant');
      expect(status.failureReason).toContain('saveBotConfig');
      expect(fcm.received('tok-revoked')).toHaveLength(0);

      const test = await fetch(`${stack.url}/v1/bots/${other.botId}/notifications/test`, {
        method: 'POST',
        headers: { authorization: `Bearer ${other.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ token: 'tok-revoked' }),
      });
      expect(test.status).toBe(400);
      expect(await test.json()).toMatchObject({ status: 'error', details: { tokenEndpoint: { httpStatus: 400, body: { error: 'invalid_grant' } } } });
    });

    it('saving again replaces the service account', async () => {
      const replacement = oauth.createServiceAccount('demo-push');
      expect((await saveConfig(replacement)).status).toBe(200);
      const view = await (await fetch(`${stack.url}/api/data/vault/botConfig?bot=${botId}`, { headers: { 'x-auth-token': adminToken } })).json();
      expect(view.notification.firebaseConfig.clientEmail).toBe(replacement.client_email);
      oauth.revoke(account.client_email);
      const notificationId = await notify({ userIds: ['alice'], title: 'new key', body: 'b' });
      expect(await waitForCompletion(notificationId)).toMatchObject({ status: 'completed', sent: 2 });
    });
  });
});
