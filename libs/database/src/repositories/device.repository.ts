import { Injectable } from '@nestjs/common';
import { DevicePlatform } from '../generated/enums.js';
import { PrismaService } from '../prisma.service.js';

export interface DeviceTarget {
  all: boolean;
  userIds: string[];
}

/** Push-notification devices (FCM registration tokens) of bots. */
@Injectable()
export class DeviceRepository {
  constructor(private readonly db: PrismaService) {}

  /** One device per (bot, token): registering again moves it to `userId` and revives it if it was dead. */
  async upsert(botId: string, userId: string, token: string, platform: DevicePlatform): Promise<{ id: string; created: boolean }> {
    const rows = await this.db.$queryRaw<Array<{ id: string; created: boolean }>>`
      INSERT INTO "push_devices" ("id", "bot_id", "user_id", "token", "platform", "updated_at")
      VALUES (gen_random_uuid(), ${botId}::uuid, ${userId}, ${token}, ${platform}::"DevicePlatform", now())
      ON CONFLICT ("bot_id", "token") DO UPDATE
        SET "user_id" = EXCLUDED."user_id", "platform" = EXCLUDED."platform", "updated_at" = now(),
            "dead_at" = NULL, "dead_reason" = NULL
      RETURNING "id"::text AS "id", (xmax = 0) AS "created"`;
    return rows[0];
  }

  /** Removes the bot's device with this token (only when it is `userId`'s, if given). */
  async deleteByToken(botId: string, token: string, userId?: string): Promise<boolean> {
    const { count } = await this.db.pushDevice.deleteMany({ where: { botId, token, ...(userId !== undefined ? { userId } : {}) } });
    return count > 0;
  }

  findByToken(botId: string, token: string) {
    return this.db.pushDevice.findUnique({ where: { botId_token: { botId, token } } });
  }

  /** Ids of live target devices after `afterId`, in id order (the fan-out's cursor pagination; ordered by the uuid column, not the text alias, so the index serves it). */
  async pageIds(botId: string, target: DeviceTarget, afterId: string | null, limit: number): Promise<string[]> {
    const after = afterId ?? '00000000-0000-0000-0000-000000000000';
    const rows = target.all
      ? await this.db.$queryRaw<Array<{ id: string }>>`
          SELECT "id"::text AS "id" FROM "push_devices"
          WHERE "bot_id" = ${botId}::uuid AND "dead_at" IS NULL AND "id" > ${after}::uuid
          ORDER BY "push_devices"."id" LIMIT ${limit}`
      : await this.db.$queryRaw<Array<{ id: string }>>`
          SELECT "id"::text AS "id" FROM "push_devices"
          WHERE "bot_id" = ${botId}::uuid AND "dead_at" IS NULL AND "user_id" = ANY(${target.userIds}::text[])
            AND "id" > ${after}::uuid
          ORDER BY "push_devices"."id" LIMIT ${limit}`;
    return rows.map((r) => r.id);
  }

  /** The live devices among `ids` (of `botId`); unlinked and dead ones are left out. */
  findLive(botId: string, ids: string[]): Promise<Array<{ id: string; token: string }>> {
    return this.db.$queryRaw<Array<{ id: string; token: string }>>`
      SELECT "id"::text AS "id", "token" FROM "push_devices"
      WHERE "bot_id" = ${botId}::uuid AND "id" = ANY(${ids}::uuid[]) AND "dead_at" IS NULL`;
  }

  /** Marks devices dead (FCM said their token is gone); they are never sent to again unless re-registered. */
  async markDead(botId: string, ids: string[], reason: string): Promise<number> {
    if (ids.length === 0) return 0;
    return this.db.$executeRaw`
      UPDATE "push_devices" SET "dead_at" = now(), "dead_reason" = ${reason}, "updated_at" = now()
      WHERE "bot_id" = ${botId}::uuid AND "id" = ANY(${ids}::uuid[]) AND "dead_at" IS NULL`;
  }

  async markDeadByToken(botId: string, token: string, reason: string): Promise<number> {
    return this.db.$executeRaw`
      UPDATE "push_devices" SET "dead_at" = now(), "dead_reason" = ${reason}, "updated_at" = now()
      WHERE "bot_id" = ${botId}::uuid AND "token" = ${token} AND "dead_at" IS NULL`;
  }
}
