import { runCli } from '../apps/cli/src/run-cli.js';
import { type RedisClient, triggerQuotaKey } from '@platform/queue';
import { SeededAdmin, SeededBot, carouselBody, seedBotAdmin, seedCarouselBot, carouselJobCount, testRedis } from '@platform/testing';
import { useStack } from './e2e-stack.js';

/** Each bot's trigger quota is one count in Redis, shared by every gateway replica, set by its administrators or the CLI. */
describe('carousel trigger quota per bot, across two gateway replicas', () => {
  const stack = useStack({ seed: true, env: { CATALOG_CACHE_MS: '0' } }, 120_000); // a changed quota applies at once
  let urlB: string;
  let other: SeededBot;
  let admin: SeededAdmin;
  let redis: RedisClient;

  beforeAll(async () => {
    urlB = (await stack.replica()).url;
    other = await seedCarouselBot(stack.gateway);
    admin = await seedBotAdmin(stack.gateway, stack.seed.botId);
    redis = testRedis(stack.env);
    stack.defer(() => redis.disconnect());
  });

  const trigger = (base: string, s = stack.seed, body: object = carouselBody(s)) =>
    fetch(`${base}/api/engagements/notifications/v2/push?bot=${s.botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': s.apiKey },
      body: JSON.stringify(body),
    });
  const rate = (res: Response) => ({
    limit: res.headers.get('ratelimit-limit'),
    remaining: res.headers.get('ratelimit-remaining'),
    reset: Number(res.headers.get('ratelimit-reset')),
  });
  const quotaUrl = (base: string, bot = stack.seed.botId) => `${base}/v1/bots/${bot}/trigger-quota`;
  const setQuota = (perMinute: unknown, token = admin.accessToken) =>
    fetch(quotaUrl(stack.url), { method: 'PUT', headers: { 'content-type': 'application/json', 'x-auth-token': token }, body: JSON.stringify({ perMinute }) });
  const resetWindow = (bot = stack.seed.botId) => redis.del(triggerQuotaKey(stack.env, bot));

  const jobs = () => carouselJobCount(stack.env);

  it('states the platform default of 2000 per minute on every answer after authentication', async () => {
    const ok = await trigger(stack.url);
    expect(ok.status).toBe(200);
    expect(rate(ok)).toMatchObject({ limit: '2000', remaining: '1999' });
    expect(rate(ok).reset).toBeGreaterThanOrEqual(59);
    expect(rate(ok).reset).toBeLessThanOrEqual(60);

    const bad = await trigger(urlB, stack.seed, { ...carouselBody(stack.seed), userDetails: { number: 'x' } });
    expect(bad.status).toBe(400);
    expect(rate(bad)).toMatchObject({ limit: '2000', remaining: '1998' }); // a bad trigger is charged too

    const unauthenticated = await fetch(`${stack.url}/api/engagements/notifications/v2/push?bot=${stack.seed.botId}`, { method: 'POST' });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('ratelimit-limit')).toBeNull();
  });

  it('lets bot administrators read and set the quota, and refuses bad values and other roles', async () => {
    const initial = await fetch(quotaUrl(urlB), { headers: { 'x-auth-token': admin.accessToken } });
    expect(await initial.json()).toEqual({ botId: stack.seed.botId, perMinute: 2000, isDefault: true });

    for (const bad of [0, -1, 1.5, '5', 10_000_001, undefined]) {
      const res = await setQuota(bad);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ status: 'error', message: expect.stringContaining('perMinute') });
    }
    const developer = await seedBotAdmin(stack.gateway, stack.seed.botId, 'developer');
    expect((await setQuota(5, developer.accessToken)).status).toBe(403);
    expect((await fetch(quotaUrl(stack.url, other.botId), { headers: { 'x-auth-token': admin.accessToken } })).status).toBe(403);

    const set = await setQuota(5);
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ message: 'Trigger quota set', status: 'success', botId: stack.seed.botId, perMinute: 5, isDefault: false });
  });

  it('counts the triggers of both replicas against one quota and answers 429 with Retry-After past it', async () => {
    await resetWindow();
    const before = await jobs();
    const answers: Response[] = [];
    for (let i = 0; i < 5; i++) answers.push(await trigger(i % 2 === 0 ? stack.url : urlB));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((r) => rate(r).remaining)).toEqual(['4', '3', '2', '1', '0']);
    expect(answers.every((r) => rate(r).limit === '5')).toBe(true);

    for (const base of [stack.url, urlB]) {
      const refused = await trigger(base);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ message: expect.stringMatching(/^Trigger quota of 5 per minute reached for this bot; retry in \d+ s$/), status: 'error' });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(rate(refused)).toMatchObject({ limit: '5', remaining: '0', reset: retryAfter });
    }
    // Five triggers at once through both replicas when four are left: exactly four go through.
    await resetWindow();
    expect((await trigger(stack.url)).status).toBe(200);
    const burst = await Promise.all([stack.url, urlB, stack.url, urlB, stack.url].map((base) => trigger(base)));
    expect(burst.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 429]);
    expect((await jobs()) - before).toBe(10);

    // Another bot has its own count.
    expect((await trigger(urlB, other)).status).toBe(200);
  });

  it('opens a new window when the old one ends', async () => {
    await resetWindow();
    for (let i = 0; i < 5; i++) await trigger(stack.url);
    expect((await trigger(urlB)).status).toBe(429);
    await redis.pexpire(triggerQuotaKey(stack.env, stack.seed.botId), 300);
    await new Promise((r) => setTimeout(r, 400));
    const next = await trigger(urlB);
    expect(next.status).toBe(200);
    expect(rate(next).remaining).toBe('4');
  });

  it('is set by the CLI too, and null or "default" returns to the platform default', async () => {
    const lines: string[] = [];
    expect(await runCli(['bot', 'set-quota', '--bot', stack.seed.botId, '--per-minute', '7'], (l) => lines.push(l), stack.env)).toBe(0);
    expect(lines).toContain(`trigger quota of bot ${stack.seed.botId}: 7 per minute`);
    await resetWindow();
    expect(rate(await trigger(stack.url)).limit).toBe('7');

    expect(await runCli(['bot', 'set-quota', '--bot', stack.seed.botId, '--per-minute', 'lots'], () => undefined, stack.env)).toBe(2);
    expect(await runCli(['bot', 'set-quota', '--bot', 'not-a-bot', '--per-minute', '7'], () => undefined, stack.env)).toBe(2);
    expect(await runCli(['bot', 'set-quota', '--bot', stack.seed.botId, '--per-minute', 'default'], (l) => lines.push(l), stack.env)).toBe(0);
    expect(lines).toContain(`trigger quota of bot ${stack.seed.botId}: 2000 per minute (platform default)`);
    expect(rate(await trigger(urlB)).limit).toBe('2000');

    await setQuota(9);
    const reset = await setQuota(null);
    expect(await reset.json()).toMatchObject({ perMinute: 2000, isDefault: true });
  });
  it('states the time left in a window it has heard of without asking Redis again, and leases places for keyed triggers too, never past one lease', async () => {
    const bot = await seedCarouselBot(stack.gateway); // a window of its own, untouched by the tests above
    const keyed = (key: string) =>
      fetch(`${stack.url}/api/engagements/notifications/v2/push?bot=${bot.botId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': bot.apiKey, 'idempotency-key': key },
        body: JSON.stringify(carouselBody(bot)),
      });
    const first = await keyed('w-0');
    expect(first.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    const leftBefore = await redis.pttl(triggerQuotaKey(stack.env, bot.botId));
    const later = await keyed('w-1'); // the gateway names what is left of the window it heard of: no PTTL
    const leftAfter = await redis.pttl(triggerQuotaKey(stack.env, bot.botId));
    expect(later.status).toBe(200);
    expect(rate(later).remaining).toBe('1998');
    // Counted down, never past Redis' own end (the gateway counts from when it sent the first call).
    expect(rate(later).reset).toBeLessThanOrEqual(Math.ceil(leftBefore / 1000));
    expect(rate(later).reset).toBeGreaterThanOrEqual(Math.floor(leftAfter / 1000) - 1);

    // A steady stream of keyed triggers over several 100 ms demand slices: they pass on leased places
    // like any trigger, so the count is the triggers sent plus at most one lease's unused places (1/50 of 2,000).
    let sent = 0;
    const until = Date.now() + 800;
    await Promise.all(
      Array.from({ length: 10 }, async (_, lane) => {
        while (Date.now() < until) {
          expect((await keyed(`s${lane}-${sent++}`)).status).toBe(200);
        }
      }),
    );
    const counted = Number(await redis.get(triggerQuotaKey(stack.env, bot.botId)));
    expect(counted).toBeGreaterThanOrEqual(2 + sent);
    expect(counted).toBeLessThanOrEqual(2 + sent + 2000 / 50);
  });
});
