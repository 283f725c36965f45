import { Injectable } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import type { TemplateChange, TemplateSyncView } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { ChannelSenderRepository, SyncedTemplateData, Template, TemplateRepository } from '@platform/database';
import { GraphTemplatesClient } from './graph-templates.client.js';
import { parseMetaTemplate } from './meta-template.js';
import { NoBusinessAccountError } from './no-business-account.error.js';

/** Meta's status of a template gone from the account; the row stays, since messages refer to it. */
export const DELETED_STATUS = 'DELETED';

/**
 * Brings a bot's carousel templates in line with its WhatsApp Business Accounts (each sender's
 * `wabaId`, read with that sender's access token). A template is matched by Meta's id, or, the first
 * time, by name and language to one registered by hand (which it then becomes, keeping its id). Only
 * what changed is written, so a second sync changes nothing.
 */
@Injectable()
export class TemplateSyncService {
  constructor(
    private readonly senders: ChannelSenderRepository,
    private readonly templates: TemplateRepository,
    private readonly graph: GraphTemplatesClient,
    private readonly secrets: SecretBox,
  ) {}

  async syncBot(botId: string): Promise<TemplateSyncView> {
    const senders = (await this.senders.listByBot(botId)).filter((s) => s.channel === 'whatsapp' && s.wabaId);
    if (senders.length === 0) throw new NoBusinessAccountError(botId);
    const accounts = [...new Set(senders.map((s) => s.wabaId as string))];
    const existing = await this.templates.listByBot(botId);
    const summary: TemplateSyncView = { accounts, created: 0, updated: 0, unchanged: 0, deleted: 0, skipped: 0, templates: [] };
    const seen = new Set<string>();

    for (const wabaId of accounts) {
      const sender = senders.find((s) => s.wabaId === wabaId)!;
      const listed = await this.graph.list(wabaId, this.secrets.decrypt(sender.accessTokenEncrypted));
      for (const meta of listed) {
        const parsed = parseMetaTemplate(meta);
        if (parsed.kind === 'skipped') {
          summary.skipped++;
          continue;
        }
        const data: SyncedTemplateData = { ...parsed.template, wabaId };
        seen.add(data.providerTemplateId);
        const match =
          existing.find((t) => t.providerTemplateId === data.providerTemplateId) ??
          existing.find((t) => t.providerTemplateId === null && t.providerName === data.providerName && t.language === data.language);
        if (!match) {
          const row = await this.templates.createSynced(botId, 'whatsapp', data);
          existing.push(row);
          this.record(summary, row, 'created');
        } else if (differs(match, data)) {
          const row = await this.templates.updateSynced(match.id, data);
          Object.assign(match, row);
          this.record(summary, row, 'updated');
        } else {
          this.record(summary, match, 'unchanged');
        }
      }
    }

    for (const t of existing) {
      if (!t.providerTemplateId || !accounts.includes(t.wabaId ?? '') || seen.has(t.providerTemplateId) || t.status === DELETED_STATUS) continue;
      const row = await this.templates.updateSynced(t.id, { status: DELETED_STATUS });
      this.record(summary, row, 'deleted');
    }
    return summary;
  }

  private record(summary: TemplateSyncView, t: Template, change: TemplateChange): void {
    summary[change]++;
    summary.templates.push({ id: t.id, name: t.providerName, language: t.language, status: t.status, change });
  }
}

function differs(row: Template, data: SyncedTemplateData): boolean {
  return (Object.keys(data) as Array<keyof SyncedTemplateData>).some((k) => !isDeepStrictEqual(plain(row[k]), plain(data[k])));
}

/** As JSON would carry it: the JSON column's objects come back with another prototype than the parser's. */
function plain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
