import { PushQueueNames } from '@platform/contracts';
import { testQueue, until } from '@platform/testing';
import { sqlRows, stopOnAccept, useStoppablePushService, waitForNotification } from './push-support.js';
import { useStack } from './e2e-stack.js';

const TOKENS = ['tok-giveup-1', 'tok-giveup-2', 'tok-giveup-3'];

/**
 * A batch job failed for stalling while its push-service process is stopped mid-send, still holding
 * the batch's lease: giving up on the batch waits for that process, which wakes, hears FCM's answers
 * and counts its devices sent. Counting them failed at once would leave the notification's totals
 * wrong once the process wakes and sends.
 */
describe('push notifications: giving up on a batch a stopped process still holds', () => {
  const stack = useStack(
    {
      push: true,
      env: {
        WORKER_LOCK_MS: '1000',
        WORKER_MAX_STALLED_COUNT: '0', // the first stall fails the job
        PUSH_RPC_TIMEOUT_MS: '3000',
      },
    },
    120_000,
  );
  const { fcm } = stack.push;
  const push = useStoppablePushService(stack, 'demo-giveup', TOKENS);
  const { api } = push;

  it('the job fails for stalling, yet the devices the stopped process sends count sent, each sent once', async () => {
    const hold = stopOnAccept(fcm);
    // The lease is the lock, the FCM timeout and 5 s: 46 s, well beyond the stop below on a busy host.
    const notificationId = await push.sendAndStop({ env: { FCM_TIMEOUT_MS: '40000' }, title: 'given up', idempotencyKey: 'giveup-1', hook: hold });

    // Another replica finds the job stalled and fails it (WORKER_MAX_STALLED_COUNT 0): it gives up on
    // the batch, which the stopped process still holds.
    await push.startReplica();
    const queue = testQueue(PushQueueNames.fanout, stack.env);
    try {
      const batch = await until(
        async () => {
          const job = await queue.getJob(`batch-${notificationId}-0`);
          return job?.finishedOn ? job : undefined;
        },
        60_000,
        'the batch job failed for stalling',
      );
      expect(batch.failedReason).toBe('job stalled more than allowable limit');
    } finally {
      await queue.close();
    }
    // Giving up waits for the stopped process: nothing is counted yet.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await (await api('GET', `/notifications/${notificationId}`)).json()).toMatchObject({ status: 'sending', sent: 0, failed: 0, pending: 3 });

    // The process wakes, hears FCM's answers and counts them; giving up then finds the batch counted.
    push.resume();
    hold.release();
    const final = await waitForNotification(api, notificationId, 60_000);
    expect(final).toMatchObject({ status: 'completed', total: 3, sent: 3, failed: 0, pending: 0 });
    await new Promise((r) => setTimeout(r, 1500)); // giving up, done by now, added nothing
    expect(await sqlRows(stack.env.DATABASE_URL, 'SELECT seq, sent, failed FROM push_notification_batches WHERE notification_id = $1', [notificationId])).toEqual([{ seq: 0, sent: 3, failed: 0 }]);
    for (const token of TOKENS) expect(fcm.received(token).filter((m) => m.status === 200)).toHaveLength(1);
    expect(await (await api('GET', `/notifications/${notificationId}`)).json()).toMatchObject({ sent: 3, failed: 0, pending: 0 });
  }, 240_000);
});
