import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PostbackEnv, WebhookUrlEnv } from '@platform/config';
import { PostbackJob, verifyPostbackSignature } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import type { BotWebhookRepository, PostbackRepository } from '@platform/database';
import { PostbackDeliveryError } from './postback-delivery.error.js';
import { PostbackSender } from './postback-sender.js';

const box = new SecretBox(`k:${Buffer.alloc(32, 3).toString('base64')}`);
const secret = 'whsec_' + Buffer.alloc(32, 9).toString('base64url');

describe('PostbackSender', () => {
  let server: Server;
  let port: number;
  let reply: (res: ServerResponse) => void;
  const seen: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
  const attempts: Array<{ httpStatus: number | null; error: string | null; delivered: boolean }> = [];

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
  });

  const job = (host = 'receiver.test'): PostbackJob => ({
    id: 'm1.sent',
    botId: 'b1',
    messageId: 'm1',
    status: 'sent',
    url: `http://${host}:${port}/pb`,
    body: '{"type":"message.status","id":"m1.sent","customPayload":{"a":1}}',
  });
  // The fake DNS: receiver.test is the loopback server (as a hostile name pointing inwards would be).
  const dns = async (host: string) => (host === 'receiver.test' ? [{ address: '127.0.0.1', family: 4 }] : Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' })));
  const sender = (allowPrivate: boolean, hasSecret = true) =>
    new PostbackSender(
      { recordAttempt: async (_e: unknown, outcome: (typeof attempts)[number]) => void attempts.push(outcome) } as unknown as PostbackRepository,
      { find: async () => ({ url: null, secretEncrypted: hasSecret ? box.encrypt(secret) : null }) } as unknown as BotWebhookRepository,
      box,
      { POSTBACK_TIMEOUT_MS: 300 } as PostbackEnv,
      { WEBHOOK_ALLOW_HTTP: true, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: allowPrivate } as WebhookUrlEnv,
      dns,
    );

  it('POSTs the logged body with Standard Webhooks headers and records the delivery', async () => {
    reply = (res) => res.writeHead(204).end();
    expect(await sender(true).send(job())).toBe(204);
    expect(seen).toHaveLength(1);
    expect(seen[0].body).toBe(job().body);
    expect(seen[0].headers['webhook-id']).toBe('m1.sent');
    expect(verifyPostbackSignature({ secret, headers: seen[0].headers, rawBody: seen[0].body })).toBe(true);
    expect(attempts).toEqual([{ httpStatus: 204, error: null, delivered: true }]);
  });

  it('refuses, without connecting, a host that resolves to a non-public address; the postback ends', async () => {
    reply = (res) => res.writeHead(200).end();
    await expect(sender(false).send(job())).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(sender(false).send(job('127.0.0.1'))).rejects.toBeInstanceOf(UnrecoverableError);
    expect(seen).toHaveLength(0);
    expect(attempts[0]).toMatchObject({ httpStatus: null, delivered: false, error: expect.stringContaining('127.0.0.1, which is not a public address') });
  });

  it('records and retries non-2xx answers, redirects (not followed), timeouts and unknown hosts', async () => {
    reply = (res) => res.writeHead(503).end();
    await expect(sender(true).send(job())).rejects.toThrow(new PostbackDeliveryError('postback m1.sent answered 503'));
    reply = (res) => res.writeHead(302, { location: 'http://example.com/' }).end();
    await expect(sender(true).send(job())).rejects.toThrow('answered 302');
    expect(seen).toHaveLength(2);
    reply = () => undefined;
    await expect(sender(true).send(job())).rejects.toThrow('no answer within 300 ms');
    await expect(sender(true).send(job('nowhere.test'))).rejects.toBeInstanceOf(PostbackDeliveryError);
    expect(attempts.map((a) => a.httpStatus)).toEqual([503, 302, null, null]);
  });

  it('ends the postback when the bot has no signing secret', async () => {
    await expect(sender(true, false).send(job())).rejects.toBeInstanceOf(UnrecoverableError);
    expect(seen).toHaveLength(0);
  });
});
