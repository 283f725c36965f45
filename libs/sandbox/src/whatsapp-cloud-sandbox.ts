import { randomBytes } from 'node:crypto';
import { ServerResponse } from 'node:http';
import { HttpJsonServer, RecordedRequest, sendJson } from './http-json-server.js';
import { SandboxTemplate, sandboxMessageTemplates } from './whatsapp-sandbox-templates.js';
import { StatusWebhookOptions, WhatsAppStatusPoster } from './whatsapp-status-poster.js';

/** A scripted answer: an HTTP status with a Graph API error (and a Retry-After, in seconds), or a drop to simulate faults. */
export type SandboxReply = { status: number; errorCode?: number; errorMessage?: string; retryAfterSeconds?: number } | { hang: true };

/** Meta's throttling answers (HTTP 400 with these codes and titles). */
export const THROTTLING_REPLIES = {
  130429: { status: 400, errorCode: 130429, errorMessage: 'Rate limit hit' },
  131056: { status: 400, errorCode: 131056, errorMessage: '(Business Account, Consumer Account) pair rate limit hit' },
  80007: { status: 400, errorCode: 80007, errorMessage: 'Rate limit issues' },
  4: { status: 400, errorCode: 4, errorMessage: 'Application request limit reached' },
} as const satisfies Record<number, SandboxReply>;

/**
 * Recipients the sandbox throttles on every other message (the first one included), for trying
 * each throttling path by hand: `1555` then the code padded to 7 digits, e.g. +15550130429 for
 * 130429, +15550000004 for 4.
 */
export function throttlingTestNumber(code: keyof typeof THROTTLING_REPLIES): string {
  return `1555${String(code).padStart(7, '0')}`;
}

/** One message the sandbox accepted: when (ms since the epoch), through which phone-number id, to whom. */
export interface SandboxArrival {
  at: number;
  phoneNumberId: string;
  to: string;
}

/**
 * Speaks the WhatsApp Cloud API send endpoint (`POST /<version>/<phone-number-id>/messages`) on
 * loopback. Accepts every message unless replies are scripted; logs each one when given a logger.
 * With postStatusesTo, it reports each accepted message delivered and read to a webhook, as Meta does:
 * after answering the send, or before it (then the platform hears of a wamid it has not recorded yet).
 * It also lists `templates` as every WhatsApp Business Account's (`GET /<version>/<waba-id>/message_templates`),
 * `templatePageSize` a page, paged with `paging.cursors.after` and `paging.next` as the Graph API pages.
 */
export class WhatsAppCloudSandbox extends HttpJsonServer {
  private readonly script: SandboxReply[] = [];
  private readonly scriptByRecipient = new Map<string, SandboxReply[]>();
  private readonly throttleTurns = new Map<string, number>();
  private statuses?: WhatsAppStatusPoster;
  templates: SandboxTemplate[] = sandboxMessageTemplates();
  templatePageSize = 2;
  /**
   * Messaging limit tier answered for a phone-number id (`GET /<phone-number-id>`, the fields
   * `whatsapp_business_manager_messaging_limit` and the deprecated `messaging_limit_tier`); ids not set
   * get `defaultMessagingLimit`.
   */
  readonly messagingLimits = new Map<string, string>();
  defaultMessagingLimit = 'TIER_UNLIMITED';
  /** Access tokens the Graph API refuses (code 190), as Meta refuses an expired or revoked one. */
  readonly refusedTokens = new Set<string>();
  /** Accepted messages in order of arrival (while `record` is on). */
  readonly arrivals: SandboxArrival[] = [];
  /** While set, every send is answered with it (a Cloud API outage), before any script. */
  outage?: SandboxReply;
  /** The wamids of accepted messages by recipient, in order. */
  readonly accepted = new Map<string, string[]>();
  private readonly acceptHooks: Array<() => Promise<void>> = [];
  /** Read receipts (`status: "read"`) in order of arrival: which phone-number id, which wamid, whether with the typing indicator. */
  readonly readReceipts: Array<{ phoneNumberId: string; messageId: string; typing: boolean }> = [];

  constructor(private readonly log?: (line: string) => void) {
    super();
  }

  /** Next replies, in order; when the script runs out messages are accepted. */
  reply(...replies: SandboxReply[]): this {
    this.script.push(...replies);
    return this;
  }

  /** Next replies to messages for `recipient` (digits, with or without +), in order; they come before the shared script. */
  replyTo(recipient: string, ...replies: SandboxReply[]): this {
    const key = recipient.replace(/^\+/, '');
    this.scriptByRecipient.set(key, [...(this.scriptByRecipient.get(key) ?? []), ...replies]);
    return this;
  }

  /**
   * Runs `hook` when the next message is accepted, and answers only once it is done: what happens the
   * moment Meta accepts a message (the platform's Postgres stopping, say) happens before the sender hears.
   */
  onNextAccept(hook: () => Promise<void>): this {
    this.acceptHooks.push(hook);
    return this;
  }

  /**
   * Posts signed statuses (`delivered` then `read`, or `options.statuses`) of every message accepted from
   * now on to `options.url`, after its answer or, with `beforeAnswer`, before it; none: stops.
   */
  postStatusesTo(options?: StatusWebhookOptions): this {
    this.statuses?.close();
    this.statuses = options && new WhatsAppStatusPoster(options, this.log);
    return this;
  }

  override async close(): Promise<void> {
    this.statuses?.close();
    await super.close();
  }

  /** Messages sent (read receipts are not messages: see `readReceipts`). */
  get messages(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && /\/messages$/.test(r.path) && (r.body as { status?: unknown } | undefined)?.status !== 'read');
  }

  /** Synchronous unless statuses are posted before the answer (subclasses read the answer's status right after). */
  protected handle(req: RecordedRequest, res: ServerResponse): void | Promise<void> {
    const listing = /^(?:\/v\d+\.\d+)?\/([^/?]+)\/message_templates(?:\?(.*))?$/.exec(req.path);
    if (req.method === 'GET' && listing) return this.listTemplates(req, res, listing[1], new URLSearchParams(listing[2] ?? ''));
    const phoneNumber = /^(?:\/v\d+\.\d+)?\/([^/?]+)(?:\?.*)?$/.exec(req.path);
    if (req.method === 'GET' && phoneNumber) return this.describePhoneNumber(req, res, phoneNumber[1]);
    const match = /^(?:\/v\d+\.\d+)?\/([^/]+)\/messages$/.exec(req.path);
    if (req.method !== 'POST' || !match) {
      return sendJson(res, 404, graphError(100, 'Unsupported request', 'GraphMethodException'));
    }
    if (!/^Bearer \S+$/.test(String(req.headers.authorization ?? ''))) {
      return sendJson(res, 401, graphError(190, 'Invalid OAuth access token', 'OAuthException'));
    }
    const receipt = req.body as { status?: unknown; message_id?: unknown; typing_indicator?: { type?: unknown } } | undefined;
    if (receipt?.status === 'read') {
      // Meta's read receipt (and typing indicator): answered {"success":true}, never scripted.
      if (typeof receipt.message_id !== 'string' || !receipt.message_id) return sendJson(res, 400, graphError(100, 'message_id is required', 'OAuthException'));
      this.readReceipts.push({ phoneNumberId: match[1], messageId: receipt.message_id, typing: receipt.typing_indicator?.type === 'text' });
      return sendJson(res, 200, { success: true });
    }
    const body = req.body as { to?: string; template?: { name?: string } };
    const next = this.outage ?? this.nextReply(String(body?.to ?? ''));
    if (next && 'hang' in next) return; // never answers: the caller's timeout must fire
    if (next && next.status >= 300) {
      const headers: Record<string, string> = next.retryAfterSeconds !== undefined ? { 'retry-after': String(next.retryAfterSeconds) } : {};
      this.log?.(`whatsapp sandbox: phone-number-id ${match[1]} -> ${body?.to} answered ${next.status} (${next.errorCode ?? 131000})`);
      return sendJson(res, next.status, graphError(next.errorCode ?? 131000, next.errorMessage ?? 'Something went wrong'), headers);
    }
    const id = `wamid.${randomBytes(12).toString('hex')}`;
    if (this.record) this.arrivals.push({ at: Date.now(), phoneNumberId: match[1], to: String(body?.to ?? '') });
    this.log?.(`whatsapp sandbox: phone-number-id ${match[1]} -> ${body?.to} template ${body?.template?.name} (${id})`);
    const [statuses, to] = [this.statuses, String(body?.to ?? '')];
    const sent = this.accepted.get(to);
    if (sent) sent.push(id);
    else this.accepted.set(to, [id]);
    const accept = () => sendJson(res, 200, { messaging_product: 'whatsapp', contacts: [{ input: body?.to, wa_id: body?.to }], messages: [{ id, message_status: 'accepted' }] });
    const hook = this.acceptHooks.shift();
    if (!hook && !statuses?.beforeAnswer) {
      accept();
      statuses?.schedule(id, match[1], to);
      return;
    }
    const answer = statuses?.beforeAnswer
      ? () => statuses.postBeforeAnswer(id, match[1], to).then(accept)
      : () => {
          accept();
          statuses?.schedule(id, match[1], to);
        };
    void (hook ? hook().then(answer, answer) : answer());
  }

  /** GET /<phone-number-id>: what a sender's token check and its tier reads; 401 (code 190) for a missing or refused token. */
  private describePhoneNumber(req: RecordedRequest, res: ServerResponse, phoneNumberId: string): void {
    const token = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    if (!token || this.refusedTokens.has(token)) return sendJson(res, 401, graphError(190, 'Error validating access token: Session has expired', 'OAuthException'));
    const tier = this.messagingLimits.get(phoneNumberId) ?? this.defaultMessagingLimit;
    sendJson(res, 200, {
      id: phoneNumberId,
      display_phone_number: '+1 555-0100',
      verified_name: 'Sandbox sender',
      whatsapp_business_manager_messaging_limit: tier,
      messaging_limit_tier: tier,
    });
  }

  private listTemplates(req: RecordedRequest, res: ServerResponse, wabaId: string, query: URLSearchParams): void {
    if (!/^Bearer \S+$/.test(String(req.headers.authorization ?? ''))) {
      return sendJson(res, 401, graphError(190, 'Invalid OAuth access token', 'OAuthException'));
    }
    const after = query.get('after');
    const start = after ? Number(Buffer.from(after, 'base64url').toString()) || 0 : 0;
    const size = Math.min(this.templatePageSize, Number(query.get('limit')) || this.templatePageSize);
    const data = this.templates.slice(start, start + size);
    const more = start + size < this.templates.length;
    const base = `${this.baseUrl}${req.path.split('?')[0]}`;
    this.log?.(`whatsapp sandbox: WABA ${wabaId} templates ${start + 1}-${start + data.length} of ${this.templates.length}`);
    sendJson(res, 200, {
      data,
      paging: {
        cursors: { before: cursor(start), after: cursor(start + data.length) },
        ...(more ? { next: `${base}?limit=${size}&after=${cursor(start + data.length)}` } : {}),
      },
    });
  }

  /** The recipient's script first, then the shared one, then the throttling test numbers' turn. */
  private nextReply(to: string): SandboxReply | undefined {
    const own = this.scriptByRecipient.get(to);
    if (own?.length) return own.shift();
    const shared = this.script.shift();
    if (shared) return shared;
    const code = THROTTLING_NUMBERS.get(to);
    if (code === undefined) return undefined;
    const turn = (this.throttleTurns.get(to) ?? 0) + 1;
    this.throttleTurns.set(to, turn);
    return turn % 2 === 1 ? THROTTLING_REPLIES[code] : undefined;
  }
}

/** The cursor is the offset of the page's first template, base64: opaque to the caller, as Meta's are. */
function cursor(offset: number): string {
  return Buffer.from(String(offset)).toString('base64url');
}

const THROTTLING_NUMBERS = new Map((Object.keys(THROTTLING_REPLIES).map(Number) as Array<keyof typeof THROTTLING_REPLIES>).map((code) => [throttlingTestNumber(code), code]));

function graphError(code: number, message: string, type = 'OAuthException') {
  return { error: { message, type, code, error_data: { messaging_product: 'whatsapp', details: message }, fbtrace_id: 'sandbox' } };
}
