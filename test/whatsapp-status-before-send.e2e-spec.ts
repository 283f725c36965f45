import { ConversationRepository } from '@platform/database';
import { type RedisClient, lifecycleStreamKey } from '@platform/queue';
import { PostbackReceiver, WhatsAppCloudSandbox } from '@platform/sandbox';
import { TEST_APP_SECRET, WEBHOOK_TEST_ENV, carouselBody, seedBotAdmin, signWebhook, testRedis, triggerCarousel, until, waitForMessageStatus, whatsappNotification } from '@platform/testing';
import { useStack } from './e2e-stack.js';

const USER = '919812345678';

/**
 * Meta can post a message's status before it answers the send that created the message: the platform
 * then hears of a wamid it has not recorded. Here the loopback Cloud API posts the statuses, signed, to
 * the real gateway, and answers the worker's send only once the gateway has answered them.
 */
describe('WhatsApp statuses posted before the send is answered are kept and applied once the send is recorded', () => {
  const cloud = new WhatsAppCloudSandbox();
  const receiver = new PostbackReceiver();
  const stack = useStack(
    {
      cloud,
      servers: [receiver],
      worker: true,
      seed: true,
      env: { ...WEBHOOK_TEST_ENV, POSTBACK_BACKOFF_MS: '100' },
    },
    60_000,
  );
  let redis: RedisClient;
  stack.defer(() => redis?.disconnect());
  stack.defer(() => cloud.postStatusesTo(undefined));

  beforeAll(async () => {
    redis = testRedis(stack.env);
    // Postbacks are signed with the bot's secret, which setting its postback URL creates.
    const { accessToken } = await seedBotAdmin(stack.gateway, stack.seed.botId);
    const res = await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/postback`, {
      method: 'PUT',
      headers: { 'x-auth-token': accessToken, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.baseUrl}/bot-default` }),
    });
    expect(res.status).toBe(200);
    receiver.secret = ((await res.json()) as { secret: string }).secret;
  }, 120_000);

  const webhookUrl = () => `${stack.url}/webhooks/whatsapp`;
  const statusesBeforeAnswer = (statuses: Array<'delivered' | 'read'>) => cloud.postStatusesTo({ url: webhookUrl(), appSecret: TEST_APP_SECRET, statuses, beforeAnswer: true });

  /** The statuses the lifecycle stream holds for a message, in stream order. */
  async function lifecycleOf(msgId: string): Promise<string[]> {
    const entries = await redis.xrange(lifecycleStreamKey(stack.env), '-', '+');
    return entries
      .map(([, fields]) => Object.fromEntries(fields.flatMap((f, i) => (i % 2 === 0 ? [[f, fields[i + 1]]] : []))))
      .filter((f) => f.messageId === msgId)
      .map((f) => f.status);
  }

  it('carousel message: a delivered posted before the answer leaves it delivered; the lifecycle stream and the postbacks say sent, then delivered', async () => {
    statusesBeforeAnswer(['delivered']);
    const msgId = await triggerCarousel(stack.url, stack.seed, { ...carouselBody(stack.seed), config: { postbackUrl: `${receiver.baseUrl}/early` } });
    const delivered = await waitForMessageStatus(stack.url, stack.seed, msgId, ['delivered'], 30_000);
    expect(delivered).toMatchObject({ status: 'delivered', readAt: null, lastError: null, attempts: 1 });
    expect(delivered.deliveredAt).not.toBeNull();

    expect(await until(async () => ((await lifecycleOf(msgId)).length >= 2 ? lifecycleOf(msgId) : undefined), 30_000, 'two lifecycle entries')).toEqual(['sent', 'delivered']);
    const postbacks = await receiver.waitFor((c) => c.body.messageId === msgId, 2, 30_000);
    expect(postbacks.map((c) => c.body.status).sort()).toEqual(['delivered', 'sent']);
    expect(postbacks.every((c) => c.signatureValid && c.request.path === '/early')).toBe(true);
  }, 120_000);

  it('carousel message: delivered and read both posted before the answer leave it read, delivered at or before read', async () => {
    statusesBeforeAnswer(['delivered', 'read']);
    const msgId = await triggerCarousel(stack.url, stack.seed);
    const read = await waitForMessageStatus(stack.url, stack.seed, msgId, ['read'], 30_000);
    expect(read.deliveredAt).not.toBeNull();
    expect(Date.parse(read.deliveredAt!)).toBeLessThanOrEqual(Date.parse(read.readAt!));
    expect(await until(async () => ((await lifecycleOf(msgId)).length >= 2 ? lifecycleOf(msgId) : undefined), 30_000, 'two lifecycle entries')).toEqual(['sent', 'read']);
  }, 120_000);

  it("conversation reply: a delivered posted before the answer leaves the bot's message delivered", async () => {
    cloud.postStatusesTo(undefined);
    // The user writes first: the conversation, with its sender, and the 24-hour window.
    const inbound = JSON.stringify(
      whatsappNotification(
        {
          contacts: [{ profile: { name: 'Asha' }, wa_id: USER }],
          messages: [{ from: USER, id: `wamid.in-${Date.now()}`, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: 'hello' } }],
        },
        { phoneNumberId: stack.seed.phoneNumberId, displayPhoneNumber: stack.seed.senderNumber },
      ),
    );
    const signature = signWebhook(inbound);
    const posted = await fetch(webhookUrl(), { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, body: inbound });
    expect(posted.status).toBe(200);
    const conversation = await stack.gateway.get(ConversationRepository, { strict: false }).findByUser(stack.seed.botId, 'whatsapp', USER);
    expect(conversation).not.toBeNull();

    statusesBeforeAnswer(['delivered']);
    const auth = { authorization: `Bearer ${stack.seed.apiKey}` };
    const base = `${stack.url}/v1/bots/${stack.seed.botId}/conversations/${conversation!.id}/messages`;
    const sent = await fetch(base, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Hi Asha' }) });
    expect(sent.status).toBe(202);
    const { messageId } = (await sent.json()) as { messageId: string };

    const reply = await until(
      async () => {
        const page = (await (await fetch(base, { headers: auth })).json()) as { messages: Array<{ id: string; status: string | null }> };
        const mine = page.messages.find((m) => m.id === messageId);
        return mine && mine.status !== 'queued' && mine.status !== 'processing' && mine.status !== 'sent' ? mine : undefined;
      },
      30_000,
      'the reply past sent',
    );
    expect(reply.status).toBe('delivered');
    expect(cloud.messages.filter((r) => (r.body as { to?: string }).to === USER)).toHaveLength(1);
  }, 120_000);
});
