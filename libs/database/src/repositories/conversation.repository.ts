import { Injectable } from '@nestjs/common';
import { ConversationChannel, MessageDirection, MessageStatus } from '../generated/enums.js';
import type { Prisma } from '../generated/client.js';
import { PrismaService } from '../prisma.service.js';

/** A message as read from `conversation_messages`. */
export interface ConversationMessageRow {
  id: string;
  seq: bigint;
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
  upsert(botId: string, channel: ConversationChannel, userId: string) {
    return this.db.conversation.upsert({
      where: { botId_channel_userId: { botId, channel, userId } },
      create: { botId, channel, userId },
      update: { updatedAt: new Date() },
    });
  }

  find(botId: string, id: string) {
    return this.db.conversation.findFirst({ where: { id, botId } });
  }

  findByUser(botId: string, channel: ConversationChannel, userId: string) {
    return this.db.conversation.findUnique({ where: { botId_channel_userId: { botId, channel, userId } } });
  }

  /** Senders (any bot) of a WhatsApp phone-number id: where an inbound message belongs. */
  findSendersByPhoneNumberId(phoneNumberId: string) {
    return this.db.channelSender.findMany({ where: { channel: 'whatsapp', phoneNumberId }, orderBy: { createdAt: 'asc' } });
  }

  /**
   * Records an inbound message and moves the conversation's last-inbound time, in one transaction.
   * `created` is false when a message with the same provider id exists (Meta delivered it again); then
   * the existing row is returned and nothing changes.
   */
  async recordInbound(m: InboundMessage): Promise<{ message: ConversationMessageRow; created: boolean }> {
    return this.db.$transaction(async (tx) => {
      if (m.providerMessageId) {
        const existing = await tx.conversationMessage.findUnique({ where: { providerMessageId: m.providerMessageId } });
        if (existing) return { message: existing, created: false };
      }
      const conversation = await tx.conversation.upsert({
        where: { botId_channel_userId: { botId: m.botId, channel: m.channel, userId: m.userId } },
        create: { botId: m.botId, channel: m.channel, userId: m.userId, senderId: m.senderId ?? null, lastInboundAt: m.at },
        update: { ...(m.senderId ? { senderId: m.senderId } : {}) },
      });
      if (!conversation.lastInboundAt || conversation.lastInboundAt < m.at) {
        await tx.conversation.update({ where: { id: conversation.id }, data: { lastInboundAt: m.at } });
      }
      const rows = await tx.conversationMessage.createManyAndReturn({
        data: [{
          conversationId: conversation.id,
          direction: 'inbound',
          type: m.type,
          content: m.content,
          providerMessageId: m.providerMessageId ?? null,
        }],
        skipDuplicates: true, // a concurrent copy of the same webhook won the race
      });
      if (rows.length === 0) {
        return { message: (await tx.conversationMessage.findUnique({ where: { providerMessageId: m.providerMessageId! } }))!, created: false };
      }
      return { message: rows[0], created: true };
    });
  }

  /**
   * Records a message of the bot and marks the conversation used, in one transaction: the retention
   * sweep, which deletes conversations left empty and unused, then waits for it or skips the
   * conversation. Null when the conversation is gone (erased or swept) meanwhile.
   */
  createOutbound(conversationId: string, type: string, content: Prisma.InputJsonValue, status: MessageStatus): Promise<ConversationMessageRow | null> {
    return this.db.$transaction(async (tx) => {
      const touched = await tx.conversation.updateMany({ where: { id: conversationId }, data: { updatedAt: new Date() } });
      if (touched.count === 0) return null;
      return tx.conversationMessage.create({ data: { conversationId, direction: 'outbound', type, content, status } });
    });
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

  /** Counts an attempt of an outbound message still to send; null when it was sent or failed already. */
  async claimReply(id: string) {
    const claimed = await this.db.conversationMessage.updateMany({
      where: { id, direction: 'outbound', status: { in: ['queued', 'processing'] } },
      data: { status: 'processing', attempts: { increment: 1 } },
    });
    if (claimed.count === 0) return null;
    return this.db.conversationMessage.findUnique({ where: { id }, include: { conversation: true } });
  }

  markSent(id: string, providerMessageId: string) {
    return this.db.conversationMessage.updateMany({
      where: { id, status: { in: ['queued', 'processing'] } },
      data: { status: 'sent', providerMessageId, lastErrorCode: null, lastErrorText: null },
    });
  }

  markAttemptFailed(id: string, code: string, text: string, final: boolean) {
    return this.db.conversationMessage.updateMany({
      where: { id, status: { in: ['queued', 'processing'] } },
      data: { lastErrorCode: code, lastErrorText: text.slice(0, 1000), ...(final ? { status: 'failed' } : {}) },
    });
  }

  /**
   * Moves bot messages forward in `order` by the provider's statuses (WhatsApp status webhooks), as
   * MessageRepository does for carousel messages; ids of no conversation message are ignored.
   */
  async applyProviderStatuses(updates: ReadonlyArray<{ providerMessageId: string; status: MessageStatus; errorCode: string | null; errorText: string | null }>, order: readonly MessageStatus[]): Promise<number> {
    if (updates.length === 0) return 0;
    const { rowCount } = await this.db.query({
      name: 'conversation-messages-apply-provider-statuses',
      text: `UPDATE "conversation_messages" AS m SET "status" = u.status,
               "last_error_code" = CASE WHEN u.status = 'failed' THEN u.error_code ELSE m."last_error_code" END,
               "last_error_text" = CASE WHEN u.status = 'failed' THEN u.error_text ELSE m."last_error_text" END
             FROM unnest($1::text[], $2::"MessageStatus"[], $3::text[], $4::text[]) AS u(wamid, status, error_code, error_text)
             WHERE m."provider_message_id" = u.wamid AND m."direction" = 'outbound'
               AND COALESCE(array_position($5::"MessageStatus"[], m."status"), 0) < array_position($5::"MessageStatus"[], u.status)`,
      values: [updates.map((u) => u.providerMessageId), updates.map((u) => u.status), updates.map((u) => u.errorCode), updates.map((u) => u.errorText), order],
    });
    return rowCount ?? 0;
  }

  /**
   * Deletes a user's conversations with the bot (all channels unless one is given), messages included,
   * and the copies of those messages that the callback delivery log keeps (message.received calls).
   */
  async deleteUser(botId: string, userId: string, channel?: ConversationChannel): Promise<number> {
    const [, { count }] = await this.db.$transaction([
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
