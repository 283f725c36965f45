import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ConversationChannel, MessageDirection, MessageStatus } from '../generated/enums.js';
import type { Conversation, Prisma } from '../generated/client.js';
import { PrismaService } from '../prisma.service.js';
import { claimHeldStatusesSql } from './held-status.repository.js';
import { LOCK_IN_ORDER_SQL } from './lock-in-order.js';
import { PROVIDER_STATUS_ORDER } from './provider-status-order.js';
import { isUniqueViolation } from './unique-violation.js';
import { storableJson } from './storable-json.js';

/** The order statuses of a reply's parts move in when none is given: as WhatsApp's receipts (RECEIPT_ORDER). */
const PART_ORDER: readonly MessageStatus[] = PROVIDER_STATUS_ORDER;

/** Moves reply parts forward in `$order` by the updates in `from` (columns wamid, status, error_code, error_text). */
const APPLY_PART_STATUS_SQL = (from: string, order: string, extraWhere = 'TRUE') => {
  const supersedes = `COALESCE(array_position(${order}::"MessageStatus"[], p."status"), 0) < array_position(${order}::"MessageStatus"[], u.status)`;
  return `${LOCK_IN_ORDER_SQL('conversation_message_parts', 'p', '"provider_message_id"', from, `${extraWhere} AND ${supersedes}`)},
   applied AS (UPDATE "conversation_message_parts" AS p SET "status" = u.status,
     "last_error_code" = CASE WHEN u.status = 'failed' THEN u.error_code ELSE p."last_error_code" END,
     "last_error_text" = CASE WHEN u.status = 'failed' THEN u.error_text ELSE p."last_error_text" END
   FROM ${from} AS u
   WHERE p."provider_message_id" = u.wamid AND ${extraWhere} AND ${supersedes} AND p."provider_message_id" IN (SELECT "key" FROM locked)
   RETURNING 1)`;
};

/** The replies some of whose parts have these provider message ids (`$1`). */
const REPLIES_OF_PARTS = `(SELECT q."message_id" FROM "conversation_message_parts" q WHERE q."provider_message_id" = ANY($1::text[]))`;

/** A conversation row in the shape Prisma gives, for the statements that run on the pg pool. */
const CONVERSATION_COLUMNS = `"id", "bot_id" AS "botId", "channel", "user_id" AS "userId", "sender_id" AS "senderId",
  "last_inbound_at" AS "lastInboundAt", "test_version" AS "testVersion", "created_at" AS "createdAt", "updated_at" AS "updatedAt"`;

/** A message row as ConversationMessageRow, but `seq` as text (pg reads a bigint as a string). */
const MESSAGE_COLUMNS = `"id", "seq"::text AS "seq", "position", "conversation_id" AS "conversationId", "direction", "type", "content",
  "provider_message_id" AS "providerMessageId", "status", "attempts", "last_error_code" AS "lastErrorCode",
  "last_error_text" AS "lastErrorText", "webhook_settled_at" AS "webhookSettledAt", "created_at" AS "createdAt"`;

/**
 * An inbound message in one statement: the conversation upserted (its last-inbound time moved, never
 * back), the message inserted, or, when a message with the same provider id exists (Meta delivered it
 * again), that one returned with `created` false and nothing changed. A copy racing this one to the
 * insert makes both halves come back empty; the caller then reads the winner.
 */
const RECORD_INBOUND_SQL = `
  WITH existing AS (
    SELECT * FROM "conversation_messages" WHERE $6::text IS NOT NULL AND "provider_message_id" = $6::text
  ), conv AS (
    INSERT INTO "conversations" ("id", "bot_id", "channel", "user_id", "sender_id", "last_inbound_at", "updated_at")
    SELECT $1::uuid, $2::uuid, $3::"ConversationChannel", $4, $5::uuid, $7, now()
    WHERE NOT EXISTS (SELECT 1 FROM existing)
    ON CONFLICT ("bot_id", "channel", "user_id") DO UPDATE SET
      "sender_id" = COALESCE(EXCLUDED."sender_id", "conversations"."sender_id"),
      "last_inbound_at" = GREATEST("conversations"."last_inbound_at", EXCLUDED."last_inbound_at"),
      "updated_at" = now()
    RETURNING "id"
  ), ins AS (
    INSERT INTO "conversation_messages" ("id", "conversation_id", "direction", "type", "content", "provider_message_id")
    SELECT $8::uuid, conv."id", 'inbound', $9, $10::jsonb, $6::text FROM conv
    ON CONFLICT ("provider_message_id") DO NOTHING
    RETURNING *
  )
  SELECT m."created", ${MESSAGE_COLUMNS} FROM (
    SELECT true AS "created", ins.* FROM ins UNION ALL SELECT false, existing.* FROM existing
  ) m`;

const toMessageRow = (row: Omit<ConversationMessageRow, 'seq'> & { seq: string }): ConversationMessageRow => ({ ...row, seq: BigInt(row.seq) });

/** A message as read from `conversation_messages`. */
/** What a run of a reply's job may do with it: send it (claimed), leave it (sent or failed), or wait for another run's lease. */
export type ReplyClaim = { kind: 'claimed'; message: Prisma.ConversationMessageGetPayload<{ include: { conversation: true } }> } | { kind: 'skip' } | { kind: 'busy'; forMs: number };

export interface ConversationMessageRow {
  id: string;
  seq: bigint;
  /** Its place in its own conversation (1 for the first): what the hosted chat page orders by. */
  position: number;
  conversationId: string;
  direction: MessageDirection;
  type: string;
  content: Prisma.JsonValue;
  providerMessageId: string | null;
  status: MessageStatus | null;
  attempts: number;
  lastErrorCode: string | null;
  lastErrorText: string | null;
  webhookSettledAt: Date | null;
  createdAt: Date;
}

/** What an inbound message brings: who wrote, on which channel, and what. */
export interface InboundMessage {
  botId: string;
  channel: ConversationChannel;
  userId: string;
  /** whatsapp: the bot's sender the user wrote to. */
  senderId?: string;
  type: string;
  content: Prisma.InputJsonValue;
  /** whatsapp: the wamid; a second message with the same id is not recorded again. */
  providerMessageId?: string;
  at: Date;
}

/** Conversations (bot, channel, user) and their messages. */
@Injectable()
export class ConversationRepository {
  constructor(private readonly db: PrismaService) {}

  /** The conversation of (bot, channel, user), created when there is none; marked as used now (retention spares it). */
  async upsert(botId: string, channel: ConversationChannel, userId: string): Promise<Conversation> {
    // On the pool: every web session start runs it.
    const { rows } = await this.db.pool.query<Conversation>({
      name: 'conversation-upsert',
      text: `INSERT INTO "conversations" ("id", "bot_id", "channel", "user_id", "updated_at") VALUES ($1::uuid, $2::uuid, $3::"ConversationChannel", $4, now())
             ON CONFLICT ("bot_id", "channel", "user_id") DO UPDATE SET "updated_at" = now()
             RETURNING ${CONVERSATION_COLUMNS}`,
      values: [randomUUID(), botId, channel, userId],
    });
    return rows[0];
  }

  find(botId: string, id: string) {
    return this.db.conversation.findFirst({ where: { id, botId } });
  }

  findByUser(botId: string, channel: ConversationChannel, userId: string) {
    return this.db.conversation.findUnique({ where: { botId_channel_userId: { botId, channel, userId } } });
  }

  /** Senders (any bot) of a WhatsApp phone-number id: where an inbound message belongs. */
  findSendersByPhoneNumberId(phoneNumberId: string) {
    return this.db.channelSender.findMany({ where: { channel: 'whatsapp', phoneNumberId, deletedAt: null }, orderBy: { createdAt: 'asc' } });
  }

  /**
   * Records an inbound message and moves the conversation's last-inbound time, in one statement.
   * `created` is false when a message with the same provider id exists (Meta delivered it again); then
   * the existing row is returned and nothing changes.
   */
  async recordInbound(m: InboundMessage): Promise<{ message: ConversationMessageRow; created: boolean }> {
    // Every user message runs it: one statement on the pool rather than a five-statement transaction.
    const { rows } = await this.db.pool.query<Omit<ConversationMessageRow, 'seq'> & { seq: string; created: boolean }>({
      name: 'conversation-record-inbound',
      text: RECORD_INBOUND_SQL,
      values: [randomUUID(), m.botId, m.channel, m.userId, m.senderId ?? null, m.providerMessageId ?? null, m.at, randomUUID(), m.type, storableJson(m.content)],
    });
    if (rows[0]) {
      const { created, ...message } = rows[0];
      return { message: toMessageRow(message), created };
    }
    const { rows: winner } = await this.db.pool.query<Omit<ConversationMessageRow, 'seq'> & { seq: string }>({
      name: 'conversation-message-by-provider-id',
      text: `SELECT ${MESSAGE_COLUMNS} FROM "conversation_messages" WHERE "provider_message_id" = $1`,
      values: [m.providerMessageId ?? null],
    });
    return { message: toMessageRow(winner[0]), created: false };
  }

  /**
   * Records a message of the bot and marks the conversation used, in one transaction: the retention
   * sweep, which deletes conversations left empty and unused, then waits for it or skips the
   * conversation. Null when the conversation is gone (erased or swept) meanwhile.
   * `replyKey` (unique across the platform) is kept with the message: when a message already has it, that
   * one is returned with `created` false and nothing is written, also when two race.
   * `sentByUserId`: the member who answered from the console's inbox; none for the bot's own messages.
   */
  async createOutbound(
    conversationId: string,
    type: string,
    content: Prisma.InputJsonValue,
    status: MessageStatus,
    replyKey?: string,
    sentByUserId?: string,
  ): Promise<{ message: ConversationMessageRow; created: boolean } | null> {
    if (replyKey !== undefined) {
      const held = await this.db.conversationMessage.findUnique({ where: { replyKey } });
      if (held) return { message: held, created: false };
    }
    try {
      const message = await this.db.$transaction(async (tx) => {
        const touched = await tx.conversation.updateMany({ where: { id: conversationId }, data: { updatedAt: new Date() } });
        if (touched.count === 0) return null;
        return tx.conversationMessage.create({ data: { conversationId, direction: 'outbound', type, content, status, replyKey: replyKey ?? null, sentByUserId: sentByUserId ?? null } });
      });
      return message && { message, created: true };
    } catch (err) {
      if (replyKey === undefined || !isUniqueViolation(err)) throw err;
      const winner = await this.db.conversationMessage.findUnique({ where: { replyKey } });
      if (!winner) throw err;
      return { message: winner, created: false };
    }
  }

  findMessage(id: string) {
    return this.db.conversationMessage.findUnique({ where: { id }, include: { conversation: true } });
  }

  /** Whether an inbound message before `seq` in the conversation still waits for the bot's webhook. */
  async hasUnsettledBefore(conversationId: string, seq: bigint): Promise<boolean> {
    const earlier = await this.db.conversationMessage.findFirst({
      where: { conversationId, direction: 'inbound', webhookSettledAt: null, seq: { lt: seq } },
      select: { id: true },
    });
    return earlier !== null;
  }

  markWebhookSettled(id: string, at = new Date()) {
    return this.db.conversationMessage.updateMany({ where: { id, webhookSettledAt: null }, data: { webhookSettledAt: at } });
  }

  /** Up to `limit` of the conversation's messages in order, after the `afterSeq` cursor. */
  listMessages(conversationId: string, afterSeq: bigint | null, limit: number) {
    return this.db.conversationMessage.findMany({
      where: { conversationId, ...(afterSeq !== null ? { seq: { gt: afterSeq } } : {}) },
      orderBy: { seq: 'asc' },
      take: limit,
    });
  }

  /** The newest `limit` messages, oldest first (a transcript). */
  async latestMessages(conversationId: string, limit: number) {
    const rows = await this.db.conversationMessage.findMany({ where: { conversationId }, orderBy: { seq: 'desc' }, take: limit });
    return rows.reverse();
  }

  /**
   * Up to `limit` messages just before the message `beforeId`, oldest first (a transcript read further
   * back); null when `beforeId` is not a message of the conversation. One statement: the anchor's seq and
   * the page together, so a page never mixes two conversations. The ORDER BY names the table's column:
   * MESSAGE_COLUMNS' `seq` is text, and a bare "seq" there would sort as text ('95' after '130').
   */
  async messagesBefore(conversationId: string, beforeId: string, limit: number): Promise<ConversationMessageRow[] | null> {
    const { rows } = await this.db.pool.query<(Omit<ConversationMessageRow, 'seq'> & { seq: string }) | { id: null }>({
      name: 'conversation-messages-before',
      text: `SELECT m.* FROM (SELECT "seq" AS "anchor" FROM "conversation_messages" WHERE "id" = $2::uuid AND "conversation_id" = $1::uuid) a
             LEFT JOIN LATERAL (SELECT ${MESSAGE_COLUMNS} FROM "conversation_messages" c
                                WHERE c."conversation_id" = $1::uuid AND c."seq" < a."anchor" ORDER BY c."seq" DESC LIMIT $3) m ON TRUE`,
      values: [conversationId, beforeId, limit],
    });
    if (rows.length === 0) return null;
    return rows
      .filter((r): r is Omit<ConversationMessageRow, 'seq'> & { seq: string } => r.id !== null)
      .map(toMessageRow)
      .reverse();
  }

  /** A user's WhatsApp message with what its read receipt needs: its wamid and the number it was sent to. */
  findInboundWithSender(id: string) {
    return this.db.conversationMessage.findFirst({ where: { id, direction: 'inbound' }, select: { providerMessageId: true, conversation: { select: { sender: true } } } });
  }

  /**
   * Claims an outbound message still to send for one run of its job, counting the attempt, and leases
   * it to that run for `leaseMs`: `skip` when it was sent or failed already; `busy` while another run's
   * lease holds, for how long it still holds. A lease matters when a job's lock lapses while its run
   * still sends (a stalled process, a Redis failover): the queue gives the job to a second run, which
   * would otherwise send the message again. A run that died leaves a lease that ends by itself.
   */
  async claimReply(id: string, leaseMs: number): Promise<ReplyClaim> {
    const { rows } = await this.db.query<{ claimed: boolean; busyMs: number | null }>({
      name: 'conversation-messages-claim-reply',
      // The outer SELECT reads the row as it was before the UPDATE: a lease there that holds is another run's.
      text: `WITH claimed AS (
               UPDATE "conversation_messages" SET "status" = 'processing', "attempts" = "attempts" + 1,
                 "claimed_until" = now() + $2::int * interval '1 millisecond'
               WHERE "id" = $1::uuid AND "direction" = 'outbound'
                 AND ("status" = 'queued' OR ("status" = 'processing' AND ("claimed_until" IS NULL OR "claimed_until" <= now())))
               RETURNING "id")
             SELECT EXISTS (SELECT 1 FROM claimed) AS "claimed",
               (SELECT ceil(extract(epoch FROM (m."claimed_until" - now())) * 1000)::int FROM "conversation_messages" m
                WHERE m."id" = $1::uuid AND m."status" = 'processing' AND m."claimed_until" > now()) AS "busyMs"`,
      values: [id, Math.ceil(leaseMs)],
    });
    const [{ claimed, busyMs }] = rows;
    if (!claimed) return busyMs !== null ? { kind: 'busy', forMs: busyMs } : { kind: 'skip' };
    const message = await this.db.conversationMessage.findUnique({ where: { id }, include: { conversation: true } });
    return message ? { kind: 'claimed', message } : { kind: 'skip' };
  }

  /** Extends the lease of a message this run claimed (before each further part of a reply sent as several). */
  async extendClaim(id: string, leaseMs: number): Promise<void> {
    await this.db.query({
      name: 'conversation-messages-extend-claim',
      text: `UPDATE "conversation_messages" SET "claimed_until" = now() + $2::int * interval '1 millisecond' WHERE "id" = $1::uuid AND "status" = 'processing'`,
      values: [id, Math.ceil(leaseMs)],
    });
  }

  /**
   * Records the Cloud API messages a reply was sent as so far (wamids in order: part 0 first), each
   * as soon as it is sent, so that its status webhooks find it; parts recorded already are kept. The
   * statuses Meta posted for them before they were recorded (held, see HeldStatusRepository) are then
   * applied in a second statement: committed after the parts, it sees every status held before, and a
   * status held later finds its part recorded.
   */
  async recordParts(id: string, providerMessageIds: readonly string[]): Promise<void> {
    if (providerMessageIds.length === 0) return;
    await this.db.query({
      name: 'conversation-message-parts-record',
      text: `INSERT INTO "conversation_message_parts" ("message_id", "part", "provider_message_id")
             SELECT $1::uuid, p.n - 1, p.wamid FROM unnest($2::text[]) WITH ORDINALITY AS p(wamid, n)
             ON CONFLICT DO NOTHING`,
      values: [id, providerMessageIds],
    });
    await this.applyHeldStatuses(providerMessageIds);
  }

  /**
   * Applies the held statuses of these provider message ids whose reply part is recorded, and forgets
   * them (expired ones unapplied); the replies they belong to then settle (see applyProviderStatuses).
   * How many parts moved.
   */
  async applyHeldStatuses(providerMessageIds: readonly string[]): Promise<number> {
    if (providerMessageIds.length === 0) return 0;
    const { rows } = await this.db.query<{ moved: number }>({
      name: 'conversation-message-parts-apply-held-statuses',
      text: `WITH held AS (${claimHeldStatusesSql('conversation_message_parts')}), ${APPLY_PART_STATUS_SQL('held', '$2', 'u.fresh')}
             SELECT count(*)::int AS "moved" FROM applied`,
      values: [providerMessageIds, PROVIDER_STATUS_ORDER],
    });
    const moved = rows[0]?.moved ?? 0;
    if (moved > 0) await this.settleFromParts('conversation-messages-settle-by-held-part', REPLIES_OF_PARTS, [providerMessageIds]);
    return moved;
  }

  /**
   * Marks a reply sent: `providerMessageId` is its first part's wamid (a web chat message's own id).
   * Statuses its parts received meanwhile then settle it (see applyProviderStatuses).
   */
  async markSent(id: string, providerMessageId: string) {
    const marked = await this.db.conversationMessage.updateMany({
      where: { id, status: { in: ['queued', 'processing'] } },
      data: { status: 'sent', providerMessageId, lastErrorCode: null, lastErrorText: null },
    });
    if (marked.count > 0) await this.settleFromParts('conversation-messages-settle-by-id', '$1::uuid[]', [[id]]);
    return marked;
  }

  /**
   * A reply the queue did not take: failed, with the reason, and its reply key freed, since nothing was
   * sent (the caller's retry with the same Idempotency-Key makes it anew).
   */
  markUnqueued(id: string, code: string, text: string) {
    return this.db.conversationMessage.updateMany({
      where: { id, status: { in: ['queued', 'processing'] } },
      data: { lastErrorCode: code, lastErrorText: text.slice(0, 1000), status: 'failed', replyKey: null },
    });
  }

  markAttemptFailed(id: string, code: string, text: string, final: boolean) {
    return this.db.conversationMessage.updateMany({
      where: { id, status: { in: ['queued', 'processing'] } },
      // The attempt is over: its lease no longer holds the job's next run back.
      data: { lastErrorCode: code, lastErrorText: text.slice(0, 1000), claimedUntil: null, ...(final ? { status: 'failed' } : {}) },
    });
  }

  /**
   * Applies the provider's statuses (WhatsApp status webhooks) to the parts of bot replies they name,
   * each part moving only forward in `order`; ids of no part are ignored. A reply sent in full then
   * takes its status from its parts: `failed` when any part failed (with that part's error), else the
   * least advanced of its parts' statuses (delivered once every part is delivered, read once every
   * part is read). A reply whose sending failed part-way (never sent in full) keeps the status its
   * sending left. Returns the provider message ids of no reply part.
   */
  async applyProviderStatuses(
    updates: ReadonlyArray<{ providerMessageId: string; status: MessageStatus; errorCode: string | null; errorText: string | null }>,
    order: readonly MessageStatus[],
  ): Promise<{ unknown: string[] }> {
    if (updates.length === 0) return { unknown: [] };
    const wamids = updates.map((u) => u.providerMessageId);
    const { rows } = await this.db.query<{ wamid: string }>({
      name: 'conversation-message-parts-apply-provider-statuses',
      text: `WITH u AS (
               SELECT * FROM unnest($1::text[], $2::"MessageStatus"[], $3::text[], $4::text[]) AS u(wamid, status, error_code, error_text)
             ), ${APPLY_PART_STATUS_SQL('u', '$5')}
             SELECT u.wamid FROM u WHERE NOT EXISTS (SELECT 1 FROM "conversation_message_parts" p WHERE p."provider_message_id" = u.wamid)`,
      values: [wamids, updates.map((u) => u.status), updates.map((u) => u.errorCode), updates.map((u) => u.errorText), order],
    });
    // Settled from all parts' statuses, not from this call's changes: a settle that failed before is made good by Meta's redelivery.
    await this.settleFromParts('conversation-messages-settle-by-part', REPLIES_OF_PARTS, [wamids], order);
    return { unknown: rows.map((r) => r.wamid) };
  }

  /**
   * Sets each reply sent in full (its first part's wamid recorded on it) among `messageIds` (SQL over
   * `values`) to the status its parts add up to (see applyProviderStatuses).
   */
  private async settleFromParts(name: string, messageIds: string, values: unknown[], order: readonly MessageStatus[] = PART_ORDER): Promise<void> {
    const o = `$${values.length + 1}::"MessageStatus"[]`;
    await this.db.query({
      name,
      text: `UPDATE "conversation_messages" AS m SET "status" = a.status,
               "last_error_code" = CASE WHEN a.status = 'failed' THEN a.error_code ELSE m."last_error_code" END,
               "last_error_text" = CASE WHEN a.status = 'failed' THEN a.error_text ELSE m."last_error_text" END
             FROM (
               SELECT p."message_id",
                 CASE WHEN bool_or(p."status" = 'failed') THEN 'failed'::"MessageStatus"
                      ELSE (${o})[min(COALESCE(array_position(${o}, p."status"), 0))] END AS status,
                 (array_agg(p."last_error_code" ORDER BY p."part") FILTER (WHERE p."status" = 'failed'))[1] AS error_code,
                 (array_agg(p."last_error_text" ORDER BY p."part") FILTER (WHERE p."status" = 'failed'))[1] AS error_text
               FROM "conversation_message_parts" p
               WHERE p."message_id" = ANY(${messageIds})
               GROUP BY p."message_id"
             ) AS a
             WHERE m."id" = a."message_id" AND m."direction" = 'outbound' AND m."provider_message_id" IS NOT NULL
               AND m."status" IN ('sent', 'failed', 'delivered', 'read') AND a.status IS NOT NULL AND m."status" <> a.status`,
      values: [...values, order],
    });
  }

  /**
   * Deletes a user's conversations with the bot (all channels unless one is given), messages included,
   * and the copies of those messages that the callback delivery log keeps (message.received calls).
   */
  async deleteUser(botId: string, userId: string, channel?: ConversationChannel): Promise<number> {
    const [, , { count }] = await this.db.$transaction([
      // The bot runtime's state rows first, the order a turn takes (its state row, then the conversation as
      // it writes replies): deleting the conversations first would take the conversation, then wait for a
      // running turn's state row (the cascade) while that turn waits for the conversation, a deadlock.
      this.db.$queryRaw`SELECT 1 FROM "bot_conversation_states" AS s JOIN "conversations" AS c ON c."id" = s."conversation_id"
        WHERE c."bot_id" = ${botId}::uuid AND c."user_id" = ${userId} AND (${channel ?? null}::text IS NULL OR c."channel"::text = ${channel ?? null}::text)
        ORDER BY s."conversation_id" FOR UPDATE OF s`,
      this.db.$executeRaw`DELETE FROM "callback_deliveries" AS d
        WHERE d."bot_id" = ${botId}::uuid AND d."kind" = 'webhook' AND d."event" = 'message.received'
          AND d."id" IN (SELECT m."id"::text FROM "conversation_messages" AS m JOIN "conversations" AS c ON c."id" = m."conversation_id"
                         WHERE c."bot_id" = ${botId}::uuid AND c."user_id" = ${userId} AND (${channel ?? null}::text IS NULL OR c."channel"::text = ${channel ?? null}::text))`,
      this.db.conversation.deleteMany({ where: { botId, userId, ...(channel ? { channel } : {}) } }),
    ]);
    return count;
  }

  /**
   * Deletes up to `limit` messages created before `before`, and as many of the message.received calls
   * the callback delivery log keeps from before then (the log must not outlive the messages); returns
   * how many messages.
   */
  async deleteMessagesBefore(before: Date, limit = 1000): Promise<number> {
    await this.db.$executeRaw`DELETE FROM "callback_deliveries" WHERE "id" IN (
      SELECT "id" FROM "callback_deliveries" WHERE "kind" = 'webhook' AND "event" = 'message.received' AND "created_at" < ${before} LIMIT ${limit})`;
    return this.db.$executeRaw`DELETE FROM "conversation_messages" WHERE "id" IN (SELECT "id" FROM "conversation_messages" WHERE "created_at" < ${before} LIMIT ${limit})`;
  }

  /**
   * Deletes up to `limit` conversations without messages that were not used (no user message, no
   * session start, no bot message) since `before`; returns how many. The times are checked again on
   * the row being deleted, so a conversation used meanwhile (its row updated) stays.
   */
  async deleteUnusedBefore(before: Date, limit = 1000): Promise<number> {
    return this.db.$executeRaw`DELETE FROM "conversations" AS c
      WHERE c."id" IN (
        SELECT e."id" FROM "conversations" AS e
        WHERE e."updated_at" < ${before} AND (e."last_inbound_at" IS NULL OR e."last_inbound_at" < ${before})
          AND NOT EXISTS (SELECT 1 FROM "conversation_messages" AS m WHERE m."conversation_id" = e."id")
        LIMIT ${limit})
      AND c."updated_at" < ${before} AND (c."last_inbound_at" IS NULL OR c."last_inbound_at" < ${before})`;
  }
}
