import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';
import type { CallbackKindName } from './callback-settings.repository.js';

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
  kind: CallbackKindName;
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
   * Records one attempt's outcome, creating the log entry on the first one, in one statement (a retry
   * and a replay of one event may finish at once). An attempt that reached a receiver which had taken
   * the event already (2xx before) counts as a duplicate.
   */
  async recordAttempt(entry: CallbackAttemptEntry, outcome: CallbackAttemptOutcome): Promise<void> {
    const replay = entry.replay ? 1 : 0;
    const error = outcome.error?.slice(0, 1000) ?? null;
    await this.db.$executeRaw`
      INSERT INTO "callback_deliveries" AS d ("id", "bot_id", "kind", "event", "message_id", "status", "url", "body", "attempts", "replays", "last_status", "last_error", "delivered_at", "updated_at")
      VALUES (${entry.id}, ${entry.botId}::uuid, ${entry.kind}, ${entry.event}, ${entry.messageId ?? null}::uuid, ${entry.status ?? null}, ${entry.url}, ${entry.body}, 1, ${replay},
              ${outcome.httpStatus}::int, ${error}, CASE WHEN ${outcome.delivered} THEN now() END, now())
      ON CONFLICT ("id") DO UPDATE SET
        "attempts" = d."attempts" + 1,
        "replays" = d."replays" + ${replay},
        "duplicates" = d."duplicates" + CASE WHEN ${outcome.delivered} AND d."delivered_at" IS NOT NULL THEN 1 ELSE 0 END,
        "url" = EXCLUDED."url",
        "last_status" = EXCLUDED."last_status",
        "last_error" = EXCLUDED."last_error",
        "delivered_at" = CASE WHEN ${outcome.delivered} THEN now() ELSE d."delivered_at" END,
        "updated_at" = now()`;
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
