import { ServerResponse } from 'node:http';
import type { BotDefinition } from '@platform/contracts';
import { SdkEventStore } from '@platform/conversations';
import { ConversationRepository, PrismaService } from '@platform/database';
import { HttpJsonServer, RecordedRequest, sendJson } from '@platform/sandbox';
import { until } from '@platform/testing';
import type { AppProcess } from './app-process.js';
import { BotInbox, publish, sentTo, startRuntime } from './bot-runtime-support.js';
import { useStack } from './e2e-stack.js';

/** Answers each lookup with 200, except that while `hold` is set a request waits until it is released. */
class LookupServer extends HttpJsonServer {
  hold?: Promise<void>;
  protected async handle(_req: RecordedRequest, res: ServerResponse): Promise<void> {
    if (this.hold) await this.hold;
    sendJson(res, 200, { answer: 42 });
  }
}

const lookup = new LookupServer();

/** Three messages and a question in one turn, then an answer: a turn with several replies to hand over. */
const STEPS: BotDefinition = {
  schemaVersion: 1,
  startJourney: 'main',
  variables: [{ name: 'a', type: 'string' }],
  journeys: [
    {
      slug: 'main',
      start: 'one',
      nodes: [
        { id: 'one', kind: 'message', text: 'one' },
        { id: 'two', kind: 'message', text: 'two' },
        { id: 'three', kind: 'message', text: 'three' },
        { id: 'ask', kind: 'question', text: 'Q?', answer: { type: 'text' }, variable: 'a' },
        { id: 'got', kind: 'end', text: 'got {{variables.a}}' },
      ],
      edges: [
        { from: 'one', to: 'two' },
        { from: 'two', to: 'three' },
        { from: 'three', to: 'ask' },
        { from: 'ask', to: 'got' },
      ],
    },
  ],
};

/** A message, then an outside call (held by the test), then a message with its answer; one journey per turn. */
const LOOKUP = (): BotDefinition => ({
  schemaVersion: 1,
  startJourney: 'main',
  variables: [
    { name: 'code', type: 'number' },
    { name: 'answer', type: 'number' },
  ],
  journeys: [
    {
      slug: 'main',
      start: 'looking',
      nodes: [
        { id: 'looking', kind: 'message', text: 'Looking it up…' },
        {
          id: 'lookup',
          kind: 'http',
          method: 'GET',
          url: `${lookup.baseUrl}/lookup`,
          timeoutMs: 10_000,
          map: [
            { variable: 'code', path: 'status' },
            { variable: 'answer', path: 'body.answer' },
          ],
        },
        { id: 'found', kind: 'end', text: 'The answer is {{variables.answer}} ({{variables.code}})' },
      ],
      edges: [
        { from: 'looking', to: 'lookup' },
        { from: 'lookup', to: 'found' },
      ],
    },
  ],
});

/**
 * A runtime SIGKILLed mid-journey and started again: after its turn committed but before its replies
 * were all handed over (the Cloud API holds the first send), and before its turn committed (an http
 * node's call is held). The journey goes on from what was committed; no reply reaches the Cloud API
 * twice and no web event is appended twice.
 */
describe('bot runtime: SIGKILL mid-journey', () => {
  // A killed runtime's job is taken over once its lock lapses (2 s), and retried quickly.
  const stack = useStack({ cloud: true, seed: true, worker: true, servers: [lookup], env: { WORKER_LOCK_MS: '2000', BOT_HTTP_ALLOW_PRIVATE_ADDRESSES: 'true' } }, 120_000);
  const started: AppProcess[] = [];
  let inbox: BotInbox;
  let db: PrismaService;
  /** A runtime process; every one started is killed with the stack. */
  const start = async () => {
    const runtime = await startRuntime(stack.env);
    started.push(runtime);
    return runtime;
  };
  stack.defer(() => Promise.all(started.map((r) => r.kill())));
  afterEach(() => Promise.all(started.map((r) => r.kill())));
  stack.defer(() => inbox?.close());

  beforeAll(() => {
    inbox = new BotInbox(stack.gateway, stack.env);
    db = stack.gateway.get(PrismaService, { strict: false });
  });

  it('WhatsApp: killed after its turn committed, while the first reply is being sent; the next runtime sends the rest, each once', async () => {
    await publish(stack.gateway, stack.seed.botId, STEPS, 1);
    const [{ id: senderId }] = await stack.gateway.get(ConversationRepository, { strict: false }).findSendersByPhoneNumberId(stack.seed.phoneNumberId);
    const user = '919800000801';
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let accepting = false;
    // The Cloud API takes the first reply and answers only once the runtime is dead.
    stack.cloud.onNextAccept(() => ((accepting = true), released));
    const runtime = await start();

    const conversationId = await inbox.whatsapp(stack.seed.botId, senderId, user, 'hi');
    await until(async () => (accepting ? true : undefined), 60_000, 'the first reply at the Cloud API');
    await runtime.kill();
    // The turn committed (its input processed, its replies written) and the replies after the first were not handed over.
    expect(await db.botInput.count({ where: { conversationId, processedAt: null } })).toBe(0);
    const queued = await db.conversationMessage.findMany({ where: { conversationId, direction: 'outbound', status: 'queued' }, orderBy: { seq: 'asc' } });
    expect(queued.map((m) => (m.content as { text: string }).text)).toEqual(['two', 'three', 'Q?']);
    expect(await db.botOutboxItem.count({ where: { conversationId } })).toBeGreaterThanOrEqual(3);
    release();

    await start();
    await until(async () => (sentTo(stack.cloud.messages, user).length >= 4 ? true : undefined), 60_000, 'the rest of the turn');
    await inbox.whatsapp(stack.seed.botId, senderId, user, 'yes');
    await until(async () => (sentTo(stack.cloud.messages, user).length >= 5 ? true : undefined), 60_000, 'the answer');
    await new Promise((r) => setTimeout(r, 500));

    expect(sentTo(stack.cloud.messages, user)).toEqual(['text:one', 'text:two', 'text:three', 'text:Q?', 'text:got yes']);
    expect(await db.botOutboxItem.count({ where: { conversationId } })).toBe(0);
    expect(await db.conversationMessage.count({ where: { conversationId, direction: 'outbound' } })).toBe(5);
    const steps = await db.botStep.findMany({ where: { conversationId }, orderBy: { id: 'asc' } });
    expect(steps.map((s) => s.node)).toEqual(['one', 'two', 'three', 'ask', 'ask', 'got']); // the first turn ran once
  }, 240_000);

  it('web: killed inside its turn (an http call held); the next runtime runs the turn again and each reply is appended once', async () => {
    await db.botDefinitionDraft.update({ where: { botId: stack.seed.botId }, data: { publishedVersion: null } });
    await publish(stack.gateway, stack.seed.botId, LOOKUP(), 2);
    let release!: () => void;
    lookup.hold = new Promise<void>((resolve) => (release = resolve));
    const runtime = await start();
    const user = 'web-user-crash';
    const lookups = () => lookup.requests.filter((r) => r.path === '/lookup').length;

    const conversationId = await inbox.web(stack.seed.botId, user, 'what is the answer?');
    await until(async () => (lookups() === 1 ? true : undefined), 60_000, 'the http node calling out');
    await runtime.kill();
    // Nothing of the turn was committed: its first reply included.
    expect(await db.conversationMessage.count({ where: { conversationId, direction: 'outbound' } })).toBe(0);
    expect(await db.botInput.count({ where: { conversationId, processedAt: null } })).toBe(1);
    lookup.hold = undefined;
    release();

    await start();
    const store = stack.gateway.get(SdkEventStore, { strict: false });
    // The replies only: the chat page's typing signals share the stream.
    const texts = async () =>
      (await store.readAfter(stack.seed.botId, user, '0-0', 100))
        .filter((e) => e.event.data.code === 'conversation.message')
        .map((e) => (JSON.parse(e.event.data.data) as { content: { text: string } }).content.text);
    await until(async () => ((await texts()).length >= 2 ? true : undefined), 60_000, 'the two replies on the event stream');
    await new Promise((r) => setTimeout(r, 500));

    expect(await texts()).toEqual(['Looking it up…', 'The answer is 42 (200)']);
    expect(lookups()).toBe(2); // an outside call of a turn cut short is made again (at least once)
    expect(await db.conversationMessage.findMany({ where: { conversationId, direction: 'outbound' }, select: { status: true } })).toEqual([{ status: 'sent' }, { status: 'sent' }]);
    expect(await db.botOutboxItem.count({ where: { conversationId } })).toBe(0);
  }, 240_000);
});
