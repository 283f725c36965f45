import { ChildProcess, spawn } from 'node:child_process';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createPushService } from '../apps/push-service/src/create-push-service.js';
import { SeededBot, until } from '@platform/testing';
import { BotApi, PushSandboxes, botApi, notifyAllOnceAccepted, seedPushBot, waitForNotification } from './push-support.js';
import { useStack } from './e2e-stack.js';

const TOKENS = ['tok-queued-1', 'tok-queued-2', 'tok-queued-3'];

/**
 * A push-service process stopped while requests of its chunk wait in its HTTP/2 pool (one request in
 * flight at a time, and FCM holds the first), for longer than the batch's lease: another replica takes
 * the batch over and sends every device. The stopped process, once it wakes, must not send the
 * queued requests.
 */
describe('push notifications: requests queued in a run that is taken over', () => {
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
    bot = await seedPushBot(stack, oauth, 'demo-queued', TOKENS);
  }, 120_000);

  const api: BotApi = (...args) => botApi(stack.url, bot.botId, bot.apiKey)(...args);
  const accepted = (token: string) => fcm.received(token).filter((m) => m.status === 200).length;

  it('the woken process finds its lease taken and sends none of the queued requests', async () => {
    fcm.scriptAll({ hang: true }); // FCM holds the first request without an answer; the next ones are accepted
    // Its lease is the lock, the FCM timeout and 5 s: 9 s.
    child = spawn(process.execPath, ['dist/apps/push-service/src/main.js'], {
      env: { ...process.env, ...stack.env, FCM_TIMEOUT_MS: '3000', FCM_MAX_IN_FLIGHT: '1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const notificationId = await notifyAllOnceAccepted(api, 'queued', 'queued-1');
    await until(async () => (fcm.hung.length > 0 ? true : undefined), 90_000, 'the first request held by FCM');
    child.kill('SIGSTOP'); // the other two requests wait in its pool
    expect(fcm.messages.filter((m) => TOKENS.includes(m.token))).toHaveLength(0);

    // Another replica takes the batch over once the stopped process's lock and lease lapse, and sends it.
    push = await createPushService(stack.env);
    const final = await waitForNotification(api, notificationId, 90_000);
    expect(final).toMatchObject({ status: 'completed', total: 3, sent: 3, failed: 0, pending: 0 });
    for (const token of TOKENS) expect(accepted(token)).toBe(1);

    // The stopped process wakes: its held request times out, and the queued ones would go next.
    child.kill('SIGCONT');
    const sentAgain = () => TOKENS.some((t) => accepted(t) > 1);
    await until(async () => (sentAgain() || log.includes('this run stopped sending') ? true : undefined), 60_000, 'the woken process done').catch(() => undefined); // the checks below say which
    await new Promise((r) => setTimeout(r, 500));
    for (const token of TOKENS) expect(accepted(token)).toBe(1);
    expect(log).toContain('this run stopped sending');
    expect(await (await api('GET', `/notifications/${notificationId}`)).json()).toMatchObject({ status: 'completed', sent: 3, failed: 0, pending: 0 });
  }, 240_000);
});
