import { Injectable } from '@nestjs/common';
import { PushQueueNames } from '@platform/contracts';
import { NotificationRepository } from '@platform/database';
import { QueueJob, StalledTooOftenError } from '@platform/queue';
import { BatchHandler } from './batch.handler.js';
import { PlanHandler } from './plan.handler.js';

/**
 * Settles a fan-out job BullMQ failed for stalling too often through its handler's giveUp, as when a
 * last attempt throws, unless it is settled already: a plan whose planning is done, a batch already
 * counted. Another replica may settle the same job again (start-up sweeps); it then changes nothing.
 */
@Injectable()
export class StalledFanoutSettler {
  constructor(
    private readonly notifications: NotificationRepository,
    private readonly plan: PlanHandler,
    private readonly batch: BatchHandler,
  ) {}

  async settle(job: QueueJob<typeof PushQueueNames.fanout>, err: StalledTooOftenError): Promise<void> {
    switch (job.name) {
      case 'plan': {
        const n = await this.notifications.findById(job.data.notificationId);
        if (n && !n.planningDone) await this.plan.giveUp(job, err);
        return;
      }
      case 'batch': {
        const { notificationId, seq } = job.data;
        if (!(await this.notifications.isBatchCounted(notificationId, seq))) await this.batch.giveUp(job, err);
        return;
      }
    }
  }
}
