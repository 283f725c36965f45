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

@Injectable()
export class MessageRepository {
  constructor(private readonly db: PrismaService) {}

  create(data: { botId: string; templateId: string; senderId: string; channel: Channel; recipient: string }) {
    return this.db.message.create({ data });
  }

  delete(id: string) {
    return this.db.message.delete({ where: { id } });
  }

  /** Inserts many queued messages in one statement (ids chosen by the caller). */
  async insertQueued(rows: ReadonlyArray<{ id: string; botId: string; templateId: string; senderId: string; channel: Channel; recipient: string }>): Promise<void> {
    await this.db.$executeRaw`
      INSERT INTO "messages" ("id", "bot_id", "template_id", "sender_id", "channel", "recipient", "updated_at")
      SELECT m.id, m.bot_id, m.template_id, m.sender_id, m.channel, m.recipient, now()
      FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.botId)}::uuid[], ${rows.map((r) => r.templateId)}::uuid[],
                  ${rows.map((r) => r.senderId)}::uuid[], ${rows.map((r) => r.channel)}::"Channel"[], ${rows.map((r) => r.recipient)}::text[])
        AS m(id, bot_id, template_id, sender_id, channel, recipient)`;
  }

  async deleteMany(ids: readonly string[]): Promise<void> {
    await this.db.message.deleteMany({ where: { id: { in: [...ids] } } });
  }

  findById(id: string) {
    return this.db.message.findUnique({ where: { id }, include: { template: true, sender: true } });
  }

  findForBot(botId: string, id: string) {
    return this.db.message.findFirst({ where: { id, botId } });
  }

  /** Claims the message for one delivery attempt (one statement); null when it already reached a final state or is gone. */
  async startAttempt(id: string): Promise<ClaimedMessage | null> {
    const rows = await this.db.$queryRaw<ClaimedMessage[]>`
      UPDATE "messages" SET "status" = 'processing', "attempts" = "attempts" + 1, "updated_at" = now()
      WHERE "id" = ${id}::uuid AND "status" NOT IN ('sent', 'delivered', 'read', 'failed')
      RETURNING "id"::text AS "id", "template_id"::text AS "templateId", "sender_id"::text AS "senderId", "recipient", "attempts"`;
    return rows[0] ?? null;
  }

  markSent(id: string, providerMessageId: string) {
    return this.db.message.update({
      where: { id },
      data: { status: 'sent', providerMessageId, sentAt: new Date(), lastErrorCode: null, lastErrorText: null },
    });
  }

  recordError(id: string, code: string | null, text: string, final: boolean) {
    return this.db.message.update({
      where: { id },
      data: { lastErrorCode: code, lastErrorText: text.slice(0, 1000), ...(final ? { status: 'failed' } : {}) },
    });
  }
}
