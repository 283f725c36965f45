import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { PrismaService } from '@platform/database';
import { freePort } from '@platform/local-infra';
import { WhatsAppCloudSandbox } from '@platform/sandbox';
import { TEST_APP_SECRET, TEST_VERIFY_TOKEN, createTestEnv, messageStatus, signWebhook, triggerCarousel, waitForMessageStatus, whatsappNotification } from '@platform/testing';
import { useStack } from './e2e-stack.js';

type Status = { id: string; status: string; timestamp: string; errors?: unknown[] };

/** A notification of these statuses, as Meta posts it. */
const notification = (statuses: Status[], phoneNumberId = '1065') => whatsappNotification({ statuses: statuses.map((s) => ({ recipient_id: '919876543210', ...s })) }, { phoneNumberId });
const seconds = (iso: string) => String(Math.floor(Date.parse(iso) / 1000) + 1);
const isoOf = (unixSeconds: string) => new Date(Number(unixSeconds) * 1000).toISOString();

describe('carousel status webhooks: Meta reports delivered / read / failed for sent messages', () => {
  const cloud = new WhatsAppCloudSandbox();
  const stack = useStack({
    cloud,
    worker: true,
    seed: true,
    env: { WHATSAPP_WEBHOOK_VERIFY_TOKEN: TEST_VERIFY_TOKEN, WHATSAPP_APP_SECRET: TEST_APP_SECRET },
  });

  const status = (msgId: string) => messageStatus(stack.url, stack.seed, msgId);
  const waitForStatus = (msgId: string, want: string) => waitForMessageStatus(stack.url, stack.seed, msgId, [want]);

  /** Triggers a carousel and waits until the worker recorded it sent; its status and wamid. */
  async function sentMessage() {
    const sent = await waitForStatus(await triggerCarousel(stack.url, stack.seed), 'sent');
    return { ...sent, sentAt: sent.sentAt as string, wamid: sent.providerMessageId as string };
  }

  const post = (body: string, headers: Record<string, string> = { 'x-hub-signature-256': signWebhook(body) }, base = stack.url) =>
    fetch(`${base}/webhooks/whatsapp`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  async function report(...statuses: Status[]) {
    const res = await post(JSON.stringify(notification(statuses)));
    expect([res.status, await res.json()]).toEqual([200, { message: 'Statuses recorded', status: 'success' }]);
  }

  it('delivered then read: GET /v1/messages shows each with its time', async () => {
    const m = await sentMessage();
    const [t1, t2] = [seconds(m.sentAt), String(Number(seconds(m.sentAt)) + 5)];
    await report({ id: m.wamid, status: 'delivered', timestamp: t1 });
    expect(await status(m.msgId)).toMatchObject({ status: 'delivered', deliveredAt: isoOf(t1), readAt: null, lastError: null });
    await report({ id: m.wamid, status: 'read', timestamp: t2 });
    expect(await status(m.msgId)).toMatchObject({ status: 'read', deliveredAt: isoOf(t1), readAt: isoOf(t2), sentAt: m.sentAt, attempts: 1 });
  });

  it('out of order: a read first sets read (and delivered at the same time); the late delivered changes nothing', async () => {
    const m = await sentMessage();
    const t = seconds(m.sentAt);
    await report({ id: m.wamid, status: 'read', timestamp: t });
    const read = await status(m.msgId);
    expect(read).toMatchObject({ status: 'read', deliveredAt: isoOf(t), readAt: isoOf(t) });
    await report({ id: m.wamid, status: 'delivered', timestamp: String(Number(t) + 60) }, { id: m.wamid, status: 'sent', timestamp: t });
    expect(await status(m.msgId)).toEqual(read);
  });

  it("failed after sent (131026): failed with Meta's code and title; a failure after delivery is ignored", async () => {
    const m = await sentMessage();
    const details = 'Message Undeliverable.';
    const errors = [{ code: 131026, title: 'Message undeliverable', message: 'Message undeliverable', error_data: { details } }];
    await report({ id: m.wamid, status: 'failed', timestamp: seconds(m.sentAt), errors });
    expect(await status(m.msgId)).toMatchObject({ status: 'failed', lastError: { code: '131026', text: 'Message undeliverable' }, deliveredAt: null });

    const delivered = await sentMessage();
    await report({ id: delivered.wamid, status: 'delivered', timestamp: seconds(delivered.sentAt) });
    const before = await status(delivered.msgId);
    await report({ id: delivered.wamid, status: 'failed', timestamp: seconds(delivered.sentAt), errors });
    expect(await status(delivered.msgId)).toEqual(before);
    expect(before).toMatchObject({ status: 'delivered', lastError: null });
  });

  it('many statuses in one POST are applied in one statement, each message to its furthest status', async () => {
    const [a, b, c] = [await sentMessage(), await sentMessage(), await sentMessage()];
    const t = seconds(c.sentAt);
    const db = stack.gateway.get(PrismaService, { strict: false });
    const query = jest.spyOn(db, 'query');
    try {
      await report(
        { id: a.wamid, status: 'delivered', timestamp: t },
        { id: b.wamid, status: 'read', timestamp: t },
        { id: b.wamid, status: 'delivered', timestamp: t },
        { id: c.wamid, status: 'failed', timestamp: t, errors: [{ code: 131047, title: 'Re-engagement message' }] },
        { id: 'wamid.unknown', status: 'read', timestamp: t },
      );
      // One statement (see MessageReceiptsService), each id once (folded).
      const statements = query.mock.calls.filter(([q]) => (q as { name?: string }).name === 'messages-apply-provider-statuses');
      const ids = [a.wamid, b.wamid, c.wamid, 'wamid.unknown'];
      expect(statements).toHaveLength(1);
      expect(statements.flatMap(([q]) => (q as { values: string[][] }).values[0]).sort()).toEqual([...ids].sort());
    } finally {
      query.mockRestore();
    }
    expect(await status(a.msgId)).toMatchObject({ status: 'delivered' });
    expect(await status(b.msgId)).toMatchObject({ status: 'read', deliveredAt: isoOf(t), readAt: isoOf(t) });
    expect(await status(c.msgId)).toMatchObject({ status: 'failed', lastError: { code: '131047', text: 'Re-engagement message' } });
  });

  it('unknown wamids, other fields and other statuses: 200, nothing changes', async () => {
    const m = await sentMessage();
    const before = await status(m.msgId);
    const t = seconds(m.sentAt);
    await report({ id: 'wamid.not-ours', status: 'read', timestamp: t }, { id: m.wamid, status: 'deleted', timestamp: t });
    const change = { field: 'account_update', value: { statuses: [{ id: m.wamid, status: 'read' }] } };
    const other = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: '1', changes: [change] }] });
    expect((await post(other)).status).toBe(200);
    expect(await status(m.msgId)).toEqual(before);
  });

  describe('signature', () => {
    it.each([
      ['missing', () => ({})],
      ['of another secret', (body: string) => ({ 'x-hub-signature-256': signWebhook(body, 'another-app-secret') })],
      ['of another body', (body: string) => ({ 'x-hub-signature-256': signWebhook(body + ' ') })],
      ['without the sha256= prefix', (body: string) => ({ 'x-hub-signature-256': signWebhook(body).slice(7) })],
      ['in the sha1 header', (body: string) => ({ 'x-hub-signature': signWebhook(body) })],
    ])('%s: 401 and nothing changes', async (_name, headers) => {
      const m = await sentMessage();
      const before = await status(m.msgId);
      const body = JSON.stringify(notification([{ id: m.wamid, status: 'read', timestamp: seconds(m.sentAt) }]));
      const res = await post(body, headers(body));
      expect([res.status, await res.json()]).toEqual([401, { message: 'Missing or invalid X-Hub-Signature-256 signature', status: 'error' }]);
      expect(await status(m.msgId)).toEqual(before);
    });

    it('signed but not JSON: 400; other content types: 400 as on every route', async () => {
      expect((await post('not json')).status).toBe(400);
      const res = await fetch(`${stack.url}/webhooks/whatsapp`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
      expect(res.status).toBe(400);
    });
  });

  describe('bodies not of the shape Meta posts', () => {
    it.each([
      ['null', 'Request body must be a JSON object'],
      ['[1]', 'Request body must be a JSON object'],
      ['{"object":"whatsapp_business_account","entry":"x"}', 'entry must be an array'],
      ['{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"field":"messages","value":{"statuses":{}}}]}]}', 'entry[0].changes[0].value.statuses must be an array'],
    ])('%s: 400 naming the part', async (body, message) => {
      const res = await post(body);
      expect([res.status, await res.json()]).toEqual([400, { message, status: 'error' }]);
    });

    it('what Postgres cannot store (NUL, an unpaired UTF-16 half) is skipped in ids and cleaned from texts: 200, the rest recorded', async () => {
      const m = await sentMessage();
      const t = seconds(m.sentAt);
      await report({ id: 'wamid.\u0000x', status: 'read', timestamp: t }, { id: m.wamid, status: 'delivered', timestamp: t });
      expect(await status(m.msgId)).toMatchObject({ status: 'delivered' });
      const text = { from: '919876543210', id: `wamid.in-${m.wamid}`, timestamp: t, type: 'text', text: { body: 'a\u0000b\ud800' } };
      const inbound = {
        object: 'whatsapp_business_account',
        entry: [{ id: '1', changes: [{ field: 'messages', value: { metadata: { phone_number_id: stack.seed.phoneNumberId }, messages: [text] } }] }],
      };
      const res = await post(JSON.stringify(inbound));
      expect([res.status, await res.json()]).toEqual([200, { message: 'Statuses recorded', status: 'success' }]);
    });
  });

  describe('verification handshake', () => {
    const handshake = (query: Record<string, string>) => fetch(`${stack.url}/webhooks/whatsapp?${new URLSearchParams(query)}`);

    it('answers the challenge as text/plain when the verify token matches', async () => {
      const res = await handshake({ 'hub.mode': 'subscribe', 'hub.verify_token': TEST_VERIFY_TOKEN, 'hub.challenge': '1158201444' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toBe('1158201444');
    });

    it.each([
      ['a wrong token', { 'hub.mode': 'subscribe', 'hub.verify_token': TEST_VERIFY_TOKEN + 'x', 'hub.challenge': '1' }],
      ['a token prefix', { 'hub.mode': 'subscribe', 'hub.verify_token': TEST_VERIFY_TOKEN.slice(0, -1), 'hub.challenge': '1' }],
      ['no token', { 'hub.mode': 'subscribe', 'hub.challenge': '1' }],
      ['another mode', { 'hub.mode': 'unsubscribe', 'hub.verify_token': TEST_VERIFY_TOKEN, 'hub.challenge': '1' }],
      ['no challenge', { 'hub.mode': 'subscribe', 'hub.verify_token': TEST_VERIFY_TOKEN }],
    ])('refuses %s with 403', async (_name, query) => {
      const res = await handshake(query);
      expect([res.status, await res.json()]).toEqual([403, { message: 'Webhook verification failed', status: 'error' }]);
    });
  });

  it('the WhatsApp sandbox, given the webhook, reports each message delivered then read', async () => {
    cloud.postStatusesTo({ url: `${stack.url}/webhooks/whatsapp`, appSecret: TEST_APP_SECRET, delayMs: 300 });
    try {
      const m = await sentMessage();
      const read = await waitForStatus(m.msgId, 'read');
      expect(read.deliveredAt).not.toBeNull();
      expect(Date.parse(read.deliveredAt!)).toBeLessThanOrEqual(Date.parse(read.readAt!));
    } finally {
      cloud.postStatusesTo(undefined);
    }
  });

  it('Postgres unreachable: 500 with the database named, so Meta retries', async () => {
    const down = await createGateway({ ...stack.env, DATABASE_URL: 'postgresql://platform:x@127.0.0.1:1/platform' });
    try {
      const body = JSON.stringify(notification([{ id: 'wamid.any', status: 'read', timestamp: '1750000000' }]));
      const res = await post(body, undefined, await listenGateway(down));
      expect([res.status, await res.json()]).toEqual([500, { message: 'The database is unavailable; nothing was done. Retry later.', status: 'error' }]);
    } finally {
      await down.close();
    }
  });

  it('both routes are described in the OpenAPI document (they are Fastify routes, outside the Swagger scanner)', async () => {
    const doc = await (await fetch(`${stack.url}/docs/openapi.json`)).json();
    const ops = doc.paths['/webhooks/whatsapp'];
    expect(Object.keys(ops?.get?.responses ?? {})).toEqual(['200', '403', '404']);
    expect(ops?.post?.parameters).toEqual([expect.objectContaining({ name: 'x-hub-signature-256', in: 'header', required: true })]);
    expect(Object.keys(ops?.post?.responses ?? {})).toEqual(['200', '400', '401', '404', '500']);
  });

  it('not configured: both routes answer 404 saying so', async () => {
    const { WHATSAPP_WEBHOOK_VERIFY_TOKEN: _t, WHATSAPP_APP_SECRET: _s, ...rest } = stack.env;
    const plain = await createGateway(rest);
    try {
      const base = await listenGateway(plain);
      const body = JSON.stringify(notification([]));
      for (const res of [await fetch(`${base}/webhooks/whatsapp?hub.mode=subscribe`), await post(body, undefined, base)]) {
        expect([res.status, await res.json()]).toEqual([404, { message: 'WhatsApp webhooks are not configured on this platform', status: 'error' }]);
      }
    } finally {
      await plain.close();
    }
  });
});

describe('carousel status webhooks: the verify token and app secret never reach the logs (built gateway, LOG_LEVEL=trace)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wa-webhook-logs-'));
  const logFile = join(dir, 'gateway.log');

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('handshakes, right and wrong, and signed and unsigned POSTs leave neither secret in any line', async () => {
    const port = await freePort();
    const env = await createTestEnv({ WHATSAPP_WEBHOOK_VERIFY_TOKEN: TEST_VERIFY_TOKEN, WHATSAPP_APP_SECRET: TEST_APP_SECRET, PORT: String(port), LOG_LEVEL: 'trace' });
    // Output to a file, not a pipe, which the process would block on when nobody drains it.
    const fd = openSync(logFile, 'w');
    const gateway = spawn(process.execPath, ['dist/apps/gateway/src/main.js'], { env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    const base = `http://127.0.0.1:${port}`;
    try {
      // A built gateway can take most of a minute to start on a loaded host.
      const deadline = Date.now() + 90_000;
      while ((await fetch(`${base}/health`).catch(() => null))?.status !== 200) {
        if (Date.now() > deadline) throw new Error(`gateway not healthy:\n${readFileSync(logFile, 'utf8')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      for (const token of [TEST_VERIFY_TOKEN, TEST_VERIFY_TOKEN + 'x']) {
        await fetch(`${base}/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=42`);
      }
      const body = JSON.stringify(notification([{ id: 'wamid.x', status: 'read', timestamp: '1750000000' }]));
      for (const signature of [signWebhook(body), 'sha256=00']) {
        await fetch(`${base}/webhooks/whatsapp`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, body });
      }
    } finally {
      gateway.kill('SIGTERM');
      await new Promise((r) => gateway.once('exit', r));
    }
    const logs = readFileSync(logFile, 'utf8');
    expect(logs).toMatch(/POST|\/webhooks\/whatsapp/); // trace level did write the requests
    expect(logs).not.toContain(TEST_VERIFY_TOKEN);
    expect(logs).not.toContain(TEST_APP_SECRET);
  }, 180_000);
});
