import { PushQueueNames } from '@platform/contracts';
import { testQueue, until } from '@platform/testing';
import { sqlRows, useStoppablePushService, waitForNotification } from './push-support.js';
import { useStack } from './e2e-stack.js';

const TOKENS = ['tok-stall-1', 'tok-stall-2', 'tok-stall-3'];

/**
 * A batch job that stalls more often than WORKER_MAX_STALLED_COUNT allows (its push-service process
 * keeps dying mid-send) is failed by BullMQ without running again; its devices count as failed, so
 * the notification does not stay `sending` with devices pending. Giving up waits for the dead
 * process's lease on the batch to run out first (a stopped process could still wake and send).
 */
describe('push notifications: a batch job that stalls too often', () => {
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
  const push = useStoppablePushService(stack, 'demo-stall', TOKENS);
  const { api } = push;

  it('a push-service process killed mid-batch: the next one fails the job for stalling and counts its devices failed', async () => {
    for (const token of TOKENS) fcm.always(token, { hang: true }); // FCM never answers these devices
    const queue = testQueue(PushQueueNames.fanout, stack.env);
    // Its lease on the batch (the lock, the FCM timeout and 5 s) runs out 16 s after the kill.
    const notificationId = await push.sendAndStop({
      env: { FCM_TIMEOUT_MS: '10000' },
      title: 'stalls',
      idempotencyKey: 'stall-1',
      hook: {
        // The plan has finished and the batch is mid-send (its requests hang) when the process dies.
        stop: async (child, id) => {
          await until(async () => ((await (await queue.getJob(`plan-${id}`))?.getState()) === 'completed' ? true : undefined), 60_000, 'the plan done');
          await until(async () => ((await (await queue.getJob(`batch-${id}-0`))?.getState()) === 'active' ? true : undefined), 60_000, 'the batch running');
          // Until the fake holds all three requests: one it has not read yet when the answers turn to 'ok'
          // below would be answered and counted as a send of a batch run again.
          await until(async () => (TOKENS.every((t) => fcm.hung.includes(t)) ? true : undefined), 60_000, 'the batch requests held by FCM');
          child.kill('SIGKILL');
        },
      },
    });
    for (const token of TOKENS) fcm.always(token, 'ok'); // a batch run again would now be sent and seen

    await push.startReplica();
    const batch = await until(
      async () => {
        const job = await queue.getJob(`batch-${notificationId}-0`);
        return job?.finishedOn ? job : undefined;
      },
      60_000,
      'the batch job failed for stalling',
    );
    expect(batch.failedReason).toBe('job stalled more than allowable limit');
    expect(await batch.getState()).toBe('failed');
    await queue.close();

    const final = await waitForNotification(api, notificationId, 60_000);
    expect(final).toMatchObject({ status: 'completed', failureReason: null, total: 3, sent: 0, failed: 3, invalidTokens: 0, skipped: 0, pending: 0 });
    const batches = await sqlRows(stack.env.DATABASE_URL, 'SELECT seq, failed FROM push_notification_batches WHERE notification_id = $1', [notificationId]);
    expect(batches).toEqual([{ seq: 0, failed: 3 }]);
    expect(await sqlRows(stack.env.DATABASE_URL, 'SELECT id FROM push_notifications WHERE bot_id = $1', [push.bot.botId])).toEqual([{ id: notificationId }]);
    expect(fcm.messages.filter((m) => TOKENS.includes(m.token))).toHaveLength(0); // the job did not run again
  }, 180_000);
});
