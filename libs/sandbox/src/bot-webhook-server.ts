import { ServerResponse } from 'node:http';
import { WEBHOOK_SIGNATURE_HEADER, verifyWebhookSignature } from '@platform/contracts';
import { HttpJsonServer, RecordedRequest, sendJson } from './http-json-server.js';

/** One call the platform made to the bot's webhook, with what the bot would check. */
export interface WebhookCall {
  request: RecordedRequest;
  /** The parsed JSON body (type, id, botId, sessionId, userId, payload | code + data, ...). */
  body: Record<string, unknown>;
  /** The Standard Webhooks signature (webhook-id, webhook-timestamp, webhook-signature) verified against the raw body with the bot's secret. */
  signatureValid: boolean;
  /** The earlier x-platform-signature, verified the same way (bots written against it keep working). */
  legacySignatureValid: boolean;
  /** What the bot answered. */
  status: number;
  /**
   * The string member that must hold a JSON object (`payload` of session.started, `data` of app.event),
   * parsed; undefined when it is missing, not a string, or not a JSON object.
   */
  decoded?: Record<string, unknown>;
}

/**
 * A bot's webhook endpoint on loopback, as a bot would implement it: verifies the signature with its
 * secret (401 when wrong) and checks that payload/data arrive as JSON strings. Can be made to fail.
 */
export class BotWebhookServer extends HttpJsonServer {
  readonly calls: WebhookCall[] = [];
  private failures: number[] = [];

  /** Called with every call the bot answered 200 (a bot's logic: see EchoBot). */
  onDelivered?: (call: WebhookCall) => void;

  constructor(public secret = '') {
    super();
  }

  /** The next calls are answered with these statuses (e.g. 503, 500), then calls succeed again. */
  failNext(...statuses: number[]): this {
    this.failures.push(...statuses);
    return this;
  }

  /** Successful calls (signature valid, answered 200). */
  get delivered(): WebhookCall[] {
    return this.calls.filter((c) => c.status === 200);
  }

  /** Resolves with the first successful call matching `match`, polling until `timeoutMs`. */
  async waitFor(match: (call: WebhookCall) => boolean, timeoutMs = 10_000): Promise<WebhookCall> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.delivered.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching webhook call within ${timeoutMs} ms (${this.calls.length} calls seen)`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  protected handle(req: RecordedRequest, res: ServerResponse): void {
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
    const signatureValid = !!req.headers['webhook-signature'] && verifyWebhookSignature({ secret: this.secret, headers: req.headers, rawBody: req.rawBody });
    const legacySignatureValid = verifyWebhookSignature({ secret: this.secret, header: req.headers[WEBHOOK_SIGNATURE_HEADER], rawBody: req.rawBody });
    const failure = this.failures.shift();
    const status = req.method !== 'POST' ? 405 : (failure ?? (signatureValid && legacySignatureValid ? 200 : 401));
    const call = { request: req, body, signatureValid, legacySignatureValid, status, decoded: decodeJsonObject(body.type === 'app.event' ? body.data : body.payload) };
    this.calls.push(call);
    sendJson(res, status, status === 200 ? { ok: true } : { error: `answered ${status}` });
    if (status === 200) this.onDelivered?.(call);
  }
}

function decodeJsonObject(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
