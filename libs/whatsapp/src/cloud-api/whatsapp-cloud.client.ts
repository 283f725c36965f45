import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent, request } from 'undici';
import { WhatsAppEnv } from '@platform/config';
import { CloudApiAnswer, SendOutcome, classifyCloudApiAnswer } from './cloud-api-answer.js';
import { ReadReceiptOutcome, classifyReadReceiptAnswer, readReceiptBody } from './read-receipt.js';

/**
 * Sends to the WhatsApp Cloud API with undici's request (keep-alive pool; about half the CPU of fetch,
 * which builds web streams and an abort signal per call). Meta publishes no maintained Node SDK for the
 * Cloud API whose base URL can be pointed at a local server, so this stays a thin client over one endpoint.
 */
@Injectable()
export class WhatsAppCloudClient implements OnApplicationShutdown {
  private readonly agent: Agent;

  constructor(private readonly env: WhatsAppEnv) {
    const timeout = env.WHATSAPP_TIMEOUT_MS;
    this.agent = new Agent({ headersTimeout: timeout, bodyTimeout: timeout, connectTimeout: timeout, keepAliveTimeout: 30_000 });
  }

  async send(phoneNumberId: string, accessToken: string, body: unknown): Promise<SendOutcome> {
    try {
      const res = await request(`${this.env.WHATSAPP_API_BASE_URL}/${encodeURIComponent(phoneNumberId)}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        dispatcher: this.agent,
      });
      const payload = (await res.body.json().catch(() => undefined)) as CloudApiAnswer | undefined;
      return classifyCloudApiAnswer(res.statusCode, payload, res.headers);
    } catch (err) {
      const code = (err as { code?: string }).code ?? 'network';
      const timedOut = /TIMEOUT/.test(code);
      return { kind: 'retry', code: timedOut ? 'timeout' : code, text: `WhatsApp Cloud API unreachable: ${timedOut ? `no answer within ${this.env.WHATSAPP_TIMEOUT_MS} ms` : code}` };
    }
  }

  /** Marks the user's message `wamid` read and shows them the typing indicator (read-receipt.ts). */
  async markRead(phoneNumberId: string, accessToken: string, wamid: string): Promise<ReadReceiptOutcome> {
    try {
      const res = await request(`${this.env.WHATSAPP_API_BASE_URL}/${encodeURIComponent(phoneNumberId)}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(readReceiptBody(wamid)),
        dispatcher: this.agent,
      });
      return classifyReadReceiptAnswer(res.statusCode, (await res.body.json().catch(() => undefined)) as never);
    } catch (err) {
      return { ok: false, code: (err as { code?: string }).code ?? 'network', text: 'WhatsApp Cloud API unreachable' };
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.close();
  }
}
