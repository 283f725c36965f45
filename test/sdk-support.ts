// Helpers of the test/sdk-*.e2e-spec.ts files (mobile SDK sessions, bot events, bot webhooks).
import { INestApplicationContext } from '@nestjs/common';
import WebSocket from 'ws';
import { CallbackSettingsService } from '../apps/gateway/src/callbacks/callback-settings.service.js';
import { ApiKeyService } from '@platform/accounts';
import { BotRepository } from '@platform/database';

export interface SdkBot {
  botId: string;
  apiKey: string;
  /** The webhook signing secret, when a webhook was set. */
  secret: string;
}

/** A bot with an API key and, when given, a webhook URL (its new signing secret is returned). */
export async function seedSdkBot(app: INestApplicationContext, webhookUrl?: string): Promise<SdkBot> {
  const bot = await app.get(BotRepository, { strict: false }).create('sdk bot');
  const { key } = await app.get(ApiKeyService, { strict: false }).create(bot.id, 'bot code');
  const secret = webhookUrl ? (await app.get(CallbackSettingsService, { strict: false }).setUrl(bot.id, 'webhook', webhookUrl)).secret! : '';
  return { botId: bot.id, apiKey: key, secret };
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** POST /v1/bots/:botId/sessions as the SDK does. */
export async function startSession(base: string, botId: string, authToken: string, payload: object = {}) {
  const res = await postJson(`${base}/v1/bots/${botId}/sessions`, { authToken, payload, version: 2 });
  if (res.status !== 201) throw new Error(`session start answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { sessionId: string; streamUrl: string };
}

/** The bot's app.sendEvent through the platform API. */
export function sendBotEvent(base: string, bot: SdkBot, userId: string, name: string, data: object, platform = 'sendReactNativeEvent') {
  return postJson(`${base}/v1/bots/${bot.botId}/events`, { userId, event: { code: platform, data: { code: name, data: JSON.stringify(data) } } }, { authorization: `Bearer ${bot.apiKey}` });
}

export async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface EventFrame {
  type: 'event';
  id: string;
  event: { code: string; data: { code: string; data: string } };
}

/** A hand-driven stream client (no automatic acks), to see exactly what the server sends. */
export class RawStream {
  readonly frames: Array<{ type: string } & Record<string, unknown>> = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;
  private readonly ws: WebSocket;

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.on('message', (data) => this.frames.push(JSON.parse(String(data))));
    this.ws.on('error', () => undefined);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
    this.closed = new Promise((resolve) => this.ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
  }

  /** Opens and authenticates; resolves after 'ready'. */
  static async connect(url: string, token: string): Promise<RawStream> {
    const s = new RawStream(url);
    await s.opened;
    s.send({ type: 'auth', token });
    await eventually(() => s.frames.some((f) => f.type === 'ready') || undefined, 5000, 'ready frame');
    return s;
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  get events(): EventFrame[] {
    return this.frames.filter((f) => f.type === 'event') as unknown as EventFrame[];
  }

  /** Resolves once at least `n` events arrived. */
  waitForEvents(n: number, timeoutMs = 5000): Promise<EventFrame[]> {
    return eventually(() => (this.events.length >= n ? this.events : undefined), timeoutMs, `${n} events`);
  }

  ack(id: string): void {
    this.send({ type: 'ack', id });
  }

  async close(): Promise<void> {
    this.ws.close(1000);
    await this.closed;
  }
}
