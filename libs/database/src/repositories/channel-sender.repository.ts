import { Injectable } from '@nestjs/common';
import { Channel } from '../generated/enums.js';
import { PrismaService } from '../prisma.service.js';

@Injectable()
export class ChannelSenderRepository {
  constructor(private readonly db: PrismaService) {}

  create(data: { botId: string; channel: Channel; number: string; phoneNumberId: string; accessTokenEncrypted: string; wabaId?: string | null; throughput?: number }) {
    return this.db.channelSender.create({ data });
  }

  findByNumber(botId: string, channel: Channel, number: string) {
    return this.db.channelSender.findFirst({ where: { botId, channel, number, deletedAt: null } });
  }

  /** A live sender (a deleted one is not used for sends: its queued messages fail naming it). */
  findById(id: string) {
    return this.db.channelSender.findFirst({ where: { id, deletedAt: null } });
  }

  listByBot(botId: string) {
    return this.db.channelSender.findMany({ where: { botId, deletedAt: null }, orderBy: { createdAt: 'asc' } });
  }

  /** Sets a sender's messages per second; null when the bot has no such sender. */
  async setThroughput(botId: string, id: string, throughput: number) {
    const { count } = await this.db.channelSender.updateMany({ where: { id, botId, deletedAt: null }, data: { throughput } });
    return count === 1 ? this.findById(id) : null;
  }

  /** Changes the bot's sender; null when the bot has no sender with that id. */
  async update(botId: string, id: string, data: { phoneNumberId?: string; accessTokenEncrypted?: string; wabaId?: string | null; throughput?: number }) {
    const { count } = await this.db.channelSender.updateMany({ where: { id, botId, deletedAt: null }, data });
    return count ? this.findById(id) : null;
  }

  /** Records the messaging limit tier Meta answered for the sender (null: Meta gave none). */
  async setMessagingLimit(id: string, tier: string | null, at: Date): Promise<void> {
    await this.db.channelSender.updateMany({ where: { id }, data: { messagingLimitTier: tier, messagingLimitReadAt: at } });
  }

  countByChannel(botId: string, channel: Channel) {
    return this.db.channelSender.count({ where: { botId, channel, deletedAt: null } });
  }

  /**
   * Deletes the bot's sender: it is no longer listed, chosen for sends or matched by inbound messages, and its
   * number may be added again; the row stays so the message log keeps naming it. False when there is no live one.
   */
  async softDelete(botId: string, id: string, at: Date): Promise<boolean> {
    const { count } = await this.db.channelSender.updateMany({ where: { id, botId, deletedAt: null }, data: { deletedAt: at } });
    return count === 1;
  }

  /** Per sender of the bot: failed messages since `since` and the newest failure's error (the senders page's health column). */
  async failureStats(botId: string, since: Date): Promise<Map<string, { failures: number; lastErrorAt: Date | null; lastErrorCode: string | null; lastErrorText: string | null }>> {
    const rows = await this.db.$queryRaw<Array<{ sender_id: string; failures: bigint; last_at: Date | null; code: string | null; text: string | null }>>`
      SELECT s.id AS sender_id,
             (SELECT count(*) FROM messages m WHERE m.sender_id = s.id AND m.status = 'failed' AND m.updated_at >= ${since}) AS failures,
             l.updated_at AS last_at, l.last_error_code AS code, l.last_error_text AS text
        FROM channel_senders s
        LEFT JOIN LATERAL (
          SELECT updated_at, last_error_code, last_error_text FROM messages m
           WHERE m.sender_id = s.id AND m.status = 'failed' ORDER BY m.updated_at DESC LIMIT 1
        ) l ON true
       WHERE s.bot_id = ${botId}::uuid AND s.deleted_at IS NULL`;
    return new Map(rows.map((r) => [r.sender_id, { failures: Number(r.failures), lastErrorAt: r.last_at, lastErrorCode: r.code, lastErrorText: r.text }]));
  }
}
