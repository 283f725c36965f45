import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createBotRuntime } from '../apps/bot-runtime/src/create-bot-runtime.js';
import { BotSession, type WebSocketConstructorLike } from '../libs/sdk-core/src/index.js';
import { BotDefinition, chatUserId } from '@platform/contracts';
import { PrismaService } from '@platform/database';
import { seedBotAdmin } from '@platform/testing';
import { useStack } from './e2e-stack.js';
import { ConsoleBrowser, DESKTOP, PHONE, axeViolations, screenshot, screenshots, signIn } from './console-browser.js';
import { SdkBot, eventually, seedSdkBot } from './sdk-support.js';

/** A greeting, a question, a handoff, then the end once handed back; a second journey to hand a user to. */
const definition: BotDefinition = {
  schemaVersion: 1,
  startJourney: 'welcome',
  variables: [
    { name: 'need', type: 'string', default: '' },
    { name: 'rating', type: 'number', default: 0 },
  ],
  journeys: [
    {
      slug: 'welcome',
      start: 'hello',
      nodes: [
        { id: 'hello', kind: 'message', text: 'Hi, I am the bot.' },
        { id: 'ask', kind: 'question', text: 'What do you need?', answer: { type: 'text' }, variable: 'need' },
        { id: 'agent', kind: 'handoff', text: 'A person will take it from here.', reason: 'asked for help' },
        { id: 'bye', kind: 'end', text: 'The bot is back.' },
      ],
      edges: [
        { from: 'hello', to: 'ask' },
        { from: 'ask', to: 'agent' },
        { from: 'agent', to: 'bye' },
      ],
    },
    {
      slug: 'feedback',
      start: 'rate',
      nodes: [{ id: 'rate', kind: 'question', text: 'How did we do, from 1 to 5?', answer: { type: 'number', min: 1, max: 5 }, variable: 'rating' }],
      edges: [],
    },
  ],
} as unknown as BotDefinition;

/** The bot's webhook: records every call's body. */
function webhookReceiver(bodies: Array<Record<string, unknown>>): Server {
  return createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      bodies.push(JSON.parse(raw) as Record<string, unknown>);
      res.writeHead(200).end('{}');
    });
  });
}

jest.setTimeout(180_000);

describe('console inbox: hosted-bot conversations, take over, reply, hand back (API and Chromium)', () => {
  const calls: Array<Record<string, unknown>> = [];
  const receiver = webhookReceiver(calls);
  const stack = useStack({ worker: true, env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  let runtime: NestFastifyApplication;
  let bot: SdkBot;
  let redis: Redis;
  const browser = new ConsoleBrowser();
  stack.defer(() => new Promise((r) => receiver.close(r)));
  stack.defer(() => runtime?.close());
  stack.defer(() => browser.close());
  stack.defer(async () => void redis?.disconnect());

  const botApi = (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') =>
    fetch(`${stack.url}/v1/bots/${bot.botId}${path}`, {
      method,
      headers: { authorization: `Bearer ${bot.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const inbox = async (token: string, path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => {
    const res = await fetch(`${stack.url}/v1/bots/${bot.botId}/inbox${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  /** A web-chat user through the SDK's session: the start journey runs; answers `need`; resolves once the bot waits in handoff. */
  async function userInHandoff(token: string, need: string): Promise<{ session: BotSession; conversationId: string }> {
    const session = new BotSession(
      { botId: bot.botId, ymAuthenticationToken: token, payload: {}, version: 2 },
      { cloudHost: 'chat.example.com', apiBaseUrl: stack.url, fetch, WebSocket: WebSocket as unknown as WebSocketConstructorLike, reconnect: { initialDelayMs: 50, maxDelayMs: 200 } },
    );
    await session.start();
    const db = stack.gateway.get(PrismaService, { strict: false });
    const conversation = await eventually(
      () => db.conversation.findFirst({ where: { botId: bot.botId, channel: 'web', userId: chatUserId(token) } }).then((c) => c ?? undefined),
      10_000,
      'the conversation',
    );
    await eventually(async () => ((await db.botConversationState.findUnique({ where: { conversationId: conversation.id } }))?.node === 'ask' ? true : undefined), 15_000, 'the question');
    // The user's answer, as the chat page sends it.
    const sent = await fetch(`${stack.url}/v1/bots/${bot.botId}/sessions/${session.sessionId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ text: need }),
    });
    if (![200, 201, 202].includes(sent.status)) throw new Error(`the user's message answered ${sent.status}: ${await sent.text()}`);
    await eventually(async () => ((await db.botConversationState.findUnique({ where: { conversationId: conversation.id } }))?.status === 'handoff' ? true : undefined), 15_000, 'the handoff');
    return { session, conversationId: conversation.id };
  }

  beforeAll(async () => {
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    runtime = await createBotRuntime({ ...stack.env, BOT_RUNTIME_HEALTH_PORT: '0' });
    bot = await seedSdkBot(stack.gateway, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`);
    const deployed = await botApi('/versions', { definition });
    expect(deployed.status).toBe(201);
    redis = new Redis(stack.env.REDIS_URL!);
    await browser.launch();
  });

  it('lists by filter with unread counts, takes over, replies, notes, assigns, hands back to the bot and to a journey; every change of hands is told', async () => {
    const agent = await seedBotAdmin(stack.gateway, bot.botId, 'developer');
    const viewer = await seedBotAdmin(stack.gateway, bot.botId, 'viewer');
    const { session, conversationId } = await userInHandoff('inbox_api_user', 'my order is late');

    // Waiting for an agent, unassigned, with the user's answer unread.
    const waiting = await inbox(agent.accessToken, '/conversations?filter=waiting');
    expect(waiting.status).toBe(200);
    expect(waiting.body.conversations).toEqual([expect.objectContaining({ id: conversationId, status: 'handoff', journey: 'welcome', node: 'agent', assignee: null, unread: 1, channel: 'web' })]);
    expect(waiting.body.counts).toMatchObject({ waiting: 1, mine: 0, bot: 0, unread: 1 });
    expect((await inbox(agent.accessToken, '/conversations?filter=bot')).body.conversations).toEqual([]);
    expect((await inbox(agent.accessToken, '/conversations?channel=whatsapp')).body.conversations).toEqual([]);
    expect((await inbox(agent.accessToken, '/conversations?filter=nope')).status).toBe(400);
    expect((await inbox(agent.accessToken, '/conversations?cursor=zzz')).body.message).toMatch(/cursor/);

    // The view: transcript, trace, state; reading it clears the unread count.
    const view = await inbox(agent.accessToken, `/conversations/${conversationId}`);
    expect(view.status).toBe(200);
    expect(view.body.messages.map((m: any) => m.content.text)).toEqual(['Hi, I am the bot.', 'What do you need?', 'my order is late', 'A person will take it from here.']);
    expect(view.body.trace.map((s: any) => s.node)).toEqual(['hello', 'ask', 'ask', 'agent']);
    expect(view.body.bot).toMatchObject({ status: 'handoff', journey: 'welcome', node: 'agent' });
    expect(view.body.journeys).toEqual(['welcome', 'feedback']);
    expect(view.body.olderMessages).toBe(false);
    expect((await inbox(agent.accessToken, `/conversations/${conversationId}/read`, {})).status).toBe(200);
    expect((await inbox(agent.accessToken, '/conversations?filter=waiting')).body.conversations[0].unread).toBe(0);
    expect((await inbox(agent.accessToken, `/conversations/${conversationId}`)).body.conversation.unread).toBe(0);

    // Read marks are each member's: the viewer has not read it yet, and reads up to the message shown only.
    const theirs = await inbox(viewer.accessToken, '/conversations?filter=waiting');
    expect([theirs.body.conversations[0].unread, theirs.body.counts.unread]).toEqual([1, 1]);
    expect((await inbox(viewer.accessToken, `/conversations/${conversationId}/read`, { messageId: view.body.messages[1].id })).status).toBe(200);
    expect((await inbox(viewer.accessToken, `/conversations/${conversationId}`)).body.conversation.unread).toBe(1); // the user's answer came after it
    const stranger = await inbox(viewer.accessToken, `/conversations/${conversationId}/read`, { messageId: '00000000-0000-4000-8000-000000000000' });
    expect([stranger.status, stranger.body.message]).toEqual([400, expect.stringMatching(/^messageId must be a message of conversation/)]);
    expect((await inbox(viewer.accessToken, `/conversations/${conversationId}/read`, { messageId: 'x' })).status).toBe(400);
    expect((await inbox(viewer.accessToken, `/conversations/${conversationId}/read`, { messageId: view.body.messages[3].id })).status).toBe(200);
    expect((await inbox(viewer.accessToken, '/conversations?filter=waiting')).body.conversations[0].unread).toBe(0);
    // A mark never moves back.
    expect((await inbox(viewer.accessToken, `/conversations/${conversationId}/read`, { messageId: view.body.messages[0].id })).status).toBe(200);
    expect((await inbox(viewer.accessToken, '/conversations?filter=waiting')).body.conversations[0].unread).toBe(0);

    // A viewer reads but does not act.
    expect((await inbox(viewer.accessToken, `/conversations/${conversationId}`)).status).toBe(200);
    expect((await inbox(viewer.accessToken, `/conversations/${conversationId}/take-over`, {})).status).toBe(403);

    // Take over: assigned to the agent, told on the stream and to the webhook.
    expect((await inbox(agent.accessToken, `/conversations/${conversationId}/take-over`, {})).status).toBe(200);
    const mine = await inbox(agent.accessToken, '/conversations?filter=mine');
    expect(mine.body.conversations).toEqual([expect.objectContaining({ id: conversationId, assignee: { userId: agent.userId, email: agent.email } })]);
    expect(mine.body.counts).toMatchObject({ waiting: 0, mine: 1 });

    // Replies: text with quick replies, an image; bad bodies are 400s naming the problem.
    const reply = await inbox(agent.accessToken, `/conversations/${conversationId}/messages`, { text: 'Sam here, checking your order.', quickReplies: [{ title: 'Thanks' }] });
    expect(reply.status).toBe(202);
    expect((await inbox(agent.accessToken, `/conversations/${conversationId}/messages`, { image: { url: 'https://cdn.example.com/parcel.jpg' } })).status).toBe(202);
    // The bot's messages (the runtime's, and one through the reply API as an outside bot sends it) and the agent's, each named.
    expect((await botApi(`/conversations/${conversationId}/messages`, { text: 'Through the reply API' })).status).toBe(202);
    const byWhom = (await inbox(viewer.accessToken, `/conversations/${conversationId}`)).body.messages.map((m: any) => [m.content.text ?? m.type, m.sentBy]);
    expect(byWhom).toEqual([
      ['Hi, I am the bot.', { kind: 'bot' }],
      ['What do you need?', { kind: 'bot' }],
      ['my order is late', { kind: 'user' }],
      ['A person will take it from here.', { kind: 'bot' }],
      ['Sam here, checking your order.', { kind: 'agent', userId: agent.userId, email: agent.email }],
      ['image', { kind: 'agent', userId: agent.userId, email: agent.email }],
      ['Through the reply API', { kind: 'bot' }],
    ]);
    const bad = await inbox(agent.accessToken, `/conversations/${conversationId}/messages`, { quickReplies: [{ title: 'x' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/exactly one of text, image or cards|quickReplies go with text/);

    // A note: in the view, never in the reply API's transcript.
    const note = await inbox(agent.accessToken, `/conversations/${conversationId}/notes`, { text: 'Customer is VIP, refund if needed' });
    expect(note.status).toBe(201);
    expect((await inbox(agent.accessToken, `/conversations/${conversationId}/notes`, { text: '   ' })).body.message).toMatch(/text must not be empty/);
    const transcript = await (await botApi(`/conversations/${conversationId}/messages`)).json();
    expect(JSON.stringify(transcript)).not.toContain('VIP');
    expect(JSON.stringify(transcript)).toContain('Sam here, checking your order.');
    expect((await inbox(agent.accessToken, `/conversations/${conversationId}`)).body.notes).toEqual([
      expect.objectContaining({ text: 'Customer is VIP, refund if needed', author: { userId: agent.userId, email: agent.email } }),
    ]);

    // Assignment: to another member, refused for a stranger, to nobody.
    expect((await inbox(agent.accessToken, `/conversations/${conversationId}/assignee`, { userId: viewer.userId }, 'PUT')).body.assignee).toEqual({ userId: viewer.userId, email: viewer.email });
    expect((await inbox(agent.accessToken, `/conversations/${conversationId}/assignee`, { userId: '00000000-0000-4000-8000-000000000000' }, 'PUT')).body.message).toMatch(/member of this bot/);
    expect((await inbox(agent.accessToken, `/conversations/${conversationId}/assignee`, { userId: 'x' }, 'PUT')).status).toBe(400);

    // Canned responses: CRUD, a duplicate title 409.
    const canned = await inbox(agent.accessToken, '/canned-responses', { title: 'Late order', text: 'Sorry, it is on its way.', quickReplies: ['Track it'] });
    expect(canned.status).toBe(201);
    expect((await inbox(agent.accessToken, '/canned-responses', { title: 'Late order', text: 'again' })).status).toBe(409);
    expect(
      (await inbox(agent.accessToken, `/canned-responses/${canned.body.cannedResponse.id}`, { title: 'Late order', text: 'On its way.', quickReplies: ['Track it'] }, 'PUT')).body.cannedResponse.text,
    ).toBe('On its way.');
    expect((await inbox(viewer.accessToken, '/canned-responses')).body.cannedResponses).toEqual([expect.objectContaining({ title: 'Late order', quickReplies: ['Track it'] })]);
    expect((await inbox(agent.accessToken, `/canned-responses/${canned.body.cannedResponse.id}`, undefined, 'DELETE')).status).toBe(200);
    expect((await inbox(agent.accessToken, `/canned-responses/${canned.body.cannedResponse.id}`, undefined, 'DELETE')).status).toBe(404);

    // Hand back to the bot: it goes on after the handoff node; the assignment ends; a second handback is 409.
    expect((await inbox(agent.accessToken, `/conversations/${conversationId}/handback`, {})).status).toBe(202);
    await eventually(
      async () => ((await inbox(agent.accessToken, `/conversations/${conversationId}`)).body.messages.some((m: any) => m.content.text === 'The bot is back.') ? true : undefined),
      15_000,
      'the bot back',
    );
    const closed = await inbox(agent.accessToken, '/conversations?filter=closed');
    expect(closed.body.conversations).toEqual([expect.objectContaining({ id: conversationId, status: 'ended', assignee: null })]);
    expect((await inbox(agent.accessToken, `/conversations/${conversationId}/handback`, {})).status).toBe(409);
    expect((await inbox(agent.accessToken, `/conversations/${conversationId}/messages`, { text: 'still there?' })).status).toBe(409);

    // Take over a closed conversation, then hand it to a journey: the feedback question is asked.
    expect((await inbox(agent.accessToken, `/conversations/${conversationId}/take-over`, {})).status).toBe(200);
    expect((await inbox(agent.accessToken, `/conversations/${conversationId}/handback`, { journeySlug: 'nope' })).body.message).toMatch(/journeySlug must name a journey/);
    expect((await inbox(agent.accessToken, `/conversations/${conversationId}/handback`, { journeySlug: 'feedback' })).status).toBe(202);
    await eventually(
      async () => ((await inbox(agent.accessToken, '/conversations?filter=bot')).body.conversations.find((c: any) => c.id === conversationId && c.journey === 'feedback') ? true : undefined),
      15_000,
      'the feedback journey',
    );

    // Every change of hands: on the lifecycle stream and to the bot's webhook; first the bot's own handoff node.
    const expected = [
      ['conversation.handoff', 'bot'],
      ['conversation.taken_over', 'member'],
      ['conversation.handed_back', 'member'],
      ['conversation.taken_over', 'member'],
      ['conversation.handed_back', 'member'],
    ];
    const [streamKey] = await redis.keys('*message-lifecycle*');
    const entries = (await redis.xrange(streamKey!, '-', '+')).map(([, f]) => Object.fromEntries(f.flatMap((v, i) => (i % 2 ? [] : [[v, f[i + 1]]]))) as Record<string, string>);
    const told = entries.filter((e) => e.conversationId === conversationId);
    expect(told.map((e) => [e.type, e.by])).toEqual(expected);
    expect(told[0]).toMatchObject({ botId: bot.botId, channel: 'web', by: 'bot', memberId: '', reason: 'asked for help', journeySlug: '' });
    expect(told[4]).toMatchObject({ botId: bot.botId, channel: 'web', memberId: agent.userId, journeySlug: 'feedback' });
    const hooks = await eventually(
      () => {
        const got = calls.filter((c) => String(c.type).startsWith('conversation.') && c.conversationId === conversationId);
        return got.length === 5 ? got : undefined;
      },
      30_000,
      'the webhook calls',
    );
    expect(hooks.map((c) => [c.type, c.by])).toEqual(expected);
    // The handoff node's event: once, with the stream entry's id (the webhook-id), the node's reason and no member.
    expect(hooks[0]).toEqual({
      type: 'conversation.handoff',
      id: told[0]!.id,
      botId: bot.botId,
      conversationId,
      channel: 'web',
      userId: chatUserId('inbox_api_user'),
      by: 'bot',
      member: null,
      reason: 'asked for help',
      journeySlug: null,
      createdAt: expect.any(String),
    });
    expect(hooks[1]).toMatchObject({ member: { userId: agent.userId, email: agent.email }, channel: 'web', journeySlug: null });
    // Nothing more comes: the handoff node's event was queued once (its bot-turn job and handover are done).
    await new Promise((r) => setTimeout(r, 1500));
    expect(calls.filter((c) => String(c.type).startsWith('conversation.') && c.conversationId === conversationId)).toHaveLength(5);
    session.closeBot();
  });

  it('Chromium: keyboard-only take over and reply; the user sees the reply live on the chat page; axe at 390 and 1280 px', async () => {
    const agent = await seedBotAdmin(stack.gateway, bot.botId, 'developer');
    const { session, conversationId } = await userInHandoff('inbox_browser_user', 'I need a person');
    const user = await browser.newPage(stack.url, PHONE);
    const console_ = await browser.newPage(stack.url, DESKTOP);
    try {
      // The user's chat page (the second browser context).
      await user.page.goto(session.webViewUrl().replace('https://chat.example.com', stack.url));
      await user.page.getByText('A person will take it from here.').waitFor();

      // The agent signs in and reaches the inbox with the keyboard only.
      const page = console_.page;
      page.setDefaultTimeout(20_000);
      await page.goto(`${stack.url}/console/`);
      await page.getByLabel('E-mail').fill(agent.email);
      await page.getByLabel('Password').fill(agent.password);
      await page.keyboard.press('Enter');
      await page.getByRole('navigation', { name: 'Sections' }).waitFor();
      await page.goto(`${stack.url}/console/#/bots/${bot.botId}/inbox`);
      const row = page.getByRole('link', { name: /^Web user / }).first();
      await row.waitFor();
      await page.getByTestId('inbox-list').getByLabel('1 unread').waitFor();

      // Canned responses, by keyboard: add three, edit one, delete one.
      await page.getByRole('link', { name: 'Canned responses' }).focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('canned-empty').waitFor();
      const addCanned = async (title: string, text: string, quick: string) => {
        await page.getByLabel('Title').focus();
        await page.keyboard.type(title);
        await page.keyboard.press('Tab');
        await page.keyboard.type(text);
        await page.keyboard.press('Tab');
        await page.keyboard.type(quick);
        await page.keyboard.press('Enter');
        await page.getByText(`Added “${title}”.`).waitFor();
      };
      await page.getByRole('button', { name: 'Add canned response' }).focus();
      await page.keyboard.press('Enter');
      await page.getByText('Title is required').waitFor();
      await addCanned('Greeting', 'Hello!', '');
      await addCanned('Order late', 'Your parcel ships today.', 'Thanks, Bye');
      await addCanned('Temp', 'To be deleted', '');
      await page.getByRole('button', { name: 'Edit “Greeting”' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('form', { name: 'Edit “Greeting”' }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('canned-title'); // the form opens on its title
      await page.keyboard.press('Tab'); // from the title to the text
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('Hi there!');
      await page.getByRole('button', { name: 'Save' }).focus();
      await page.keyboard.press('Enter');
      await page.getByText('Saved “Greeting”.').waitFor();
      await page.getByRole('button', { name: 'Delete “Temp”' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Confirm delete “Temp”' }).focus();
      await page.keyboard.press('Enter');
      await page.getByText('Deleted “Temp”.').waitFor();
      const cannedRows = await page.getByTestId('canned-list').locator('tbody tr').allTextContents();
      expect(cannedRows).toEqual([expect.stringContaining('Hi there!'), expect.stringContaining('Your parcel ships today.')]);
      const saved = await inbox(agent.accessToken, '/canned-responses');
      expect(saved.body.cannedResponses.map((r: any) => [r.title, r.text, r.quickReplies])).toEqual([
        ['Greeting', 'Hi there!', []],
        ['Order late', 'Your parcel ships today.', ['Thanks', 'Bye']],
      ]);
      await screenshots(page, 'inbox-canned-responses');
      for (const size of [PHONE, DESKTOP]) {
        await page.setViewportSize(size);
        expect(await axeViolations(page)).toEqual([]);
      }
      await page.getByRole('link', { name: '← Inbox' }).focus();
      await page.keyboard.press('Enter');
      await row.waitFor();

      // Live: the user writes again while the list is open; this member's unread count goes to 2 without a reload.
      const chatInput = user.page.getByRole('textbox', { name: 'Message' });
      await chatInput.fill('Anyone there?');
      await chatInput.press('Enter');
      await page.getByTestId('inbox-list').getByLabel('2 unread').waitFor({ timeout: 15_000 });
      await screenshots(page, 'inbox-list');
      for (const size of [PHONE, DESKTOP]) {
        await page.setViewportSize(size);
        expect(await axeViolations(page)).toEqual([]);
      }

      await row.focus();
      await page.keyboard.press('Enter');
      const takeOver = page.getByRole('button', { name: 'Take over' });
      await takeOver.waitFor();
      await takeOver.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('form', { name: 'Reply' }).waitFor();
      // The button pressed is gone: focus goes to the reply's message field, not to the page's start.
      await page.waitForFunction(() => document.activeElement?.id === 'reply-text', null, { timeout: 5000 });
      const message = page.getByLabel('Message', { exact: true });
      const quickField = page.getByLabel(/^Quick replies/);
      // More quick replies than the API takes: the form says so before sending anything.
      await page.keyboard.type('Not sent');
      await quickField.fill('One, Two, Three, Four');
      await page.getByRole('button', { name: 'Send reply' }).focus();
      await page.keyboard.press('Enter');
      await page.locator('#reply-quick-error').getByText('At most 3 quick replies: you gave 4.').waitFor();
      expect(await quickField.getAttribute('aria-invalid')).toBe('true');
      // Focus leaves Send for the field the message names, which it describes: a screen reader reads it out.
      await page.waitForFunction(() => document.activeElement?.id === 'reply-quick', null, { timeout: 10_000 });
      expect(await quickField.getAttribute('aria-describedby')).toContain('reply-quick-error');
      // The API's reason names the field as the API spells it (quickReplies…), not capitalised as a word.
      await quickField.fill('A title far too long for a button');
      await page.getByRole('button', { name: 'Send reply' }).focus();
      await page.keyboard.press('Enter');
      await page
        .getByRole('alert')
        .getByText(/^quickReplies\[0\]\.title /)
        .waitFor();
      expect(await page.getByTestId('transcript').getByText('Not sent').count()).toBe(0);
      await quickField.fill('');
      await message.fill('');
      await message.focus();
      await page.keyboard.type('Hello, I am Ana from support. ');
      // A canned response by keyboard: Ctrl+/ to the list, the second one, Insert: at the cursor, with its quick replies; focus back in the message.
      await page.keyboard.press('Control+/');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('canned-pick');
      await page.keyboard.press('ArrowDown');
      expect(await page.locator('#canned-pick').evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe('Order late');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.id === 'reply-text');
      expect(await message.inputValue()).toBe('Hello, I am Ana from support. Your parcel ships today.');
      expect(await page.getByLabel(/^Quick replies/).inputValue()).toBe('Thanks, Bye');
      await page.getByRole('button', { name: 'Send reply' }).focus();
      await page.keyboard.press('Enter');

      // Live on the user's page, with the quick replies.
      await user.page.getByText('Hello, I am Ana from support. Your parcel ships today.').waitFor();
      await user.page.getByRole('button', { name: 'Thanks' }).waitFor();
      await screenshot(user.page, 'inbox-user-sees-reply-390.png', { fullPage: true });

      // The transcript in the console shows it, and the state says an agent has it.
      await page.getByTestId('transcript').getByText('Hello, I am Ana from support. Your parcel ships today.').waitFor();
      // Each message says who wrote it: the agent by e-mail, the bot as the bot.
      const said = (text: string) => page.getByTestId('transcript').locator('li', { hasText: text }).locator('strong').textContent();
      expect(await said('Hello, I am Ana from support.')).toBe(`Agent ${agent.email}`);
      expect(await said('A person will take it from here.')).toBe('Bot');
      expect(await said('I need a person')).toBe('User');
      // Sent: focus is back in the message field, for the next reply.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('reply-text');
      // Opening it marked it read for this agent only: another member still has the user's two messages unread.
      const unreadOf = async (token: string) => (await inbox(token, '/conversations')).body.conversations.find((c: any) => c.id === conversationId)?.unread;
      await eventually(async () => ((await unreadOf(agent.accessToken)) === 0 ? true : undefined), 10_000, "the agent's read mark");
      const colleague = await seedBotAdmin(stack.gateway, bot.botId, 'developer');
      expect(await unreadOf(colleague.accessToken)).toBe(2);
      expect(await page.getByTestId('conversation-state').textContent()).toContain(agent.email);
      await screenshots(page, 'inbox-conversation');
      for (const size of [PHONE, DESKTOP]) {
        await page.setViewportSize(size);
        expect(await axeViolations(page)).toEqual([]);
      }
      // At 1280 px the bot trace fits its box: no cell (the time naming its zone) is cut, nothing scrolls sideways.
      const trace = page.getByRole('table', { name: 'Steps the bot ran' });
      expect(await trace.locator('tbody tr').count()).toBeGreaterThan(0);
      const cut = await trace.evaluate((table) => {
        const wrap = table.parentElement!;
        const cells = [...table.querySelectorAll('th, td')].filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent);
        return wrap.scrollWidth > wrap.clientWidth + 1 ? [`the table: ${wrap.scrollWidth} px in ${wrap.clientWidth}`, ...cells] : cells;
      });
      expect(cut).toEqual([]);
      expect(await trace.locator('tbody tr td').last().textContent()).toMatch(/\d:\d\d:\d\d\s?[AP]M (UTC|GMT)/);

      // Hand back with the keyboard: the user sees the bot again.
      await page.getByRole('button', { name: 'Hand back' }).focus();
      await page.keyboard.press('Enter');
      await user.page.getByText('The bot is back.').waitFor();
      expect(browser.problems).toEqual([]);
      const db = stack.gateway.get(PrismaService, { strict: false });
      expect((await db.botConversationState.findUniqueOrThrow({ where: { conversationId } })).status).toBe('ended');
    } finally {
      session.closeBot();
      await user.context.close();
      await console_.context.close();
    }
  });
  /** A web conversation of `count` messages stored in bulk, `Seed line 001` the oldest; returns its id and the texts in order. */
  async function seedLongConversation(userId: string, count: number): Promise<{ conversationId: string; texts: string[] }> {
    const db = stack.gateway.get(PrismaService, { strict: false });
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO "conversations" ("id", "bot_id", "channel", "user_id", "updated_at") VALUES (gen_random_uuid(), $1::uuid, 'web', $2, now()) RETURNING "id"`,
      [bot.botId, userId],
    );
    const conversationId = rows[0]!.id;
    await addMessages(conversationId, 1, count);
    return { conversationId, texts: Array.from({ length: count }, (_, i) => seedText(i + 1)) };
  }
  const seedText = (n: number) => `Seed line ${String(n).padStart(3, '0')}`;
  /** Messages `from`..`to` of a seeded conversation, stored in that order (seq follows the series), the user's odd, the agent's even. */
  async function addMessages(conversationId: string, from: number, to: number): Promise<void> {
    const db = stack.gateway.get(PrismaService, { strict: false });
    await db.pool.query(
      `INSERT INTO "conversation_messages" ("id", "conversation_id", "direction", "type", "content", "status", "created_at")
       SELECT gen_random_uuid(), $1::uuid, CASE WHEN n % 2 = 1 THEN 'inbound' ELSE 'outbound' END::"MessageDirection", 'text',
              jsonb_build_object('text', 'Seed line ' || lpad(n::text, 3, '0')), CASE WHEN n % 2 = 1 THEN NULL ELSE 'read' END::"MessageStatus",
              now() - interval '1 day' + n * interval '1 second'
       FROM generate_series($2::int, $3::int) AS n ORDER BY n`,
      [conversationId, from, to],
    );
  }

  it('older messages: the view says they exist, GET …/messages?before= reads them (400/401/403/404); in Chromium "Show older messages" prepends them in place, a poll keeps them, a failed refresh is said', async () => {
    const viewer = await seedBotAdmin(stack.gateway, bot.botId, 'viewer');
    const { conversationId, texts } = await seedLongConversation('inbox_long_user', 330);
    const textsOf = (ms: any[]) => ms.map((m) => m.content.text as string);

    // The API: the view's newest 200 and olderMessages; pages before a message, oldest first, until none are left.
    const view = await inbox(viewer.accessToken, `/conversations/${conversationId}`);
    expect(view.status).toBe(200);
    expect([textsOf(view.body.messages), view.body.olderMessages]).toEqual([texts.slice(130), true]);
    const before = (id: string, limit?: number) => inbox(viewer.accessToken, `/conversations/${conversationId}/messages?before=${id}${limit === undefined ? '' : `&limit=${limit}`}`);
    const page1 = await before(view.body.messages[0].id, 120);
    expect([page1.status, textsOf(page1.body.messages), page1.body.olderMessages]).toEqual([200, texts.slice(10, 130), true]);
    const page2 = await before(page1.body.messages[0].id);
    expect([textsOf(page2.body.messages), page2.body.olderMessages]).toEqual([texts.slice(0, 10), false]); // the default page (50) holds the rest
    expect((await before(page2.body.messages[0].id)).body).toEqual({ messages: [], olderMessages: false });
    expect((await before(view.body.messages[0].id, 130)).body.olderMessages).toBe(false); // exactly what is left

    // Bad input is a 400 naming it; an unknown conversation a 404; no token 401; not a member of this bot 403.
    const bad = async (query: string) => (await inbox(viewer.accessToken, `/conversations/${conversationId}/messages${query}`)).body.message;
    expect(await bad('')).toMatch(/^before must be the id of a message/);
    expect(await bad('?before=zzz')).toMatch(/^before must be the id of a message/);
    expect(await bad('?before=00000000-0000-4000-8000-000000000000')).toBe(`before must be a message of conversation ${conversationId}`);
    const elsewhere = await seedLongConversation('inbox_other_user', 2);
    const foreign = (await inbox(viewer.accessToken, `/conversations/${elsewhere.conversationId}`)).body.messages[0].id;
    expect(await bad(`?before=${foreign}`)).toBe(`before must be a message of conversation ${conversationId}`); // another conversation's message
    for (const limit of ['0', '201', 'x', '1.5']) expect(await bad(`?before=${view.body.messages[0].id}&limit=${limit}`)).toBe('limit must be an integer from 1 to 200');
    for (const query of ['?before=zzz', `?before=${view.body.messages[0].id}&limit=0`]) expect((await inbox(viewer.accessToken, `/conversations/${conversationId}/messages${query}`)).status).toBe(400);
    const unknown = await inbox(viewer.accessToken, `/conversations/00000000-0000-4000-8000-000000000000/messages?before=${view.body.messages[0].id}`);
    expect([unknown.status, unknown.body.message]).toEqual([404, 'No conversation 00000000-0000-4000-8000-000000000000 for this bot']);
    expect((await inbox(viewer.accessToken, `/conversations/nope/messages?before=${view.body.messages[0].id}`)).status).toBe(404);
    const anonymous = await fetch(`${stack.url}/v1/bots/${bot.botId}/inbox/conversations/${conversationId}/messages?before=${view.body.messages[0].id}`);
    expect(anonymous.status).toBe(401);
    const stranger = await seedBotAdmin(stack.gateway, (await seedSdkBot(stack.gateway)).botId, 'admin');
    expect((await inbox(stranger.accessToken, `/conversations/${conversationId}/messages?before=${view.body.messages[0].id}`)).status).toBe(403);
    expect((await inbox(stranger.accessToken, `/conversations/${conversationId}`)).status).toBe(403);

    // The OpenAPI document describes the route and its two query parameters.
    const doc = (await (await fetch(`${stack.url}/docs/openapi.json`)).json()) as any;
    const described = doc.paths['/v1/bots/{botId}/inbox/conversations/{id}/messages'].get;
    expect(described.summary).toMatch(/olderMessages/);
    expect(
      described.parameters
        .filter((p: any) => p.in === 'query')
        .map((p: any) => [p.name, p.required])
        .sort(),
    ).toEqual([
      ['before', true],
      ['limit', false],
    ]);

    // Chromium, as the viewer.
    const { context, page } = await browser.newPage(stack.url, DESKTOP);
    page.setDefaultTimeout(20_000);
    try {
      await signIn(page, stack.url, viewer);
      await page.goto(`${stack.url}/console/#/bots/${bot.botId}/inbox/${conversationId}`);
      const transcript = page.getByTestId('transcript');
      const onScreen = () => transcript.locator('li').evaluateAll((lis) => lis.map((li) => li.lastChild?.textContent ?? ''));
      const showing = async (want: string[], what: string) =>
        eventually(async () => (JSON.stringify(await onScreen()) === JSON.stringify(want) ? true : undefined), 15_000, what).catch(async (err) => {
          const got = await onScreen();
          throw new Error(`${(err as Error).message}: ${got.length} shown, first ${JSON.stringify(got.slice(0, 2))}, last ${JSON.stringify(got.slice(-2))}`);
        });
      await showing(texts.slice(130), 'the newest 200');
      const more = page.getByRole('button', { name: 'Show older messages' });
      await more.waitFor();
      /** The screen from `at` (the transcript's start: a full page of 330 messages is too long to look at), at 390 then 1280 px. */
      const shotsOfTop = async (name: string, at = page.getByRole('heading', { name: 'Transcript' })) => {
        for (const size of [PHONE, DESKTOP]) {
          await page.setViewportSize(size);
          await at.evaluate((el) => el.scrollIntoView());
          await screenshot(page, `${name}-${size.width}.png`);
        }
      };
      await shotsOfTop('inbox-older-button');

      /** Presses the button (by mouse or keyboard); the message that was first stays where it was on screen. */
      const pressMore = async (how: 'click' | 'keyboard', want: string[]) => {
        const firstBefore = (await onScreen())[0]!;
        await more.scrollIntoViewIfNeeded();
        const topOf = () => transcript.locator('li', { hasText: firstBefore }).evaluate((li) => li.getBoundingClientRect().top);
        const top = await topOf();
        if (how === 'click') await more.click();
        else {
          await more.focus();
          await page.keyboard.press('Enter');
        }
        await showing(want, `the transcript after pressing (${how})`);
        expect(Math.abs((await topOf()) - top)).toBeLessThan(2);
      };
      await pressMore('click', texts.slice(30));
      await page.getByTestId('older-status').getByText('100 older messages shown above.').waitFor();
      await more.waitFor(); // 30 are older still
      await pressMore('keyboard', texts);
      await page
        .getByTestId('older-status')
        .getByText(/^30 older messages shown above: the conversation's first message is the first now\.$/)
        .waitFor();
      await more.waitFor({ state: 'detached' });
      // The button went away under the keyboard: focus is on the transcript, not back at the page's start.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('transcript');
      const first = transcript.locator('li').first();
      expect(await first.textContent()).toMatch(/Seed line 001$/);
      await first.scrollIntoViewIfNeeded();
      expect(await first.isVisible()).toBe(true);
      const shown = await onScreen();
      expect(new Set(shown).size).toBe(330);

      // Polls go on: a new message appears at the bottom, and the older messages stay.
      await addMessages(conversationId, 331, 331);
      await showing([...texts, seedText(331)], 'the new message after the older ones');
      await new Promise((r) => setTimeout(r, 3500));
      expect(await onScreen()).toEqual([...texts, seedText(331)]);
      await shotsOfTop('inbox-older-messages');
      for (const size of [PHONE, DESKTOP]) {
        await page.setViewportSize(size);
        expect(await axeViolations(page)).toEqual([]);
      }

      // Offline: the poll's reloads fail and the page says so, keeping what it shows; back online the line goes.
      const refresh = page.getByTestId('refresh-status');
      const failed = /^Could not refresh \(the console cannot reach the server\); showing what was loaded at .+ (UTC|GMT[+-]?[\d:]*)\. Retrying every few seconds\.$/;
      expect(await refresh.textContent()).toBe('');
      await context.setOffline(true);
      await refresh.getByText(failed).waitFor({ timeout: 12_000 });
      expect(await onScreen()).toEqual([...texts, seedText(331)]);
      await shotsOfTop('inbox-refresh-failed', page.getByRole('heading', { level: 1 }));
      expect(await axeViolations(page)).toEqual([]);
      await context.setOffline(false);
      await eventually(async () => ((await refresh.textContent()) === '' ? true : undefined), 12_000, 'the refresh line gone');
      expect(await onScreen()).toEqual([...texts, seedText(331)]);

      // A count of one reads in the singular: a carousel of one card.
      const db = stack.gateway.get(PrismaService, { strict: false });
      await db.pool.query(
        `INSERT INTO "conversation_messages" ("id", "conversation_id", "direction", "type", "content", "status", "created_at")
         VALUES (gen_random_uuid(), $1::uuid, 'outbound', 'carousel', '{"cards":[{"title":"Only"}]}'::jsonb, 'read', now())`,
        [conversationId],
      );
      await eventually(async () => ((await onScreen()).at(-1) === '1 card' ? true : undefined), 15_000, 'the carousel of one card, as "1 card"');

      // The list says it too.
      await page.getByRole('link', { name: '← Inbox' }).click();
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
      await page.getByTestId('inbox-list').or(page.getByTestId('inbox-empty')).first().waitFor();
      await context.setOffline(true);
      await refresh.getByText(failed).waitFor({ timeout: 12_000 });
      expect(await page.getByRole('alert').count()).toBe(0); // a status line, not an error notice each poll
      await context.setOffline(false);
      await eventually(async () => ((await refresh.textContent()) === '' ? true : undefined), 12_000, 'the list refresh line gone');
      expect(browser.problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Chromium: a conversation left open with older messages loaded stays bounded: past 300 held, the oldest go while the reader is at the end, the place read stays, "Show older messages" comes back', async () => {
    const viewer = await seedBotAdmin(stack.gateway, bot.botId, 'viewer');
    const { conversationId, texts } = await seedLongConversation('inbox_day_user', 250);
    const all = [...texts];
    const held = 300; // HELD_MESSAGES in pages/inbox/conversation-view.tsx
    const { context, page } = await browser.newPage(stack.url, DESKTOP);
    page.setDefaultTimeout(20_000);
    try {
      await signIn(page, stack.url, viewer);
      await page.goto(`${stack.url}/console/#/bots/${bot.botId}/inbox/${conversationId}`);
      const transcript = page.getByTestId('transcript');
      const items = transcript.locator('li');
      const onScreen = () => items.evaluateAll((lis) => lis.map((li) => li.lastChild?.textContent ?? ''));
      const showing = async (want: string[], what: string) =>
        eventually(async () => (JSON.stringify(await onScreen()) === JSON.stringify(want) ? true : undefined), 20_000, what).catch(async (err) => {
          const got = await onScreen();
          throw new Error(`${(err as Error).message}: ${got.length} shown, first ${JSON.stringify(got.slice(0, 2))}, last ${JSON.stringify(got.slice(-2))}`);
        });
      const more = page.getByRole('button', { name: 'Show older messages' });
      const topOf = (text: string) => transcript.locator('li', { hasText: text }).evaluate((li) => li.getBoundingClientRect().top);
      /** Messages up to `to` arrive (stored as the channels store them); `all` follows. */
      const arrive = async (to: number) => {
        await addMessages(conversationId, all.length + 1, to);
        for (let n = all.length + 1; n <= to; n++) all.push(seedText(n));
      };

      // The newest 200, then the 50 older ones: the conversation's first message shows and the button goes.
      await showing(texts.slice(50), 'the newest 200');
      await more.click();
      await showing(texts, 'all 250 after "Show older messages"');
      await more.waitFor({ state: 'detached' });

      // The reader goes to the end and stays there while messages keep coming, 40 at a time (a long day's worth).
      await items.last().scrollIntoViewIfNeeded();
      for (const to of [290, 330, 370, 410]) {
        const read = all.at(-1)!; // the message on screen, at the end
        const top = await topOf(read);
        await arrive(to);
        await showing(all.slice(-held), `the newest ${Math.min(held, all.length)} of ${all.length}, in order, once each`);
        // What the reader was reading stays where it was, although messages went above it.
        expect(Math.abs((await topOf(read)) - top)).toBeLessThan(2);
        expect(await items.count()).toBeLessThanOrEqual(held);
      }
      // Some went: the button offers them again; and nothing more changes while no message comes.
      await more.waitFor();
      await new Promise((r) => setTimeout(r, 3500));
      expect(await onScreen()).toEqual(all.slice(-held));

      // Reading back (the first message shown on screen): arriving messages do not take it away.
      const firstShown = all[all.length - held]!;
      await items.first().scrollIntoViewIfNeeded();
      await arrive(450);
      await showing(all.slice(all.indexOf(firstShown)), 'the transcript grown while the reader reads its start');
      expect(await items.first().isVisible()).toBe(true);
      // Back at the end, the oldest go again at the next poll, the place kept.
      await items.last().scrollIntoViewIfNeeded();
      const read = all.at(-1)!;
      const top = await topOf(read);
      await showing(all.slice(-held), 'the newest 300 once the reader is back at the end');
      expect(Math.abs((await topOf(read)) - top)).toBeLessThan(2);
      expect(new Set(await onScreen()).size).toBe(held);

      // "Show older messages" reads the 100 before the first one shown, in place.
      const first = all[all.length - held]!;
      await more.scrollIntoViewIfNeeded();
      const firstTop = await topOf(first);
      await more.focus();
      await page.keyboard.press('Enter');
      await showing(all.slice(all.length - held - 100), '100 older ones above the first shown');
      expect(Math.abs((await topOf(first)) - firstTop)).toBeLessThan(2);
      await page.getByTestId('older-status').getByText('100 older messages shown above.').waitFor();
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Show older messages');
      // What is on screen (the whole page of 400 messages is too long to look at), at 390 then 1280 px.
      for (const size of [PHONE, DESKTOP]) {
        await page.setViewportSize(size);
        await more.scrollIntoViewIfNeeded();
        await screenshot(page, `inbox-bounded-${size.width}.png`);
        expect(await axeViolations(page)).toEqual([]);
      }
      expect(browser.problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
