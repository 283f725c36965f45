import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookDeliveryEnv } from '@platform/config';
import { BotWebhookJob, verifyWebhookSignature } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import type { BotWebhookRepository } from '@platform/database';
import { WebhookSender } from './webhook-sender.js';
import { WebhookDeliveryError } from './webhook-delivery.error.js';

const box = new SecretBox(`k:${Buffer.alloc(32, 3).toString('base64')}`);
const secret = 'whsec_test';

describe('WebhookSender', () => {
  let server: Server;
  let base: string;
  let reply: (req: IncomingMessage, res: ServerResponse, body: string) => void;
  const seen: Array<{ headers: IncomingMessage['headers']; body: string }> = [];

  beforeAll(async () => {
    Logger.overrideLogger(false);
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        reply(req, res, body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const job: BotWebhookJob = {
    botId: 'b1',
    delivery: { type: 'app.event', id: 'd1', botId: 'b1', sessionId: 's1', userId: 'u1', code: 'c', data: '{"x":1}', createdAt: '2026-01-01T00:00:00.000Z' },
  };
  const sender = (url: string | null) =>
    new WebhookSender(
      { find: async () => ({ url, secretEncrypted: url && box.encrypt(secret) }) } as unknown as BotWebhookRepository,
      box,
      { WEBHOOK_TIMEOUT_MS: 300 } as WebhookDeliveryEnv,
    );

  it('POSTs the delivery signed with the bot secret', async () => {
    reply = (_q, res) => res.writeHead(204).end();
    expect(await sender(`${base}/hook`).send(job)).toBe('delivered');
    const last = seen[seen.length - 1];
    expect(JSON.parse(last.body)).toEqual(job.delivery);
    expect(last.headers['x-platform-delivery']).toBe('d1');
    expect(verifyWebhookSignature({ secret, header: last.headers['x-platform-signature'], rawBody: last.body })).toBe(true);
  });

  it('fails (to be retried) on non-2xx answers, redirects and timeouts', async () => {
    reply = (_q, res) => res.writeHead(503).end();
    await expect(sender(`${base}/hook`).send(job)).rejects.toThrow(new WebhookDeliveryError('webhook of bot b1 answered 503'));
    reply = (_q, res) => res.writeHead(302, { location: `${base}/elsewhere` }).end();
    const before = seen.length;
    await expect(sender(`${base}/hook`).send(job)).rejects.toThrow('answered 302');
    expect(seen.length).toBe(before + 1); // the redirect was not followed
    reply = () => undefined; // never answers
    await expect(sender(`${base}/hook`).send(job)).rejects.toThrow('no answer within 300 ms');
  });

  it('drops the call when the bot no longer has a webhook', async () => {
    expect(await sender(null).send(job)).toBe('noWebhook');
  });
});
