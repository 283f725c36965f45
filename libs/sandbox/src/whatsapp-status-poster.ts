import { createHmac } from 'node:crypto';

export interface StatusWebhookOptions {
  /** The platform's webhook, e.g. http://127.0.0.1:3000/webhooks/whatsapp. */
  url: string;
  /** Signs each POST as Meta does (X-Hub-Signature-256) with the app secret the gateway is given. */
  appSecret: string;
  /** Wait before `delivered` and again before `read`, so the worker has recorded the wamid; default 1000. */
  delayMs?: number;
}

/** Posts signed `delivered` then `read` webhooks for an accepted message, as Meta would; retries non-200 answers a few times. */
export class WhatsAppStatusPoster {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly options: StatusWebhookOptions,
    private readonly log?: (line: string) => void,
  ) {}

  schedule(wamid: string, phoneNumberId: string, recipient: string): void {
    const delay = this.options.delayMs ?? 1000;
    this.later(delay, async () => {
      await this.post(wamid, phoneNumberId, recipient, 'delivered');
      this.later(delay, () => this.post(wamid, phoneNumberId, recipient, 'read'));
    });
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private later(ms: number, fn: () => Promise<void>): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void fn();
    }, ms);
    this.timers.add(timer);
  }

  private async post(wamid: string, phoneNumberId: string, recipient: string, status: 'delivered' | 'read', attempt = 1): Promise<void> {
    const body = JSON.stringify(statusNotification(wamid, phoneNumberId, recipient, status));
    const signature = 'sha256=' + createHmac('sha256', this.options.appSecret).update(body).digest('hex');
    const answer = await fetch(this.options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      body,
    }).then((r) => r.status, (err: Error) => err.message);
    this.log?.(`whatsapp sandbox: ${status} webhook for ${wamid} -> ${answer}`);
    if (answer !== 200 && attempt < 3) this.later(1000 * attempt, () => this.post(wamid, phoneNumberId, recipient, status, attempt + 1));
  }
}

function statusNotification(wamid: string, phoneNumberId: string, recipient: string, status: string) {
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: phoneNumberId, phone_number_id: phoneNumberId },
    statuses: [{ id: wamid, status, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: recipient }],
  };
  return { object: 'whatsapp_business_account', entry: [{ id: 'sandbox-waba', changes: [{ value, field: 'messages' }] }] };
}
