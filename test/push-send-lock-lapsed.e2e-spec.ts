import { PushQueueNames } from '@platform/contracts';
import { testQueue, until } from '@platform/testing';
import { stopOnAccept, useStoppablePushService, waitForNotification } from './push-support.js';
import { useStack } from './e2e-stack.js';

const TOKENS = ['tok-lapse-1', 'tok-lapse-2', 'tok-lapse-3'];

/**
 * A push-service process whose job lock lapses while its FCM requests are in flight (the process
 * stopped for longer than the lock, as a starved host or a lock lost in a Redis failover can do): the
 * queue hands the batch to another replica, which must not send the batch's devices a second time
 * while the first may still be sending to them.
 */
describe('push notifications: a job lock that lapses mid-send', () => {
  const stack = useStack({ push: true, env: { WORKER_LOCK_MS: '1000', PUSH_RPC_TIMEOUT_MS: '3000' } }, 120_000);
  const { fcm } = stack.push;
  const push = useStoppablePushService(stack, 'demo-lapse', TOKENS);
  const { api } = push;

  it('the replica that takes the batch over waits for the stopped one to record its sends: every device gets the message once', async () => {
    const hold = stopOnAccept(fcm);
    // The lease is the lock, the FCM timeout and 5 s: 26 s, well beyond the stop below on a busy host.
    const notificationId = await push.sendAndStop({ env: { FCM_TIMEOUT_MS: '20000' }, title: 'once', idempotencyKey: 'lapse-1', hook: hold });

    // Another replica takes the batch over once the stopped process's lock lapses: it waits (delayed)
    // or, wrongly, sends the batch again (completed).
    await push.startReplica();
    const queue = testQueue(PushQueueNames.fanout, stack.env);
    const jobId = `batch-${notificationId}-0`;
    try {
      const taken = await until(
        async () => {
          const job = await queue.getJob(jobId);
          const state = await job?.getState();
          return state === 'delayed' || state === 'completed' ? { state, stalled: job!.stalledCounter } : undefined;
        },
        60_000,
        'the second push service taking the batch over',
      );
      expect(taken.stalled).toBeGreaterThanOrEqual(1);
      for (const token of TOKENS) expect(fcm.received(token).length).toBeLessThanOrEqual(1);

      // The stopped process goes on, hears FCM's answers, records and counts them; the other replica's
      // run after the lease finds the batch counted.
      push.resume();
      hold.release();
      const final = await waitForNotification(api, notificationId, 60_000);
      expect(final).toMatchObject({ status: 'completed', total: 3, sent: 3, failed: 0, pending: 0 });
      await until(async () => ((await (await queue.getJob(jobId))?.getState()) === 'completed' ? true : undefined), 60_000, 'the batch job completed');
    } finally {
      await queue.close();
    }
    await new Promise((r) => setTimeout(r, 500));
    for (const token of TOKENS) expect(fcm.received(token)).toHaveLength(1);
    expect(await (await api('GET', `/notifications/${notificationId}`)).json()).toMatchObject({ sent: 3, failed: 0, pending: 0 });
  }, 240_000);
});
