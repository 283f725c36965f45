import { Injectable } from '@nestjs/common';
import { PlatformEnv } from '@platform/config';

export type SendOutcome =
  | { kind: 'sent'; providerMessageId: string }
  | { kind: 'retry'; code: string; text: string }
  | { kind: 'failed'; code: string; text: string };

/**
 * Sends to the WhatsApp Cloud API with fetch. Meta publishes no maintained Node SDK for the Cloud
 * API whose base URL can be pointed at a local server, so this stays a thin client over one endpoint.
 */
@Injectable()
export class WhatsAppCloudClient {
  constructor(private readonly env: PlatformEnv) {}

  async send(phoneNumberId: string, accessToken: string, body: unknown): Promise<SendOutcome> {
    let res: Response;
    try {
      res = await fetch(`${this.env.WHATSAPP_API_BASE_URL}/${encodeURIComponent(phoneNumberId)}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.env.WHATSAPP_TIMEOUT_MS),
      });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      const code = e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? 'network');
      return { kind: 'retry', code, text: `WhatsApp Cloud API unreachable: ${e.cause?.code ?? e.message}` };
    }
    const payload = (await res.json().catch(() => undefined)) as GraphResponse | undefined;
    if (res.ok) {
      const id = payload?.messages?.[0]?.id;
      if (id) return { kind: 'sent', providerMessageId: id };
      return { kind: 'retry', code: `http_${res.status}`, text: 'WhatsApp Cloud API answered without a message id' };
    }
    const code = payload?.error?.code !== undefined ? String(payload.error.code) : `http_${res.status}`;
    const text = payload?.error?.error_data?.details ?? payload?.error?.message ?? `HTTP ${res.status}`;
    // 429 and 5xx are transient; any other 4xx is a verdict on this message (bad number, template, token).
    const retryable = res.status === 429 || res.status >= 500;
    return { kind: retryable ? 'retry' : 'failed', code, text };
  }
}

interface GraphResponse {
  messages?: Array<{ id?: string }>;
  error?: { code?: number; message?: string; error_data?: { details?: string } };
}
