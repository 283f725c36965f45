import { Injectable } from '@nestjs/common';
import { Channel } from '../generated/enums.js';
import { PrismaService } from '../prisma.service.js';

/** What a delivery attempt needs of its message. */
export interface ClaimedMessage {
  id: string;
  templateId: string;
  senderId: string;
  recipient: string;
  attempts: number;
}

/** A message as the trigger records it, queued (the id is chosen by the caller: it is also the job id). */
export interface QueuedMessageRow {
  id: string;
  botId: string;
  templateId: string;
  senderId: string;
  channel: Channel;
  recipient: string;
}

@Injectable()
export class MessageRepository {
  constructor(private readonly db: PrismaService) {}

  /** Inserts many queued messages in one prepared statement (ids chosen by the caller). */
  async insertQueued(rows: readonly QueuedMessageRow[]): Promise<void> {
    await this.db.query({
      name: 'messages-insert-queued',
      text: `INSERT INTO "messages" ("id", "bot_id", "template_id", "sender_id", "channel", "recipient", "updated_at")
             SELECT m.id, m.bot_id, m.template_id, m.sender_id, m.channel, m.recipient, now()
             FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::"Channel"[], $6::text[]) AS m(id, bot_id, template_id, sender_id, channel, recipient)`,
      values: [rows.map((r) => r.id), rows.map((r) => r.botId), rows.map((r) => r.templateId), rows.map((r) => r.senderId), rows.map((r) => r.channel), rows.map((r) => r.recipient)],
    });
  }

  async deleteMany(ids: readonly string[]): Promise<void> {
    await this.db.message.deleteMany({ where: { id: { in: [...ids] } } });
  }

  findForBot(botId: string, id: string) {
    return this.db.message.findFirst({ where: { id, botId } });
  }

  /**
   * Claims messages for one delivery attempt each; per id, the claimed message, or null when it already
   * reached a final state or is gone. Called with a turn's worth of ids at once (TickBatcher).
   */
  async startAttempts(ids: readonly string[]): Promise<Array<ClaimedMessage | null>> {
    const { rows } = await this.db.query<ClaimedMessage>({
      name: 'messages-start-attempts',
      text: `UPDATE "messages" SET "status" = 'processing', "attempts" = "attempts" + 1, "updated_at" = now()
             WHERE "id" = ANY($1::uuid[]) AND "status" NOT IN ('sent', 'delivered', 'read', 'failed')
             RETURNING "id"::text AS "id", "template_id"::text AS "templateId", "sender_id"::text AS "senderId", "recipient", "attempts"`,
      values: [ids],
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** Records successful sends, many in one statement. */
  async markSentMany(sends: ReadonlyArray<{ id: string; providerMessageId: string }>): Promise<void[]> {
    await this.db.query({
      name: 'messages-mark-sent',
      text: `UPDATE "messages" AS m SET "status" = 'sent', "provider_message_id" = s.wamid, "sent_at" = now(), "updated_at" = now(),
             "last_error_code" = NULL, "last_error_text" = NULL
             FROM unnest($1::uuid[], $2::text[]) AS s(id, wamid) WHERE m."id" = s.id`,
      values: [sends.map((s) => s.id), sends.map((s) => s.providerMessageId)],
    });
    return sends.map(() => undefined);
  }

  recordError(id: string, code: string | null, text: string, final: boolean) {
    return this.db.message.update({
      where: { id },
      data: { lastErrorCode: code, lastErrorText: text.slice(0, 1000), ...(final ? { status: 'failed' } : {}) },
    });
  }
}
