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
    return this.db.channelSender.findUnique({ where: { botId_channel_number: { botId, channel, number } } });
  }

  findById(id: string) {
    return this.db.channelSender.findUnique({ where: { id } });
  }

  listByBot(botId: string) {
    return this.db.channelSender.findMany({ where: { botId }, orderBy: { createdAt: 'asc' } });
  }

  /** Sets a sender's messages per second; null when the bot has no such sender. */
  async setThroughput(botId: string, id: string, throughput: number) {
    const { count } = await this.db.channelSender.updateMany({ where: { id, botId }, data: { throughput } });
    return count === 1 ? this.findById(id) : null;
  }

  /** Changes the bot's sender; null when the bot has no sender with that id. */
  async update(botId: string, id: string, data: { phoneNumberId?: string; accessTokenEncrypted?: string; wabaId?: string | null; throughput?: number }) {
    const { count } = await this.db.channelSender.updateMany({ where: { id, botId }, data });
    return count ? this.findById(id) : null;
  }

  countByChannel(botId: string, channel: Channel) {
    return this.db.channelSender.count({ where: { botId, channel } });
  }
}
