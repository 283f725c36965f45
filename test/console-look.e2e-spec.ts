import { jest } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { UserService } from '@platform/accounts';
import { BotRepository } from '@platform/database';
import { SANDBOX_WABA_ID } from '@platform/sandbox';
import { SeededAdmin, advanceClock, seedBotAdmin, until } from '@platform/testing';
import { ConsoleBrowser, DESKTOP, PHONE, axeViolations, screenshots, sidewaysScroll, submitSignIn } from './console-browser.js';
import { useStack } from './e2e-stack.js';
import { greetingBot } from './hosted-bots-support.js';

jest.setTimeout(180_000);

/**
 * The console's look and manners (issue 23 item 5), in Chromium, on a new bot with nothing in it: a
 * path-style URL opens the console; empty lists say what to do next; the first-run checklist ticks as
 * its steps are taken in the console (sender, template sync, key, test carousel) and elsewhere (the chat
 * page, a published definition); the Test carousel form is built from the synced demo templates and the
 * loopback Cloud API receives every value typed; an expired session is told in words, with a way back.
 */
describe('console: design system, onboarding, empty states, human errors, template-built test form', () => {
  const stack = useStack({ cloud: true, worker: true });
  const browser = new ConsoleBrowser();
  let admin: SeededAdmin;
  let botId: string;
  let page: Page;
  let apiKey: string;
  stack.defer(() => browser.close());

  beforeAll(async () => {
    botId = (await stack.gateway.get(BotRepository, { strict: false }).create('Look bot')).id;
    admin = await seedBotAdmin(stack.gateway, botId, 'admin');
    await browser.launch();
    ({ page } = await browser.newPage(stack.url));
  });

  /** axe at phone and desktop width, nothing scrolling sideways at either, and the screenshots. */
  const checkPage = async (name: string) => {
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      expect(await axeViolations(page)).toEqual([]);
      expect(await sidewaysScroll(page)).toEqual([]);
    }
    await screenshots(page, name);
  };
  const section = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name });
  const tab = (nav: string, name: string) => page.getByRole('navigation', { name: nav }).getByRole('link', { name });
  const step = (id: string) => page.getByTestId('onboarding').locator(`li[data-step="${id}"]`);
  const doneSteps = async () =>
    page
      .getByTestId('onboarding')
      .locator('li[data-done="true"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-step')));
  const openOverview = async () => {
    await section('Overview').click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByTestId('onboarding').waitFor();
  };

  it('a path-style URL answers the console’s page (API and asset 404s stay JSON), and after sign-in opens the page it names', async () => {
    const deep = await fetch(`${stack.url}/console/settings/api-keys`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('content-type')).toMatch(/^text\/html/);
    expect(deep.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await deep.text()).toContain('<div id="app">');
    const missingAsset = await fetch(`${stack.url}/console/assets/nope-123.js`);
    expect(missingAsset.status).toBe(404);
    expect(await missingAsset.json()).toMatchObject({ status: 'error' });
    const missingRoute = await fetch(`${stack.url}/v1/no-such-route`);
    expect(missingRoute.status).toBe(404);
    expect(missingRoute.headers.get('content-type')).toMatch(/json/);

    await page.goto(`${stack.url}/console/settings/api-keys`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await submitSignIn(page, admin);
    await page.getByRole('heading', { name: 'Settings · API Keys' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/');
    expect(new URL(page.url()).hash).toBe(`#/bots/${botId}/settings/api-keys`);
    // And a path naming the bot, once signed in.
    await page.goto(`${stack.url}/console/bots/${botId}/whatsapp/templates`);
    await page.getByRole('heading', { name: 'WhatsApp · Templates' }).waitFor();
  });

  it('GET /v1/bots/:botId/onboarding answers its members only: 401 without a token, 403 for another bot’s admin', async () => {
    expect((await fetch(`${stack.url}/v1/bots/${botId}/onboarding`)).status).toBe(401);
    const stranger = await seedBotAdmin(stack.gateway, (await stack.gateway.get(BotRepository, { strict: false }).create('Stranger bot')).id, 'admin');
    const refused = await fetch(`${stack.url}/v1/bots/${botId}/onboarding`, { headers: { authorization: `Bearer ${stranger.accessToken}` } });
    expect(refused.status).toBe(403);
    const viewer = await seedBotAdmin(stack.gateway, botId, 'viewer');
    const read = await fetch(`${stack.url}/v1/bots/${botId}/onboarding`, { headers: { authorization: `Bearer ${viewer.accessToken}` } });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ done: 0, complete: false, steps: [{ id: 'sender', done: false }, {}, {}, {}, {}, {}] });
  });

  it('every list of a new bot is an empty state that names the next step', async () => {
    await page.getByTestId('empty-templates').getByText('Sync from Meta').waitFor();
    await checkPage('empty-templates');
    await tab('WhatsApp', 'Senders').click();
    await page.getByTestId('empty-senders').getByText('No sender number yet').waitFor();
    await tab('WhatsApp', 'Test carousel').click();
    await page.getByTestId('empty-state').getByRole('link', { name: 'Add a sender number' }).waitFor();
    await checkPage('empty-test-carousel');
    await section('Messages').click();
    await page.getByTestId('empty-messages').getByRole('link', { name: 'Send a test carousel' }).waitFor();
    await checkPage('empty-messages');
    await section('Inbox').click();
    await page
      .getByTestId('inbox-empty')
      .getByText(/No conversation is waiting for an agent/)
      .waitFor();
    await section('Settings').click();
    await page.getByTestId('empty-api-keys').getByText('No API keys yet').waitFor();
    await checkPage('empty-api-keys');
    await tab('Settings', 'OAuth clients').click();
    await page.getByTestId('empty-oauth-clients').waitFor();
    // Every icon is drawn from the one set, decorative (hidden from screen readers: the text beside it names the thing).
    const icons = await page.locator('svg.icon').evaluateAll((svgs) => svgs.map((s) => [s.getAttribute('viewBox'), s.getAttribute('aria-hidden'), s.childElementCount > 0]));
    expect(icons.length).toBeGreaterThan(5);
    expect(icons.every(([box, hidden, drawn]) => box === '0 0 24 24' && hidden === 'true' && drawn)).toBe(true);
    // Every section's link has its icon, so the bar's labels line up.
    const sections = await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => [a.textContent, a.querySelector('svg.icon') !== null]));
    expect(sections.filter(([, hasIcon]) => !hasIcon)).toEqual([]);
    expect(sections.length).toBeGreaterThanOrEqual(8);
  });

  it('the first-run checklist on the home page shows every step to do', async () => {
    await openOverview();
    expect(await doneSteps()).toEqual([]);
    expect(await page.getByTestId('onboarding').locator('li').allInnerTexts()).toEqual([
      expect.stringContaining('Add a sender'),
      expect.stringContaining('Sync templates'),
      expect.stringContaining('Generate a key'),
      expect.stringContaining('Send a test'),
      expect.stringContaining('Open the chat'),
      expect.stringContaining('Publish a bot'),
    ]);
    await checkPage('onboarding-new');
  });

  it('the steps tick as they are taken: a sender, a template sync, a key', async () => {
    await step('sender').getByRole('link', { name: 'Add a sender' }).click();
    await page.getByRole('heading', { name: 'WhatsApp · Senders' }).waitFor();
    await page.getByText('Add a sender number').click();
    const form = page.getByRole('form', { name: 'Add a sender number' });
    await form.getByLabel('Number', { exact: true }).fill('+15550003333');
    await form.getByLabel('Phone-number id').fill('106500000000033');
    await form.getByLabel('Access token', { exact: true }).fill('EAAG-look-token');
    await form.getByLabel('WhatsApp Business Account id').fill(SANDBOX_WABA_ID);
    await form.getByRole('button', { name: 'Add sender' }).click();
    await page.getByText('Sender +15550003333 added.').waitFor();
    await openOverview();
    expect(await doneSteps()).toEqual(['sender']);

    await step('templates').getByRole('link').click();
    await page.getByRole('button', { name: 'Sync from Meta' }).click();
    await page
      .getByTestId('sync-result')
      .getByText(/3 created/)
      .waitFor();
    await page.getByRole('article', { name: 'demo_summer_carousel' }).waitFor();

    await section('Settings').click();
    await page.getByRole('button', { name: 'Generate New Key' }).click();
    await page.getByLabel('Key name').fill('look');
    await page.keyboard.press('Enter');
    apiKey = await page.getByLabel('New API key').inputValue();
    expect(apiKey).toMatch(/^bpk_/);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await openOverview();
    expect(await doneSteps()).toEqual(['sender', 'templates', 'apiKey']);
    await expect(page.getByTestId('onboarding').getByRole('progressbar', { name: '3 of 6 steps done' }).count()).resolves.toBe(1);
  });

  it('Test carousel is built from the synced template: the demo carousel sends with its body parameters, quick-reply payloads and URL suffixes', async () => {
    await step('testMessage').getByRole('link').click();
    await page.getByLabel('Template').selectOption({ label: 'demo_summer_carousel (3 cards)' });
    await page.getByLabel('Recipient').fill('+919812340001');
    await page.getByRole('button', { name: 'Send test carousel' }).click();
    // Each value the template needs is a field named by its card and button, and an empty one is named.
    await page.getByText('Message body {{1}} is required').waitFor();
    await page.getByText('Card 2 body {{1}} is required').waitFor();
    await page.getByText('Card 3 “More like this” payload is required').waitFor();
    await page.getByText('Card 1 “Shop now” URL suffix is required').waitFor();
    await expect(page.getByLabel('Card 2 body {{1}}').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.getByTestId('card-values').count()).resolves.toBe(3);
    await page.getByText('Replaces {{1}} in https://shop.example.com/item/{{1}}.').first().waitFor();

    await page.getByLabel('Message body {{1}}').fill('Asha');
    for (let i = 1; i <= 3; i++) {
      await page.getByLabel(`Card ${i} image link`).fill(`https://cdn.example.com/look-${i}.jpg`);
      await page.getByLabel(`Card ${i} body {{1}}`).fill(`${i * 10}%`);
      await page.getByLabel(`Card ${i} “More like this” payload`).fill(`more_like_${i}`);
      await page.getByLabel(`Card ${i} “Shop now” URL suffix`).fill(`sku-${i}`);
    }
    await checkPage('test-carousel-template-form');
    const before = stack.cloud.messages.length;
    await page.getByRole('button', { name: 'Send test carousel' }).click();
    await page.getByRole('link', { name: /^Follow message/ }).waitFor();
    const sent = await until(async () => stack.cloud.messages.slice(before).find((m) => JSON.stringify(m.body).includes('look-3.jpg')), 15_000, 'the carousel at the Cloud API');
    const body = JSON.stringify(sent.body);
    for (const value of ['"Asha"', '"30%"', '"more_like_1"', '"more_like_3"', '"sku-2"', 'demo_summer_carousel']) expect(body).toContain(value);

    // The second approved demo template: video cards with two quick replies each, no placeholders.
    await page.getByLabel('Template').selectOption({ label: 'demo_video_tour (2 cards)' });
    expect(await page.getByLabel(/body \{\{1\}\}/).count()).toBe(0);
    for (let i = 1; i <= 2; i++) {
      await page.getByLabel(`Card ${i} video link`).fill(`https://cdn.example.com/tour-${i}.mp4`);
      await page.getByLabel(`Card ${i} “Quero” payload`).fill(`quero_${i}`);
      await page.getByLabel(`Card ${i} “Não” payload`).fill(`nao_${i}`);
    }
    await page.getByRole('button', { name: 'Send test carousel' }).click();
    const tour = await until(async () => stack.cloud.messages.find((m) => JSON.stringify(m.body).includes('tour-2.mp4')), 15_000, 'the video carousel at the Cloud API');
    for (const value of ['"quero_1"', '"nao_2"', 'demo_video_tour']) expect(JSON.stringify(tour.body)).toContain(value);
  });

  it('the chat page and a published definition tick the last steps, and the checklist then goes away', async () => {
    await openOverview();
    expect(await doneSteps()).toEqual(['sender', 'templates', 'apiKey', 'testMessage']);
    await screenshots(page, 'onboarding-four-done');

    const published = await fetch(`${stack.url}/v1/bots/${botId}/versions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ definition: greetingBot() }),
    });
    expect(published.status).toBe(201);
    // The checklist's own link opens the chat page in a new tab, as a tester of this browser.
    const [chat] = await Promise.all([page.context().waitForEvent('page'), step('chat').getByRole('link', { name: 'Open the chat' }).click()]);
    await chat.waitForLoadState();
    expect(new URL(chat.url()).pathname).toBe('/web/bot');
    await until(
      async () => {
        const res = await fetch(`${stack.url}/v1/bots/${botId}/onboarding`, { headers: { authorization: `Bearer ${admin.accessToken}` } });
        const view = await res.json();
        return view.steps.find((s: { id: string; done: boolean }) => s.id === 'chat').done ? view : undefined;
      },
      20_000,
      'the chat step done',
    );
    await chat.close();
    await page.reload();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByTestId('overview-totals').or(page.getByTestId('empty-carousels')).first().waitFor();
    expect(await page.getByTestId('onboarding').count()).toBe(0);
  });

  it('the checklist can be dismissed, and stays dismissed on this bot', async () => {
    const other = (await stack.gateway.get(BotRepository, { strict: false }).create('Second bot')).id;
    await seedBotAdminRole(other);
    await page.goto(`${stack.url}/console/bots/${other}/overview`);
    await page.getByTestId('onboarding').waitFor();
    await page.getByRole('button', { name: 'Dismiss the checklist' }).click();
    expect(await page.getByTestId('onboarding').count()).toBe(0);
    await page.reload();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByTestId('overview-totals').or(page.getByTestId('empty-carousels')).first().waitFor();
    expect(await page.getByTestId('onboarding').count()).toBe(0);
  });

  it('an expired session is told in words, with sign-in offered, never as “Error 401”', async () => {
    // A page that reads nothing by itself (the message log polls and would meet the end first).
    await section('Settings').click();
    await page.getByRole('heading', { name: 'Settings · API Keys' }).waitFor();
    // Its one read done: a read still in flight when the clock jumps would meet the end first, sign out
    // and take the section links away before the click below.
    await page
      .getByRole('table', { name: /^API keys of / })
      .or(page.getByTestId('empty-api-keys'))
      .first()
      .waitFor();
    // Both tokens run out: the access token (15 minutes) and the refresh token behind the cookie (30 days).
    const restore = advanceClock(stack.gateway, 31 * 24 * 3600_000);
    try {
      await section('WhatsApp').click();
      await page.getByText('Your session has ended, so you were signed out. Sign in again to go on.').waitFor();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(await page.locator('body').innerText()).not.toMatch(/Error\s*401|\b401\b|Unauthorized/i);
      await checkPage('session-ended');
    } finally {
      restore();
    }
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByLabel('Password').fill('a wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('Invalid e-mail or password.').waitFor();
    expect(await page.getByRole('alert').innerText()).not.toMatch(/\b401\b/);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'WhatsApp · Senders' }).waitFor();
  });

  it('keeps the first load within 60 KB compressed, and no CSP violation or script error occurred', async () => {
    const html = await (await fetch(`${stack.url}/console/`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css'))).toBe(true);
    let total = 0;
    for (const asset of assets) total += gzipSync(Buffer.from(await (await fetch(`${stack.url}${asset}`)).arrayBuffer()), { level: 9 }).length;
    expect(total).toBeLessThanOrEqual(60 * 1024);
    expect(browser.problems).toEqual([]);
  });

  /** The test's administrator is given the admin role on another bot too. */
  async function seedBotAdminRole(other: string) {
    await stack.gateway.get(UserService, { strict: false }).setRole(admin.userId, other, 'admin');
  }
});
