import { ClientRequest, IncomingHttpHeaders, get } from 'node:http';
import { jest } from '@jest/globals';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createChannelWorker } from '../apps/channel-worker/src/create-channel-worker.js';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { MessageStreamService } from '../apps/gateway/src/message-stream/message-stream.service.js';
import type { MessageLiveEvent } from '@platform/contracts';
import { SeededBot, seedBotAdmin, seedCarouselBot, triggerCarousel, until } from '@platform/testing';
import { useStack } from './e2e-stack.js';

jest.setTimeout(120_000);

const APP_SECRET = 'app-secret-for-stream-tests';

interface SseEvent {
  event: string;
  data: unknown;
}

/**
 * An open text/event-stream answer read as it arrives, on a connection of its own (node:http, no agent):
 * fetch's shared pool could leave a spare connection open that would hold the gateway's shutdown.
 */
class EventStreamReader {
  readonly events: SseEvent[] = [];
  ended = false;
  private buffer = '';

  private constructor(
    readonly status: number,
    readonly headers: IncomingHttpHeaders,
    private readonly req: ClientRequest,
  ) {}

  static open(url: string): Promise<EventStreamReader> {
    return new Promise((resolve, reject) => {
      const req = get(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
        const reader = new EventStreamReader(res.statusCode ?? 0, res.headers, req);
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => reader.take(chunk));
        res.on('error', () => undefined);
        res.on('end', () => (reader.ended = true));
        resolve(reader);
      });
      req.on('error', reject);
    });
  }

  private take(chunk: string) {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) this.events.push({ event, data: JSON.parse(data) });
    }
  }

  statuses(msgId: string): string[] {
    return this.events.filter((e) => e.event === 'status' && (e.data as MessageLiveEvent).msgId === msgId).map((e) => (e.data as MessageLiveEvent).status);
  }

  close() {
    this.req.destroy();
  }
}

/** The message log's live stream: a single-use ticket from an access token opens a Server-Sent Events stream fed from Redis. */
describe('console message stream: tickets and live message events', () => {
  const stack = useStack({
    cloud: true,
    seed: true,
    env: { WHATSAPP_WEBHOOK_VERIFY_TOKEN: 'verify-token-for-stream-tests', WHATSAPP_APP_SECRET: APP_SECRET },
  });
  // Started by a test: until then messages wait queued.
  let worker: NestFastifyApplication | undefined;
  let other: SeededBot;
  const readers: EventStreamReader[] = [];
  stack.defer(() => worker?.close());
  stack.defer(() => readers.forEach((r) => r.close()));

  beforeAll(async () => {
    stack.cloud.postStatusesTo({ url: `${stack.url}/webhooks/whatsapp`, appSecret: APP_SECRET, delayMs: 100 });
    other = await seedCarouselBot(stack.gateway);
  });

  const ticketFor = (botId: string, token?: string) => fetch(`${stack.url}/v1/bots/${botId}/messages/stream-ticket`, { method: 'POST', headers: token ? { authorization: `Bearer ${token}` } : {} });
  const open = async (path: string) => {
    const reader = await EventStreamReader.open(`${stack.url}${path}`);
    readers.push(reader);
    return reader;
  };
  const ticketUrl = async (botId: string, token: string) => {
    const res = await ticketFor(botId, token);
    expect(res.status).toBe(201);
    return ((await res.json()) as { url: string }).url;
  };

  it('a ticket needs a member’s access token (viewer is enough); an API key is refused', async () => {
    expect((await ticketFor(stack.seed.botId)).status).toBe(401);
    expect((await ticketFor(stack.seed.botId, stack.seed.apiKey)).status).toBe(401);
    const outsider = await seedBotAdmin(stack.gateway, other.botId, 'admin');
    expect((await ticketFor(stack.seed.botId, outsider.accessToken)).status).toBe(403);
    const viewer = await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer');
    const res = await ticketFor(stack.seed.botId, viewer.accessToken);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({ ticket: expect.stringMatching(/^bst_[A-Za-z0-9_-]{43}$/), expiresIn: 30, url: `/v1/bots/${stack.seed.botId}/messages/stream?ticket=${body.ticket}` });
    expect(res.headers.get('cache-control') ?? '').not.toMatch(/public/);
  });

  it('the stream opens once per ticket, only for the ticket’s bot; a missing or unknown ticket is 401 naming it', async () => {
    const viewer = await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer');
    const none = await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/messages/stream`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ message: expect.stringMatching(/^ticket is missing, expired, already used or for another bot/), status: 'error' });
    expect((await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/messages/stream?ticket=bst_nope`)).status).toBe(401);

    const path = await ticketUrl(stack.seed.botId, viewer.accessToken);
    expect((await fetch(`${stack.url}${path.replace(stack.seed.botId, other.botId)}`)).status).toBe(401);
    // Presented on another bot, the ticket is spent all the same.
    expect((await fetch(`${stack.url}${path}`)).status).toBe(401);

    const fresh = await ticketUrl(stack.seed.botId, viewer.accessToken);
    const stream = await open(fresh);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-store');
    await until(async () => (stream.events[0]?.event === 'ready' ? true : undefined), 5000, 'the ready event');
    expect((await fetch(`${stack.url}${fresh}`)).status).toBe(401);
    stream.close();
    await until(async () => (stack.gateway.get(MessageStreamService).openStreams === 0 ? true : undefined), 5000, 'the stream to be released');
  });

  it('a member removed after taking a ticket cannot open the stream (403)', async () => {
    const admin = await seedBotAdmin(stack.gateway, stack.seed.botId, 'admin');
    const leaving = await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer');
    const path = await ticketUrl(stack.seed.botId, leaving.accessToken);
    const removed = await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/members/${leaving.userId}`, { method: 'DELETE', headers: { authorization: `Bearer ${admin.accessToken}` } });
    expect(removed.status).toBeLessThan(300);
    expect((await fetch(`${stack.url}${path}`)).status).toBe(403);
  });

  it('streams each message of the bot from queued to sent, delivered and read, and nothing of other bots', async () => {
    const viewer = await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer');
    const stream = await open(await ticketUrl(stack.seed.botId, viewer.accessToken));
    await until(async () => (stream.events[0]?.event === 'ready' ? true : undefined), 5000, 'the ready event');

    const msgId = await triggerCarousel(stack.url, stack.seed);
    const elsewhere = await triggerCarousel(stack.url, other);
    await until(async () => (stream.statuses(msgId).includes('queued') ? true : undefined), 10_000, 'the queued event');
    const queued = stream.events.find((e) => e.event === 'status' && (e.data as MessageLiveEvent).msgId === msgId)!.data;
    expect(queued).toEqual({ msgId, status: 'queued', at: expect.any(String), recipient: '919876543210' });

    worker = await createChannelWorker(stack.env);
    await until(async () => (stream.statuses(msgId).includes('read') ? true : undefined), 20_000, 'the read event');
    expect(stream.statuses(msgId)).toEqual(['queued', 'sent', 'delivered', 'read']);
    await until(async () => (stack.cloud.messages.length >= 2 ? true : undefined), 10_000, 'both messages sent');
    expect(stream.statuses(elsewhere)).toEqual([]);
    stream.close();
  });

  it('a stream on another gateway replica gets the same events, and is ended with `end` when that replica shuts down', async () => {
    const replica = await createGateway(stack.env);
    let replicaClosed = false;
    try {
      const replicaUrl = await listenGateway(replica);
      const viewer = await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer');
      const res = await fetch(`${replicaUrl}/v1/bots/${stack.seed.botId}/messages/stream-ticket`, { method: 'POST', headers: { authorization: `Bearer ${viewer.accessToken}` } });
      const stream = await EventStreamReader.open(`${replicaUrl}${((await res.json()) as { url: string }).url}`);
      readers.push(stream);
      await until(async () => (stream.events[0]?.event === 'ready' ? true : undefined), 5000, 'the ready event');

      const msgId = await triggerCarousel(stack.url, stack.seed);
      await until(async () => (stream.statuses(msgId).includes('read') ? true : undefined), 20_000, 'the read event on the replica');

      await replica.close();
      replicaClosed = true;
      await until(async () => (stream.ended ? true : undefined), 5000, 'the stream to end');
      expect(stream.events[stream.events.length - 1]).toEqual({ event: 'end', data: { reason: 'the server is shutting down' } });
    } finally {
      if (!replicaClosed) await replica.close();
    }
  });
});
