import { SdkBot, postJson, seedSdkBot } from './sdk-support.js';
import { useStack } from './e2e-stack.js';

/** Calls an app makes without an API key are limited per IP (SDK_RATE_LIMIT_PER_IP); the bot's own API-key calls are not. */
describe('SDK calls without an API key: per-IP limit', () => {
  const stack = useStack({ env: { SDK_RATE_LIMIT_PER_IP: '3', AUTH_RATE_WINDOW_SECONDS: '60' } });
  let bot: SdkBot;

  beforeAll(async () => {
    bot = await seedSdkBot(stack.gateway);
  });

  const startSession = () => postJson(`${stack.url}/v1/bots/${bot.botId}/sessions`, { authToken: 'user_1', payload: {}, version: 2 });
  const registerDevice = (bearer: string, body: object) => postJson(`${stack.url}/v1/bots/${bot.botId}/devices`, body, { authorization: `Bearer ${bearer}` });

  it('answers 429 with Retry-After once an IP has used its session starts and chat-token registrations', async () => {
    for (let i = 0; i < 3; i++) expect((await startSession()).status).toBe(201);
    const limited = await startSession();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({ status: 'error', message: expect.stringMatching(/^Too many attempts; retry in \d+ s$/) });

    const device = await registerDevice('user_1', { token: 'fcm-limited:APA91b', platform: 'android' });
    expect(device.status).toBe(429);
  });

  it("does not count the bot's own API-key calls against it", async () => {
    // The push service is not running here, so a call that got past the limit answers 503, not 429.
    const res = await registerDevice(bot.apiKey, { userId: 'u1', token: 'fcm-backend:APA91b', platform: 'ios' });
    expect(res.status).toBe(503);
  });
});
