import type { BotDefinition } from '@platform/contracts';
import { ConversationRepository, PrismaService } from '@platform/database';
import { until } from '@platform/testing';
import type { AppProcess } from './app-process.js';
import { BotInbox, publish, sentTo, startRuntime } from './bot-runtime-support.js';
import { useStack } from './e2e-stack.js';

/** A shop journey: a greeting, a question with reply buttons, an image and a carousel that use the answer, an ending. */
const SHOP: BotDefinition = {
  schemaVersion: 1,
  startJourney: 'main',
  variables: [{ name: 'size', type: 'string' }],
  journeys: [
    {
      slug: 'main',
      start: 'hello',
      nodes: [
        { id: 'hello', kind: 'message', text: 'Welcome to the shop!' },
        {
          id: 'ask',
          kind: 'question',
          text: 'Which size?',
          answer: {
            type: 'choice',
            choices: [
              { title: 'S', payload: 'S' },
              { title: 'M', payload: 'M' },
            ],
          },
          variable: 'size',
        },
        { id: 'pic', kind: 'message', image: { url: 'https://shop.example.com/img/size-{{variables.size}}.png', caption: 'Size {{variables.size}}' } },
        {
          id: 'cards',
          kind: 'message',
          cards: [
            { title: 'T-shirt', imageUrl: 'https://shop.example.com/img/t-shirt.png', buttons: [{ title: 'Buy', payload: 'tshirt' }] },
            { title: 'Hoodie', imageUrl: 'https://shop.example.com/img/hoodie.png', buttons: [{ title: 'Buy', payload: 'hoodie' }] },
          ],
        },
        { id: 'done', kind: 'end', text: 'Thank you!' },
      ],
      edges: [
        { from: 'hello', to: 'ask' },
        { from: 'ask', to: 'pic' },
        { from: 'pic', to: 'cards' },
        { from: 'cards', to: 'done' },
      ],
    },
  ],
};

/** Echoes every answer and asks again, for ever. */
const ECHO: BotDefinition = {
  schemaVersion: 1,
  startJourney: 'main',
  variables: [{ name: 'said', type: 'string' }],
  journeys: [
    {
      slug: 'main',
      start: 'ask',
      nodes: [
        { id: 'ask', kind: 'question', text: 'Say something', answer: { type: 'text' }, variable: 'said' },
        { id: 'echo', kind: 'message', text: 'You said {{variables.said}}' },
      ],
      edges: [
        { from: 'ask', to: 'echo' },
        { from: 'echo', to: 'ask' },
      ],
    },
  ],
};

/**
 * Hosted bots on WhatsApp end to end: users' messages become inputs and bot-turn jobs as the gateway
 * makes them, built runtime processes run the journeys, and the channel worker sends the replies to
 * the loopback Cloud API, where their order is read.
 */
describe('bot runtime: WhatsApp journeys', () => {
  const stack = useStack({ cloud: true, seed: true, worker: true }, 120_000);
  const runtimes: AppProcess[] = [];
  let inbox: BotInbox;
  let senderId: string;
  stack.defer(() => Promise.all(runtimes.map((r) => r.kill())));
  stack.defer(() => inbox?.close());

  beforeAll(async () => {
    inbox = new BotInbox(stack.gateway, stack.env);
    [{ id: senderId }] = await stack.gateway.get(ConversationRepository, { strict: false }).findSendersByPhoneNumberId(stack.seed.phoneNumberId);
  }, 120_000);

  const arrived = (recipient: string, count: number, what: string) =>
    until(async () => (sentTo(stack.cloud.messages, recipient).length >= count ? true : undefined), 60_000, `${count} messages to ${recipient} (${what})`);

  it('runs a journey: text, reply buttons, an image and a carousel reach the Cloud API in order, each once', async () => {
    await publish(stack.gateway, stack.seed.botId, SHOP);
    runtimes.push(await startRuntime(stack.env));
    const user = '919800000701';

    const conversationId = await inbox.whatsapp(stack.seed.botId, senderId, user, 'hi');
    await arrived(user, 2, 'the greeting and the question');
    await inbox.whatsapp(stack.seed.botId, senderId, user, 'M', 'M');
    await arrived(user, 5, 'the rest of the journey');
    await new Promise((r) => setTimeout(r, 500)); // nothing more comes

    expect(sentTo(stack.cloud.messages, user)).toEqual([
      'text:Welcome to the shop!',
      'buttons:Which size?[S|M]',
      'image:https://shop.example.com/img/size-M.png',
      'carousel:T-shirt|Hoodie',
      'text:Thank you!',
    ]);
    const db = stack.gateway.get(PrismaService, { strict: false });
    await until(
      async () => ((await db.conversationMessage.count({ where: { conversationId, direction: 'outbound', status: 'sent' } })) === 5 ? true : undefined),
      30_000,
      'five replies recorded sent',
    );
    expect(await db.botInput.count({ where: { conversationId, processedAt: null } })).toBe(0);
    expect(await db.botOutboxItem.count({ where: { conversationId } })).toBe(0);
    expect(await db.botConversationState.findUnique({ where: { conversationId } })).toMatchObject({ status: 'ended', turns: 2 });
    const steps = await db.botStep.findMany({ where: { conversationId }, orderBy: { id: 'asc' } });
    expect(steps.map((s) => `${s.node}:${s.outcome}`)).toEqual(['hello:ok', 'ask:waiting', 'ask:ok', 'pic:ok', 'cards:ok', 'done:ok']);
    expect(steps.every((s) => s.version === 1)).toBe(true);
    const metrics = await (await fetch(`${runtimes[0].url}/metrics`)).text();
    expect(metrics).toMatch(/bot_steps_total\{kind="message",outcome="ok"\} [1-9]/);
    expect(metrics).toMatch(/bot_turn_seconds_count [1-9]/);
    expect((await fetch(`${runtimes[0].url}/health`)).status).toBe(200);
  }, 180_000);

  it('two runtime processes on one conversation of many messages: every reply once, in order', async () => {
    await stack.gateway.get(PrismaService, { strict: false }).botDefinitionDraft.update({ where: { botId: stack.seed.botId }, data: { publishedVersion: null } });
    await publish(stack.gateway, stack.seed.botId, ECHO, 2);
    // Logging at info: each turn's line says how many inputs it ran.
    await Promise.all(runtimes.splice(0).map((r) => r.kill()));
    runtimes.push(...(await Promise.all([startRuntime({ ...stack.env, LOG_LEVEL: 'info' }), startRuntime({ ...stack.env, LOG_LEVEL: 'info' })])));
    const user = '919800000702';
    const said = Array.from({ length: 12 }, (_, i) => `m${i + 1}`);

    const conversationId = await inbox.whatsapp(stack.seed.botId, senderId, user, 'start');
    for (const text of said) await inbox.whatsapp(stack.seed.botId, senderId, user, text);
    await arrived(user, 1 + 2 * said.length, 'every echo');
    await new Promise((r) => setTimeout(r, 500));

    expect(sentTo(stack.cloud.messages, user)).toEqual(['text:Say something', ...said.flatMap((t) => [`text:You said ${t}`, 'text:Say something'])]);
    // Each input ran once across both processes: the turn lines of this conversation add up to its inputs.
    const inputsRun = () => runtimes.flatMap((r) => [...r.output().matchAll(new RegExp(`conversation ${conversationId}: (\\d+) input\\(s\\)`, 'g'))]).reduce((sum, m) => sum + Number(m[1]), 0);
    // A turn's log line can reach the pipe after its replies reached the Cloud API (a loaded host).
    await until(async () => (inputsRun() >= 1 + said.length ? true : undefined), 30_000, 'every turn logged').catch(() => undefined);
    expect(inputsRun()).toBe(1 + said.length);
  }, 180_000);
});
