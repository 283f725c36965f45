import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';

@Injectable()
export class BotRepository {
  constructor(private readonly db: PrismaService) {}

  create(name: string) {
    return this.db.bot.create({ data: { name } });
  }

  findById(id: string) {
    return this.db.bot.findUnique({ where: { id } });
  }

  list() {
    return this.db.bot.findMany({ orderBy: { createdAt: 'asc' } });
  }

  /** The bot's own trigger quota (null: the platform default), or undefined when there is no such bot. */
  async triggerQuota(id: string): Promise<{ perMinute: number | null } | undefined> {
    const row = await this.db.bot.findUnique({ where: { id }, select: { triggerQuotaPerMinute: true } });
    return row ? { perMinute: row.triggerQuotaPerMinute } : undefined;
  }

  /** Sets the bot's trigger quota (null: back to the platform default); false when there is no such bot. */
  async setTriggerQuota(id: string, perMinute: number | null): Promise<boolean> {
    const { count } = await this.db.bot.updateMany({ where: { id }, data: { triggerQuotaPerMinute: perMinute } });
    return count === 1;
  }
}
