/** BullMQ queue of the push service's fan-out (only the push service produces and consumes it). */
export const PushQueueNames = {
  fanout: 'push-fanout',
} as const;

/** Job `plan`: pages through the target devices and queues one `batch` job per page. Job id: `plan-<notificationId>`. */
export interface PushPlanJob {
  notificationId: string;
}

/** Job `batch`: sends to the listed devices. Job id: `batch-<notificationId>-<seq>` (BullMQ ids cannot hold ':'). */
export interface PushBatchJob {
  notificationId: string;
  seq: number;
  deviceIds: string[];
}
