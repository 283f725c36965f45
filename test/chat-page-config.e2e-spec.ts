import { AxeBuilder } from '@axe-core/playwright';
import { jest } from '@jest/globals';
import { Browser, BrowserContext, Page } from 'playwright-core';
import WebSocket from 'ws';
import { BotSession, buildWebViewUrl, type BotConfig, type WebSocketConstructorLike } from '../libs/sdk-core/src/index.js';
import { EchoBot } from '@platform/sandbox';
import { CHAT_SHOTS, launchChatBrowser, newChatPage, startEchoBot } from './chat-page-browser.js';
import { useStack } from './e2e-stack.js';
import { SdkBot, eventually, seedSdkBot } from './sdk-support.js';

const CLOUD_HOST = 'chat.example.com';
const GREETING = 'Hello! I am the echo bot';

/**
 * A stand-in for the Web Speech API (headless Chromium has one, but no microphone): each recognition
 * "hears" the text of window.__heard and ends.
 */
function fakeSpeechRecognition() {
  class FakeRecognition {
    lang = '';
    interimResults = true;
    onresult: ((e: unknown) => void) | null = null;
    onend: (() => void) | null = null;
    onerror: (() => void) | null = null;
    start() {
      const w = window as unknown as { __heard: string; __recognitions: number };
      w.__recognitions = (w.__recognitions ?? 0) + 1;
      setTimeout(() => {
        this.onresult?.({ results: [[{ transcript: w.__heard }]] });
        this.onend?.();
      }, 50);
    }
    stop() {
      this.onend?.();
    }
  }
  Object.assign(window, { SpeechRecognition: FakeRecognition, webkitSpeechRecognition: FakeRecognition, __heard: 'dictated hello' });
}

/** A browser without the Web Speech API (Firefox, and many web views). */
function noSpeechRecognition() {
  for (const name of ['SpeechRecognition', 'webkitSpeechRecognition']) Object.defineProperty(window, name, { value: undefined, configurable: true });
}

jest.setTimeout(120_000); // a real browser on a shared machine

describe('the chat page honours the SDK config, and closeBot / reloadBot reach it', () => {
  const stack = useStack({ worker: true, env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', CALLBACK_BACKOFF_MS: '200' } });
  let seed: SdkBot;
  let echo: EchoBot;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  stack.defer(() => echo?.close());
  stack.defer(() => browser?.close());

  beforeAll(async () => {
    seed = await seedSdkBot(stack.gateway);
    echo = await startEchoBot(stack.gateway, { apiBaseUrl: stack.url, botId: seed.botId, apiKey: seed.apiKey });
    browser = await launchChatBrowser();
  });

  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close();
  });

  /** The address the SDK builds for `config`, its https origin pointed at the loopback gateway. */
  function sdkUrl(config: Partial<BotConfig> & { ymAuthenticationToken: string }): string {
    return buildWebViewUrl({ botId: seed.botId, payload: { userName: 'Ada' }, ...config }, { cloudHost: CLOUD_HOST }).replace(`https://${CLOUD_HOST}`, stack.url);
  }

  const newPage = (init?: () => void, viewport?: { width: number; height: number }) => newChatPage(browser, contexts, { init, viewport, timeoutMs: 10_000 });

  const mic = (page: Page) => page.getByRole('button', { name: 'Speak a message' });

  describe('enableSpeech', () => {
    it('set, where the browser has the Web Speech API: the microphone button is named, reached by Tab, and dictates a message on Enter', async () => {
      const { page, problems } = await newPage(fakeSpeechRecognition);
      await page.goto(sdkUrl({ ymAuthenticationToken: 'speech_user_1', enableSpeech: true }));
      await page.getByText(GREETING).waitFor();
      const input = page.getByRole('textbox', { name: 'Message' });
      await eventually(async () => (await input.isEnabled()) || undefined, 10_000, 'composer enabled');

      expect(await mic(page).count()).toBe(1);
      expect(await mic(page).isVisible()).toBe(true);
      expect(await mic(page).getAttribute('aria-pressed')).toBe('false');
      await input.focus();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Speak a message');
      await page.keyboard.press('Enter');
      await page.getByText('You said: dictated hello').waitFor();
      expect(await page.evaluate(() => (window as unknown as { __recognitions: number }).__recognitions)).toBe(1);
      expect(await page.locator('.msg.user').allTextContents()).toEqual(['You: dictated hello']);
      expect(await mic(page).getAttribute('aria-pressed')).toBe('false'); // the utterance ended

      await page.evaluate(() => Object.assign(window, { __heard: 'spoken by space' }));
      await mic(page).focus();
      await page.keyboard.press('Space');
      await page.getByText('You said: spoken by space').waitFor();
      await page.screenshot({ path: `${CHAT_SHOTS}/speech-on-390.png` });
      expect(problems).toEqual([]);
    });

    it('unset or false: no microphone button, although the browser has the Web Speech API', async () => {
      for (const [n, config] of [{}, { enableSpeech: false }].entries()) {
        const { page } = await newPage();
        await page.goto(sdkUrl({ ymAuthenticationToken: `speech_user_off_${n}`, ...config }));
        await page.getByText(GREETING).waitFor();
        expect(await page.evaluate(() => 'webkitSpeechRecognition' in window || 'SpeechRecognition' in window)).toBe(true);
        expect(await mic(page).count()).toBe(0);
        expect(await page.locator('#mic').isVisible()).toBe(false);
      }
    });

    it('set, in a browser without the Web Speech API: no microphone button', async () => {
      const { page } = await newPage(noSpeechRecognition);
      await page.goto(sdkUrl({ ymAuthenticationToken: 'speech_user_none', enableSpeech: true }));
      await page.getByText(GREETING).waitFor();
      expect(await mic(page).count()).toBe(0);
      expect(await page.locator('#mic').isVisible()).toBe(false);
    });
  });

  describe('statusBarColor and closeButtonColor', () => {
    const styles = (page: Page) =>
      page.evaluate(() => ({
        bar: getComputedStyle(document.getElementById('bar')!).backgroundColor,
        title: getComputedStyle(document.querySelector('.title')!).color,
        close: getComputedStyle(document.getElementById('close')!).color,
        themeColor: document.querySelector('meta[name="theme-color"]')!.getAttribute('content'),
      }));

    it('colour the header and the close button as the SDK config says (#AARRGGBB as Android writes it)', async () => {
      const { page, problems } = await newPage();
      await page.goto(sdkUrl({ ymAuthenticationToken: 'color_user_1', statusBarColor: '#FF1F3A5F', closeButtonColor: '#FFD54F' }));
      await page.getByText(GREETING).waitFor();
      expect(await styles(page)).toEqual({ bar: 'rgb(31, 58, 95)', title: 'rgb(255, 255, 255)', close: 'rgb(255, 213, 79)', themeColor: '#1F3A5FFF' });
      await page.screenshot({ path: `${CHAT_SHOTS}/colors-390.png` });

      expect(problems).toEqual([]);

      // #FFD54F on #1A73E8 is 3.4:1: the close button takes the title's readable colour instead.
      const low = await newPage();
      await low.page.goto(sdkUrl({ ymAuthenticationToken: 'color_user_low', statusBarColor: '#FF1A73E8', closeButtonColor: '#FFD54F' }));
      await low.page.getByText(GREETING).waitFor();
      expect(await styles(low.page)).toEqual({ bar: 'rgb(26, 115, 232)', title: 'rgb(255, 255, 255)', close: 'rgb(255, 255, 255)', themeColor: '#1A73E8FF' });

      const translucent = await newPage();
      await translucent.page.goto(sdkUrl({ ymAuthenticationToken: 'color_user_2', statusBarColor: '#801A73E8' }));
      await translucent.page.getByText(GREETING).waitFor();
      expect((await styles(translucent.page)).bar).toBe('rgba(26, 115, 232, 0.5)');
    });

    it('keeps the title and close button readable on a light status bar', async () => {
      const { page } = await newPage();
      await page.goto(sdkUrl({ ymAuthenticationToken: 'color_user_light', statusBarColor: '#FFFFFF' }));
      await page.getByText(GREETING).waitFor();
      expect(await styles(page)).toMatchObject({ bar: 'rgb(255, 255, 255)', title: 'rgb(27, 27, 27)', close: 'rgb(27, 27, 27)' });
      const axe = await new AxeBuilder({ page }).include('#bar').analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
      await page.screenshot({ path: `${CHAT_SHOTS}/colors-light-390.png` });
    });

    it('uses the default colours without the settings, and ignores anything but a #RRGGBB / #AARRGGBB colour', async () => {
      const defaults = { bar: 'rgb(31, 58, 95)', title: 'rgb(255, 255, 255)', close: 'rgb(255, 255, 255)', themeColor: '#1f3a5f' };
      const plain = await newPage();
      await plain.page.goto(sdkUrl({ ymAuthenticationToken: 'color_user_3' }));
      await plain.page.getByText(GREETING).waitFor();
      expect(await styles(plain.page)).toEqual(defaults);

      // Hand-made addresses (the SDK refuses these colours): none reaches a style.
      for (const [n, [bar, close]] of [
        ['red;}body{display:none', 'url(https://evil.example/x.png)'],
        ['#1a73e8;background-image:url(https://evil.example/y.png)', '#fff'],
        ['var(--x)', 'expression(alert(1))'],
      ].entries()) {
        const { page, problems } = await newPage();
        const hosts: string[] = [];
        page.on('request', (r) => hosts.push(new URL(r.url()).hostname));
        const address = new URL(sdkUrl({ ymAuthenticationToken: `color_user_bad_${n}` }));
        address.searchParams.set('statusBarColor', bar);
        address.searchParams.set('closeButtonColor', close);
        await page.goto(address.toString());
        await page.getByText(GREETING).waitFor();
        expect(await styles(page)).toEqual(defaults);
        expect(await page.locator('body').isVisible()).toBe(true);
        expect(hosts.filter((h) => h !== '127.0.0.1')).toEqual([]);
        expect(problems).toEqual([]);
      }
    });
  });

  describe("the SDK's closeBot / reloadBot and the page's close button", () => {
    /**
     * The page in a React Native web view: the page's `ReactNativeWebView.postMessage` reaches the SDK's
     * link, and the SDK's posts arrive as react-native-webview delivers them (a message event on
     * `window` on iOS, on `document` on Android).
     */
    async function nativeShell(token: string, platform: 'ios' | 'android') {
      const { page, problems } = await newPage();
      const session = new BotSession(
        { botId: seed.botId, ymAuthenticationToken: token, payload: { userName: 'Ada' }, statusBarColor: '#FF1A73E8' },
        { cloudHost: CLOUD_HOST, apiBaseUrl: stack.url, fetch, WebSocket: WebSocket as unknown as WebSocketConstructorLike },
      );
      const host: string[] = [];
      const link = session.connectWebView(
        {
          postMessage: (message) => {
            void page.evaluate(([m, where]) => (where === 'ios' ? window : document).dispatchEvent(new MessageEvent('message', { data: m })), [message, platform] as const).catch(() => undefined);
          },
        },
        { onClose: () => host.push('closed'), onReady: () => host.push('ready') },
      );
      await page.exposeFunction('__toNative', (message: string) => link.receive(message));
      await page.addInitScript(() => {
        Object.assign(window, { ReactNativeWebView: { postMessage: (m: string) => (window as unknown as { __toNative(m: string): void }).__toNative(m) } });
      });
      await session.start();
      await page.goto(session.webViewUrl().replace(`https://${CLOUD_HOST}`, stack.url));
      await page.getByText(GREETING).first().waitFor();
      await eventually(() => host.includes('ready') || undefined, 10_000, 'page ready');
      return { page, problems, session, host };
    }

    const storedSession = (page: Page, botId: string) => page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? 'null')?.sessionId as string | undefined, `botchat:${botId}`);
    const input = (page: Page) => page.getByRole('textbox', { name: 'Message' });

    it('reloadBot (iOS delivery) starts the page over on a new session and shows the transcript again; closeBot (Android delivery) closes it', async () => {
      const { page, problems, session, host } = await nativeShell('shell_user_1', 'ios');
      await input(page).fill('remember this');
      await input(page).press('Enter');
      await page.getByText('You said: remember this').waitFor();
      const before = await storedSession(page, seed.botId);
      expect(before).toMatch(/^[0-9a-f-]{36}$/);
      await page.evaluate(() => document.querySelectorAll('.msg').forEach((n) => n.setAttribute('data-before-reload', '')));

      await session.reloadBot();
      await eventually(async () => ((await storedSession(page, seed.botId)) !== before ? true : undefined), 10_000, 'page on a new session');
      await page.getByText('You said: remember this').waitFor();
      await eventually(async () => (await page.locator('[data-before-reload]').count()) === 0 || undefined, 10_000, 'transcript shown again');
      expect(await page.locator('.msg.user').allTextContents()).toEqual(['You: remember this']);
      expect(host.filter((h) => h === 'ready')).toHaveLength(2);
      await eventually(async () => (await input(page).isEnabled()) || undefined, 10_000, 'composer enabled');
      expect(session.state).not.toBe('closed');

      // The same, delivered the Android way.
      const android = await nativeShell('shell_user_2', 'android');
      android.session.closeBot();
      await android.page.getByText('Chat closed.').waitFor();
      expect(await input(android.page).isDisabled()).toBe(true);
      expect(android.host).not.toContain('closed'); // the app closed it: nothing to tell the app
      await android.session.reloadBot();
      await eventually(async () => (await input(android.page).isEnabled()) || undefined, 10_000, 'page back after reloadBot');
      await android.page.getByText(GREETING).first().waitFor();
      expect(problems.concat(android.problems)).toEqual([]);
      android.session.closeBot();
      session.closeBot();
    });

    it("the page's close button (keyboard) tells the SDK's handler, which closes the session", async () => {
      const { page, problems, session, host } = await nativeShell('shell_user_3', 'android');
      expect(session.state).not.toBe('closed');
      await page.getByRole('button', { name: 'Close chat' }).focus();
      await page.keyboard.press('Enter');
      await eventually(() => host.includes('closed') || undefined, 5000, "the host's onClose");
      expect(session.state).toBe('closed');
      expect(session.sessionId).toBeNull();
      await page.getByText('Chat closed.').waitFor();
      expect(await input(page).isDisabled()).toBe(true);
      await page.screenshot({ path: `${CHAT_SHOTS}/closed-390.png` });
      expect(problems).toEqual([]);
    });
  });
});
