import { FcmErrors } from '@platform/sandbox';
import { PushQueueNames } from '@platform/contracts';
import { testQueue, until } from '@platform/testing';
import { stopWhen, useStoppablePushService, waitForNotification } from './push-support.js';
import { useStack } from './e2e-stack.js';

const TOKEN = 'tok-retry-1';

/**
 * A push-service process stopped while one device's request waits for its retry (FCM answered 503),
 * for longer than the batch's lease: another replica takes the batch over and sends the device. The
 * stopped process, once it wakes, must not send it again.
 */
describe('push notifications: a retry under way in a run that is taken over', () => {
  const stack = useStack({ push: true, env: { WORKER_LOCK_MS: '1000', PUSH_RPC_TIMEOUT_MS: '3000' } }, 120_000);
  const { fcm } = stack.push;
  const push = useStoppablePushService(stack, 'demo-retry', [TOKEN]);
  const { api } = push;
  const accepted = () => fcm.received(TOKEN).filter((m) => m.status === 200).length;

  it('the woken process finds its lease taken before the retry and does not send the device again', async () => {
    fcm.script(TOKEN, FcmErrors.unavailable); // the first request is answered 503, the next ones 200
    // Its lease is the lock, the FCM timeout and 5 s: 8 s; the retry waits 6 to 9 s after the 503.
    const notificationId = await push.sendAndStop({
      env: { FCM_TIMEOUT_MS: '2000', FCM_BACKOFF_MS: '6000', LOG_LEVEL: 'warn' },
      title: 'retried',
      idempotencyKey: 'retry-1',
      // Stopped with its retry waiting in the backoff.
      hook: stopWhen(() => fcm.received(TOKEN).some((m) => m.status === 503), 'the first request answered 503'),
    });

    // Another replica takes the batch over once the stopped process's lock and lease lapse, and sends it.
    await push.startReplica();
    const final = await waitForNotification(api, notificationId, 90_000);
    expect(final).toMatchObject({ status: 'completed', total: 1, sent: 1, failed: 0, pending: 0 });
    expect(accepted()).toBe(1);
    const queue = testQueue(PushQueueNames.fanout, stack.env);
    try {
      expect((await queue.getJob(`batch-${notificationId}-0`))?.stalledCounter).toBeGreaterThanOrEqual(1);
    } finally {
      await queue.close();
    }

    // The stopped process wakes with its retry due: it sends the device again, or finds the batch taken.
    push.resume();
    await until(async () => (accepted() > 1 || push.log().includes('this run stopped sending') ? true : undefined), 60_000, 'the woken process done with its retry').catch(() => undefined); // the checks below say which
    await new Promise((r) => setTimeout(r, 500));
    expect(accepted()).toBe(1);
    expect(push.log()).toContain('this run stopped sending');
    expect(await (await api('GET', `/notifications/${notificationId}`)).json()).toMatchObject({ status: 'completed', sent: 1, failed: 0, pending: 0 });
  }, 240_000);
});
