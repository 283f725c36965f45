import { randomBytes } from 'node:crypto';
import { ServerResponse } from 'node:http';
import { HttpJsonServer, RecordedRequest, sendJson } from './http-json-server.js';
import { SandboxTemplate, sandboxMessageTemplates } from './whatsapp-sandbox-templates.js';
import { StatusWebhookOptions, WhatsAppStatusPoster } from './whatsapp-status-poster.js';

/** A scripted answer: an HTTP status with a Graph API error, or a delay/drop to simulate faults. */
export type SandboxReply =
  | { status: number; errorCode?: number; errorMessage?: string }
  | { hang: true };

/**
 * Speaks the WhatsApp Cloud API send endpoint (`POST /<version>/<phone-number-id>/messages`) on
 * loopback. Accepts every message unless replies are scripted; logs each one when given a logger.
 * With postStatusesTo, it then reports each accepted message delivered and read to a webhook, as Meta does.
 * It also lists `templates` as every WhatsApp Business Account's (`GET /<version>/<waba-id>/message_templates`),
 * `templatePageSize` a page, paged with `paging.cursors.after` and `paging.next` as the Graph API pages.
 */
export class WhatsAppCloudSandbox extends HttpJsonServer {
  private readonly script: SandboxReply[] = [];
  private statuses?: WhatsAppStatusPoster;
  templates: SandboxTemplate[] = sandboxMessageTemplates();
  templatePageSize = 2;

  constructor(private readonly log?: (line: string) => void) {
    super();
  }

  /** Next replies, in order; when the script runs out messages are accepted. */
  reply(...replies: SandboxReply[]): this {
    this.script.push(...replies);
    return this;
  }

  /** Posts signed `delivered` then `read` statuses of every message accepted from now on to `options.url`; none: stops. */
  postStatusesTo(options?: StatusWebhookOptions): this {
    this.statuses?.close();
    this.statuses = options && new WhatsAppStatusPoster(options, this.log);
    return this;
  }

  override async close(): Promise<void> {
    this.statuses?.close();
    await super.close();
  }

  get messages(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && /\/messages$/.test(r.path));
  }

  protected handle(req: RecordedRequest, res: ServerResponse): void {
    const listing = /^(?:\/v\d+\.\d+)?\/([^/?]+)\/message_templates(?:\?(.*))?$/.exec(req.path);
    if (req.method === 'GET' && listing) return this.listTemplates(req, res, listing[1], new URLSearchParams(listing[2] ?? ''));
    const match = /^(?:\/v\d+\.\d+)?\/([^/]+)\/messages$/.exec(req.path);
    if (req.method !== 'POST' || !match) {
      return sendJson(res, 404, graphError(100, 'Unsupported request', 'GraphMethodException'));
    }
    if (!/^Bearer \S+$/.test(String(req.headers.authorization ?? ''))) {
      return sendJson(res, 401, graphError(190, 'Invalid OAuth access token', 'OAuthException'));
    }
    const next = this.script.shift();
    if (next && 'hang' in next) return; // never answers: the caller's timeout must fire
    if (next && next.status >= 300) {
      return sendJson(res, next.status, graphError(next.errorCode ?? 131000, next.errorMessage ?? 'Something went wrong'));
    }
    const body = req.body as { to?: string; template?: { name?: string } };
    const id = `wamid.${randomBytes(12).toString('hex')}`;
    this.log?.(`whatsapp sandbox: phone-number-id ${match[1]} -> ${body?.to} template ${body?.template?.name} (${id})`);
    sendJson(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: body?.to, wa_id: body?.to }],
      messages: [{ id, message_status: 'accepted' }],
    });
    this.statuses?.schedule(id, match[1], String(body?.to ?? ''));
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
}

/** The cursor is the offset of the page's first template, base64: opaque to the caller, as Meta's are. */
function cursor(offset: number): string {
  return Buffer.from(String(offset)).toString('base64url');
}

function graphError(code: number, message: string, type = 'OAuthException') {
  return { error: { message, type, code, error_data: { messaging_product: 'whatsapp', details: message }, fbtrace_id: 'sandbox' } };
}
