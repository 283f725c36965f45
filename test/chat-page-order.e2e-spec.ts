import { jest } from '@jest/globals';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { chatUserId } from '@platform/contracts';
import { EchoBot } from '@platform/sandbox';
import { buildWebViewUrl } from '../libs/sdk-core/src/index.js';
import { CHAT_SHOTS, launchChatBrowser, newChatPage, startEchoBot } from './chat-page-browser.js';
import { useStack } from './e2e-stack.js';
import { eventually, seedSdkBot } from './sdk-support.js';

const CLOUD_HOST = 'chat.example.com';
const GREETING = 'Hello! I am the echo bot';
/** How long the network holds the answer to each message the page sends (the server has it at once). */
const ANSWER_DELAY_MS = 1500;

/** The conversation as the reader sees it, top to bottom: each message's words (without its time and state), quick replies and cards. */
function onScreen(page: Page): Promise<string[]> {
  return page.locator('#log > *').evaluateAll((nodes) =>
    nodes.map((n) => {
      if (n.classList.contains('msg')) {
        const copy = n.cloneNode(true) as HTMLElement;
        copy.querySelector('.meta')?.remove();
        return (copy.textContent ?? '').trim();
      }
      if (n.classList.contains('replies')) return `[quick replies: ${Array.from(n.querySelectorAll('button'), (b) => b.textContent).join(', ')}]`;
      return `[${n.className}]`;
    }),
  );
}

jest.setTimeout(120_000); // a real browser on a shared machine

describe('the chat page shows the conversation live in the order a reload shows it', () => {
  const stack = useStack({ worker: true, env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', CALLBACK_BACKOFF_MS: '200' } });
  let botId: string;
  let echo: EchoBot;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  stack.defer(() => echo?.close());
  stack.defer(() => browser?.close());

  beforeAll(async () => {
    const seed = await seedSdkBot(stack.gateway);
    botId = seed.botId;
    echo = await startEchoBot(stack.gateway, { apiBaseUrl: stack.url, botId, apiKey: seed.apiKey });
    browser = await launchChatBrowser();
  });

  afterAll(async () => {
    for (const c of contexts.splice(0)) await c.close();
  });

  /** What the bot received from this token's user, in arrival order. */
  function received(token: string): string[] {
    return echo.server.delivered
      .filter((c) => c.body.type === 'message.received' && (c.body as { userId?: string }).userId === chatUserId(token))
      .map((c) => String((c.body as { message: { content: { text: string } } }).message.content.text));
  }

  it('messages queued on a slow network while the bot answers: the same order before and after a reload', async () => {
    const token = 'user_order_1';
    const { page, problems } = await newChatPage(browser, contexts);
    await page.goto(buildWebViewUrl({ botId, ymAuthenticationToken: token, payload: { userName: 'Ada' } }, { cloudHost: CLOUD_HOST }).replace(`https://${CLOUD_HOST}`, stack.url));
    await page.getByText(GREETING).waitFor({ timeout: 60_000 }); // the first page of a suite on a loaded host waits for the compile and the bot

    // A slow network on the way back: each message reaches the server (and the bot, which answers over
    // the event stream) at once, but its 202 comes late, so the next ones wait in the outbox meanwhile.
    await page.route('**/v1/bots/*/sessions/*/messages', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const response = await route.fetch();
      await new Promise((r) => setTimeout(r, ANSWER_DELAY_MS));
      await route.fulfill({ response });
    });
    const typed = ['first question', 'second question', 'third question', 'fourth question'];
    const input = page.getByRole('textbox', { name: 'Message' });
    for (const text of typed) {
      await input.fill(text);
      await input.press('Enter'); // as fast as a person types: the later ones queue behind the first
    }
    // The bot has answered the first while the others still wait to be sent.
    await page.locator('.msg.bot', { hasText: 'You said: first question' }).waitFor();
    expect(await page.locator('.msg.user.pending').count()).toBeGreaterThanOrEqual(2);
    await page.screenshot({ path: `${CHAT_SHOTS}/order-queued-390.png` });

    await page.locator('.msg.bot', { hasText: 'You said: fourth question' }).waitFor({ timeout: 30_000 });
    await eventually(async () => ((await page.locator('.msg.user.pending').count()) === 0 ? true : undefined), 30_000, 'every message confirmed');
    const live = await onScreen(page);
    await page.screenshot({ path: `${CHAT_SHOTS}/order-live-390.png` });
    await page.unroute('**/v1/bots/*/sessions/*/messages');

    await page.reload();
    await page.locator('.msg.bot', { hasText: 'You said: fourth question' }).waitFor();
    const reloaded = await onScreen(page);
    await page.screenshot({ path: `${CHAT_SHOTS}/order-reloaded-390.png` });

    expect(live).toEqual(reloaded);
    // And that order is the conversation's: each question, then the bot's answer to it; quick replies under the newest only.
    const quickReplies = live.filter((n) => n.startsWith('[quick replies'));
    expect(quickReplies).toHaveLength(1);
    expect(live.filter((n) => !n.startsWith('[')).map((n) => n.replace(/^[^:]+: /, ''))).toEqual([
      `${GREETING}. Write anything and I will say it back.`,
      ...typed.flatMap((t) => [t, `You said: ${t}`]),
    ]);
    expect(live[live.length - 1]).toBe(quickReplies[0]);
    // Nothing lost or repeated on the way: the bot got each message once, in the order typed.
    expect(received(token)).toEqual(typed);
    expect(problems).toEqual([]);
  });

  it("orders by each message's place in its own conversation: two users' pages, their messages interleaved, each counts 1, 2, 3… live and after a reload", async () => {
    const open = async (token: string) => {
      const { page, problems } = await newChatPage(browser, contexts);
      await page.goto(buildWebViewUrl({ botId, ymAuthenticationToken: token, payload: { userName: 'Ada' } }, { cloudHost: CLOUD_HOST }).replace(`https://${CLOUD_HOST}`, stack.url));
      await page.getByText(GREETING).waitFor({ timeout: 60_000 }); // the first page of a suite on a loaded host waits for the compile and the bot
      return { page, problems };
    };
    const first = await open('user_places_1');
    const second = await open('user_places_2');
    // The keys the page ordered by, top to bottom: one per message (a message's quick replies carry its key too).
    const keys = (page: Page) => page.locator('#log > .msg').evaluateAll((nodes) => nodes.map((n) => (n as HTMLElement).dataset.seq));
    const say = async (page: Page, text: string) => {
      const input = page.getByRole('textbox', { name: 'Message' });
      await input.fill(text);
      await input.press('Enter');
      await page.locator('.msg.bot', { hasText: `You said: ${text}` }).waitFor({ timeout: 30_000 });
    };
    // The first user's traffic goes between the second's messages: the second's keys must not show it.
    for (let round = 1; round <= 2; round++) {
      for (let i = 1; i <= 3; i++) await say(first.page, `first user, round ${round}, message ${i}`);
      await say(second.page, `second user, round ${round}`);
    }
    const count = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));
    const live = { first: await keys(first.page), second: await keys(second.page) };
    // The greeting, then each message and its answer: 1 + 2 × 6 and 1 + 2 × 2.
    expect(live).toEqual({ first: count(13), second: count(5) });
    await first.page.reload();
    await second.page.reload();
    await first.page.locator('.msg.bot', { hasText: 'You said: first user, round 2, message 3' }).waitFor();
    await second.page.locator('.msg.bot', { hasText: 'You said: second user, round 2' }).waitFor();
    expect({ first: await keys(first.page), second: await keys(second.page) }).toEqual(live);
    expect([...first.problems, ...second.problems]).toEqual([]);
  });
});
