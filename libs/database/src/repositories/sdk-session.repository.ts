import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';

/** SDK sessions of app users: who opened the bot, with which payload and chat token. */
@Injectable()
export class SdkSessionRepository {
  constructor(private readonly db: PrismaService) {}

  create(data: { botId: string; userId: string; version: number; deviceToken?: string; expiresAt: Date }) {
    return this.db.sdkSession.create({ data });
  }

  /** The session when it belongs to the bot and has not expired. */
  findLive(botId: string, id: string, now = new Date()) {
    return this.db.sdkSession.findFirst({ where: { id, botId, expiresAt: { gt: now } } });
  }

  /** Marks use of the session and slides its expiry. */
  touch(id: string, now: Date, expiresAt: Date) {
    return this.db.sdkSession.updateMany({ where: { id }, data: { lastSeenAt: now, expiresAt } });
  }

  delete(id: string) {
    return this.db.sdkSession.deleteMany({ where: { id } });
  }

  /** Deletes up to `limit` sessions that expired before `before`; returns how many. */
  async deleteExpired(before: Date, limit = 1000): Promise<number> {
    return this.db.$executeRaw`DELETE FROM "sdk_sessions" WHERE "id" IN (SELECT "id" FROM "sdk_sessions" WHERE "expires_at" < ${before} LIMIT ${limit})`;
  }
}
