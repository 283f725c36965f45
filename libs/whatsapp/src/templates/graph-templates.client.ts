import { Injectable } from '@nestjs/common';
import { WhatsAppEnv } from '@platform/config';
import { GraphApiError } from './graph-api.error.js';
import type { MetaTemplate } from './meta-template.js';

/** A bound on the pages read, so that a provider that always announces a next page cannot loop the sync. */
const MAX_PAGES = 200;

interface TemplatePage {
  data?: MetaTemplate[];
  paging?: { cursors?: { after?: string }; next?: string };
  error?: { message?: string };
}

/** Reads a WhatsApp Business Account's message templates from the Graph API (WHATSAPP_API_BASE_URL). */
@Injectable()
export class GraphTemplatesClient {
  constructor(private readonly env: WhatsAppEnv) {}

  /** Every template of the account, following `paging.cursors.after` while Meta announces a `paging.next` page. */
  async list(wabaId: string, accessToken: string): Promise<MetaTemplate[]> {
    const all: MetaTemplate[] = [];
    let after: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const url = new URL(`${this.env.WHATSAPP_API_BASE_URL}/${encodeURIComponent(wabaId)}/message_templates`);
      url.searchParams.set('limit', '100');
      url.searchParams.set('fields', 'id,name,language,status,category,components');
      if (after) url.searchParams.set('after', after);
      const body = await this.get(url, accessToken);
      all.push(...(body.data ?? []));
      after = body.paging?.cursors?.after;
      if (!body.paging?.next || !after) return all;
    }
    throw new GraphApiError(0, `more than ${MAX_PAGES} pages of templates`);
  }

  private async get(url: URL, accessToken: string): Promise<TemplatePage> {
    let res: Response;
    try {
      res = await fetch(url, { headers: { authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(this.env.WHATSAPP_TIMEOUT_MS) });
    } catch (err) {
      throw new GraphApiError(0, (err as Error).name === 'TimeoutError' ? `no answer within ${this.env.WHATSAPP_TIMEOUT_MS} ms` : (err as Error).message);
    }
    const body = (await res.json().catch(() => undefined)) as TemplatePage | undefined;
    if (!res.ok || !body) throw new GraphApiError(res.status, body?.error?.message ?? 'not a JSON answer');
    return body;
  }
}
