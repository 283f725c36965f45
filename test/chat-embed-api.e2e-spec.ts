import { AxeBuilder } from '@axe-core/playwright';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { Browser, Page } from 'playwright-core';
import { chatUserId } from '@platform/contracts';
import { EchoBot } from '@platform/sandbox';
import { CHAT_SHOTS, launchChatBrowser, startEchoBot } from './chat-page-browser.js';
import { useStack } from './e2e-stack.js';
import { SdkBot, eventually, postJson, seedSdkBot, sendBotEvent } from './sdk-support.js';

jest.setTimeout(120_000); // a real browser on a shared machine

type Logged = Array<[string, unknown]>;

/** The embed's documented API (window.BotChatWidget) as a site uses it, in Chromium, on a site of another origin. */
describe('the web embed API: open, close, events, unread count', () => {
  const stack = useStack({ worker: true, env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', CALLBACK_BACKOFF_MS: '200' } });
  let seed: SdkBot;
  let echo: EchoBot;
  let browser: Browser;
  let site: Server;
  let siteUrl = '';
  const token = 'embed_api_user_1';
  const echoLog: string[] = [];
  stack.defer(() => echo?.close());
  stack.defer(() => browser?.close());
  stack.defer(() => new Promise((r) => site?.close(r)));

  beforeAll(async () => {
    seed = await seedSdkBot(stack.gateway);
    echo = await startEchoBot(stack.gateway, { apiBaseUrl: stack.url, botId: seed.botId, apiKey: seed.apiKey, log: (line) => echoLog.push(line) });
    // The site listens before the async script has loaded: the botchat:load event hands it the API.
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><html lang="en"><title>Shop</title><body><main><h1>Shop</h1></main>
<script>
window.__log = [];
window.addEventListener('botchat:load', (e) => {
  for (const type of ['open', 'close', 'ready', 'message', 'unread', 'event']) e.detail.on(type, (detail) => window.__log.push([type, detail === undefined ? null : detail]));
});
</script>
<script src="${stack.url}/web/bot/embed.js" data-bot-id="${seed.botId}" data-token="${token}" data-payload='{"userName":"Ada"}' data-preload="true" async></script></body></html>`);
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    browser = await launchChatBrowser();
  });

  const log = (page: Page) => page.evaluate(() => (window as unknown as { __log: Logged }).__log);
  const types = async (page: Page) => (await log(page)).map(([type]) => type);
  const api = <T>(page: Page, fn: string) => page.evaluate((f) => (window as unknown as { BotChatWidget: Record<string, unknown> }).BotChatWidget[f] as T, fn);
  const call = (page: Page, fn: string) => page.evaluate((f) => ((window as unknown as { BotChatWidget: Record<string, () => void> }).BotChatWidget[f] as () => void)(), fn);

  it('a site opens and closes the chat, hears its events, and counts the bot messages that came while it was closed', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(siteUrl);

    // Preloaded hidden: the page is ready, its greeting came while closed, so it is unread.
    await eventually(async () => (await types(page)).includes('ready') || undefined, 15_000, 'ready');
    await eventually(async () => ((await api<number>(page, 'unreadCount')) === 1 ? true : undefined), 45_000, 'the greeting unread').catch((err: Error) => {
      // What the bot was told and what its replies met: a lost greeting and a late one read differently.
      const calls = echo.server.delivered.map((c) => (c.body as { type?: string }).type);
      throw new Error(`${err.message}; the bot's webhook calls: ${JSON.stringify(calls)}; bot's log: ${JSON.stringify(echoLog)}`);
    });
    expect(await api<boolean>(page, 'isOpen')).toBe(false);
    const launcher = page.getByRole('button', { name: 'Open chat, 1 unread message' });
    await launcher.waitFor();
    expect(await page.locator('iframe[title="Chat"]').isHidden()).toBe(true);

    await call(page, 'open');
    const frame = page.frameLocator('iframe[title="Chat"]');
    await frame.getByText('Hello! I am the echo bot').waitFor();
    expect(await api<boolean>(page, 'isOpen')).toBe(true);
    expect(await api<number>(page, 'unreadCount')).toBe(0);
    await page.getByRole('button', { name: 'Open chat', exact: true }).waitFor();

    // The bot's app.sendEvent for the web reaches the site's listener, decoded.
    expect((await sendBotEvent(stack.url, seed, chatUserId(token), 'cart.updated', { items: 2 }, 'sendWebEvent')).status).toBe(202);
    await eventually(async () => (await log(page)).find(([type]) => type === 'event'), 20_000, 'event at the site');
    const event = (await log(page)).find(([type]) => type === 'event')![1] as { code: string; data: unknown; id: string };
    expect({ code: event.code, data: event.data }).toEqual({ code: 'cart.updated', data: { items: 2 } });
    expect(event.id).toMatch(/^\d+-\d+$/);

    // Closed by the API: a bot message now counts, and the launcher says so.
    await call(page, 'close');
    await eventually(async () => (await page.locator('iframe[title="Chat"]').isHidden()) || undefined, 5000, 'hidden');
    const conversationId = String(echo.server.delivered.find((c) => (c.body as { userId?: string }).userId === chatUserId(token))!.body.conversationId);
    const sent = await postJson(`${stack.url}/v1/bots/${seed.botId}/conversations/${conversationId}/messages`, { text: 'Your order shipped' }, { authorization: `Bearer ${seed.apiKey}` });
    expect(sent.status).toBe(202);
    await eventually(async () => ((await api<number>(page, 'unreadCount')) === 1 ? true : undefined), 20_000, 'one unread');
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await page.screenshot({ path: `${CHAT_SHOTS}/embed-unread-1280.png` });

    // The launcher opens it again and clears the count; the page's close button closes it.
    await page.getByRole('button', { name: 'Open chat, 1 unread message' }).click();
    await frame.getByText('Your order shipped').waitFor();
    expect(await api<number>(page, 'unreadCount')).toBe(0);
    await frame.getByRole('button', { name: 'Close chat' }).click();
    await eventually(async () => (await api<boolean>(page, 'isOpen')) === false || undefined, 5000, 'closed by the page');

    // closeBot / reloadBot reach the page.
    await call(page, 'open');
    await call(page, 'closeBot');
    await frame.getByText('Chat closed.').waitFor();
    await call(page, 'reloadBot');
    await eventually(async () => (await types(page)).filter((t) => t === 'ready').length === 2 || undefined, 10_000, 'ready again');

    const order = (await types(page)).filter((t) => t !== 'message');
    expect(order).toEqual(['ready', 'unread', 'open', 'unread', 'event', 'close', 'unread', 'open', 'unread', 'close', 'open', 'ready']);
    expect((await log(page)).filter(([type]) => type === 'unread').map(([, n]) => n)).toEqual([1, 0, 1, 0]);
    // A listener removed with what on() returned hears nothing more.
    const heard = await page.evaluate(() => {
      const w = window as unknown as { BotChatWidget: { on(t: string, l: () => void): () => void; close(): void; open(): void } };
      let n = 0;
      const off = w.BotChatWidget.on('close', () => n++);
      w.BotChatWidget.close();
      off();
      w.BotChatWidget.open();
      w.BotChatWidget.close();
      return n;
    });
    expect(heard).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });
});
