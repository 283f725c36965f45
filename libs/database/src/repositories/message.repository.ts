import { Injectable } from '@nestjs/common';
import { Channel, MessageStatus } from '../generated/enums.js';
import { PrismaService } from '../prisma.service.js';

const FINAL: MessageStatus[] = ['sent', 'delivered', 'read', 'failed'];

@Injectable()
export class MessageRepository {
  constructor(private readonly db: PrismaService) {}

  create(data: { botId: string; templateId: string; senderId: string; channel: Channel; recipient: string }) {
    return this.db.message.create({ data });
  }

  delete(id: string) {
    return this.db.message.delete({ where: { id } });
  }

  findById(id: string) {
    return this.db.message.findUnique({ where: { id }, include: { template: true, sender: true } });
  }

  findForBot(botId: string, id: string) {
    return this.db.message.findFirst({ where: { id, botId } });
  }

  /** Claims the message for one delivery attempt; null when it already reached a final state. */
  async startAttempt(id: string) {
    const { count } = await this.db.message.updateMany({
      where: { id, status: { notIn: FINAL } },
      data: { status: 'processing', attempts: { increment: 1 } },
    });
    return count === 0 ? null : this.findById(id);
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
