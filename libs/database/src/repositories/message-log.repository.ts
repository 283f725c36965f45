import { Injectable } from '@nestjs/common';
import type { MessageStatus } from '../generated/enums.js';
import { PrismaService } from '../prisma.service.js';

export interface MessageLogFilter {
  status?: MessageStatus;
  /** Digits of the recipient number (no '+'), matched as a prefix. */
  recipient?: string;
  since?: Date;
  until?: Date;
  /** The platform's message id (a uuid) or the provider's (wamid.…), exactly. */
  id?: string;
  /** Keyset cursor: messages strictly older than this (createdAt, then id) in the newest-first order. */
  before?: { createdAt: Date; id: string };
  limit: number;
}

/** A bot's messages newest first, for the console's log (`messages_bot_id_created_at_idx` serves it). */
@Injectable()
export class MessageLogRepository {
  constructor(private readonly db: PrismaService) {}

  list(botId: string, f: MessageLogFilter) {
    const createdAt = { ...(f.since ? { gte: f.since } : {}), ...(f.until ? { lt: f.until } : {}) };
    return this.db.message.findMany({
      where: {
        botId,
        ...(f.status ? { status: f.status } : {}),
        ...(f.recipient ? { recipient: { startsWith: f.recipient } } : {}),
        ...(f.since || f.until ? { createdAt } : {}),
        AND: [
          ...(f.id ? [f.id.startsWith('wamid.') ? { providerMessageId: f.id } : { id: f.id.toLowerCase() }] : []),
          ...(f.before ? [{ OR: [{ createdAt: { lt: f.before.createdAt } }, { createdAt: f.before.createdAt, id: { lt: f.before.id } }] }] : []),
        ],
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: f.limit,
      include: { template: { select: { providerName: true } }, sender: { select: { number: true } } },
    });
  }
}
