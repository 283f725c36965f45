import { BadRequestException, Injectable } from '@nestjs/common';
import { MessageLogEntry, MessageLogQueryDto, MessageLogResponse } from '@platform/contracts';
import { MessageLogRepository, MessageStatus } from '@platform/database';
import { messageStatusFromRow } from './message-status.service.js';

const DEFAULT_PAGE = 25;

@Injectable()
export class MessageLogService {
  constructor(private readonly messages: MessageLogRepository) {}

  async list(botId: string, q: MessageLogQueryDto): Promise<MessageLogResponse> {
    const limit = q.limit ? Number(q.limit) : DEFAULT_PAGE;
    const since = q.since ? new Date(q.since) : undefined;
    const until = q.until ? new Date(q.until) : undefined;
    if (since && until && since >= until) throw new BadRequestException('since must be before until');
    const rows = await this.messages.list(botId, {
      status: q.status as MessageStatus | undefined,
      recipient: q.recipient?.replace(/^\+/, ''),
      since,
      until,
      before: q.cursor ? decodeCursor(q.cursor) : undefined,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      messages: page.map((m): MessageLogEntry => ({ ...messageStatusFromRow(m), templateName: m.template.providerName, sender: m.sender.number })),
      nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null,
    };
  }
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
