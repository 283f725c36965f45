import { until } from '@platform/testing';
import { stopWhen, useStoppablePushService, waitForNotification } from './push-support.js';
import { useStack } from './e2e-stack.js';

const TOKENS = ['tok-queued-1', 'tok-queued-2', 'tok-queued-3'];

/**
 * A push-service process stopped while requests of its chunk wait in its HTTP/2 pool (one request in
 * flight at a time, and FCM holds the first), for longer than the batch's lease: another replica takes
 * the batch over and sends every device. The stopped process, once it wakes, must not send the
 * queued requests.
 */
describe('push notifications: requests queued in a run that is taken over', () => {
  const stack = useStack({ push: true, env: { WORKER_LOCK_MS: '1000', PUSH_RPC_TIMEOUT_MS: '3000' } }, 120_000);
  const { fcm } = stack.push;
  const push = useStoppablePushService(stack, 'demo-queued', TOKENS);
  const { api } = push;
  const accepted = (token: string) => fcm.received(token).filter((m) => m.status === 200).length;

  it('the woken process finds its lease taken and sends none of the queued requests', async () => {
    fcm.scriptAll({ hang: true }); // FCM holds the first request without an answer; the next ones are accepted
    // Its lease is the lock, the FCM timeout and 5 s: 9 s.
    const notificationId = await push.sendAndStop({
      env: { FCM_TIMEOUT_MS: '3000', FCM_MAX_IN_FLIGHT: '1', LOG_LEVEL: 'warn' },
      title: 'queued',
      idempotencyKey: 'queued-1',
      // Stopped with the other two requests waiting in its pool.
      hook: stopWhen(() => fcm.hung.length > 0, 'the first request held by FCM'),
    });
    expect(fcm.messages.filter((m) => TOKENS.includes(m.token))).toHaveLength(0);

    // Another replica takes the batch over once the stopped process's lock and lease lapse, and sends it.
    await push.startReplica();
    const final = await waitForNotification(api, notificationId, 90_000);
    expect(final).toMatchObject({ status: 'completed', total: 3, sent: 3, failed: 0, pending: 0 });
    for (const token of TOKENS) expect(accepted(token)).toBe(1);

    // The stopped process wakes: its held request times out, and the queued ones would go next.
    push.resume();
    const sentAgain = () => TOKENS.some((t) => accepted(t) > 1);
    await until(async () => (sentAgain() || push.log().includes('this run stopped sending') ? true : undefined), 60_000, 'the woken process done').catch(() => undefined); // the checks below say which
    await new Promise((r) => setTimeout(r, 500));
    for (const token of TOKENS) expect(accepted(token)).toBe(1);
    expect(push.log()).toContain('this run stopped sending');
    expect(await (await api('GET', `/notifications/${notificationId}`)).json()).toMatchObject({ status: 'completed', sent: 3, failed: 0, pending: 0 });
  }, 240_000);
});
