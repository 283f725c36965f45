import { AxeBuilder } from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { Browser, BrowserContext, Page, chromium } from 'playwright-core';
import { CallbackSettingsService } from '../apps/gateway/src/callbacks/callback-settings.service.js';
import { buildWebViewUrl } from '../libs/sdk-core/src/index.js';
import { PrismaService } from '@platform/database';
import { EchoBot } from '@platform/sandbox';
import { WEBHOOK_TEST_ENV, signWebhook, whatsappNotification } from '@platform/testing';
import { useStack } from './e2e-stack.js';
import { eventually, postJson } from './sdk-support.js';

const SHOTS = '.local/screenshots/chat';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Pictures for the bot's cards: a coloured SVG per number, from loopback (the page loads http(s) images only). */
function pictureServer(): Server {
  return createServer((req, res) => {
    const n = Number(/\d+/.exec(req.url ?? '')?.[0] ?? 0);
    res.writeHead(200, { 'content-type': 'image/svg+xml' });
    res.end(`<svg xmlns="http://www.w3.org/2000/svg" width="480" height="270"><rect width="480" height="270" fill="hsl(${n * 70},60%,55%)"/></svg>`);
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

jest.setTimeout(90_000); // a real browser on a shared machine

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
    bot = new EchoBot({ apiBaseUrl: stack.url, botId: stack.seed.botId, apiKey: stack.seed.apiKey, pictureUrl: (n) => `${picturesBase}/${n}.svg` });
    const hook = await bot.listen();
    bot.server.secret = (await stack.gateway.get(CallbackSettingsService, { strict: false }).setUrl(stack.seed.botId, 'webhook', hook)).secret!;
    // Playwright gives the browser a fresh temporary profile (--user-data-dir) of its own and removes it on close.
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
    mkdirSync(SHOTS, { recursive: true });
  });

  /** The address the SDK builds, with its https origin pointed at the loopback gateway. */
  function chatUrl(token: string): string {
    const sdkUrl = buildWebViewUrl(
      { botId: stack.seed.botId, ymAuthenticationToken: token, payload: { userName: 'Ada', JourneySlug: 'welcome' }, enableSpeech: true },
      { cloudHost: 'chat.example.com' },
    );
    return sdkUrl.replace('https://chat.example.com', stack.url);
  }

  async function openPage(context: BrowserContext, token: string): Promise<Page> {
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(chatUrl(token));
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
    await page.screenshot({ path: `${SHOTS}/phone-390.png`, fullPage: true });

    const axe = await new AxeBuilder({ page }).analyze();
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    await page.reload();
    await page.getByText('You said: hello <b>bot</b>').waitFor();
    await page.locator('.cards .card').nth(2).waitFor();
    // Resumed, not restarted: one greeting only.
    expect(await page.getByText('Hello! I am the echo bot').count()).toBe(1);
    expect(await page.locator('.msg.user').allTextContents()).toEqual(['You: hello <b>bot</b>', 'You: Show a carousel']);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${SHOTS}/desktop-1280.png`, fullPage: true });
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
