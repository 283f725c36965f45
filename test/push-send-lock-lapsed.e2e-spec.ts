import { ChildProcess, spawn } from 'node:child_process';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createPushService } from '../apps/push-service/src/create-push-service.js';
import { PushQueueNames } from '@platform/contracts';
import { SeededBot, testQueue, until } from '@platform/testing';
import { BotApi, PushSandboxes, botApi, notifyAllOnceAccepted, seedPushBot, waitForNotification } from './push-support.js';
import { useStack } from './e2e-stack.js';

const TOKENS = ['tok-lapse-1', 'tok-lapse-2', 'tok-lapse-3'];

/**
 * A push-service process whose job lock lapses while its FCM requests are in flight (the process
 * stopped for longer than the lock, as a starved host or a lock lost in a Redis failover can do): the
 * queue hands the batch to another replica, which must not send the batch's devices a second time
 * while the first may still be sending to them.
 */
describe('push notifications: a job lock that lapses mid-send', () => {
  const sandboxes = new PushSandboxes();
  const { oauth, fcm } = sandboxes;
  const stack = useStack({ push: sandboxes, env: { WORKER_LOCK_MS: '1000', PUSH_RPC_TIMEOUT_MS: '3000' } }, 120_000);
  let bot: SeededBot;
  let child: ChildProcess | undefined;
  let push: NestFastifyApplication | undefined;
  stack.defer(async () => {
    child?.kill('SIGCONT');
    child?.kill('SIGKILL');
    await push?.close();
  });

  beforeAll(async () => {
    bot = await seedPushBot(stack, oauth, 'demo-lapse', TOKENS);
  }, 120_000);

  const api: BotApi = (...args) => botApi(stack.url, bot.botId, bot.apiKey)(...args);

  it('the replica that takes the batch over waits for the stopped one to record its sends: every device gets the message once', async () => {
    // The lease is the lock, the FCM timeout and 5 s: 26 s, well beyond the stop below on a busy host.
    child = spawn(process.execPath, ['dist/apps/push-service/src/main.js'], { env: { ...process.env, ...stack.env, FCM_TIMEOUT_MS: '20000' }, stdio: 'ignore' });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let sending = false;
    fcm.onNextAccept(() => {
      child!.kill('SIGSTOP'); // stopped with its request in flight, its answer held
      sending = true;
      return released;
    });
    const notificationId = await notifyAllOnceAccepted(api, 'once', 'lapse-1');
    await until(async () => (sending ? true : undefined), 90_000, 'the first push service sending');

    // Another replica takes the batch over once the stopped process's lock lapses: it waits (delayed)
    // or, wrongly, sends the batch again (completed).
    push = await createPushService(stack.env);
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
      child.kill('SIGCONT');
      release();
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
