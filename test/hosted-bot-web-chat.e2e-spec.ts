import { AxeBuilder } from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { Browser, BrowserContext, Page, chromium } from 'playwright-core';
import WebSocket from 'ws';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createBotRuntime } from '../apps/bot-runtime/src/create-bot-runtime.js';
import { BotSession, type BotEvent, type WebSocketConstructorLike } from '../libs/sdk-core/src/index.js';
import { BotDefinition, chatUserId } from '@platform/contracts';
import { PrismaService } from '@platform/database';
import { DemoOffersApi } from '../tools/up/demo-api.js';
import { demoBotDefinition, sdkDocPayloadFunction } from '../tools/up/demo-bot.js';
import { useStack } from './e2e-stack.js';
import { SdkBot, eventually, postJson, seedSdkBot } from './sdk-support.js';

const SHOTS = '.local/screenshots/hosted-bot';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Pictures for the bot's cards: a coloured SVG per number, from loopback (the page loads http(s) images only). */
function pictureServer(): Server {
  return createServer((req, res) => {
    const n = Number(/\d+/.exec(req.url ?? '')?.[0] ?? 0);
    res.writeHead(200, { 'content-type': 'image/svg+xml' });
    res.end(`<svg xmlns="http://www.w3.org/2000/svg" width="480" height="270"><rect width="480" height="270" fill="hsl(${n * 70},60%,55%)"/></svg>`);
  });
}

/**
 * The journey of the test, eight nodes: the payload parsed by docs/sdk.md's function node (as written
 * there), a greeting from its members, a number question that re-asks, a condition, a function node that
 * tells the app (app.sendEvent), a carousel, a handoff, and the end once the agent hands back.
 */
function journey(picturesBase: string): BotDefinition {
  return {
    schemaVersion: 1,
    startJourney: 'welcome',
    // The default 50 ms of CPU per function is for production hosts; a CI host busy with other suites once took longer.
    settings: { functionTimeoutMs: 1000 },
    variables: [
      { name: 'profile', type: 'object', default: {} },
      { name: 'age', type: 'number', default: 0 },
      { name: 'told', type: 'boolean', default: false },
    ],
    journeys: [
      {
        slug: 'welcome',
        start: 'profile',
        nodes: [
          { id: 'profile', kind: 'function', code: sdkDocPayloadFunction(), variable: 'profile' },
          { id: 'greet', kind: 'message', text: 'Hello {{variables.profile.userName}}! Your plan is {{variables.profile.plan}}.' },
          {
            id: 'age',
            kind: 'question',
            text: 'How old are you?',
            answer: { type: 'number', min: 1, max: 120 },
            variable: 'age',
            retryPrompt: 'Please give your age as a number.',
            maxRetries: 2,
          },
          { id: 'adult', kind: 'condition', branches: [{ id: 'adult', when: 'variables.age >= 18' }] },
          { id: 'too-young', kind: 'end', text: 'Sorry, these offers are for adults.' },
          {
            id: 'tell-app',
            kind: 'function',
            code: "app.log('telling the app');\napp.sendEvent({ code: 'sendReactNativeEvent', data: { code: 'age.checked', data: JSON.stringify({ age: variables.age, plan: variables.profile.plan }) } });\nreturn true;",
            variable: 'told',
          },
          {
            id: 'offers',
            kind: 'message',
            cards: [1, 2, 3].map((n) => ({
              title: `Offer ${n}`,
              subtitle: `For the ${'{{variables.profile.plan}}'} plan`,
              imageUrl: `${picturesBase}/${n}.svg`,
              buttons: [{ title: `Ask about ${n}`, payload: `offer-${n}` }],
            })),
          },
          { id: 'agent', kind: 'handoff', text: 'A person will take it from here.', reason: 'offers' },
          { id: 'done', kind: 'end', text: 'The bot is back. Thanks, {{variables.profile.userName}}!' },
        ],
        edges: [
          { from: 'profile', to: 'greet' },
          { from: 'greet', to: 'age' },
          { from: 'age', to: 'adult' },
          { from: 'adult', to: 'tell-app', on: 'adult' },
          { from: 'adult', to: 'too-young', on: 'else' },
          { from: 'tell-app', to: 'offers' },
          { from: 'offers', to: 'agent' },
          { from: 'agent', to: 'done' },
        ],
      },
    ],
  };
}

jest.setTimeout(120_000); // a real browser and the bot runtime on a shared machine

describe('a hosted bot in the web chat, as a person uses it (Chromium, the gateway and the bot runtime)', () => {
  const pictures = pictureServer();
  const offersApi = new DemoOffersApi();
  // BOT_HTTP_ALLOW_PRIVATE_ADDRESSES: the demo's http node calls the offers API on loopback, as under `npm run up`.
  const stack = useStack({ worker: true, servers: [offersApi], env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', BOT_HTTP_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  let bot: SdkBot;
  let browser: Browser;
  let runtime: NestFastifyApplication;
  stack.defer(() => new Promise((r) => pictures.close(r)));
  stack.defer(() => browser?.close());
  stack.defer(() => runtime?.close());

  const api = (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') =>
    fetch(`${stack.url}/v1/bots/${bot.botId}${path}`, {
      method,
      headers: { authorization: `Bearer ${bot.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    await new Promise<void>((r) => pictures.listen(0, '127.0.0.1', r));
    // The bot runtime in process, on the stack's Postgres and Redis: it competes for the bot-turn queue.
    runtime = await createBotRuntime({ ...stack.env, BOT_RUNTIME_HEALTH_PORT: '0' });
    bot = await seedSdkBot(stack.gateway);
    const saved = await api('/definition', journey(`http://127.0.0.1:${(pictures.address() as AddressInfo).port}`), 'PUT');
    expect([200, 201]).toContain(saved.status);
    const published = await api('/definition/publish', {});
    expect([200, 201]).toContain(published.status);
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
    mkdirSync(SHOTS, { recursive: true });
  });

  /** The bot's bubbles on the page (the screen-reader prefix left out). */
  const botTexts = async (page: Page) => (await page.locator('.msg.bot').allTextContents()).map((t) => t.replace(/^Bot: /, ''));

  it('runs greeting, re-asked question, condition, app event, carousel and handoff; a reload resumes; the agent answers and hands back', async () => {
    const token = 'hosted_ada_1';
    const payload = { userName: 'Ada', plan: 'gold' };
    // The app's SDK session on the same user: it receives the function node's app.sendEvent.
    const session = new BotSession(
      { botId: bot.botId, ymAuthenticationToken: token, payload, version: 2 },
      { cloudHost: 'chat.example.com', apiBaseUrl: stack.url, fetch, WebSocket: WebSocket as unknown as WebSocketConstructorLike, reconnect: { initialDelayMs: 50, maxDelayMs: 200 } },
    );
    const appEvents: BotEvent[] = [];
    session.onEventFromBot((event) => appEvents.push(event));
    const context: BrowserContext = await browser.newContext({ viewport: { width: 390, height: 780 }, deviceScaleFactor: 2 });
    const errors: string[] = [];
    try {
      await session.start();
      await eventually(() => session.state === 'open' || undefined, 10_000, 'the SDK stream open');

      // The chat page the app opens: the same payload and token (the session's web-view URL, pointed at the loopback gateway).
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(session.webViewUrl().replace('https://chat.example.com', stack.url));

      // 1. Greeting from the payload's members: the sdk.md function node parsed the JSON string into `profile`.
      await page.getByText('Hello Ada! Your plan is gold.').waitFor();
      await page.getByText('How old are you?').waitFor();
      const input = page.getByRole('textbox', { name: 'Message' });

      // 2. A bad answer is re-asked with the retry prompt.
      await input.fill('old enough');
      await input.press('Enter');
      await page.getByText('Please give your age as a number.').waitFor();
      await eventually(async () => ((await page.getByText('How old are you?').count()) === 2 ? true : undefined), 20_000, 'the question asked again');
      await page.screenshot({ path: `${SHOTS}/re-asked-390.png`, fullPage: true });

      // 3. A reload in the middle resumes the journey where it waits: one greeting, the question still open.
      await page.reload();
      await page.getByText('Please give your age as a number.').waitFor();
      expect(await page.getByText('Hello Ada! Your plan is gold.').count()).toBe(1);
      await input.fill('34');
      await input.press('Enter');

      // 4. Condition (34 ≥ 18) → the function node's app.sendEvent reaches the SDK, in the spec's shape.
      const told = await eventually(() => appEvents.find((e) => e.code === 'age.checked'), 20_000, 'the app event');
      expect(told.data).toEqual({ age: 34, plan: 'gold' });

      // 5. The carousel, with its loopback pictures.
      const cards = page.locator('.cards .card');
      await cards.nth(2).waitFor();
      expect(await cards.locator('.card-title').allTextContents()).toEqual(['Offer 1', 'Offer 2', 'Offer 3']);
      expect(await cards.first().locator('.card-subtitle').textContent()).toBe('For the gold plan');
      await page.waitForFunction(() => Array.from(document.querySelectorAll<HTMLImageElement>('.card img')).every((i) => i.complete && i.naturalWidth > 0));

      // 6. Handoff: its text, then the bot is silent; a tap on a card reaches the agent's side only.
      await page.getByText('A person will take it from here.').waitFor();
      await page.screenshot({ path: `${SHOTS}/carousel-handoff-390.png`, fullPage: true });
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);

      const db = stack.gateway.get(PrismaService, { strict: false });
      const conversation = await db.conversation.findFirstOrThrow({ where: { botId: bot.botId, channel: 'web', userId: chatUserId(token) } });
      const state = await eventually(
        async () => {
          const res = await api(`/conversations/${conversation.id}/bot-state`);
          const body = (await res.json()) as { status?: string };
          return res.status === 200 && body.status === 'handoff' ? body : undefined;
        },
        10_000,
        'the conversation in handoff',
      );
      expect(state).toMatchObject({ status: 'handoff', journey: 'welcome', node: 'agent' });

      const botBubbles = (await botTexts(page)).length;
      await page.getByRole('button', { name: 'Ask about 2' }).click();
      await page.locator('.msg.user', { hasText: 'Ask about 2' }).waitFor();
      await eventually(
        async () =>
          (await db.conversationMessage.findMany({ where: { conversationId: conversation.id, direction: 'inbound' } })).find((m) => (m.content as { payload?: string }).payload === 'offer-2'),
        10_000,
        'the tap recorded for the agent',
      );

      // The agent answers through the reply API; the page shows it.
      const reply = await api(`/conversations/${conversation.id}/messages`, { text: 'Hi Ada, this is Sam. Offer 2 is yours.' });
      expect(reply.status).toBe(202);
      await page.getByText('Hi Ada, this is Sam. Offer 2 is yours.').waitFor();
      // Nothing from the bot between the handoff and the agent's reply.
      expect((await botTexts(page)).slice(botBubbles)).toEqual(['Hi Ada, this is Sam. Offer 2 is yours.']);

      // Handback: the journey goes on after the handoff node, to its end.
      const back = await api(`/conversations/${conversation.id}/handback`, {});
      expect([200, 202]).toContain(back.status);
      await page.getByText('The bot is back. Thanks, Ada!').waitFor();
      await page.screenshot({ path: `${SHOTS}/handed-back-390.png`, fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.screenshot({ path: `${SHOTS}/handed-back-1280.png`, fullPage: true });

      // Every bot message exactly once, in the journey's order.
      expect(await botTexts(page)).toEqual([
        'Hello Ada! Your plan is gold.',
        'How old are you?',
        'Please give your age as a number.',
        'How old are you?',
        'A person will take it from here.',
        'Hi Ada, this is Sam. Offer 2 is yours.',
        'The bot is back. Thanks, Ada!',
      ]);
      expect(await page.locator('.cards').count()).toBe(1);
      expect(appEvents.filter((e) => e.code === 'age.checked')).toHaveLength(1);

      // The trace names every node the journey ran, with its outcome.
      const trace = await api(`/conversations/${conversation.id}/trace`);
      expect(trace.status).toBe(200);
      const text = JSON.stringify(await trace.json());
      for (const node of ['profile', 'greet', 'age', 'adult', 'tell-app', 'offers', 'agent', 'done']) expect(text).toContain(`"${node}"`);
      expect(errors).toEqual([]);
    } finally {
      session.closeBot();
      await context.close();
    }
  });

  it("npm run up's demo bot in the browser: the offers journey through its http node, a re-asked e-mail, and the feedback journey", async () => {
    const demo = await seedSdkBot(stack.gateway);
    const headers = { authorization: `Bearer ${demo.apiKey}`, 'content-type': 'application/json' };
    const deployed = await fetch(`${stack.url}/v1/bots/${demo.botId}/versions`, { method: 'POST', headers, body: JSON.stringify({ definition: demoBotDefinition(offersApi.baseUrl) }) });
    expect(deployed.status).toBe(201);
    const secret = await fetch(`${stack.url}/v1/bots/${demo.botId}/secrets/DEMO_API_TOKEN`, { method: 'PUT', headers, body: JSON.stringify({ value: offersApi.token }) });
    expect(secret.status).toBeLessThan(300);
    const context = await browser.newContext({ viewport: { width: 390, height: 780 }, deviceScaleFactor: 2 });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      const payload = encodeURIComponent(JSON.stringify({ userName: 'Grace' }));
      await page.goto(`${stack.url}/web/bot?botId=${demo.botId}&version=2&enableSpeech=false&payload=${payload}#ymAuthenticationToken=demo_grace_1`);
      await page.getByText('Hi Grace! I am the demo bot').waitFor();
      await page.getByRole('button', { name: 'See offers' }).click();
      await page.getByText('Three offers from the local offers API').waitFor();
      await page.locator('.cards .card').nth(2).waitFor();
      expect(await page.locator('.cards .card .card-title').allTextContents()).toEqual(['Summer hat', 'Beach towel', 'Sunglasses']);
      const input = page.getByRole('textbox', { name: 'Message' });
      await input.fill('grace at example');
      await input.press('Enter');
      await page.getByText('That does not look like an e-mail address').waitFor();
      await input.fill('grace@example.com');
      await input.press('Enter');
      await page.getByText('Done: they are on their way to grace@example.com').waitFor();
      await page.getByRole('button', { name: '5' }).last().click();
      await page.getByText('Glad you like it! Write anything to start again.').waitFor();
      await page.screenshot({ path: `${SHOTS}/demo-bot-390.png`, fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.screenshot({ path: `${SHOTS}/demo-bot-1280.png`, fullPage: true });
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a bad definition is refused with errors naming the journey, the node and the field', async () => {
    const bad = journey('http://127.0.0.1:1');
    bad.journeys[0].edges.push({ from: 'done', to: 'nowhere' });
    const res = await api('/definition', bad, 'PUT');
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('nowhere');
    expect((await postJson(`${stack.url}/v1/bots/${bot.botId}/definition/publish`, {})).status).toBe(401); // no API key
  });
});
