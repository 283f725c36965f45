import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';

/** A bot's registered devices as its administrators see them: counts, pages, unlinking one. */
@Injectable()
export class DeviceDirectoryRepository {
  constructor(private readonly db: PrismaService) {}

  async counts(botId: string): Promise<{ total: number; dead: number }> {
    const [total, dead] = await Promise.all([this.db.pushDevice.count({ where: { botId } }), this.db.pushDevice.count({ where: { botId, deadAt: { not: null } } })]);
    return { total, dead };
  }

  /** Devices in id order after `afterId` (the `[botId, id]` index serves it). */
  page(botId: string, afterId: string | null, limit: number) {
    return this.db.pushDevice.findMany({
      where: { botId, ...(afterId ? { id: { gt: afterId } } : {}) },
      orderBy: { id: 'asc' },
      take: limit,
    });
  }

  async deleteById(botId: string, id: string): Promise<boolean> {
    const { count } = await this.db.pushDevice.deleteMany({ where: { botId, id } });
    return count > 0;
  }
}
