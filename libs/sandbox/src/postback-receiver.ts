import { ServerResponse } from 'node:http';
import { POSTBACK_HEADERS, verifyPostbackSignature } from '@platform/contracts';
import { HttpJsonServer, RecordedRequest, sendJson } from './http-json-server.js';

/** One postback the receiver got, with what a receiver would check. */
export interface PostbackCall {
  request: RecordedRequest;
  body: Record<string, unknown>;
  webhookId: string | undefined;
  /** The Standard Webhooks signature verified against the raw body with the bot's secret. */
  signatureValid: boolean;
  status: number;
}

/**
 * A postback endpoint on loopback as an integrator would write it: verifies webhook-signature with the
 * bot's secret (401 when wrong). Can be made to fail the next calls.
 */
export class PostbackReceiver extends HttpJsonServer {
  readonly calls: PostbackCall[] = [];
  private failures: number[] = [];

  constructor(public secret = '') {
    super();
  }

  /** The next calls are answered with these statuses, then calls succeed again. */
  failNext(...statuses: number[]): this {
    this.failures.push(...statuses);
    return this;
  }

  get delivered(): PostbackCall[] {
    return this.calls.filter((c) => c.status === 200);
  }

  /** Resolves with the successful calls matching `match` once there are `count` of them. */
  async waitFor(match: (call: PostbackCall) => boolean, count = 1, timeoutMs = 15_000): Promise<PostbackCall[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.delivered.filter(match);
      if (found.length >= count) return found;
      if (Date.now() > deadline) throw new Error(`${found.length} of ${count} matching postbacks within ${timeoutMs} ms (${this.calls.length} calls seen)`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  protected handle(req: RecordedRequest, res: ServerResponse): void {
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
    const signatureValid = verifyPostbackSignature({ secret: this.secret, headers: req.headers, rawBody: req.rawBody });
    const failure = this.failures.shift();
    const status = req.method !== 'POST' ? 405 : (failure ?? (signatureValid ? 200 : 401));
    const id = req.headers[POSTBACK_HEADERS.id];
    this.calls.push({ request: req, body, webhookId: Array.isArray(id) ? id[0] : id, signatureValid, status });
    sendJson(res, status, status === 200 ? { ok: true } : { error: `answered ${status}` });
  }
}
