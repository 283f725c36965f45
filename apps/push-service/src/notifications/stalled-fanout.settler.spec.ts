import 'reflect-metadata';
import type { NotificationRepository } from '@platform/database';
import { StalledTooOftenError, type QueueJob } from '@platform/queue';
import type { BatchHandler } from './batch.handler.js';
import type { PlanHandler } from './plan.handler.js';
import { StalledFanoutSettler } from './stalled-fanout.settler.js';

type Job = QueueJob<'push-fanout'>;

const plan = { name: 'plan', id: 'plan-n1', data: { notificationId: 'n1' } } as unknown as Job;
const batch = { name: 'batch', id: 'batch-n1-2', data: { notificationId: 'n1', seq: 2, deviceIds: ['d1'] } } as unknown as Job;
const err = new StalledTooOftenError(4);

/** A settler over a notification (or none) and a set of counted batch seqs, recording the giveUp calls. */
function setup(notification: { planningDone: boolean } | null, counted: number[] = []) {
  const gaveUp: Array<[string, Job, unknown]> = [];
  const settler = new StalledFanoutSettler(
    {
      findById: async () => notification,
      isBatchCounted: async (_id: string, seq: number) => counted.includes(seq),
    } as unknown as NotificationRepository,
    { giveUp: async (job: Job, e: unknown) => void gaveUp.push(['plan', job, e]) } as unknown as PlanHandler,
    { giveUp: async (job: Job, e: unknown) => void gaveUp.push(['batch', job, e]) } as unknown as BatchHandler,
  );
  return { settler, gaveUp };
}

describe('StalledFanoutSettler (BullMQ failed a fan-out job for stalling too often)', () => {
  it('gives a plan up while its planning is not done', async () => {
    const { settler, gaveUp } = setup({ planningDone: false });
    await settler.settle(plan, err);
    expect(gaveUp).toEqual([['plan', plan, err]]);
  });

  it('leaves a plan alone once planning is done (its batches finish the notification), or its notification is gone', async () => {
    for (const notification of [{ planningDone: true }, null]) {
      const { settler, gaveUp } = setup(notification);
      await settler.settle(plan, err);
      expect(gaveUp).toEqual([]);
    }
  });

  it('gives a batch up while it is not counted, and leaves it alone once it is', async () => {
    const open = setup({ planningDone: true });
    await open.settler.settle(batch, err);
    expect(open.gaveUp).toEqual([['batch', batch, err]]);

    const counted = setup({ planningDone: true }, [2]);
    await counted.settler.settle(batch, err);
    expect(counted.gaveUp).toEqual([]);
  });
});
