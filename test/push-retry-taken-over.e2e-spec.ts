import { ChildProcess, spawn } from 'node:child_process';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FcmErrors } from '@platform/sandbox';
import { createPushService } from '../apps/push-service/src/create-push-service.js';
import { PushQueueNames } from '@platform/contracts';
import { SeededBot, testQueue, until } from '@platform/testing';
import { BotApi, PushSandboxes, botApi, notifyAllOnceAccepted, seedPushBot, waitForNotification } from './push-support.js';
import { useStack } from './e2e-stack.js';

const TOKEN = 'tok-retry-1';

/**
 * A push-service process stopped while one device's request waits for its retry (FCM answered 503),
 * for longer than the batch's lease: another replica takes the batch over and sends the device. The
 * stopped process, once it wakes, must not send it again.
 */
describe('push notifications: a retry under way in a run that is taken over', () => {
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
    bot = await seedPushBot(stack, oauth, 'demo-retry', [TOKEN]);
  }, 120_000);

  const api: BotApi = (...args) => botApi(stack.url, bot.botId, bot.apiKey)(...args);
  const accepted = () => fcm.received(TOKEN).filter((m) => m.status === 200).length;

  it('the woken process finds its lease taken before the retry and does not send the device again', async () => {
    fcm.script(TOKEN, FcmErrors.unavailable); // the first request is answered 503, the next ones 200
    // Its lease is the lock, the FCM timeout and 5 s: 8 s; the retry waits 6 to 9 s after the 503.
    child = spawn(process.execPath, ['dist/apps/push-service/src/main.js'], {
      env: { ...process.env, ...stack.env, FCM_TIMEOUT_MS: '2000', FCM_BACKOFF_MS: '6000', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const notificationId = await notifyAllOnceAccepted(api, 'retried', 'retry-1');
    await until(async () => (fcm.received(TOKEN).some((m) => m.status === 503) ? true : undefined), 90_000, 'the first request answered 503');
    child.kill('SIGSTOP'); // its retry waits in the backoff

    // Another replica takes the batch over once the stopped process's lock and lease lapse, and sends it.
    push = await createPushService(stack.env);
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
    child.kill('SIGCONT');
    await until(async () => (accepted() > 1 || log.includes('this run stopped sending') ? true : undefined), 60_000, 'the woken process done with its retry').catch(() => undefined); // the checks below say which
    await new Promise((r) => setTimeout(r, 500));
    expect(accepted()).toBe(1);
    expect(log).toContain('this run stopped sending');
    expect(await (await api('GET', `/notifications/${notificationId}`)).json()).toMatchObject({ status: 'completed', sent: 1, failed: 0, pending: 0 });
  }, 240_000);
});
