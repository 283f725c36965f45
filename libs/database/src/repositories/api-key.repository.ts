import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';

@Injectable()
export class ApiKeyRepository {
  constructor(private readonly db: PrismaService) {}

  create(data: { botId: string; name: string; prefix: string; hash: string }) {
    return this.db.apiKey.create({ data });
  }

  findByHash(hash: string) {
    return this.db.apiKey.findUnique({ where: { hash } });
  }

  listByBot(botId: string) {
    return this.db.apiKey.findMany({ where: { botId }, orderBy: { createdAt: 'asc' } });
  }

  /** Revokes a live key of the bot; returns the revoked key or null when there was none. */
  async revoke(botId: string, id: string) {
    const { count } = await this.db.apiKey.updateMany({ where: { id, botId, revokedAt: null }, data: { revokedAt: new Date() } });
    return count === 0 ? null : this.db.apiKey.findUnique({ where: { id } });
  }

  touchLastUsed(id: string, at: Date) {
    return this.db.apiKey.updateMany({ where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: at } }] }, data: { lastUsedAt: at } });
  }
}
