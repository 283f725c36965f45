// How users get into a hosted bot's journeys from outside, end to end: Meta's signed webhook into the
// gateway (a first message starts the start journey, a carousel card's quick reply `journey:<slug>`
// starts that journey, a webhook Meta repeats is one turn), and a push notification tapped in the app
// (the SDK's handleNotification puts its journeySlug into the payload as JourneySlug) opening that journey.
import type { BotDefinition } from '@platform/contracts';
import { chatUserId } from '@platform/contracts';
import { ConversationRepository, PrismaService } from '@platform/database';
import { WEBHOOK_TEST_ENV, signWebhook, until, whatsappNotification } from '@platform/testing';
import { handleNotification } from '../libs/sdk-core/src/push/handle-notification.js';
import type { AppProcess } from './app-process.js';
import { publish, sentTo, startRuntime } from './bot-runtime-support.js';
import { useStack } from './e2e-stack.js';
import { startSession } from './sdk-support.js';

const BOT: BotDefinition = {
  schemaVersion: 1,
  startJourney: 'welcome',
  variables: [{ name: 'profile', type: 'object' }],
  journeys: [
    {
      slug: 'welcome',
      start: 'hello',
      nodes: [
        { id: 'hello', kind: 'message', text: 'Welcome! Tap a card to see offers.' },
        { id: 'bye', kind: 'end' },
      ],
      edges: [{ from: 'hello', to: 'bye' }],
    },
    {
      slug: 'offers',
      start: 'parse',
      nodes: [
        { id: 'parse', kind: 'function', code: 'return payload === null ? {} : JSON.parse(payload)', variable: 'profile' },
        { id: 'list', kind: 'message', text: 'Offers for you{{variables.profile.userName}}: 10% off today.' },
        { id: 'bye', kind: 'end' },
      ],
      edges: [
        { from: 'parse', to: 'list' },
        { from: 'list', to: 'bye' },
      ],
    },
  ],
};

describe('hosted bot entry: WhatsApp through the gateway, and a tapped push notification', () => {
  const stack = useStack({ cloud: true, seed: true, worker: true, env: { ...WEBHOOK_TEST_ENV } }, 120_000);
  let runtime: AppProcess;
  stack.defer(() => runtime?.kill());

  beforeAll(async () => {
    await publish(stack.gateway, stack.seed.botId, BOT);
    runtime = await startRuntime(stack.env);
  }, 120_000);

  const postMeta = async (message: Record<string, unknown>) => {
    const body = JSON.stringify(whatsappNotification({ messages: [{ timestamp: String(Math.floor(Date.now() / 1000)), ...message }] }, { phoneNumberId: stack.seed.phoneNumberId }));
    const res = await fetch(`${stack.url}/webhooks/whatsapp`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signWebhook(body) }, body });
    expect(res.status).toBe(200);
  };

  it("a first WhatsApp message starts the start journey; a card's journey:<slug> quick reply starts that journey; Meta's repeat is one turn", async () => {
    const user = '919800000801';
    const first = { from: user, id: 'wamid.entry-1', type: 'text', text: { body: 'hi' } };
    await postMeta(first);
    await postMeta(first); // Meta delivers the same webhook again
    await until(async () => (sentTo(stack.cloud.messages, user).length >= 1 ? true : undefined), 60_000, 'the greeting');

    // The tap on a triggered carousel card's quick reply comes back as a `button` message with the card's payload.
    await postMeta({ from: user, id: 'wamid.entry-2', type: 'button', button: { text: 'See offers', payload: 'journey:offers' } });
    await until(async () => (sentTo(stack.cloud.messages, user).length >= 2 ? true : undefined), 60_000, 'the offers journey');
    await new Promise((r) => setTimeout(r, 500)); // nothing more comes

    expect(sentTo(stack.cloud.messages, user)).toEqual(['text:Welcome! Tap a card to see offers.', 'text:Offers for you: 10% off today.']);
    const db = stack.gateway.get(PrismaService, { strict: false });
    const [conversation] = await db.conversation.findMany({ where: { botId: stack.seed.botId, channel: 'whatsapp', userId: user } });
    expect(await db.botInput.count({ where: { conversationId: conversation.id } })).toBe(2);
    // No webhook to mirror to: each message was recorded as taken by the bot with its input, no callback queued.
    const inbound = await db.conversationMessage.findMany({ where: { conversationId: conversation.id, direction: 'inbound' } });
    expect(inbound.map((m) => m.webhookSettledAt !== null)).toEqual([true, true]);
    expect(await db.callbackDelivery.count({ where: { botId: stack.seed.botId } })).toBe(0);
    const steps = await db.botStep.findMany({ where: { conversationId: conversation.id }, orderBy: { id: 'asc' } });
    expect(steps.map((s) => `${s.journey}/${s.node}:${s.outcome}`)).toEqual(['welcome/hello:ok', 'welcome/bye:ok', 'offers/parse:ok', 'offers/list:ok', 'offers/bye:ok']);
  }, 120_000);

  it("a tapped push notification's journeySlug opens that journey, with the payload the app passed", async () => {
    const token = 'push_tap_user_1';
    const config = handleNotification({ botId: stack.seed.botId, journeySlug: 'offers' }, { ymAuthenticationToken: token, payload: { userName: ', Ada' } } as never);
    expect(config?.payload).toEqual({ userName: ', Ada', JourneySlug: 'offers' });
    await startSession(stack.url, config!.botId, token, config!.payload as object);

    const repo = stack.gateway.get(ConversationRepository, { strict: false });
    const texts = await until(
      async () => {
        const conversation = await repo.findByUser(stack.seed.botId, 'web', chatUserId(token));
        if (!conversation) return undefined;
        const messages = await repo.latestMessages(conversation.id, 10);
        return messages.length ? messages.map((m) => (m.content as { text?: string }).text) : undefined;
      },
      60_000,
      'the offers message in the web conversation',
    );
    expect(texts).toEqual(['Offers for you, Ada: 10% off today.']);
  }, 120_000);
});
