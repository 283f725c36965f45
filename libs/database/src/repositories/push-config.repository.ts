import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';

@Injectable()
export class PushConfigRepository {
  constructor(private readonly db: PrismaService) {}

  /** Creates or replaces the bot's service account; `version` grows on each save (cached access tokens key on it). */
  save(botId: string, data: { projectId: string; credentialsEncrypted: string; keyId: string }) {
    return this.db.pushConfig.upsert({
      where: { botId },
      create: { botId, ...data },
      update: { ...data, version: { increment: 1 } },
    });
  }

  /** true when the bot had a service account. */
  async deleteByBot(botId: string): Promise<boolean> {
    const { count } = await this.db.pushConfig.deleteMany({ where: { botId } });
    return count > 0;
  }

  /** Sets the bot's FCM quota (messages a minute; null = the platform default); false when the bot has no service account. */
  async setFcmQuota(botId: string, perMinute: number | null): Promise<boolean> {
    const { count } = await this.db.pushConfig.updateMany({ where: { botId }, data: { fcmQuotaPerMinute: perMinute } });
    return count > 0;
  }

  findByBot(botId: string) {
    return this.db.pushConfig.findUnique({ where: { botId } });
  }
}
