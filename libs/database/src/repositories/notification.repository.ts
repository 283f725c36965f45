import { Injectable } from '@nestjs/common';
import { PushPriority } from '../generated/enums.js';
import { PrismaService } from '../prisma.service.js';

export interface BatchCounts {
  sent: number;
  failed: number;
  invalidTokens: number;
  skipped: number;
}

/** Push notifications and their fan-out progress. Counters move only through the guarded updates below. */
@Injectable()
export class NotificationRepository {
  constructor(private readonly db: PrismaService) {}

  create(data: {
    botId: string;
    targetAll: boolean;
    targetUserIds: string[];
    title: string;
    body: string;
    journeySlug: string | null;
    data: Record<string, string>;
    ttlSeconds: number | null;
    priority: PushPriority;
  }) {
    return this.db.pushNotification.create({ data });
  }

  delete(id: string) {
    return this.db.pushNotification.deleteMany({ where: { id } });
  }

  findById(id: string) {
    return this.db.pushNotification.findUnique({ where: { id } });
  }

  findForBot(botId: string, id: string) {
    return this.db.pushNotification.findFirst({ where: { id, botId } });
  }

  async markSending(id: string): Promise<void> {
    await this.db.pushNotification.updateMany({ where: { id, status: 'queued' }, data: { status: 'sending' } });
  }

  /**
   * Records one queued page of the plan: only when `seq` is the next batch, so a retried planner
   * never counts a page twice. False when the page was already recorded.
   */
  async recordPlannedBatch(id: string, seq: number, lastDeviceId: string, devices: number): Promise<boolean> {
    const count = await this.db.$executeRaw`
      UPDATE "push_notifications"
      SET "planned_batches" = ${seq + 1}, "plan_cursor" = ${lastDeviceId}::uuid, "total" = "total" + ${devices}, "updated_at" = now()
      WHERE "id" = ${id}::uuid AND "planned_batches" = ${seq}`;
    return count === 1;
  }

  /** Every device is queued; completes the notification when every batch has already finished. */
  async finishPlanning(id: string): Promise<void> {
    await this.db.$executeRaw`
      UPDATE "push_notifications"
      SET "planning_done" = true, "updated_at" = now(),
          "status" = CASE WHEN "completed_batches" = "planned_batches" AND "status" <> 'failed' THEN 'completed'::"PushNotificationStatus" ELSE "status" END,
          "completed_at" = CASE WHEN "completed_batches" = "planned_batches" THEN coalesce("completed_at", now()) ELSE "completed_at" END
      WHERE "id" = ${id}::uuid AND NOT "planning_done"`;
  }

  /**
   * Adds a finished batch's counts exactly once: the batch row's primary key refuses a second insert,
   * and the counter update only happens in the same statement when the insert did.
   */
  async completeBatch(id: string, seq: number, c: BatchCounts): Promise<boolean> {
    const rows = await this.db.$queryRaw<Array<{ id: string }>>`
      WITH inserted AS (
        INSERT INTO "push_notification_batches" ("notification_id", "seq", "sent", "failed", "invalid_tokens", "skipped")
        VALUES (${id}::uuid, ${seq}, ${c.sent}, ${c.failed}, ${c.invalidTokens}, ${c.skipped})
        ON CONFLICT DO NOTHING
        RETURNING "notification_id"
      )
      UPDATE "push_notifications" n
      SET "sent" = n."sent" + ${c.sent}, "failed" = n."failed" + ${c.failed},
          "invalid_tokens" = n."invalid_tokens" + ${c.invalidTokens}, "skipped" = n."skipped" + ${c.skipped},
          "completed_batches" = n."completed_batches" + 1, "updated_at" = now(),
          "status" = CASE WHEN n."planning_done" AND n."completed_batches" + 1 = n."planned_batches" AND n."status" <> 'failed'
                          THEN 'completed'::"PushNotificationStatus" ELSE n."status" END,
          "completed_at" = CASE WHEN n."planning_done" AND n."completed_batches" + 1 = n."planned_batches"
                                THEN coalesce(n."completed_at", now()) ELSE n."completed_at" END
      FROM inserted WHERE n."id" = inserted."notification_id"
      RETURNING n."id"::text AS "id"`;
    return rows.length === 1;
  }

  /** True once a batch's counts were added (completeBatch ran for it). */
  async isBatchCounted(id: string, seq: number): Promise<boolean> {
    return (await this.db.pushNotificationBatch.count({ where: { notificationId: id, seq } })) > 0;
  }

  /** The whole notification failed (e.g. rejected credentials); batches still running count their devices failed. */
  async fail(id: string, reason: string): Promise<void> {
    await this.db.$executeRaw`
      UPDATE "push_notifications"
      SET "status" = 'failed', "failure_reason" = ${reason}, "updated_at" = now(),
          "completed_at" = CASE WHEN "planning_done" AND "completed_batches" = "planned_batches" THEN now() ELSE "completed_at" END
      WHERE "id" = ${id}::uuid AND "status" IN ('queued', 'sending')`;
  }

  /**
   * Planning failed: the notification fails and planning stops in one statement (a reader never sees it
   * failed with planning still open); batches already queued finish it, or it is finished now.
   */
  async failPlanning(id: string, reason: string): Promise<void> {
    await this.db.$executeRaw`
      UPDATE "push_notifications"
      SET "status" = CASE WHEN "status" IN ('queued', 'sending') THEN 'failed'::"PushNotificationStatus" ELSE "status" END,
          "failure_reason" = CASE WHEN "status" IN ('queued', 'sending') THEN ${reason} ELSE "failure_reason" END,
          "planning_done" = true, "updated_at" = now(),
          "completed_at" = CASE WHEN "completed_batches" = "planned_batches" THEN coalesce("completed_at", now()) ELSE "completed_at" END
      WHERE "id" = ${id}::uuid`;
  }

  /** Planning stopped early (the notification failed): what is queued is all there will be. */
  async stopPlanning(id: string): Promise<void> {
    await this.db.$executeRaw`
      UPDATE "push_notifications"
      SET "planning_done" = true, "updated_at" = now(),
          "completed_at" = CASE WHEN "completed_batches" = "planned_batches" THEN coalesce("completed_at", now()) ELSE "completed_at" END
      WHERE "id" = ${id}::uuid`;
  }
}
