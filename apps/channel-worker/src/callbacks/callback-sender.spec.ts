import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallbackEnv, WebhookUrlEnv } from '@platform/config';
import { CallbackJob, verifyPostbackSignature, verifyWebhookSignature } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import type { CallbackAttemptOutcome, CallbackDeliveryRepository, CallbackSettings, CallbackSettingsRepository } from '@platform/database';
import { CallbackDeliveryError } from './callback-delivery.error.js';
import { CallbackSender } from './callback-sender.js';
import type { EndpointHealth } from './endpoint-health.js';

const box = new SecretBox(`k:${Buffer.alloc(32, 3).toString('base64')}`);
const secret = 'whsec_' + Buffer.alloc(32, 9).toString('base64url');
const previous = 'whsec_' + Buffer.alloc(32, 5).toString('base64url');

describe('CallbackSender', () => {
  let server: Server;
  let port: number;
  let reply: (res: ServerResponse) => void;
  const seen: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
  const attempts: Array<CallbackAttemptOutcome & { replay?: boolean; url: string }> = [];
  const health: string[] = [];

  beforeAll(async () => {
    Logger.overrideLogger(false);
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        reply(res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  beforeEach(() => {
    seen.length = 0;
    attempts.length = 0;
    health.length = 0;
  });

  const postback = (host = 'receiver.test'): CallbackJob => ({
    id: 'm1.sent',
    botId: 'b1',
    kind: 'postback',
    event: 'message.status',
    messageId: 'm1',
    status: 'sent',
    url: `http://${host}:${port}/pb`,
    body: '{"type":"message.status","id":"m1.sent","customPayload":{"a":1}}',
  });
  const webhook: CallbackJob = { id: 'd1', botId: 'b1', kind: 'webhook', event: 'app.event', url: null, body: '{"type":"app.event","id":"d1"}' };
  const hook = (host = 'receiver.test') => `http://${host}:${port}/hook`;

  // The fake DNS: receiver.test is the loopback server (as a hostile name pointing inwards would be).
  const dns = async (host: string) => (host === 'receiver.test' ? [{ address: '127.0.0.1', family: 4 }] : Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' })));
  const settingsOf = (over: Partial<CallbackSettings> = {}): CallbackSettings => ({
    endpoints: { webhook: { kind: 'webhook', url: hook(), failingSince: null, disabledAt: null, disabledReason: null } },
    secret: { secretEncrypted: box.encrypt(secret), previousSecretEncrypted: null, previousExpiresAt: null },
    ...over,
  });
  const sender = (allowPrivate: boolean, settings: CallbackSettings | null = settingsOf()) =>
    new CallbackSender(
      {
        recordAttempt: async (e: { replay?: boolean; url: string }, outcome: CallbackAttemptOutcome) => void attempts.push({ ...outcome, replay: e.replay, url: e.url }),
      } as unknown as CallbackDeliveryRepository,
      { find: async () => settings } as unknown as CallbackSettingsRepository,
      {
        answered: async (_b: string, kind: string) => void health.push(`${kind} ok`),
        failed: async (_b: string, kind: string, _u: string, reason: string) => void health.push(`${kind} failed: ${reason}`),
      } as unknown as EndpointHealth,
      box,
      { CALLBACK_TIMEOUT_MS: 300 } as CallbackEnv,
      { WEBHOOK_ALLOW_HTTP: true, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: allowPrivate } as WebhookUrlEnv,
      dns,
    );

  it('POSTs a postback with Standard Webhooks headers and records the delivery', async () => {
    reply = (res) => res.writeHead(204).end();
    expect(await sender(true).send(postback())).toBe(204);
    expect(seen).toHaveLength(1);
    expect(seen[0].body).toBe(postback().body);
    expect(seen[0].headers['webhook-id']).toBe('m1.sent');
    expect(seen[0].headers['x-platform-signature']).toBeUndefined();
    expect(verifyPostbackSignature({ secret, headers: seen[0].headers, rawBody: seen[0].body })).toBe(true);
    expect(attempts).toEqual([{ httpStatus: 204, error: null, delivered: true, replay: false, url: postback().url }]);
    expect(health).toEqual(['postback ok']);
  });

  it("POSTs a webhook call to the bot's webhook URL, signed both ways (Standard Webhooks and x-platform-signature)", async () => {
    reply = (res) => res.writeHead(200).end();
    expect(await sender(true).send(webhook, true)).toBe(200);
    const [call] = seen;
    expect(call.headers['webhook-id']).toBe('d1');
    expect(call.headers['x-platform-delivery']).toBe('d1');
    expect(call.headers['x-platform-event']).toBe('app.event');
    expect(verifyWebhookSignature({ secret, headers: call.headers, rawBody: call.body })).toBe(true);
    expect(verifyWebhookSignature({ secret, header: call.headers['x-platform-signature'], rawBody: call.body })).toBe(true);
    expect(attempts).toEqual([{ httpStatus: 200, error: null, delivered: true, replay: true, url: hook() }]);
  });

  it('signs with both secrets while a rotation runs, and with the new one only once the previous expired', async () => {
    reply = (res) => res.writeHead(200).end();
    const rotating = (expires: Date) => settingsOf({ secret: { secretEncrypted: box.encrypt(secret), previousSecretEncrypted: box.encrypt(previous), previousExpiresAt: expires } });
    await sender(true, rotating(new Date(Date.now() + 60_000))).send(webhook);
    const [call] = seen;
    expect(String(call.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const s of [secret, previous]) {
      expect(verifyWebhookSignature({ secret: s, headers: call.headers, rawBody: call.body })).toBe(true);
      expect(verifyWebhookSignature({ secret: s, header: call.headers['x-platform-signature'], rawBody: call.body })).toBe(true);
    }
    await sender(true, rotating(new Date(Date.now() - 1000))).send(webhook);
    expect(verifyWebhookSignature({ secret: previous, headers: seen[1].headers, rawBody: seen[1].body })).toBe(false);
    expect(verifyWebhookSignature({ secret, headers: seen[1].headers, rawBody: seen[1].body })).toBe(true);
  });

  it('refuses, without connecting, a host that resolves to a non-public address; the callback ends', async () => {
    reply = (res) => res.writeHead(200).end();
    await expect(sender(false).send(postback())).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(sender(false).send(postback('127.0.0.1'))).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(sender(false).send(webhook)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(seen).toHaveLength(0);
    expect(attempts[0]).toMatchObject({ httpStatus: null, delivered: false, error: expect.stringContaining('127.0.0.1, which is not a public address') });
  });

  it('records and retries non-2xx answers, redirects (not followed), timeouts and unknown hosts, and reports them to the endpoint health', async () => {
    reply = (res) => res.writeHead(503).end();
    await expect(sender(true).send(postback())).rejects.toThrow(new CallbackDeliveryError('postback m1.sent answered 503'));
    reply = (res) => res.writeHead(302, { location: 'http://example.com/' }).end();
    await expect(sender(true).send(webhook)).rejects.toThrow('answered 302');
    expect(seen).toHaveLength(2);
    reply = () => undefined;
    await expect(sender(true).send(postback())).rejects.toThrow('no answer within 300 ms');
    await expect(sender(true).send(postback('nowhere.test'))).rejects.toBeInstanceOf(CallbackDeliveryError);
    expect(attempts.map((a) => a.httpStatus)).toEqual([503, 302, null, null]);
    expect(health).toEqual([
      'postback failed: answered 503',
      'webhook failed: answered 302',
      expect.stringMatching(/^postback failed: unreachable/),
      expect.stringMatching(/^postback failed: unreachable/),
    ]);
  });

  it('does not call a disabled endpoint; the callback ends', async () => {
    const disabled = settingsOf({ endpoints: { webhook: { kind: 'webhook', url: hook(), failingSince: new Date(0), disabledAt: new Date(1000), disabledReason: 'answered 500' } } });
    await expect(sender(true, disabled).send(webhook)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(seen).toHaveLength(0);
    expect(attempts[0].error).toContain('disabled');
  });

  it('ends the callback when the bot has no signing secret, and drops a webhook call when the bot has no webhook', async () => {
    await expect(sender(true, settingsOf({ secret: null })).send(postback())).rejects.toBeInstanceOf(UnrecoverableError);
    expect(await sender(true, settingsOf({ endpoints: {} })).send(webhook)).toBe('noEndpoint');
    expect(seen).toHaveLength(0);
  });
});
