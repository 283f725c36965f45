import { AxeBuilder } from '@axe-core/playwright';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { buildWebViewUrl, type BotConfig } from '../libs/sdk-core/src/index.js';
import { chatUserId } from '@platform/contracts';
import { PrismaService } from '@platform/database';
import { EchoBot } from '@platform/sandbox';
import { WEBHOOK_TEST_ENV, signWebhook, whatsappNotification } from '@platform/testing';
import { CHAT_SHOTS, launchChatBrowser, startEchoBot } from './chat-page-browser.js';
import { useStack } from './e2e-stack.js';
import { eventually, postJson } from './sdk-support.js';

/** Pictures for the bot's cards: a coloured SVG per number, from loopback (the page loads http(s) images only). */
function pictureServer(): Server {
  return createServer((req, res) => {
    const n = Number(/\d+/.exec(req.url ?? '')?.[0] ?? 0);
    // Late, as on a phone network: each picture grows its message after the page has scrolled to it.
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      res.end(`<svg xmlns="http://www.w3.org/2000/svg" width="480" height="270"><rect width="480" height="270" fill="hsl(${n * 70},60%,55%)"/></svg>`);
    }, 300);
  });
}

const inboundText = (phoneNumberId: string, from: string, wamid: string, body: string) =>
  whatsappNotification(
    {
      contacts: [{ profile: { name: 'Ada' }, wa_id: from }],
      messages: [{ from, id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body } }],
    },
    { phoneNumberId },
  );

/** The user's bubbles' words, in page order (without their time and state line). */
function userTexts(page: Page): Promise<string[]> {
  return page.locator('.msg.user').evaluateAll((nodes) =>
    nodes.map((n) => {
      const copy = n.cloneNode(true) as HTMLElement;
      copy.querySelector('.meta')?.remove();
      return copy.textContent ?? '';
    }),
  );
}

/** How far (px) the conversation is from showing its newest message, and the last message's box against the list's. */
function distanceFromEnd(page: Page): Promise<{ gap: number; lastBottom: number; logBottom: number }> {
  return page.evaluate(() => {
    const log = document.getElementById('log')!;
    const last = log.lastElementChild!.getBoundingClientRect();
    return { gap: log.scrollHeight - log.scrollTop - log.clientHeight, lastBottom: Math.round(last.bottom), logBottom: Math.round(log.getBoundingClientRect().bottom) };
  });
}

/** The newest carousel's pictures have loaded (older ones, scrolled away, load lazily). */
const imagesLoaded = (page: Page) =>
  page.waitForFunction(() => {
    const lists = document.querySelectorAll('#log .cards');
    const imgs = Array.from(lists[lists.length - 1]?.querySelectorAll<HTMLImageElement>('img') ?? []);
    return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0);
  });

jest.setTimeout(120_000); // a real browser on a shared machine

describe('conversations as a person uses them: the hosted chat page in a real browser, and WhatsApp', () => {
  const pictures = pictureServer();
  const stack = useStack({
    cloud: true,
    worker: true,
    seed: true,
    env: { ...WEBHOOK_TEST_ENV, CALLBACK_BACKOFF_MS: '200' },
  });
  let bot: EchoBot;
  let browser: Browser;
  stack.defer(() => new Promise((r) => pictures.close(r)));
  stack.defer(() => bot?.close());
  stack.defer(() => browser?.close());

  beforeAll(async () => {
    await new Promise<void>((r) => pictures.listen(0, '127.0.0.1', r));
    const picturesBase = `http://127.0.0.1:${(pictures.address() as AddressInfo).port}`;
    bot = await startEchoBot(stack.gateway, { apiBaseUrl: stack.url, botId: stack.seed.botId, apiKey: stack.seed.apiKey, pictureUrl: (n) => `${picturesBase}/${n}.svg` });
    browser = await launchChatBrowser();
  });

  /** The address the SDK builds, with its https origin pointed at the loopback gateway. */
  function chatUrl(token: string, config: Partial<BotConfig> = {}): string {
    const sdkUrl = buildWebViewUrl(
      { botId: stack.seed.botId, ymAuthenticationToken: token, payload: { userName: 'Ada', JourneySlug: 'welcome' }, enableSpeech: true, ...config },
      { cloudHost: 'chat.example.com' },
    );
    return sdkUrl.replace('https://chat.example.com', stack.url);
  }

  async function openPage(context: BrowserContext, token: string, config: Partial<BotConfig> = {}): Promise<Page> {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(chatUrl(token, config));
    return page;
  }

  it('greets, echoes typed text, answers a quick reply with a carousel, and keeps the transcript across a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 780 }, deviceScaleFactor: 2 });
    const errors: string[] = [];
    const page = await openPage(context, 'user_ada_1');
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));

    await page.getByText('Hello! I am the echo bot').waitFor();
    const input = page.getByRole('textbox', { name: 'Message' });
    expect(await page.getByRole('button', { name: 'Speak a message' }).isVisible()).toBe(true); // enableSpeech=true, and Chromium has the Web Speech API
    await input.fill('hello <b>bot</b>');
    await input.press('Enter');
    await page.getByText('You said: hello <b>bot</b>').waitFor(); // escaped: shown as text, never parsed
    expect(await page.locator('.msg b').count()).toBe(0);

    await page.getByRole('button', { name: 'Show a carousel' }).last().click();
    const cards = page.locator('.cards .card');
    await cards.nth(2).waitFor();
    expect(await cards.count()).toBe(3);
    expect(await cards.first().locator('.card-title').textContent()).toBe('Card 1');
    await page.waitForFunction(() => Array.from(document.querySelectorAll<HTMLImageElement>('.card img')).every((i) => i.complete && i.naturalWidth > 0));
    await page.screenshot({ path: `${CHAT_SHOTS}/phone-390.png`, fullPage: true });

    const axe = await new AxeBuilder({ page }).analyze();
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    await page.reload();
    await page.getByText('You said: hello <b>bot</b>').waitFor();
    await page.locator('.cards .card').nth(2).waitFor();
    // Resumed, not restarted: one greeting only.
    expect(await page.getByText('Hello! I am the echo bot').count()).toBe(1);
    expect(await userTexts(page)).toEqual(['You: hello <b>bot</b>', 'You: Show a carousel']);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${CHAT_SHOTS}/desktop-1280.png`, fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('serves the page with a strict Content-Security-Policy and bundles under 50 KB compressed', async () => {
    const res = await fetch(`${stack.url}/web/bot?botId=${stack.seed.botId}`, { headers: { 'accept-encoding': 'identity' } });
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    const { gzipSync } = await import('node:zlib');
    let total = 0;
    for (const file of ['chat.js', 'chat.css', 'embed.js']) {
      const asset = await fetch(`${stack.url}/web/bot/${file}`);
      expect(asset.status).toBe(200);
      total += gzipSync(Buffer.from(await asset.arrayBuffer())).length;
    }
    expect(total).toBeLessThan(50 * 1024);
    expect((await fetch(`${stack.url}/web/bot/index.html`)).status).toBe(404);
  });

  it('opens the same chat from the <script> embed on another site', async () => {
    const site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<!doctype html><html lang="en"><title>Shop</title><body><h1>Shop</h1><script src="${stack.url}/web/bot/embed.js" data-bot-id="${stack.seed.botId}" data-token="user_embed_1"></script></body></html>`,
      );
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
      await page.getByRole('button', { name: 'Open chat' }).click();
      const chat = page.frameLocator('iframe[title="Chat"]');
      await chat.getByText('Hello! I am the echo bot').waitFor();
      await chat.getByRole('button', { name: 'Close chat' }).click();
      await eventually(async () => (await page.locator('iframe[title="Chat"]').isHidden()) || undefined, 5000, 'widget hidden');
    } finally {
      await context.close();
      await new Promise((r) => site.close(r));
    }
  });

  /** What the bot received from the chat user of this token, in arrival order. */
  function receivedTexts(token: string): string[] {
    return bot.server.delivered
      .filter((c) => c.body.type === 'message.received' && (c.body as { userId?: string }).userId === chatUserId(token))
      .map((c) => String((c.body as { message: { content: { text: string } } }).message.content.text));
  }

  it('a long conversation typed quickly: carousels keep their size, messages arrive in the order typed, the newest stays in view after pictures load and after a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 780 }, deviceScaleFactor: 2 });
    const page = await openPage(context, 'user_long_1');
    await page.getByText('Hello! I am the echo bot').waitFor();
    const input = page.getByRole('textbox', { name: 'Message' });
    const typed = [...Array.from({ length: 8 }, (_, i) => `line ${i + 1}`), 'carousel', ...Array.from({ length: 6 }, (_, i) => `more ${i + 1}`), 'carousel'];
    for (const text of typed) {
      await input.fill(text);
      await input.press('Enter'); // no waiting for answers: as fast as a person can type
    }
    // Each bubble is on screen at once, in the order typed, before the bot has answered most of them.
    expect(await userTexts(page)).toEqual(typed.map((t) => `You: ${t}`));
    await eventually(() => (receivedTexts('user_long_1').length === typed.length ? true : undefined), 30_000, 'all messages at the bot');
    expect(receivedTexts('user_long_1')).toEqual(typed);
    await eventually(async () => ((await page.locator('.cards').count()) === 2 && (await page.getByText('You said: more 6').count()) === 1) || undefined, 20_000, 'both carousels');
    await imagesLoaded(page);
    await page.waitForTimeout(200);
    const sizes = await page.locator('.cards').evaluateAll((lists) => lists.map((l) => ({ list: l.getBoundingClientRect().height, card: l.querySelector('.card')!.getBoundingClientRect().height })));
    for (const { list, card } of sizes) {
      expect(card).toBeGreaterThan(200);
      expect(list).toBeGreaterThanOrEqual(card); // the list holds its cards: not the 44 px sliver of before
    }
    let end = await distanceFromEnd(page);
    expect(end.gap).toBeLessThanOrEqual(2);
    expect(end.lastBottom).toBeLessThanOrEqual(end.logBottom);
    await page.screenshot({ path: `${CHAT_SHOTS}/long-conversation-390.png` });

    await page.reload();
    await page.getByText('You said: more 6').waitFor();
    await imagesLoaded(page);
    await page.waitForTimeout(200);
    end = await distanceFromEnd(page);
    expect(end.gap).toBeLessThanOrEqual(2);
    expect((await page.locator('.cards').last().boundingBox())!.height).toBeGreaterThan(200);

    // Scrolled up to read: a new message does not move the page; "New messages ↓" brings the reader down.
    await page.locator('#log').evaluate((log) => (log.scrollTop = 0));
    await page.waitForTimeout(100);
    const call = bot.server.delivered.find((c) => (c.body as { userId?: string }).userId === chatUserId('user_long_1'))!;
    const sent = await postJson(
      `${stack.url}/v1/bots/${stack.seed.botId}/conversations/${String(call.body.conversationId)}/messages`,
      { text: 'A message from the bot, later' },
      { authorization: `Bearer ${stack.seed.apiKey}` },
    );
    expect(sent.status).toBeLessThan(300);
    const newer = page.getByRole('button', { name: 'New messages ↓' });
    await newer.waitFor();
    expect(await page.locator('#log').evaluate((log) => log.scrollTop)).toBe(0);
    await newer.click();
    expect((await distanceFromEnd(page)).gap).toBeLessThanOrEqual(2);
    await newer.waitFor({ state: 'hidden' });
    await context.close();
  });

  it('offline: typed messages wait as pending (kept in the tab), go in order when back, and a refused one offers "tap to retry"', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 780 } });
    const page = await openPage(context, 'user_offline_1');
    await page.getByText('Hello! I am the echo bot').waitFor();
    const input = page.getByRole('textbox', { name: 'Message' });
    await context.setOffline(true);
    await page.getByText('You are offline').waitFor();
    for (const text of ['first while offline', 'second while offline']) {
      await input.fill(text);
      await input.press('Enter');
    }
    expect(await page.locator('.msg.user.pending').count()).toBe(2);
    expect(await page.locator('.msg.user.pending .state').first().textContent()).toContain('Waiting for connection');
    const kept = await page.evaluate(() => Object.entries(sessionStorage).find(([k]) => k.endsWith(':outbox'))?.[1]);
    expect(JSON.parse(kept!).map((i: { text: string }) => i.text)).toEqual(['first while offline', 'second while offline']);
    await page.screenshot({ path: `${CHAT_SHOTS}/offline-pending-390.png` });
    await page.waitForTimeout(1000);
    expect(receivedTexts('user_offline_1')).toEqual([]);

    await context.setOffline(false);
    await page.getByText('You said: second while offline').waitFor();
    expect(receivedTexts('user_offline_1')).toEqual(['first while offline', 'second while offline']);
    expect(await page.locator('.msg.user.pending').count()).toBe(0);
    // Each user bubble kept its place: before the bot's answer to it.
    const order = await page.locator('.msg').evaluateAll((nodes) => nodes.map((n) => (n.textContent ?? '').replace(/\d{1,2}[:.]\d{2}.*$/, '').trim()));
    expect(order.indexOf('You: first while offline')).toBeLessThan(order.indexOf('Bot: You said: first while offline'));

    // The server refuses one: failed – tap to retry; the retry goes once it is accepted.
    let refuse = true;
    await page.route('**/sessions/*/messages', (route) =>
      refuse && route.request().method() === 'POST'
        ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ message: 'Refused for the test', status: 'error' }) })
        : route.continue(),
    );
    await input.fill('refused at first');
    await input.press('Enter');
    const retry = page.getByRole('button', { name: 'Failed – tap to retry' });
    await retry.waitFor();
    await page.screenshot({ path: `${CHAT_SHOTS}/failed-retry-390.png` });
    refuse = false;
    await retry.click();
    await page.getByText('You said: refused at first').waitFor();
    expect(receivedTexts('user_offline_1')).toEqual(['first while offline', 'second while offline', 'refused at first']);
    expect(await page.locator('.msg.user.failed').count()).toBe(0);
    await context.close();
  });

  it('a slow network: bubbles show at once as pending and reach the bot in order, once each', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 780 } });
    const page = await openPage(context, 'user_slow_1');
    await page.getByText('Hello! I am the echo bot').waitFor();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // 2 s each way: on a loaded host, typing three messages can take longer than a shorter round trip.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 2000, downloadThroughput: 40_000, uploadThroughput: 20_000 });
    const input = page.getByRole('textbox', { name: 'Message' });
    const typed = ['slow one', 'slow two', 'slow three'];
    for (const text of typed) {
      await input.fill(text);
      await input.press('Enter');
      // On screen at once, before the server confirmed it.
      expect(await page.locator('.msg.user').last().getAttribute('class')).toContain('pending');
    }
    expect(await userTexts(page)).toEqual(typed.map((t) => `You: ${t}`));
    await page.getByText('You said: slow three').waitFor({ timeout: 60_000 });
    expect(receivedTexts('user_slow_1')).toEqual(typed);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await context.close();
  });

  it.each(['#1F8A3F', '#FFD54F', '#FFFFFF', '#000000', '#E91E63', '#808080', '#FF1F8A3F'])(
    'brand colour %s: a readable title and close button, and axe finds nothing serious at 390 and 1280 px',
    async (color) => {
      const context = await browser.newContext({ viewport: { width: 390, height: 780 } });
      const page = await openPage(context, `user_brand_${color.slice(1)}`, { statusBarColor: color, closeButtonColor: '#ffffff' });
      await page.getByText('Hello! I am the echo bot').waitFor();
      await page.getByRole('textbox', { name: 'Message' }).fill('https://example.com/offers?x=1, and more');
      await page.getByRole('textbox', { name: 'Message' }).press('Enter');
      await page.getByText('You said:').waitFor();
      const link = page.locator('.msg.bot a').first();
      expect(await link.getAttribute('href')).toBe('https://example.com/offers?x=1');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        const axe = await new AxeBuilder({ page }).analyze();
        const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(serious.map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      }
      if (color === '#1F8A3F') await page.screenshot({ path: `${CHAT_SHOTS}/brand-1F8A3F-1280.png` });
      await context.close();
    },
  );

  it('a 20 KB payload reaches the bot through the fragment; a bad or too long link shows a page for people', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 780 } });
    const notes = 'n'.repeat(20 * 1024);
    const page = await openPage(context, 'user_payload_1', { payload: { userName: 'Ada', notes } });
    await page.getByText('Hello! I am the echo bot').waitFor();
    const started = bot.server.delivered.find((c) => c.body.type === 'session.started' && (c.body as { userId?: string }).userId === chatUserId('user_payload_1'))!;
    expect(JSON.parse(String((started.body as { payload: string }).payload)).notes).toBe(notes);

    // A link from before the payload moved to the fragment, too long for the server: a page, not JSON.
    const old = `${stack.url}/web/bot?botId=${stack.seed.botId}&payload=${encodeURIComponent(JSON.stringify({ notes: 'x'.repeat(40 * 1024) }))}#ymAuthenticationToken=user_payload_2`;
    const answer = await page.goto(old);
    expect(answer!.status()).toBe(431);
    await page.getByRole('heading', { name: 'This chat link does not work' }).waitFor();
    expect(await page.locator('body').textContent()).not.toContain('"status"');
    await page.screenshot({ path: `${CHAT_SHOTS}/link-too-long-390.png` });

    // A link without its token, or with a damaged payload: the page says so, in words.
    for (const hash of ['', '#ymAuthenticationToken=user_payload_3&payload=%7B%22cut']) {
      await page.goto(`${stack.url}/web/bot?botId=${stack.seed.botId}${hash}`);
      await page.getByRole('heading', { name: 'This chat link does not work' }).waitFor();
      expect(await page.getByRole('textbox', { name: 'Message' }).isHidden()).toBe(true);
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    }
    await page.screenshot({ path: `${CHAT_SHOTS}/bad-link-390.png` });
    await context.close();
  });

  it('WhatsApp: a signed inbound message reaches the bot once, and its reply reaches the user through the Cloud API', async () => {
    const from = '919876543210';
    const body = JSON.stringify(inboundText(stack.seed.phoneNumberId, from, 'wamid.INBOUND-1', 'hi from WhatsApp'));
    const headers = { 'x-hub-signature-256': signWebhook(body) };
    for (let i = 0; i < 2; i++) expect((await postJson(`${stack.url}/webhooks/whatsapp`, body, headers)).status).toBe(200);
    const call = await bot.server.waitFor((c) => c.body.type === 'message.received' && (c.body as { channel?: string }).channel === 'whatsapp');
    expect(call.signatureValid).toBe(true);
    expect(call.body).toMatchObject({ userId: from, message: { direction: 'inbound', type: 'text', content: { text: 'hi from WhatsApp' } } });
    const sent = await eventually(() => stack.cloud.messages.find((m) => (m.body as { to?: string }).to === from), 10_000, 'reply at the Cloud API');
    expect(sent.body).toMatchObject({ messaging_product: 'whatsapp', to: from, type: 'interactive', interactive: { type: 'button', body: { text: 'You said: hi from WhatsApp' } } });
    const db = stack.gateway.get(PrismaService, { strict: false });
    const conversationId = String(call.body.conversationId);
    await new Promise((r) => setTimeout(r, 500)); // the copy Meta sent again had time to be (wrongly) recorded
    expect(await db.conversationMessage.count({ where: { conversationId, direction: 'inbound' } })).toBe(1);
    expect(bot.server.delivered.filter((c) => c.body.type === 'message.received' && (c.body as { channel?: string }).channel === 'whatsapp')).toHaveLength(1);
    const reply = await eventually(async () => (await db.conversationMessage.findFirst({ where: { conversationId, direction: 'outbound', status: 'sent' } })) ?? undefined, 10_000, 'reply sent');
    expect(reply.providerMessageId).toMatch(/^wamid\./);

    // Outside the 24-hour window only a template may go: 422 naming it.
    await db.conversation.update({ where: { id: conversationId }, data: { lastInboundAt: new Date(Date.now() - 25 * 3600 * 1000) } });
    const late = await postJson(`${stack.url}/v1/bots/${stack.seed.botId}/conversations/${conversationId}/messages`, { text: 'late' }, { authorization: `Bearer ${stack.seed.apiKey}` });
    expect(late.status).toBe(422);
    expect(await late.json()).toMatchObject({ status: 'error', message: expect.stringContaining('template') });
  });
});
