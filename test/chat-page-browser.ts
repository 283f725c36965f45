// What the chat page's browser tests open with: Chromium (as test/console-browser.ts drives it), the folder
// of their screenshots, and an echo bot set as the bot's webhook.
import { mkdirSync } from 'node:fs';
import type { INestApplicationContext } from '@nestjs/common';
import { Browser, BrowserContext, Page, chromium } from 'playwright-core';
import { EchoBot, type EchoBotOptions } from '@platform/sandbox';
import { CallbackSettingsService } from '../apps/gateway/src/callbacks/callback-settings.service.js';
import { CHROMIUM, CHROMIUM_FLAGS } from './console-browser.js';

export const CHAT_SHOTS = '.local/screenshots/chat';

/** Chromium with a fresh temporary profile of its own (removed on close); the screenshots' folder made. */
export async function launchChatBrowser(): Promise<Browser> {
  mkdirSync(CHAT_SHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}

/** An echo bot listening, set as the webhook of `options.botId`, with the secret the gateway signs its calls with. */
export async function startEchoBot(gateway: INestApplicationContext, options: EchoBotOptions): Promise<EchoBot> {
  const echo = new EchoBot(options);
  const hook = await echo.listen();
  echo.server.secret = (await gateway.get(CallbackSettingsService, { strict: false }).setUrl(options.botId, 'webhook', hook)).secret!;
  return echo;
}

/**
 * A page in a fresh context (kept in `contexts` for the test to close) at phone size unless told, that
 * records script errors and console errors in `problems`: a test expects none. `init` runs before the
 * page's own scripts (a stand-in for a browser API).
 */
export async function newChatPage(
  browser: Browser,
  contexts: BrowserContext[],
  { init, viewport = { width: 390, height: 780 }, timeoutMs = 15_000 }: { init?: () => void; viewport?: { width: number; height: number }; timeoutMs?: number } = {},
): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  page.setDefaultTimeout(timeoutMs);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  return { page, problems };
}
