import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';
import type { ProviderStatusUpdate } from './message.repository.js';
import { PROVIDER_STATUS_ORDER } from './provider-status-order.js';

/**
 * How long a status of a message id no send has recorded is kept. Meta can post a status before it
 * answers the send, and the worker records the send right after that answer: seconds, or minutes while
 * Postgres is down and the worker waits for it. A status older than this belongs to a message that is
 * not ours (another tool on the same WhatsApp Business Account) and is dropped.
 */
export const HELD_STATUS_TTL_SECONDS = 15 * 60;

/** How many expired statuses one hold sweeps away: the table stays small without a sweep of its own. */
const SWEEP_LIMIT = 500;

/**
 * The statement part that takes the held statuses of `$1` (wamids) whose message now exists in `table`
 * (matched by `provider_message_id`, rows narrowed by `where`): deleted and returned, `fresh` false for
 * those past HELD_STATUS_TTL_SECONDS (deleted, not to be applied). Deleting and applying in one statement
 * applies a held status once, whichever of the send and the webhook gets to it.
 */
export const claimHeldStatusesSql = (table: string, where = 'TRUE') =>
  `DELETE FROM "held_provider_statuses" AS h
   WHERE h."wamid" = ANY($1::text[]) AND EXISTS (SELECT 1 FROM "${table}" x WHERE x."provider_message_id" = h."wamid" AND ${where})
   RETURNING h."wamid", h."status", h."delivered_at", h."read_at", h."error_code", h."error_text",
     h."held_at" > now() - make_interval(secs => ${HELD_STATUS_TTL_SECONDS}) AS "fresh"`;

/** Statuses of message ids no send has recorded yet, until the send is recorded (MessageRepository, ConversationRepository). */
@Injectable()
export class HeldStatusRepository {
  constructor(private readonly db: PrismaService) {}

  /**
   * Keeps provider statuses (one per id), durably once this resolves; a status for an id already held
   * is folded into it (the furthest status, the earliest times), and its time to live starts again.
   * Also sweeps away some expired ones.
   */
  async hold(updates: readonly ProviderStatusUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    const column = <K extends keyof ProviderStatusUpdate>(k: K) => updates.map((u) => u[k]);
    const rank = (status: string) => `COALESCE(array_position($7::"MessageStatus"[], ${status}), 0)`;
    await this.db.query({
      name: 'held-provider-statuses-hold',
      text: `WITH expired AS (
               DELETE FROM "held_provider_statuses" WHERE "wamid" IN (
                 SELECT "wamid" FROM "held_provider_statuses"
                 WHERE "held_at" < now() - make_interval(secs => ${HELD_STATUS_TTL_SECONDS}) AND NOT ("wamid" = ANY($1::text[]))
                 LIMIT ${SWEEP_LIMIT})
             )
             INSERT INTO "held_provider_statuses" AS h ("wamid", "status", "delivered_at", "read_at", "error_code", "error_text", "held_at")
             SELECT u.wamid, u.status, u.delivered_at, u.read_at, u.error_code, u.error_text, now()
             FROM unnest($1::text[], $2::"MessageStatus"[], $3::timestamptz[], $4::timestamptz[], $5::text[], $6::text[])
               AS u(wamid, status, delivered_at, read_at, error_code, error_text)
             ON CONFLICT ("wamid") DO UPDATE SET
               "status" = CASE WHEN ${rank('EXCLUDED."status"')} > ${rank('h."status"')} THEN EXCLUDED."status" ELSE h."status" END,
               "error_code" = CASE WHEN ${rank('EXCLUDED."status"')} > ${rank('h."status"')} THEN EXCLUDED."error_code" ELSE h."error_code" END,
               "error_text" = CASE WHEN ${rank('EXCLUDED."status"')} > ${rank('h."status"')} THEN EXCLUDED."error_text" ELSE h."error_text" END,
               "delivered_at" = LEAST(h."delivered_at", EXCLUDED."delivered_at"),
               "read_at" = LEAST(h."read_at", EXCLUDED."read_at"),
               "held_at" = now()`,
      values: [column('providerMessageId'), column('status'), column('deliveredAt'), column('readAt'), column('errorCode'), column('errorText'), PROVIDER_STATUS_ORDER],
    });
  }
}
