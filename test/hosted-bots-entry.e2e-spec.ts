import { chatUserId } from '@platform/contracts';
import { BotDefinitionRepository, PrismaService } from '@platform/database';
import { WEBHOOK_TEST_ENV, signWebhook, whatsappNotification } from '@platform/testing';
import { useStack } from './e2e-stack.js';
import { greetingBot, turnJobs } from './hosted-bots-support.js';
import { SdkBot, postJson, seedSdkBot, startSession } from './sdk-support.js';

const inboundText = (phoneNumberId: string, from: string, wamid: string, body: string) =>
  whatsappNotification(
    {
      contacts: [{ profile: { name: 'Ada' }, wa_id: from }],
      messages: [{ from, id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body } }],
    },
    { phoneNumberId },
  );

/**
 * Where a hosted bot's conversations enter, against real Postgres and Redis: a web session start, a web
 * chat message and a WhatsApp message each become one `bot_inputs` row and one bot-turn job (a message
 * Meta sends twice, one of each); a bot without a published version gets neither.
 */
describe('hosted bots: web sessions and messages become bot inputs and bot-turn jobs', () => {
  const stack = useStack({ seed: true, env: { ...WEBHOOK_TEST_ENV } });
  let db: PrismaService;
  let outside: SdkBot;

  beforeAll(async () => {
    db = stack.gateway.get(PrismaService, { strict: false });
    // The seeded bot (a WhatsApp sender, no webhook) is hosted; the other one is not.
    await stack.gateway.get(BotDefinitionRepository, { strict: false }).saveAndPublish(stack.seed.botId, greetingBot(), 'test', null);
    outside = await seedSdkBot(stack.gateway);
  });

  const inputsOf = (conversationId: string) => db.botInput.findMany({ where: { conversationId }, orderBy: { seq: 'asc' } });
  const webConversation = (botId: string, token: string) => db.conversation.findUnique({ where: { botId_channel_userId: { botId, channel: 'web', userId: chatUserId(token) } } });

  it('a web session start: one start input with the payload as a JSON string and its JourneySlug, and one job', async () => {
    const payload = { JourneySlug: 'welcome', name: 'Ada', cart: { items: 2 } };
    await startSession(stack.url, stack.seed.botId, 'visitor_start', payload);
    const conversation = (await webConversation(stack.seed.botId, 'visitor_start'))!;
    const inputs = await inputsOf(conversation.id);
    expect(inputs).toEqual([expect.objectContaining({ kind: 'start', botId: stack.seed.botId, payload: JSON.stringify(payload), journeySlug: 'welcome', messageId: null, processedAt: null })]);
    expect(await turnJobs(stack.gateway, conversation.id)).toEqual([{ id: `input-${inputs[0].seq}`, name: 'turn', data: { botId: stack.seed.botId, conversationId: conversation.id } }]);

    // Without a JourneySlug (or a blank one) the start names no journey: the bot's start journey.
    await startSession(stack.url, stack.seed.botId, 'visitor_start', { JourneySlug: ' ' });
    expect((await inputsOf(conversation.id)).map((i) => [i.kind, i.journeySlug, i.payload])).toEqual([
      ['start', 'welcome', JSON.stringify(payload)],
      ['start', null, '{"JourneySlug":" "}'],
    ]);
    expect(await turnJobs(stack.gateway, conversation.id)).toHaveLength(2);
  });

  it("a web chat message: one message input naming the user's message, and one job", async () => {
    const { sessionId } = await startSession(stack.url, stack.seed.botId, 'visitor_msg', {});
    const res = await postJson(`${stack.url}/v1/bots/${stack.seed.botId}/sessions/${sessionId}/messages`, { text: 'hello bot' }, { authorization: 'Bearer visitor_msg' });
    expect(res.status).toBe(202);
    const { messageId, conversationId } = (await res.json()) as { messageId: string; conversationId: string };
    const inputs = await inputsOf(conversationId);
    expect(inputs.map((i) => [i.kind, i.messageId])).toEqual([
      ['start', null],
      ['message', messageId],
    ]);
    expect((await turnJobs(stack.gateway, conversationId)).map((j) => j.id).sort()).toEqual(inputs.map((i) => `input-${i.seq}`).sort());
  });

  it('a WhatsApp message Meta sends twice: one message input and one job', async () => {
    const from = '919876500001';
    const body = JSON.stringify(inboundText(stack.seed.phoneNumberId, from, 'wamid.HOSTED-1', 'hi from WhatsApp'));
    for (let i = 0; i < 2; i++) expect((await postJson(`${stack.url}/webhooks/whatsapp`, body, { 'x-hub-signature-256': signWebhook(body) })).status).toBe(200);
    const conversation = (await db.conversation.findUnique({ where: { botId_channel_userId: { botId: stack.seed.botId, channel: 'whatsapp', userId: from } } }))!;
    const message = (await db.conversationMessage.findFirst({ where: { conversationId: conversation.id, direction: 'inbound' } }))!;
    const inputs = await inputsOf(conversation.id);
    expect(inputs).toEqual([expect.objectContaining({ kind: 'message', messageId: message.id, botId: stack.seed.botId })]);
    expect(await turnJobs(stack.gateway, conversation.id)).toEqual([{ id: `input-${inputs[0].seq}`, name: 'turn', data: { botId: stack.seed.botId, conversationId: conversation.id } }]);
  });

  it('refuses app events to a hosted bot without a webhook with 409 saying so', async () => {
    const { sessionId } = await startSession(stack.url, stack.seed.botId, 'visitor_event', {});
    const res = await postJson(`${stack.url}/v1/bots/${stack.seed.botId}/sessions/${sessionId}/events`, { code: 'cart', data: {} }, { authorization: 'Bearer visitor_event' });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ status: 'error', message: expect.stringContaining('Hosted bots do not take app events yet') });
  });

  it('a bot that is not hosted (never published, or unpublished) gets no inputs and no jobs', async () => {
    const { sessionId } = await startSession(stack.url, outside.botId, 'visitor_outside', { JourneySlug: 'welcome' });
    const res = await postJson(`${stack.url}/v1/bots/${outside.botId}/sessions/${sessionId}/messages`, { text: 'anyone?' }, { authorization: 'Bearer visitor_outside' });
    expect(res.status).toBe(202);
    const { conversationId } = (await res.json()) as { conversationId: string };
    expect(await inputsOf(conversationId)).toEqual([]);
    expect(await turnJobs(stack.gateway, conversationId)).toEqual([]);

    // Published, then unpublished: an outside bot again.
    const definitions = stack.gateway.get(BotDefinitionRepository, { strict: false });
    await definitions.saveAndPublish(outside.botId, greetingBot(), 'test', null);
    await definitions.unpublish(outside.botId);
    const again = await postJson(`${stack.url}/v1/bots/${outside.botId}/sessions/${sessionId}/messages`, { text: 'still there?' }, { authorization: 'Bearer visitor_outside' });
    expect(again.status).toBe(202);
    expect(await inputsOf(conversationId)).toEqual([]);
    expect(await turnJobs(stack.gateway, conversationId)).toEqual([]);
  });
});
