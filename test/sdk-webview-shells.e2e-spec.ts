import { jest } from '@jest/globals';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { createBotChat } from '../libs/sdk-react-native/src/bot-chat-controller.js';
import { create as createCordovaChat } from '../libs/sdk-cordova/src/index.js';
import type { InAppBrowserLike } from '../libs/sdk-cordova/src/index.js';
import { chatUserId } from '@platform/contracts';
import { EchoBot } from '@platform/sandbox';
import { CHAT_SHOTS, launchChatBrowser, newChatPage, startEchoBot } from './chat-page-browser.js';
import { useStack } from './e2e-stack.js';
import { SdkBot, eventually, seedSdkBot, sendBotEvent } from './sdk-support.js';

const GREETING = 'Hello! I am the echo bot';

type Events = { logout: { actionType: string }; 'order.updated': { orderId: string } };

jest.setTimeout(120_000); // a real browser on a shared machine

/**
 * The React Native package and the Cordova plugin, each driving the real hosted chat page in Chromium:
 * the page gets the bridge a web view gives it (window.ReactNativeWebView / window.cordova_iab), and the
 * package's controller runs on the host side, so every page ↔ app message crosses for real.
 */
describe('the SDKs that host the chat page: React Native and Cordova, through the real page', () => {
  const stack = useStack({ worker: true, env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', CALLBACK_BACKOFF_MS: '200' } });
  let seed: SdkBot;
  let echo: EchoBot;
  let browser: Browser;
  const started: Array<{ payload: string }> = [];
  const contexts: BrowserContext[] = [];
  stack.defer(() => echo?.close());
  stack.defer(() => browser?.close());

  beforeAll(async () => {
    seed = await seedSdkBot(stack.gateway);
    echo = await startEchoBot(stack.gateway, { apiBaseUrl: stack.url, botId: seed.botId, apiKey: seed.apiKey });
    const answer = echo.server.onDelivered!;
    echo.server.onDelivered = (call) => {
      const body = call.body as { type?: string; payload?: string };
      if (body.type === 'session.started') started.push({ payload: body.payload ?? '' });
      answer(call);
    };
    browser = await launchChatBrowser();
  });

  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close();
  });

  const newPage = () => newChatPage(browser, contexts);

  const input = (page: Page) => page.getByRole('textbox', { name: 'Message' });

  async function say(page: Page, text: string): Promise<void> {
    await eventually(async () => (await input(page).isEnabled()) || undefined, 10_000, 'composer enabled');
    await input(page).fill(text);
    await input(page).press('Enter');
    await page.getByText(`You said: ${text}`).waitFor();
  }

  it('React Native: bot events reach the app, closeBot / reloadBot reach the page, unread counts while hidden, a push tap opens its journey, the close button closes', async () => {
    const token = 'rn_shell_user_1';
    const { page, problems } = await newPage();
    const chat = createBotChat<Events>({ botId: seed.botId, ymAuthenticationToken: token, payload: { userName: 'Ada' } }, { cloudHost: 'chat.example.com', apiBaseUrl: stack.url });
    const host: string[] = [];
    const errors: string[] = [];
    chat.on('logout', (data) => host.push(`logout:${data.actionType}`));
    chat.on('order.updated', (data) => host.push(`order:${data.orderId}`));
    chat.onReady(() => host.push('ready'));
    chat.onClose(() => host.push('closed'));
    chat.onError((e) => errors.push(e.message));

    // What BotChatView wires: the WebView's onMessage, its ref's postMessage (Android: a message event on
    // document), and a new source when the url changes.
    const { onMessage } = chat.webViewProps();
    await page.exposeFunction('__toNative', (data: string) => onMessage({ nativeEvent: { data } }));
    await page.addInitScript(() => {
      Object.assign(window, { ReactNativeWebView: { postMessage: (m: string) => (window as unknown as { __toNative(m: string): void }).__toNative(m) } });
    });
    const loads: string[] = [];
    const disconnect = chat.connect(
      () => ({ postMessage: (m) => void page.evaluate((data) => document.dispatchEvent(new MessageEvent('message', { data })), m).catch(() => undefined) }),
      (url) => {
        loads.push(url);
        void page.goto(url);
      },
    );
    expect(chat.webViewProps().source.uri.startsWith(`${stack.url}/web/bot?`)).toBe(true);
    await page.goto(chat.url);
    await page.getByText(GREETING).first().waitFor();
    await eventually(() => host.includes('ready') || undefined, 10_000, 'page ready');

    // Bot → app events through the page: the bot's app.sendEvent, as any bot sends it.
    const userId = chatUserId(token);
    expect((await sendBotEvent(stack.url, seed, userId, 'logout', { actionType: 'button' })).status).toBe(202);
    expect((await sendBotEvent(stack.url, seed, userId, 'order.updated', { orderId: 'o-17' })).status).toBe(202);
    await eventually(() => host.includes('order:o-17') || undefined, 10_000, 'bot events at the app');
    expect(host.filter((h) => h.startsWith('logout') || h.startsWith('order'))).toEqual(['logout:button', 'order:o-17']);

    // Unread: hidden, the bot's answer counts; shown, the count clears.
    chat.setVisible(false);
    await say(page, 'while hidden');
    await eventually(() => chat.unreadCount === 1 || undefined, 10_000, 'one unread');
    chat.setVisible(true);
    expect(chat.unreadCount).toBe(0);

    // closeBot / reloadBot into the page.
    chat.closeBot();
    await page.getByText('Chat closed.').waitFor();
    expect(await input(page).isDisabled()).toBe(true);
    chat.reloadBot();
    await eventually(() => host.filter((h) => h === 'ready').length === 2 || undefined, 10_000, 'page ready again');
    await say(page, 'after reload');

    // A tapped push: FCM data names the bot and the journey; the page loads the new address and the
    // bot's session.started carries the journey in the payload.
    const before = started.length;
    expect(chat.handleNotificationTap({ data: { title: 'not ours' } })).toBe(false);
    expect(chat.handleNotificationTap({ data: { botId: seed.botId, journeySlug: 'renewal' } })).toBe(true);
    expect(loads).toHaveLength(1);
    await eventually(() => host.filter((h) => h === 'ready').length === 3 || undefined, 10_000, 'page ready on the notification’s address');
    // The page resumed its stored session first; the controller had it start over, so the bot hears the journey.
    await eventually(() => started.slice(before).find((s) => JSON.parse(s.payload).JourneySlug === 'renewal'), 10_000, 'session.started with the journey');
    expect(JSON.parse(started[started.length - 1].payload)).toEqual({ userName: 'Ada', JourneySlug: 'renewal' });

    // The page's close button: the app hears it.
    await eventually(async () => (await input(page).isEnabled()) || undefined, 10_000, 'composer enabled');
    await page.getByRole('button', { name: 'Close chat' }).click();
    await eventually(() => host.includes('closed') || undefined, 5000, 'onClose at the app');
    await page.screenshot({ path: `${CHAT_SHOTS}/react-native-shell-390.png` });
    disconnect();
    expect(errors).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('Cordova: the InAppBrowser bridge carries bot events, closeBot / reloadBot and the close button; a push tap reopens the window at its bot', async () => {
    const token = 'cordova_shell_user_1';
    const pages: Page[] = [];
    const problems: string[] = [];
    const host: string[] = [];
    // cordova.InAppBrowser.open over Chromium: the page gets `cordova_iab` (Android's bridge), its posts
    // come back as InAppBrowser's message event (data parsed, as the plugin delivers it), and
    // executeScript runs code in the page.
    const open = (url: string): InAppBrowserLike => {
      const listeners: Record<string, Array<(e: { data?: unknown }) => void>> = {};
      let page: Page | undefined;
      const ready = (async () => {
        const made = await newPage();
        page = made.page;
        pages.push(page);
        made.page.on('pageerror', (e) => problems.push(e.message));
        await page.exposeFunction('__toCordova', (m: string) => (listeners.message ?? []).forEach((l) => l({ data: JSON.parse(m) })));
        await page.addInitScript(() => {
          Object.assign(window, { cordova_iab: { postMessage: (m: string) => (window as unknown as { __toCordova(m: string): void }).__toCordova(m) } });
        });
        await page.goto(url);
        return page;
      })();
      return {
        addEventListener: (type, listener) => void (listeners[type] ??= []).push(listener),
        executeScript: ({ code }) => void ready.then((p) => p.evaluate(code)).catch(() => undefined),
        show: () => host.push('show'),
        hide: () => host.push('hide'),
        close: () => {
          host.push('window closed');
          void ready.then((p) => p.close());
        },
      };
    };
    const chat = createCordovaChat<Events>({ botId: seed.botId, ymAuthenticationToken: token, payload: { userName: 'Grace' } }, { cloudHost: 'chat.example.com', apiBaseUrl: stack.url, open });
    chat.on('logout', (data) => host.push(`logout:${data.actionType}`));
    chat.onReady(() => host.push('ready'));
    chat.onClose(() => host.push('closed'));

    chat.open();
    await eventually(() => host.includes('ready') || undefined, 15_000, 'page ready');
    const page = pages[0];
    await page.getByText(GREETING).first().waitFor();
    expect((await sendBotEvent(stack.url, seed, chatUserId(token), 'logout', { actionType: 'menu' }, 'sendCordovaEvent')).status).toBe(202);
    await eventually(() => host.includes('logout:menu') || undefined, 10_000, 'bot event at the app');

    chat.hide();
    await say(page, 'hidden cordova');
    await eventually(() => chat.unreadCount === 1 || undefined, 10_000, 'one unread');
    chat.show();
    expect(chat.unreadCount).toBe(0);

    chat.closeBot();
    await page.getByText('Chat closed.').waitFor();
    chat.reloadBot();
    await eventually(() => host.filter((h) => h === 'ready').length === 2 || undefined, 10_000, 'ready after reloadBot');

    // A push tap while open: the window reopens at the notification's bot.
    expect(chat.handleNotificationTap({ botId: seed.botId, journeySlug: 'renewal', tap: 'background' })).toBe(true);
    await eventually(() => pages.length === 2 || undefined, 10_000, 'a new window');
    await eventually(() => decodeURIComponent(pages[1].url()).includes('"JourneySlug":"renewal"') || undefined, 10_000, 'the new window at the journey’s address');
    await eventually(() => host.filter((h) => h === 'ready').length === 3 || undefined, 15_000, 'the new window ready');

    await pages[1].getByRole('button', { name: 'Close chat' }).click();
    await eventually(() => host.includes('closed') || undefined, 5000, 'onClose at the app');
    expect(chat.isOpen).toBe(false);
    expect(host.filter((h) => h === 'window closed')).toHaveLength(2); // the first window on the tap, the second on its close button
    expect(problems).toEqual([]);
  });
});
