import { Readable } from 'node:stream';
import { BadRequestException, Injectable } from '@nestjs/common';
import { MessageLogEntry, MessageLogQueryDto, MessageLogResponse } from '@platform/contracts';
import { MessageLogRepository, MessageRepository, MessageStatus } from '@platform/database';
import { messageStatusFromRow } from './message-status.service.js';

const DEFAULT_PAGE = 25;

@Injectable()
export class MessageLogService {
  constructor(
    private readonly messages: MessageLogRepository,
    private readonly rows: MessageRepository,
  ) {}

  async list(botId: string, q: MessageLogQueryDto): Promise<MessageLogResponse> {
    const limit = q.limit ? Number(q.limit) : DEFAULT_PAGE;
    const rows = await this.messages.list(botId, { ...filterOf(q), before: q.cursor ? decodeCursor(q.cursor) : undefined, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      messages: page.map((m): MessageLogEntry => ({ ...messageStatusFromRow(m), templateName: m.template.providerName, sender: m.sender.number })),
      nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null,
    };
  }

  /**
   * The log as CSV (RFC 4180, UTC ISO times), every message the filters match, newest first. Read page by page
   * (keyset) while it is written, so an export of a million rows holds one page in memory.
   */
  exportCsv(botId: string, q: MessageLogQueryDto): Readable {
    const filter = filterOf(q);
    const messages = this.messages;
    async function* lines() {
      yield CSV_COLUMNS.join(',') + '\r\n';
      let before: { createdAt: Date; id: string } | undefined;
      for (;;) {
        const page = await messages.list(botId, { ...filter, before, limit: EXPORT_PAGE });
        if (page.length === 0) return;
        yield page
          .map(
            (m) =>
              [
                m.id,
                m.createdAt.toISOString(),
                m.status,
                `+${m.recipient}`,
                `+${m.sender.number}`,
                m.template.providerName,
                m.attempts,
                m.providerMessageId,
                m.lastErrorCode,
                m.lastErrorText,
                iso(m.sentAt),
                iso(m.deliveredAt),
                iso(m.readAt),
              ]
                .map(csvField)
                .join(',') + '\r\n',
          )
          .join('');
        if (page.length < EXPORT_PAGE) return;
        const last = page[page.length - 1]!;
        before = { createdAt: last.createdAt, id: last.id };
      }
    }
    return Readable.from(lines());
  }

  /** The errors of the message's attempts, oldest first; null when the bot has no such message. */
  async attempts(botId: string, msgId: string) {
    const row = await this.rows.findForBot(botId, msgId);
    if (!row) return null;
    return (await this.rows.attemptEvents(msgId)).map((e) => ({ at: e.at.toISOString(), attempt: e.attempt, kind: e.kind, code: e.code, text: e.text }));
  }
}

const EXPORT_PAGE = 1000;
const CSV_COLUMNS = ['msg_id', 'created_at', 'status', 'recipient', 'sender', 'template', 'attempts', 'provider_message_id', 'error_code', 'error_text', 'sent_at', 'delivered_at', 'read_at'];

const iso = (d: Date | null) => d?.toISOString() ?? '';

/** One CSV field: quoted when it holds a comma, quote or line break; a leading = + - @ is neutralised so spreadsheets do not run it as a formula. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^[+-]\d/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function filterOf(q: MessageLogQueryDto) {
  const since = q.since ? new Date(q.since) : undefined;
  const until = q.until ? new Date(q.until) : undefined;
  if (since && until && since >= until) throw new BadRequestException('since must be before until');
  return { status: q.status as MessageStatus | undefined, recipient: q.recipient?.replace(/^\+/, ''), id: q.id, since, until };
}

function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(`${createdAt.toISOString()}|${id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(iso ?? '');
  if (!id || !/^[0-9a-f-]{36}$/i.test(id) || Number.isNaN(createdAt.getTime())) throw new BadRequestException('cursor must be a cursor from a previous answer');
  return { createdAt, id };
}
