import { ChildProcess, spawn } from 'node:child_process';
import { seedBotAdmin } from '@platform/testing';
import { PushSandboxes, botApi, saveServiceAccount, sqlRows, waitForNotification } from './push-support.js';
import { useStack } from './e2e-stack.js';

// FCM's quota scaled down: 12,000 messages a minute, which the pacer hands out as 200 a second; the
// loopback FCM accepts 200 a second and answers 429 (Retry-After 1 s) beyond.
const QUOTA_PER_MINUTE = 12_000;
const PER_SECOND = QUOTA_PER_MINUTE / 60;
const DEVICES = 2000;

/**
 * Two push-service processes share each Firebase project's FCM quota through Redis: a fan-out to
 * 2,000 devices is sent at the project's quota without one 429, and takes the time the quota says.
 * The same fan-out with the quota left at FCM's default (far above what this FCM accepts) meets 429s,
 * which shows the loopback FCM holds the line the pacer is measured against.
 */
describe('push notifications: the FCM quota of a project, shared by two push services', () => {
  const sandboxes = new PushSandboxes({ record: false, quota: { perWindow: PER_SECOND, windowMs: 1000, retryAfterSeconds: 1 } });
  const { oauth, fcm } = sandboxes;
  const stack = useStack({ push: sandboxes, seed: true, env: { PUSH_BATCH_SIZE: '250', PUSH_JOB_BACKOFF_MS: '500', PUSH_RPC_TIMEOUT_MS: '5000' } });
  const children: ChildProcess[] = [];
  stack.defer(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
  });

  const api = (method: string, path: string, body?: unknown) => botApi(stack.url, stack.seed.botId, stack.seed.apiKey)(method, path, body);

  function cli(...argv: string[]): Promise<{ code: number; out: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['dist/apps/cli/src/main.js', ...argv], { env: { ...process.env, ...stack.env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c));
      child.stderr.on('data', (c: Buffer) => (out += c));
      child.on('exit', (code) => resolve({ code: code ?? 1, out }));
    });
  }

  /** Sends to all the bot's devices; FCM's accepted messages per second and 429s during the fan-out. */
  async function fanOut(title: string) {
    fcm.acceptedPerWindow.clear();
    const throttledBefore = fcm.counts.get(429) ?? 0;
    const started = Date.now();
    const res = await api('POST', '/notifications', { all: true, title, body: 'b' });
    expect(res.status).toBe(202);
    const final = await waitForNotification(api, (await res.json()).notificationId, 90_000);
    const seconds = (Date.now() - started) / 1000;
    return { final, seconds, perSecond: [...fcm.acceptedPerWindow.values()], throttled: (fcm.counts.get(429) ?? 0) - throttledBefore };
  }

  beforeAll(async () => {
    const admin = await seedBotAdmin(stack.gateway, stack.seed.botId, 'admin');
    // Two built push services, as two replicas run: the pace is shared through Redis only.
    for (let i = 0; i < 2; i++) {
      children.push(spawn(process.execPath, ['dist/apps/push-service/src/main.js'], { env: { ...process.env, ...stack.env }, stdio: 'ignore' }));
    }
    const saved = await (async () => {
      for (;;) {
        const res = await saveServiceAccount(stack.url, stack.seed.botId, admin.accessToken, oauth.createServiceAccount('demo-pacing'));
        if (res.status !== 503) return res; // 503 until a push service listens
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    expect(saved.status).toBe(200);
    await sqlRows(
      stack.env.DATABASE_URL,
      `INSERT INTO push_devices (id, bot_id, user_id, token, platform, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'u' || g, 'pace-' || g || ':APA91b' || md5(g::text), 'android', now() FROM generate_series(1, $2::int) AS g`,
      [stack.seed.botId, DEVICES],
    );
  }, 60_000);

  it("sends at the bot's quota across both replicas: no 429, no second above the quota's share, in the time the quota gives", async () => {
    const set = await cli('push', 'set-quota', '--bot', stack.seed.botId, '--per-minute', String(QUOTA_PER_MINUTE));
    expect(set).toEqual({ code: 0, out: `FCM quota of bot ${stack.seed.botId}: ${QUOTA_PER_MINUTE} messages per minute\n` });

    const run = await fanOut('paced');
    expect(run.final).toMatchObject({ status: 'completed', total: DEVICES, sent: DEVICES, failed: 0, pending: 0 });
    expect(run.throttled).toBe(0);
    expect(Math.max(...run.perSecond)).toBeLessThanOrEqual(PER_SECOND);
    // 2,000 at 200 a second: 10 s of budget (the first second may be partly gone); the rate is held, not undercut.
    expect(run.seconds).toBeGreaterThan(DEVICES / PER_SECOND - 1.5);
    expect(run.seconds).toBeLessThan((DEVICES / PER_SECOND) * 1.3);
    const full = run.perSecond.slice(1, -1);
    expect(full.reduce((a, b) => a + b, 0) / full.length).toBeGreaterThan(PER_SECOND * 0.85);
  }, 120_000);

  it('with the quota at the default of 600,000 a minute, the same FCM answers 429s: the pacer is what kept them away', async () => {
    expect((await cli('push', 'set-quota', '--bot', stack.seed.botId, '--per-minute', 'default')).code).toBe(0);
    const run = await fanOut('unpaced');
    expect(run.throttled).toBeGreaterThan(0);
    // The 429s were backed off (Retry-After) and retried, so the fan-out still settles.
    expect(run.final).toMatchObject({ status: 'completed', total: DEVICES, pending: 0 });
  }, 120_000);

  it('refuses a quota out of bounds, naming the bounds', async () => {
    const bad = await cli('push', 'set-quota', '--bot', stack.seed.botId, '--per-minute', '10');
    expect(bad.code).not.toBe(0);
    expect(bad.out).toContain('--per-minute must be an integer from 60 to 1000000000, or "default"');
  });
});
