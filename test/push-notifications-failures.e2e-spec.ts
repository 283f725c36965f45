import { FcmErrors, GoogleOAuthSandbox, TestServiceAccount } from '@platform/sandbox';
import { SeededBot, seedBotAdmin, seedCarouselBot } from '@platform/testing';
import { PushSandboxes, botApi, saveServiceAccount, sqlRows, waitForNotification } from './push-support.js';
import { useStack } from './e2e-stack.js';

const JOB_ATTEMPTS = 3;

/**
 * Fan-out jobs that fail on every attempt still finish their notification: a plan that never
 * succeeds fails it with a reason, a batch that never succeeds counts its unsettled devices failed.
 */
describe('push notifications: jobs that fail past every attempt', () => {
  const sandboxes = new PushSandboxes();
  const { oauth, fcm } = sandboxes;
  const stack = useStack({
    push: sandboxes,
    pushService: true,
    env: {
      FCM_MAX_ATTEMPTS: '1',
      FCM_BACKOFF_MS: '20',
      PUSH_JOB_ATTEMPTS: String(JOB_ATTEMPTS),
      // Runs 2 and 3 start 300-600 ms and 600-1200 ms after the run before (exponential, 50 % jitter).
      PUSH_JOB_BACKOFF_MS: '600',
    },
  });

  /** A bot with the given service account saved and one device per token. */
  async function botWith(account: TestServiceAccount, tokens: string[]): Promise<SeededBot> {
    const bot = await seedCarouselBot(stack.gateway);
    const admin = await seedBotAdmin(stack.gateway, bot.botId, 'admin');
    expect((await saveServiceAccount(stack.url, bot.botId, admin.accessToken, account)).status).toBe(200);
    for (const [i, token] of tokens.entries()) expect((await api(bot, 'POST', '/devices', { userId: `u${i}`, token, platform: 'android' })).status).toBe(201);
    return bot;
  }

  const api = (bot: SeededBot, method: string, path: string, body?: unknown) => botApi(stack.url, bot.botId, bot.apiKey)(method, path, body);

  async function notify(bot: SeededBot, title: string): Promise<string> {
    const res = await api(bot, 'POST', '/notifications', { all: true, title, body: 'b' });
    expect(res.status).toBe(202);
    return (await res.json()).notificationId;
  }

  const settled = (bot: SeededBot, id: string) => waitForNotification(botApi(stack.url, bot.botId, bot.apiKey), id);
  const sql = (text: string, params: unknown[] = []) => sqlRows(stack.env.DATABASE_URL, text, params);

  /** The stored service account can no longer be opened (as after its encryption key was removed too early). */
  const makeConfigUnreadable = (bot: SeededBot) =>
    sql(`UPDATE push_configs SET credentials_encrypted = 'v1.removed.AAAA.AAAA.AAAA', key_id = 'removed', version = version + 1 WHERE bot_id = $1`, [bot.botId]);

  it("Google's token endpoint down: the notification fails after the plan's last attempt, with the reason in its status", async () => {
    const downGoogle = new GoogleOAuthSandbox();
    await downGoogle.listen();
    const account = downGoogle.createServiceAccount('demo-token-down');
    const bot = await botWith(account, ['tok-token-down']);
    await downGoogle.close(); // nothing listens on token_uri any more

    const id = await notify(bot, 'token endpoint down');
    const status = await settled(bot, id);
    expect(status).toMatchObject({ status: 'failed', total: 0, sent: 0, failed: 0, pending: 0, completedAt: expect.any(String) });
    expect(status.failureReason).toBe(
      `Planning the delivery failed after ${JOB_ATTEMPTS} attempts (last error: token endpoint ${account.token_uri} unreachable: ECONNREFUSED); ` +
        'devices not reached by then get nothing. Send the notification again once the cause is fixed.',
    );
    expect(fcm.received('tok-token-down')).toHaveLength(0);
  });

  it('the token endpoint answering 503 on every attempt fails the notification the same way, after exactly one request per attempt', async () => {
    const account = oauth.createServiceAccount('demo-token-503');
    const bot = await botWith(account, ['tok-token-503']);
    const before = oauth.tokenRequests.length;
    oauth.reply(...Array.from({ length: JOB_ATTEMPTS }, () => ({ status: 503, error: 'backendError' })));

    const id = await notify(bot, 'token endpoint 503');
    const status = await settled(bot, id);
    expect(status).toMatchObject({ status: 'failed', total: 0, pending: 0 });
    expect(status.failureReason).toContain(`after ${JOB_ATTEMPTS} attempts (last error: token endpoint ${account.token_uri} answered 503 backendError)`);
    expect(oauth.tokenRequests.length - before).toBe(JOB_ATTEMPTS);
  });

  it('an internal error on every plan attempt fails the notification without showing internals', async () => {
    const bot = await botWith(oauth.createServiceAccount('demo-unreadable'), ['tok-unreadable']);
    await makeConfigUnreadable(bot);

    const id = await notify(bot, 'unreadable config');
    const status = await settled(bot, id);
    expect(status).toMatchObject({ status: 'failed', total: 0, pending: 0 });
    expect(status.failureReason).toContain(`after ${JOB_ATTEMPTS} attempts (last error: an internal error of the push service (its log has the details))`);
    expect(status.failureReason).not.toContain('removed'); // the key id of the error stays in the log
  });

  it('a batch that keeps failing past its last attempt counts its unsent devices failed once; pending reaches 0', async () => {
    const bot = await botWith(oauth.createServiceAccount('demo-batch-fails'), ['tok-batch-ok', 'tok-batch-down']);
    fcm.always('tok-batch-down', FcmErrors.unavailable);

    const id = await notify(bot, 'batch fails');
    // Run 1 sends to tok-batch-ok and leaves tok-batch-down for a later run (FCM_MAX_ATTEMPTS 1) ...
    const deadline = Date.now() + 10_000;
    while (fcm.received('tok-batch-down').length === 0) {
      if (Date.now() > deadline) throw new Error('the batch never reached FCM');
      await new Promise((r) => setTimeout(r, 10));
    }
    // ... and before run 2 starts (300 ms at the earliest) every later run of the batch fails as a whole.
    await makeConfigUnreadable(bot);

    const status = await settled(bot, id);
    expect(status).toMatchObject({ status: 'completed', failureReason: null, total: 2, sent: 1, failed: 1, invalidTokens: 0, skipped: 0, pending: 0 });
    expect(fcm.received('tok-batch-ok')).toHaveLength(1);
    expect(fcm.received('tok-batch-down')).toHaveLength(1);

    // Counted once: nothing changes afterwards.
    await new Promise((r) => setTimeout(r, 500));
    expect(await (await api(bot, 'GET', `/notifications/${id}`)).json()).toEqual(status);
  });
});
