import { createHmac } from 'node:crypto';

export interface StatusWebhookOptions {
  /** The platform's webhook, e.g. http://127.0.0.1:3000/webhooks/whatsapp. */
  url: string;
  /** Signs each POST as Meta does (X-Hub-Signature-256) with the app secret the gateway is given. */
  appSecret: string;
  /** Wait before `delivered` and again before `read`, so the worker has recorded the wamid; default 1000. */
  delayMs?: number;
  /** The statuses posted for each message, in order; default `delivered` then `read`. */
  statuses?: ReadonlyArray<PostedStatus>;
  /**
   * Post them before the send is answered, each once its previous one is answered, and none after:
   * Meta's webhook can beat its own answer to the send, so the platform sees statuses of a wamid it has
   * not recorded yet. Default false: after the answer, `delayMs` apart.
   */
  beforeAnswer?: boolean;
}

export type PostedStatus = 'delivered' | 'read';

/** Posts signed status webhooks (`delivered` then `read`) for an accepted message, as Meta would; retries non-200 answers a few times. */
export class WhatsAppStatusPoster {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly options: StatusWebhookOptions,
    private readonly log?: (line: string) => void,
  ) {}

  /** Whether the statuses go before the send's answer (postBeforeAnswer) rather than after it (schedule). */
  get beforeAnswer(): boolean {
    return this.options.beforeAnswer ?? false;
  }

  schedule(wamid: string, phoneNumberId: string, recipient: string): void {
    const delay = this.options.delayMs ?? 1000;
    const next = (statuses: readonly PostedStatus[]) => {
      const [status, ...rest] = statuses;
      if (!status) return;
      this.later(delay, async () => {
        await this.post(wamid, phoneNumberId, recipient, status);
        next(rest);
      });
    };
    next(this.statuses());
  }

  /** Posts the statuses one after the other, each once (no retries: the send's answer waits), resolving when the last is answered. */
  async postBeforeAnswer(wamid: string, phoneNumberId: string, recipient: string): Promise<void> {
    for (const status of this.statuses()) {
      if (this.closed) return;
      await this.postOnce(wamid, phoneNumberId, recipient, status);
    }
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private statuses(): readonly PostedStatus[] {
    return this.options.statuses ?? ['delivered', 'read'];
  }

  private later(ms: number, fn: () => Promise<void>): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void fn();
    }, ms);
    this.timers.add(timer);
  }

  private async post(wamid: string, phoneNumberId: string, recipient: string, status: PostedStatus, attempt = 1): Promise<void> {
    const answer = await this.postOnce(wamid, phoneNumberId, recipient, status);
    if (answer !== 200 && attempt < 3) this.later(1000 * attempt, () => this.post(wamid, phoneNumberId, recipient, status, attempt + 1));
  }

  /** The webhook's HTTP status, or the error that kept it from answering. */
  private async postOnce(wamid: string, phoneNumberId: string, recipient: string, status: PostedStatus): Promise<number | string> {
    const body = JSON.stringify(statusNotification(wamid, phoneNumberId, recipient, status));
    const signature = 'sha256=' + createHmac('sha256', this.options.appSecret).update(body).digest('hex');
    const answer = await fetch(this.options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      body,
    }).then(
      (r) => r.status,
      (err: Error) => err.message,
    );
    this.log?.(`whatsapp sandbox: ${status} webhook for ${wamid} -> ${answer}`);
    return answer;
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
