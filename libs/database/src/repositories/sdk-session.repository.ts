import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { SdkSession } from '../generated/client.js';
import { PrismaService } from '../prisma.service.js';

/** A session row in the shape Prisma gives (the hot statements below run on the pg pool). */
const SESSION_COLUMNS = `"id", "bot_id" AS "botId", "user_id" AS "userId", "version", "device_token" AS "deviceToken",
  "created_at" AS "createdAt", "last_seen_at" AS "lastSeenAt", "expires_at" AS "expiresAt"`;

/** SDK sessions of app users: who opened the bot, with which payload and chat token. */
@Injectable()
export class SdkSessionRepository {
  constructor(private readonly db: PrismaService) {}

  // Session start and every chat request run these: on the pool, one statement each (Prisma's per-query work was a
  // large share of the gateway's CPU per message).
  async create(data: { botId: string; userId: string; version: number; deviceToken?: string; expiresAt: Date }): Promise<SdkSession> {
    const { rows } = await this.db.pool.query<SdkSession>({
      name: 'sdk-session-create',
      text: `INSERT INTO "sdk_sessions" ("id", "bot_id", "user_id", "version", "device_token", "expires_at")
             VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6) RETURNING ${SESSION_COLUMNS}`,
      values: [randomUUID(), data.botId, data.userId, data.version, data.deviceToken ?? null, data.expiresAt],
    });
    return rows[0];
  }

  /**
   * The live session of the bot whose user is `userId` (the chat token's hash), marked as used and its
   * expiry slid, in one statement; null when there is none (gone, expired, or another user's).
   */
  async useLive(botId: string, id: string, userId: string, now: Date, expiresAt: Date): Promise<SdkSession | null> {
    const { rows } = await this.db.pool.query<SdkSession>({
      name: 'sdk-session-use-live',
      text: `UPDATE "sdk_sessions" SET "last_seen_at" = $4, "expires_at" = $5
             WHERE "id" = $1::uuid AND "bot_id" = $2::uuid AND "user_id" = $3 AND "expires_at" > $4
             RETURNING ${SESSION_COLUMNS}`,
      values: [id, botId, userId, now, expiresAt],
    });
    return rows[0] ?? null;
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
