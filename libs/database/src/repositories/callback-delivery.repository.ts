import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';

export interface CallbackDeliveryRecord {
  id: string;
  botId: string;
  kind: string;
  event: string;
  messageId: string | null;
  status: string | null;
  url: string;
  body: string;
  attempts: number;
  replays: number;
  duplicates: number;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface CallbackAttemptEntry {
  id: string;
  botId: string;
  kind: string;
  event: string;
  url: string;
  body: string;
  messageId?: string | null;
  status?: string | null;
  /** The attempt was asked for by a replay. */
  replay?: boolean;
}

export interface CallbackAttemptOutcome {
  httpStatus: number | null;
  error: string | null;
  delivered: boolean;
}

/** The delivery log of callbacks (webhook deliveries and postbacks): one row per event, counting attempts. */
@Injectable()
export class CallbackDeliveryRepository {
  constructor(private readonly db: PrismaService) {}

  /**
   * Records one attempt's outcome, creating the log entry on the first one. An attempt at an event
   * that was already taken (a replay, or a retry after a lost answer) counts as a duplicate.
   */
  async recordAttempt(entry: CallbackAttemptEntry, outcome: CallbackAttemptOutcome): Promise<void> {
    const now = new Date();
    const { replay, messageId, status, ...keys } = entry;
    const result = { lastStatus: outcome.httpStatus, lastError: outcome.error?.slice(0, 1000) ?? null, ...(outcome.delivered ? { deliveredAt: now } : {}) };
    await this.db.$transaction(async (tx) => {
      const before = await tx.callbackDelivery.findUnique({ where: { id: entry.id }, select: { deliveredAt: true } });
      if (!before) {
        await tx.callbackDelivery.create({ data: { ...keys, messageId: messageId ?? null, status: status ?? null, attempts: 1, replays: replay ? 1 : 0, ...result } });
        return;
      }
      const duplicate = before.deliveredAt !== null && outcome.delivered;
      await tx.callbackDelivery.update({
        where: { id: entry.id },
        data: {
          attempts: { increment: 1 },
          ...(replay ? { replays: { increment: 1 } } : {}),
          ...(duplicate ? { duplicates: { increment: 1 } } : {}),
          url: entry.url,
          ...result,
        },
      });
    });
  }

  find(botId: string, id: string): Promise<CallbackDeliveryRecord | null> {
    return this.db.callbackDelivery.findFirst({ where: { id, botId } });
  }

  /** Newest first; `kind` narrows to webhook deliveries or postbacks. */
  async page(botId: string, page: number, pageSize: number, kind?: string): Promise<{ items: CallbackDeliveryRecord[]; total: number }> {
    const where = { botId, ...(kind ? { kind } : {}) };
    const [items, total] = await Promise.all([
      this.db.callbackDelivery.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], skip: (page - 1) * pageSize, take: pageSize }),
      this.db.callbackDelivery.count({ where }),
    ]);
    return { items, total };
  }
}
