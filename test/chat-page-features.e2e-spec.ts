import { AxeBuilder } from '@axe-core/playwright';
import { createServer, request } from 'node:http';
import { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { jest } from '@jest/globals';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { chatUserId } from '@platform/contracts';
import { PrismaService } from '@platform/database';
import { EchoBot } from '@platform/sandbox';
import { buildWebViewUrl, type BotConfig } from '../libs/sdk-core/src/index.js';
import { CHAT_SHOTS, launchChatBrowser, startEchoBot } from './chat-page-browser.js';
import { useStack } from './e2e-stack.js';
import { SdkBot, eventually, postJson, seedSdkBot } from './sdk-support.js';

const CLOUD_HOST = 'chat.example.com';
const GREETING = 'Hello! I am the echo bot';
const MAX_FILE = 64 * 1024;
/** A real 1×1 PNG (the browser must be able to draw it). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** The answer as the server sent it: status, headers and the bytes before any decoding. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

jest.setTimeout(120_000); // a real browser on a shared machine

describe("the chat page's finishing touches in a real browser: profile, typing, files, tabs, launcher badge, compressed assets", () => {
  const stack = useStack({ worker: true, env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', CALLBACK_BACKOFF_MS: '200', CHAT_ATTACHMENT_MAX_BYTES: String(MAX_FILE) } });
  let seed: SdkBot;
  let slow: SdkBot;
  let echo: EchoBot;
  let slowEcho: EchoBot;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  stack.defer(() => echo?.close());
  stack.defer(() => slowEcho?.close());
  stack.defer(() => browser?.close());

  async function bot(delay?: number): Promise<[SdkBot, EchoBot]> {
    const b = await seedSdkBot(stack.gateway);
    return [b, await startEchoBot(stack.gateway, { apiBaseUrl: stack.url, botId: b.botId, apiKey: b.apiKey, replyDelayMs: delay })];
  }

  beforeAll(async () => {
    [seed, echo] = await bot();
    [slow, slowEcho] = await bot(2500);
    browser = await launchChatBrowser();
  });

  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close();
  });

  function chatUrl(botId: string, token: string, config: Partial<BotConfig> = {}): string {
    return buildWebViewUrl({ botId, ymAuthenticationToken: token, payload: { userName: 'Ada' }, ...config }, { cloudHost: CLOUD_HOST }).replace(`https://${CLOUD_HOST}`, stack.url);
  }

  async function newContext(viewport = { width: 390, height: 780 }): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    return context;
  }

  async function openChat(context: BrowserContext, botId: string, token: string, config: Partial<BotConfig> = {}): Promise<{ page: Page; problems: string[] }> {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(chatUrl(botId, token, config));
    // .first(): a second tab is a second session, which the echo bot greets again.
    await page.getByText(GREETING).first().waitFor();
    await eventually(async () => (await page.getByRole('textbox', { name: 'Message' }).isEnabled()) || undefined, 10_000, 'composer enabled');
    return { page, problems };
  }

  const setProfile = (b: SdkBot, body: unknown) =>
    fetch(`${stack.url}/v1/bots/${b.botId}/profile`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${b.apiKey}` }, body: JSON.stringify(body) });

  it("shows the bot's display name and uploaded avatar in the bar and beside its messages; bad profile fields are refused together", async () => {
    const bad = await setProfile(seed, { displayName: ' ', avatarUrl: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/displayName must not be blank.*avatarUrl must be an https:\/\/ address/);
    expect((await fetch(`${stack.url}/v1/bots/${seed.botId}/profile`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    const saved = await setProfile(seed, { displayName: 'Ada Helper', avatar: { contentType: 'image/png', data: PNG.toString('base64') } });
    expect(saved.status).toBe(200);
    const profile = await (await fetch(`${stack.url}/v1/bots/${seed.botId}/profile`)).json();
    expect(profile).toEqual({ displayName: 'Ada Helper', avatarUrl: expect.stringMatching(new RegExp(`^/v1/bots/${seed.botId}/profile/avatar\\?v=\\d+$`)) });
    const avatar = await rawGet(`${stack.url}${profile.avatarUrl}`);
    expect(avatar.headers).toMatchObject({ 'content-type': 'image/png', 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox" });
    expect(avatar.body.equals(PNG)).toBe(true);

    const { page, problems } = await openChat(await newContext(), seed.botId, 'profile_user_1');
    await page.getByRole('heading', { name: 'Ada Helper' }).waitFor();
    expect(await page.title()).toBe('Ada Helper');
    await page.waitForFunction(() => (document.getElementById('avatar') as HTMLImageElement).naturalWidth > 0);
    expect(await page.locator('#avatar').isVisible()).toBe(true);
    const beside = await page
      .locator('.msg.bot')
      .first()
      .evaluate((n) => ({ label: n.querySelector('.sr-only')?.textContent, image: getComputedStyle(n, '::before').backgroundImage }));
    expect(beside.label).toBe('Ada Helper: ');
    expect(beside.image).toContain('/profile/avatar?v=');
    await page.screenshot({ path: `${CHAT_SHOTS}/profile-390.png` });
    expect(problems).toEqual([]);
  });

  it('shows "… is typing" while the bot works on the message, and takes it away when the answer comes', async () => {
    await setProfile(slow, { displayName: 'Slowpoke' });
    const { page, problems } = await openChat(await newContext(), slow.botId, 'typing_user_1');
    const typing = page.locator('#typing.on');
    expect(await typing.count()).toBe(0);
    const input = page.getByRole('textbox', { name: 'Message' });
    await input.fill('take your time');
    await input.press('Enter');
    await typing.waitFor();
    expect(await page.locator('#typing-text').textContent()).toBe('Slowpoke is typing');
    expect(await page.getByText('You said: take your time').count()).toBe(0); // the bot is still working
    await page.screenshot({ path: `${CHAT_SHOTS}/typing-390.png` });
    await page.getByText('You said: take your time').waitFor();
    await typing.waitFor({ state: 'detached' });
    expect(await page.locator('#typing-text').textContent()).toBe('');
    expect(problems).toEqual([]);
  });

  it('sends a picture and a text file to the bot, shown in the transcript and served inert; refuses another type and an oversized file with the reason', async () => {
    const token = 'files_user_1';
    const { page, problems } = await openChat(await newContext(), seed.botId, token);
    const file = page.locator('#file');
    await file.setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
    await page.getByText('Got your file dot.png (image/png, 70 bytes)').waitFor();
    const shown = page.locator('.msg.user .attachment img');
    await page.waitForFunction(() => Array.from(document.querySelectorAll<HTMLImageElement>('.msg.user .attachment img')).some((i) => i.naturalWidth > 0));
    expect(await shown.getAttribute('alt')).toBe('dot.png');
    const call = echo.server.delivered.find((c) => (c.body as { message?: { type?: string } }).message?.type === 'attachment')!;
    const sent = (call.body as { message: { content: { attachment: { url: string; mimeType: string; filename: string; size: number } } } }).message.content.attachment;
    expect(sent).toEqual({ url: expect.stringMatching(/\/v1\/chat-attachments\/[0-9a-f-]{36}$/), mimeType: 'image/png', filename: 'dot.png', size: PNG.length });
    const picture = await rawGet(sent.url);
    expect(picture.headers).toMatchObject({ 'content-type': 'image/png', 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox" });
    expect(String(picture.headers['content-disposition'])).toMatch(/^inline; filename="dot.png"/);
    expect(picture.body.equals(PNG)).toBe(true);

    await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('buy <b>milk</b>\n') });
    await page.getByText('Got your file notes.txt (text/plain, 16 bytes)').waitFor();
    const link = page.getByRole('link', { name: /notes\.txt/ });
    const text = await rawGet(String(await link.getAttribute('href')));
    expect(text.headers).toMatchObject({ 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
    expect(String(text.headers['content-disposition'])).toMatch(/^attachment; filename="notes.txt"/); // never rendered by the browser

    await file.setInputFiles({ name: 'page.html', mimeType: 'text/html', buffer: Buffer.from('<script>alert(1)</script>') });
    await page.getByText(/Not sent: Files of type text\/html cannot be sent/).waitFor();
    await file.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.concat([PNG, Buffer.alloc(MAX_FILE)]) });
    await page.getByText('Not sent: The file is larger than the 64 KB a chat file may be').waitFor();
    await page.screenshot({ path: `${CHAT_SHOTS}/attachments-390.png`, fullPage: true });

    // The API refuses a PNG that is really HTML, and stores nothing for it.
    const db = stack.gateway.get(PrismaService, { strict: false });
    const before = await db.chatAttachment.count();
    const session = await page.evaluate((key) => JSON.parse(sessionStorage.getItem(key)!).sessionId as string, `botchat:${seed.botId}`);
    const forged = await fetch(`${stack.url}/v1/bots/${seed.botId}/sessions/${session}/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png' },
      body: '<html><script>1</script>',
    });
    expect(forged.status).toBe(415);
    const other = await fetch(`${stack.url}/v1/bots/${seed.botId}/sessions/${session}/attachments`, {
      method: 'POST',
      headers: { authorization: 'Bearer someone_else', 'content-type': 'image/png' },
      body: PNG,
    });
    expect(other.status).toBe(401);
    expect(await db.chatAttachment.count()).toBe(before);
    expect(problems).toEqual([]);
  });

  it("shows the user's message in their other tab of the chat as soon as it is sent", async () => {
    const context = await newContext();
    const first = await openChat(context, seed.botId, 'tabs_user_1');
    const second = await openChat(context, seed.botId, 'tabs_user_1');
    const input = first.page.getByRole('textbox', { name: 'Message' });
    await input.fill('typed in the first tab');
    await input.press('Enter');
    await second.page.locator('.msg.user', { hasText: 'typed in the first tab' }).waitFor({ timeout: 5000 });
    await second.page.locator('#file').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
    await first.page.locator('.msg.user .attachment img[alt="dot.png"]').waitFor({ timeout: 5000 });
    expect(await first.page.locator('.msg.user', { hasText: 'typed in the first tab' }).count()).toBe(1); // once, not again from the other tab
    await second.page.screenshot({ path: `${CHAT_SHOTS}/second-tab-390.png` });
  });

  it("keeps a tab's file still being sent in its own bubble when the other tab of the conversation sends a file meanwhile", async () => {
    const context = await newContext();
    const first = await openChat(context, seed.botId, 'tabs_user_2');
    const second = await openChat(context, seed.botId, 'tabs_user_2');
    // The first tab's file reaches the server, but its answer is held until the other tab's file is on screen.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let reached = false;
    stack.defer(() => release()); // a failed check leaves no request held
    await first.page.route('**/v1/bots/*/sessions/*/attachments', async (route) => {
      const response = await route.fetch();
      reached = true;
      await held;
      await route.fulfill({ response });
    });
    await first.page.locator('#file').setInputFiles({ name: 'from-first.png', mimeType: 'image/png', buffer: PNG });
    await eventually(async () => reached || undefined, 15_000, "the first tab's file recorded");
    await second.page.locator('#file').setInputFiles({ name: 'from-second.png', mimeType: 'image/png', buffer: PNG });
    await second.page.locator('.msg.user .attachment img[alt="from-second.png"]').waitFor({ timeout: 10_000 });

    // The other tab's file shows as a message of its own; the first tab's bubble is still its file, still sending.
    await first.page.locator('.msg.user .attachment img[alt="from-second.png"]').waitFor({ timeout: 10_000 });
    const waiting = first.page.locator('.msg.user.pending');
    expect(await waiting.count()).toBe(1);
    expect(await waiting.textContent()).toContain('from-first.png');
    await first.page.screenshot({ path: `${CHAT_SHOTS}/tabs-files-pending-390.png` });

    release();
    await first.page.locator('.msg.user .attachment img[alt="from-first.png"]').waitFor({ timeout: 10_000 });
    await eventually(async () => ((await first.page.locator('.msg.user.pending').count()) === 0 ? true : undefined), 10_000, 'no bubble left sending');
    const files = (page: Page) => page.locator('.msg.user .attachment img').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).alt));
    expect(await files(first.page)).toEqual(['from-first.png', 'from-second.png']);
    // A reload shows the same: each file once, in the order the server recorded them.
    await first.page.unroute('**/v1/bots/*/sessions/*/attachments');
    await first.page.reload();
    await first.page.locator('.msg.user .attachment img[alt="from-second.png"]').waitFor();
    expect(await files(first.page)).toEqual(['from-first.png', 'from-second.png']);
    expect(first.problems).toEqual([]);
    expect(second.problems).toEqual([]);
  });

  it("counts the bot's messages that arrive while the embed is closed on its SVG launcher's badge, cleared when opened", async () => {
    const token = 'badge_user_1';
    const site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<!doctype html><html lang="en"><title>Shop</title><body><main><h1>Shop</h1></main><script src="${stack.url}/web/bot/embed.js" data-bot-id="${seed.botId}" data-token="${token}" data-status-bar-color="#1F8A3F"></script></body></html>`,
      );
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    try {
      const page = await (await newContext({ width: 1280, height: 800 })).newPage();
      await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
      const launcher = page.getByRole('button', { name: 'Open chat' });
      expect(await launcher.locator('svg').count()).toBe(1);
      expect((await launcher.textContent())?.trim()).toBe(''); // no emoji to fall back to a box
      await launcher.click();
      const chat = page.frameLocator('iframe[title="Chat"]');
      await chat.getByText(GREETING).waitFor();
      await chat.getByRole('button', { name: 'Close chat' }).click();
      await eventually(async () => (await page.locator('iframe[title="Chat"]').isHidden()) || undefined, 5000, 'widget hidden');

      const db = stack.gateway.get(PrismaService, { strict: false });
      const conversation = await db.conversation.findFirstOrThrow({ where: { botId: seed.botId, userId: chatUserId(token) } });
      for (const text of ['A new offer for you', 'And another one']) {
        const res = await postJson(`${stack.url}/v1/bots/${seed.botId}/conversations/${conversation.id}/messages`, { text }, { authorization: `Bearer ${seed.apiKey}` });
        expect(res.status).toBe(202);
      }
      const badged = page.getByRole('button', { name: 'Open chat, 2 unread messages' });
      await badged.waitFor();
      expect(await badged.locator('span').textContent()).toBe('2');
      await page.screenshot({ path: `${CHAT_SHOTS}/launcher-badge-1280.png` });
      const axe = await new AxeBuilder({ page }).include('button[aria-expanded]').analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
      await badged.click();
      await chat.getByText('And another one').waitFor();
      expect(await page.getByRole('button', { name: 'Open chat', exact: true }).locator('span').isVisible()).toBe(false);
    } finally {
      await new Promise((r) => site.close(r));
    }
  });

  it('serves the page and its files precompressed (brotli, gzip), the hashed script and style cached for a year', async () => {
    const page = await rawGet(`${stack.url}/web/bot?botId=${seed.botId}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers.vary).toContain('accept-encoding');
    const html = brotliDecompressSync(page.body).toString();
    const script = /src="bot\/(chat\.[0-9a-f]{10}\.js)"/.exec(html)?.[1];
    const style = /href="bot\/(chat\.[0-9a-f]{10}\.css)"/.exec(html)?.[1];
    expect(script && style).toBeTruthy();
    for (const name of [script!, style!]) {
      const plain = await rawGet(`${stack.url}/web/bot/${name}`, { 'accept-encoding': 'identity' });
      const gz = await rawGet(`${stack.url}/web/bot/${name}`, { 'accept-encoding': 'gzip' });
      const br = await rawGet(`${stack.url}/web/bot/${name}`, { 'accept-encoding': 'br, gzip' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(br.headers['content-encoding']).toBe('br');
      expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      expect(br.body.length).toBeLessThan(plain.body.length / 2);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const embed = await rawGet(`${stack.url}/web/bot/embed.js`, { 'accept-encoding': 'br' });
    expect(embed.headers['content-encoding']).toBe('br');
    expect(embed.headers['cache-control']).toBe('public, max-age=300'); // sites link to this name
  });

  it('has no serious axe issues at 390 and 1280 px with any brand colour, with the avatar, typing line and file button', async () => {
    const colours = ['#1F8A3F', '#FFD400', '#000000', '#E91E63', '#FFFFFF', '#801F3A5F'];
    for (const [i, colour] of colours.entries()) {
      for (const viewport of [
        { width: 390, height: 780 },
        { width: 1280, height: 800 },
      ]) {
        const context = await newContext(viewport);
        const { page } = await openChat(context, seed.botId, `axe_user_${i}_${viewport.width}`, { statusBarColor: colour });
        await page.getByRole('heading', { name: 'Ada Helper' }).waitFor();
        await page.evaluate(() => {
          const line = document.getElementById('typing')!;
          line.classList.add('on');
          document.getElementById('typing-text')!.textContent = 'Ada Helper is typing';
        });
        const axe = await new AxeBuilder({ page }).analyze();
        const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect({ colour, width: viewport.width, serious: serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`) }).toEqual({ colour, width: viewport.width, serious: [] });
        if (i === 0) await page.screenshot({ path: `${CHAT_SHOTS}/brand-${colour.slice(1)}-${viewport.width}.png` });
        // Each open page keeps its stream and its typing animation running: closed at once, twelve do not add up.
        await context.close();
      }
    }
    // Twelve pages and axe scans: on a loaded host well over the default two minutes.
  }, 360_000);
});
