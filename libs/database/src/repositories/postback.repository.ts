import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';

export interface PostbackRecord {
  id: string;
  botId: string;
  messageId: string;
  status: string;
  url: string;
  body: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Bots' postback URLs and the delivery log of postbacks (one row per message status, counting attempts). */
@Injectable()
export class PostbackRepository {
  constructor(private readonly db: PrismaService) {}

  /** The bot's postback URL; undefined when the bot does not exist. */
  async botUrl(botId: string): Promise<string | null | undefined> {
    const bot = await this.db.bot.findUnique({ where: { id: botId }, select: { postbackUrl: true } });
    return bot ? bot.postbackUrl : undefined;
  }

  async setBotUrl(botId: string, url: string | null): Promise<void> {
    await this.db.bot.update({ where: { id: botId }, data: { postbackUrl: url } });
  }

  /** Records one attempt's outcome, creating the log entry on the first one. */
  async recordAttempt(
    entry: { id: string; botId: string; url: string; body: string; messageId: string; status: string },
    outcome: { httpStatus: number | null; error: string | null; delivered: boolean },
  ): Promise<void> {
    const now = new Date();
    const result = { lastStatus: outcome.httpStatus, lastError: outcome.error?.slice(0, 1000) ?? null, ...(outcome.delivered ? { deliveredAt: now } : {}) };
    await this.db.postback.upsert({
      where: { id: entry.id },
      create: { ...entry, attempts: 1, ...result },
      update: { attempts: { increment: 1 }, url: entry.url, ...result },
    });
  }

  find(botId: string, id: string): Promise<PostbackRecord | null> {
    return this.db.postback.findFirst({ where: { id, botId } });
  }

  /** Newest first. */
  async page(botId: string, page: number, pageSize: number): Promise<{ items: PostbackRecord[]; total: number }> {
    const [items, total] = await Promise.all([
      this.db.postback.findMany({ where: { botId }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], skip: (page - 1) * pageSize, take: pageSize }),
      this.db.postback.count({ where: { botId } }),
    ]);
    return { items, total };
  }
}
