import { Injectable, Logger } from '@nestjs/common';
import { Job } from 'bullmq';
import { PushEnv } from '@platform/config';
import { PushPlanJob } from '@platform/contracts';
import { DeviceRepository, NotificationRepository } from '@platform/database';
import { PushFanoutQueue, StalledTooOftenError } from '@platform/queue';
import { PushConfigService } from '../service-accounts/push-config.service.js';
import { AccessTokenProvider } from '../fcm/access-token.provider.js';
import { CredentialsRejectedError } from '../service-accounts/credentials-rejected.error.js';
import { describeJobError } from './job-error-reason.js';

/**
 * Plans a notification's fan-out: pages through the target devices by id (cursor) and queues one
 * batch job per page. Progress (cursor, batches, total) is in Postgres, so a retried planner goes on
 * where it stopped; the one page that may be queued but not yet recorded is read back from its job.
 */
@Injectable()
export class PlanHandler {
  private readonly logger = new Logger('PushPlan');

  constructor(
    private readonly notifications: NotificationRepository,
    private readonly devices: DeviceRepository,
    private readonly configs: PushConfigService,
    private readonly tokens: AccessTokenProvider,
    private readonly env: PushEnv,
    private readonly queue: PushFanoutQueue,
  ) {}

  async handle(job: Job<PushPlanJob>): Promise<string> {
    const n = await this.notifications.findById(job.data.notificationId);
    if (!n || n.planningDone) return 'skipped: nothing to plan';
    if (n.status === 'failed') {
      await this.notifications.stopPlanning(n.id);
      return 'skipped: notification failed';
    }
    await this.notifications.markSending(n.id);

    // Credentials first: a rejected service account fails the notification before any device is queued.
    try {
      const config = await this.configs.load(n.botId);
      if (!config) return this.failPlan(n.id, 'The bot has no push notification configuration (save a Firebase service account with saveBotConfig)');
      await this.tokens.get(config);
    } catch (err) {
      if (err instanceof CredentialsRejectedError) return this.failPlan(n.id, err.message);
      throw err;
    }

    const started = Date.now();
    const target = { all: n.targetAll, userIds: n.targetUserIds };
    let seq = n.plannedBatches;
    let cursor = n.planCursor;
    for (;;) {
      const jobId = `batch-${n.id}-${seq}`;
      const found = seq === n.plannedBatches ? await this.queue.getJob(jobId) : undefined;
      const queued = found?.name === 'batch' ? found : undefined;
      const ids = queued?.data.deviceIds ?? (await this.devices.pageIds(n.botId, target, cursor, this.env.PUSH_BATCH_SIZE));
      if (ids.length === 0) break;
      if (!queued) await this.queue.add('batch', { notificationId: n.id, seq, deviceIds: ids }, { jobId });
      await this.notifications.recordPlannedBatch(n.id, seq, ids[ids.length - 1], ids.length);
      cursor = ids[ids.length - 1];
      seq++;
      if (ids.length < this.env.PUSH_BATCH_SIZE) break;
    }
    await this.notifications.finishPlanning(n.id);
    this.logger.log(`notification ${n.id}: ${seq} batches queued in ${Date.now() - started} ms`);
    return `${seq} batches`;
  }

  /**
   * The plan job's last attempt threw (e.g. the token endpoint stayed unreachable, or Postgres did), or
   * BullMQ failed it for stalling too often:
   * the notification fails with a reason an administrator can act on, and planning stops, so the
   * batches already queued finish it (counting their unsent devices failed) or it is finished now.
   */
  async giveUp(job: Job<PushPlanJob>, err: unknown): Promise<void> {
    const id = job.data.notificationId;
    const attempts = job.opts.attempts ?? 1;
    const stalled = err instanceof StalledTooOftenError;
    this.logger.error(`notification ${id}: planning gave up${stalled ? '' : ` after ${attempts} attempts`}: ${(err as Error)?.message ?? err}`);
    const why = stalled ? err.message : `failed after ${attempts} attempt${attempts === 1 ? '' : 's'} (last error: ${describeJobError(err)})`;
    const reason = `Planning the delivery ${why}; devices not reached by then get nothing. Send the notification again once the cause is fixed.`;
    await this.notifications.failPlanning(id, reason);
  }

  private async failPlan(id: string, reason: string): Promise<string> {
    await this.notifications.failPlanning(id, reason);
    this.logger.warn(`notification ${id} failed: ${reason}`);
    return `failed: ${reason}`;
  }
}
