import { ChildProcess, spawn } from 'node:child_process';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createPushService } from '../apps/push-service/src/create-push-service.js';
import { PushQueueNames } from '@platform/contracts';
import { SeededBot, testQueue, until } from '@platform/testing';
import { BotApi, PushSandboxes, botApi, notifyAllOnceAccepted, seedPushBot, sqlRows, waitForNotification } from './push-support.js';
import { useStack } from './e2e-stack.js';

const TOKENS = ['tok-giveup-1', 'tok-giveup-2', 'tok-giveup-3'];

/**
 * A batch job failed for stalling while its push-service process is stopped mid-send, still holding
 * the batch's lease: giving up on the batch waits for that process, which wakes, hears FCM's answers
 * and counts its devices sent. Counting them failed at once would leave the notification's totals
 * wrong once the process wakes and sends.
 */
describe('push notifications: giving up on a batch a stopped process still holds', () => {
  const sandboxes = new PushSandboxes();
  const { oauth, fcm } = sandboxes;
  const stack = useStack(
    {
      push: sandboxes,
      env: {
        WORKER_LOCK_MS: '1000',
        WORKER_MAX_STALLED_COUNT: '0', // the first stall fails the job
        PUSH_RPC_TIMEOUT_MS: '3000',
      },
    },
    120_000,
  );
  let bot: SeededBot;
  let child: ChildProcess | undefined;
  let push: NestFastifyApplication | undefined;
  stack.defer(async () => {
    child?.kill('SIGCONT');
    child?.kill('SIGKILL');
    await push?.close();
  });

  beforeAll(async () => {
    bot = await seedPushBot(stack, oauth, 'demo-giveup', TOKENS);
  }, 120_000);

  const api: BotApi = (...args) => botApi(stack.url, bot.botId, bot.apiKey)(...args);

  it('the job fails for stalling, yet the devices the stopped process sends count sent, each sent once', async () => {
    // The lease is the lock, the FCM timeout and 5 s: 46 s, well beyond the stop below on a busy host.
    child = spawn(process.execPath, ['dist/apps/push-service/src/main.js'], { env: { ...process.env, ...stack.env, FCM_TIMEOUT_MS: '40000' }, stdio: 'ignore' });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let sending = false;
    fcm.onNextAccept(() => {
      child!.kill('SIGSTOP'); // stopped with its request in flight, its answer held
      sending = true;
      return released;
    });
    const notificationId = await notifyAllOnceAccepted(api, 'given up', 'giveup-1');
    await until(async () => (sending ? true : undefined), 90_000, 'the first push service sending');

    // Another replica finds the job stalled and fails it (WORKER_MAX_STALLED_COUNT 0): it gives up on
    // the batch, which the stopped process still holds.
    push = await createPushService(stack.env);
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
    child.kill('SIGCONT');
    release();
    const final = await waitForNotification(api, notificationId, 60_000);
    expect(final).toMatchObject({ status: 'completed', total: 3, sent: 3, failed: 0, pending: 0 });
    await new Promise((r) => setTimeout(r, 1500)); // giving up, done by now, added nothing
    expect(await sqlRows(stack.env.DATABASE_URL, 'SELECT seq, sent, failed FROM push_notification_batches WHERE notification_id = $1', [notificationId])).toEqual([{ seq: 0, sent: 3, failed: 0 }]);
    for (const token of TOKENS) expect(fcm.received(token).filter((m) => m.status === 200)).toHaveLength(1);
    expect(await (await api('GET', `/notifications/${notificationId}`)).json()).toMatchObject({ sent: 3, failed: 0, pending: 0 });
  }, 240_000);
});
