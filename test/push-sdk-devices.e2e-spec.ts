import { randomUUID } from 'node:crypto';
import { chatUserId } from '@platform/contracts';
import { seedBotAdmin } from '@platform/testing';
import { DeviceRegistry, HttpError, handleNotification } from '../libs/sdk-core/src/index.js';
import { PushSandboxes, botApi, saveServiceAccount, sqlRows, waitForNotification } from './push-support.js';
import { useStack } from './e2e-stack.js';

/**
 * The mobile path of a push: the SDK in the app registers its FCM token with the chat auth token (no API
 * key in the app), the bot's backend sends to that chat user, FCM delivers, and the SDK turns the tap into
 * the bot to open.
 */
describe('push from the app side: SDK device registration with the chat auth token, send, tap', () => {
  const sandboxes = new PushSandboxes();
  const { oauth, fcm } = sandboxes;
  const stack = useStack({ push: sandboxes, pushService: true, seed: true });
  let botId: string;
  let apiKey: string;

  beforeAll(async () => {
    ({ botId, apiKey } = stack.seed);
    const { accessToken } = await seedBotAdmin(stack.gateway, botId, 'admin');
    expect((await saveServiceAccount(stack.url, botId, accessToken, oauth.createServiceAccount('sdk-push'))).status).toBe(200);
  });

  const registryFor = (chatToken: string, bot = botId) => new DeviceRegistry({ cloudHost: 'cloud.example.com', apiBaseUrl: stack.url, fetch, botId: bot, bearerToken: chatToken });

  const deviceRows = (token: string) => sqlRows<{ user_id: string }>(stack.env.DATABASE_URL, 'SELECT user_id FROM push_devices WHERE bot_id = $1 AND token = $2', [botId, token]);

  /** The bot's backend sends with its API key; resolves once every device is settled, and the notification completed. */
  async function sendAndWait(body: object): Promise<void> {
    const api = botApi(stack.url, botId, apiKey);
    const res = await api('POST', '/notifications', body);
    expect(res.status).toBe(202);
    expect(await waitForNotification(api, (await res.json()).notificationId)).toMatchObject({ status: 'completed' });
  }

  it("links the device to the chat user the bot knows, and the bot's push to that user opens the bot with its journey", async () => {
    await registryFor('user_42').registerDevice({ token: 'fcm-sdk-1:APA91b', platform: 'android' });
    expect(await deviceRows('fcm-sdk-1:APA91b')).toEqual([{ user_id: chatUserId('user_42') }]);

    await sendAndWait({ userIds: [chatUserId('user_42')], title: 'Your order', body: 'has shipped', journeySlug: 'order-status' });
    await sendAndWait({ userIds: [chatUserId('user_42')], title: 'Hello', body: 'no journey' });
    const [withJourney, withoutJourney] = fcm.received('fcm-sdk-1:APA91b').map((m) => m.message.data as Record<string, string>);
    expect(withJourney).toEqual({ botId, journeySlug: 'order-status' });

    const base = { ymAuthenticationToken: 'user_42', payload: { screen: 'home' } };
    expect(handleNotification(withJourney, base)).toMatchObject({ botId, version: 2, ymAuthenticationToken: 'user_42', payload: { screen: 'home', JourneySlug: 'order-status' } });
    const plain = handleNotification(withoutJourney, base);
    expect(plain).toMatchObject({ botId, version: 2, payload: { screen: 'home' } });
    expect(plain!.payload).not.toHaveProperty('JourneySlug');
  });

  it("refuses a chat-token caller naming another user, and unlinking someone else's device", async () => {
    const owner = registryFor('owner_1');
    await owner.registerDevice({ token: 'fcm-sdk-2:APA91b', platform: 'ios' });

    const claim = owner.registerDevice({ userId: 'someone-else', token: 'fcm-sdk-3:APA91b', platform: 'ios' });
    await expect(claim).rejects.toBeInstanceOf(HttpError);
    await expect(claim).rejects.toMatchObject({ status: 400, serverMessage: expect.stringContaining('userId must be omitted') });
    await owner.registerDevice({ userId: chatUserId('owner_1'), token: 'fcm-sdk-3:APA91b', platform: 'ios' });

    await expect(registryFor('intruder').unlinkDeviceToken('fcm-sdk-2:APA91b')).rejects.toMatchObject({ status: 404 });
    expect(await deviceRows('fcm-sdk-2:APA91b')).toHaveLength(1);
    await owner.unlinkDeviceToken('fcm-sdk-2:APA91b');
    expect(await deviceRows('fcm-sdk-2:APA91b')).toHaveLength(0);
  });

  it('401 for a chat token of an unknown bot or a malformed chat token; 400 for an API key caller without userId', async () => {
    await expect(registryFor('user_42', randomUUID()).registerDevice({ token: 't1', platform: 'web' })).rejects.toMatchObject({ status: 401 });
    await expect(registryFor('x'.repeat(41)).registerDevice({ token: 't1', platform: 'web' })).rejects.toMatchObject({ status: 401 });
    await expect(registryFor('bpk_' + 'A'.repeat(43)).registerDevice({ token: 't1', platform: 'web' })).rejects.toMatchObject({ status: 401 });
    await expect(registryFor(apiKey).registerDevice({ token: 't1', platform: 'web' })).rejects.toMatchObject({ status: 400, serverMessage: 'userId is required' });
  });
});
