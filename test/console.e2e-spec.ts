import { jest } from '@jest/globals';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Page } from 'playwright-core';
import { createChannelWorker } from '../apps/channel-worker/src/create-channel-worker.js';
import { PrismaService } from '@platform/database';
import { SANDBOX_WABA_ID } from '@platform/sandbox';
import { SeededAdmin, carouselBody, seedBotAdmin, until } from '@platform/testing';
import { ConsoleBrowser, DESKTOP, PHONE, axeViolations, screenshots, sidewaysScroll, signIn } from './console-browser.js';
import { useStack } from './e2e-stack.js';

jest.setTimeout(120_000);

const APP_SECRET = 'app-secret-for-console-tests';

/**
 * The console in a real browser, used as a person would: sign in by keyboard, generate an API key and
 * copy it, trigger a carousel with it, revoke it, upload a Firebase service account and send a test
 * push, watch a message go from queued to read, and be refused where the role does not allow.
 */
describe('console: a bot administrator in a real browser', () => {
  const stack = useStack({
    cloud: true,
    push: true,
    pushService: true,
    seed: true,
    env: { WHATSAPP_WEBHOOK_VERIFY_TOKEN: 'verify-token-for-console-tests', WHATSAPP_APP_SECRET: APP_SECRET, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
  });
  const browser = new ConsoleBrowser();
  // Started and stopped by the tests: messages wait queued while none runs.
  let worker: NestFastifyApplication | undefined;
  let admin: SeededAdmin;
  let viewer: SeededAdmin;
  let page: Page;
  let queuedMsgId: string;
  stack.defer(() => worker?.close());
  stack.defer(() => browser.close());

  beforeAll(async () => {
    stack.cloud.postStatusesTo({ url: `${stack.url}/webhooks/whatsapp`, appSecret: APP_SECRET, delayMs: 300 });
    admin = await seedBotAdmin(stack.gateway, stack.seed.botId, 'admin');
    viewer = await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer');
    await browser.launch();
    ({ page } = await browser.newPage(stack.url));
  });

  const trigger = (key: string) =>
    fetch(`${stack.url}/api/engagements/notifications/v2/push?bot=${stack.seed.botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify(carouselBody(stack.seed)),
    });
  const expectAccessible = async () => expect(await axeViolations(page)).toEqual([]);
  const section = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name });

  it('signs in by keyboard alone, naming empty fields and showing a wrong password as the API words it', async () => {
    await page.goto(`${stack.url}/console/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expectAccessible();
    await screenshots(page, 'sign-in');

    await page.getByLabel('E-mail').focus();
    await page.keyboard.press('Enter');
    await page.getByText('E-mail is required').waitFor();
    await page.getByText('Password is required').waitFor();
    await expect(page.getByLabel('E-mail').getAttribute('aria-invalid')).resolves.toBe('true');

    await page.keyboard.type(admin.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('not-the-password');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').getByText('Invalid e-mail or password').waitFor();

    await page.getByLabel('Password').fill('');
    await page.getByLabel('Password').focus();
    await page.keyboard.type(admin.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    // The session survives a reload through the HttpOnly cookie, which page scripts cannot see.
    await page.reload();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.evaluate(() => document.cookie)).not.toContain('bp_refresh');
    await expectAccessible();
  });

  it('Settings → API Keys → Generate New Key: the key is shown once, copied, and works for the carousel trigger', async () => {
    await section('Settings').click();
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API Keys' }).click();
    await page.getByRole('heading', { name: 'Settings · API Keys' }).waitFor();
    await page.getByRole('button', { name: 'Generate New Key' }).click();
    await page.getByText('Name is required').waitFor();

    await page.getByLabel('Key name').fill('console e2e');
    await page.keyboard.press('Enter');
    await page.getByText('It will not be shown again').waitFor();
    await page.getByRole('heading', { name: 'New key “console e2e”' }).waitFor();
    const shown = await page.getByLabel('New API key').inputValue();
    expect(shown).toMatch(/^bpk_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(shown);
    await expectAccessible();
    await screenshots(page, 'api-keys-new-key');

    // No worker runs yet: the message stays queued until one starts (watched in the log below).
    const res = await trigger(copied);
    expect(res.status).toBe(200);
    queuedMsgId = (await res.json()).msgId;

    const row = page.getByRole('row', { name: /console e2e/ });
    await row.getByText('Active').waitFor();
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.getByLabel('New API key').count()).toBe(0);
    expect(await page.content()).not.toContain(copied);
  });

  it('revoking asks for confirmation, and the key is refused at once (401)', async () => {
    const key = await page.evaluate(() => navigator.clipboard.readText());
    await page.getByRole('button', { name: 'Revoke key console e2e' }).click();
    const dialog = page.getByRole('dialog', { name: /Revoke “console e2e”/ });
    await dialog.waitFor();
    await expectAccessible();
    await screenshots(page, 'api-keys-revoke');
    // The dialog's overlay covers the whole window, the header at its top included, at both widths.
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      const covered = await dialog.evaluate((d) => {
        const r = d.getBoundingClientRect();
        const header = document.querySelector('header')!.getBoundingClientRect();
        const hit = document.elementFromPoint(header.left + 5, header.top + 5);
        return { edges: [r.top, r.left, r.bottom, r.right], hitInDialog: !!hit && d.contains(hit) };
      });
      expect(covered).toEqual({ edges: [0, 0, size.height, size.width], hitInDialog: true });
    }
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('revoked: every gateway refuses it now').waitFor();
    await page
      .getByRole('row', { name: /console e2e/ })
      .getByText(/^Revoked/)
      .waitFor();
    expect((await trigger(key)).status).toBe(401);
    await expectAccessible();
    await screenshots(page, 'api-keys');
  });

  it('at phone width the keys are cards, each value named by its column, still a table to screen readers, and nothing scrolls sideways', async () => {
    await page.setViewportSize(PHONE);
    try {
      const row = page.getByRole('row', { name: /console e2e/ });
      await row.waitFor();
      expect(await sidewaysScroll(page)).toEqual([]);
      expect(await row.getByRole('rowheader').textContent()).toBe('console e2e');
      const prefix = row.getByRole('cell').first();
      expect(await prefix.getAttribute('data-label')).toBe('Prefix');
      expect(await prefix.evaluate((td) => getComputedStyle(td, '::before').content)).toMatch(/Prefix/);
      await expectAccessible();
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it('Messages: a message goes from queued to read while its page is open, and the log shows it', async () => {
    await page.goto(`${stack.url}/console/#/bots/${stack.seed.botId}/messages/${queuedMsgId}`);
    const status = page.getByTestId('message-detail').getByTestId('status');
    await expect(status.textContent()).resolves.toBe('queued');
    await expectAccessible();
    worker = await createChannelWorker(stack.env);
    await page.getByTestId('message-detail').getByTestId('status').getByText('read').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('message-detail').textContent()).toMatch(/wamid\./);
    await screenshots(page, 'message-detail');

    await page.getByRole('link', { name: '← All messages' }).click();
    await page.getByRole('heading', { name: 'Messages' }).waitFor();
    await page.locator(`tr[data-msg-id="${queuedMsgId}"]`).getByText('read').waitFor();

    // Live: the log listens to the gateway's event stream. With no worker running, a message triggered
    // now shows as queued (the list API alone cannot show it: it has no row yet), then moves on by itself.
    await page.locator('[data-live="stream"]').waitFor();
    await worker.close();
    worker = undefined;
    await page.evaluate(() => {
      const seen: Record<string, string[]> = {};
      (window as unknown as { seenStatuses: typeof seen }).seenStatuses = seen;
      const record = () =>
        document.querySelectorAll<HTMLElement>('tr[data-msg-id]').forEach((row) => {
          const list = (seen[row.dataset.msgId!] ??= []);
          const status = row.querySelector('[data-testid="status"]')?.textContent ?? '';
          if (list[list.length - 1] !== status) list.push(status);
        });
      new MutationObserver(record).observe(document.querySelector('main')!, { subtree: true, childList: true, characterData: true });
    });
    const fresh = await (await trigger(stack.seed.apiKey)).json();
    await page.locator(`tr[data-msg-id="${fresh.msgId}"]`).getByText('queued').waitFor({ timeout: 10_000 });
    await screenshots(page, 'messages-live-queued');
    worker = await createChannelWorker(stack.env);
    await page.locator(`tr[data-msg-id="${fresh.msgId}"]`).getByText('read').waitFor({ timeout: 20_000 });
    const seen = await page.evaluate((id) => (window as unknown as { seenStatuses: Record<string, string[]> }).seenStatuses[id], fresh.msgId);
    expect(seen).toEqual(['queued', 'sent', 'delivered', 'read']);

    // The stream drops: the log says so and reads every 2 s instead, then goes back to the stream.
    await page.route('**/messages/stream?**', (route) => route.abort());
    await page.reload();
    await page.locator('[data-live="polling"]').getByText('Live updates are unavailable').waitFor();
    const polled = await (await trigger(stack.seed.apiKey)).json();
    await page.locator(`tr[data-msg-id="${polled.msgId}"]`).getByText('read').waitFor({ timeout: 20_000 });
    await page.unroute('**/messages/stream?**');
    await page.locator('[data-live="stream"]').waitFor({ timeout: 40_000 });

    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByTestId('empty-messages').getByText('No message matches these filters').waitFor();
    await page.getByLabel('Recipient').fill('abc');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('Recipient must be a phone number').waitFor();
    await page.getByLabel('Recipient').fill('+9198');
    await page.getByLabel('Status').selectOption('read');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.locator(`tr[data-msg-id="${fresh.msgId}"]`).waitFor();
    await expectAccessible();
    await screenshots(page, 'messages');
  });

  it('Push: uploads the service account (only project id and client e-mail shown) and shows FCM’s answer to a test send', async () => {
    const account = stack.push.oauth.createServiceAccount('console-demo');
    await section('Push').click();
    await page.getByText('No service account saved').waitFor();
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByText('Service-account file is required').waitFor();

    await page.getByLabel('Service-account file (JSON)').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"type":"user"}') });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('alert').getByText(/type/).waitFor();

    await page.getByLabel('Service-account file (JSON)').setInputFiles({ name: 'sa.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(account)) });
    await page.getByRole('button', { name: 'Upload' }).click();
    const facts = page.getByTestId('push-config');
    await facts.getByText('console-demo', { exact: true }).waitFor();
    await facts.getByText(account.client_email).waitFor();
    const html = await page.content();
    expect(html).not.toContain('PRIVATE KEY');
    expect(html).not.toContain(account.private_key_id);

    await page.getByLabel('Device token').fill('console-device-token-1');
    await page.getByRole('button', { name: 'Send test' }).click();
    const answer = page.getByTestId('fcm-answer');
    await answer.getByText('FCM answered HTTP 200 (accepted)').waitFor();
    expect(await answer.locator('pre').textContent()).toMatch(/"name": "projects\/console-demo\/messages\//);
    expect(stack.push.fcm.received('console-device-token-1')).toHaveLength(1);
    await expectAccessible();
    await screenshots(page, 'push');
  });

  it('Push: devices are counted and listed, one is unlinked; the service account is removed', async () => {
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${stack.url}/v1/bots/${stack.seed.botId}${path}`, {
        method,
        headers: { authorization: `Bearer ${stack.seed.apiKey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    for (let i = 0; i < 3; i++) expect((await api('POST', '/devices', { userId: `user-${i}`, token: `fcm-token-of-user-${i}-0123456789`, platform: 'android' })).status).toBe(201);
    await page.reload();
    await page.getByTestId('device-counts').getByText('3 registered: 3 live, 0 no longer reachable.').waitFor();
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: /^Unlink device .* of user-1$/ }).click();
    await page.getByText('Device unlinked.').waitFor();
    await page.getByTestId('device-counts').getByText('2 registered').waitFor();
    await expectAccessible();
    await screenshots(page, 'push-devices');

    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Remove the service account' }).click();
    await page.getByText('No service account saved').waitFor();
  });

  const whatsappTab = (name: string) => page.getByRole('navigation', { name: 'WhatsApp' }).getByRole('link', { name });

  it('WhatsApp → Templates: the hand-registered template is listed; a sync without a Business Account shows the API’s 400', async () => {
    await section('WhatsApp').click();
    await whatsappTab('Templates').click();
    await page.getByRole('heading', { name: 'WhatsApp · Templates' }).waitFor();
    const manual = page.getByRole('article', { name: 'summer_carousel' });
    await manual.getByTestId('card-count').getByText('3', { exact: true }).waitFor();
    await manual.getByTestId('header-format').getByText('image').waitFor();
    await manual.getByText('Registered by hand', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Sync from Meta' }).click();
    await page
      .getByRole('alert')
      .getByText(/^No WhatsApp sender of this bot has a wabaId/)
      .waitFor();
  });

  it('WhatsApp → Senders: throughput and Business Account edited by keyboard, the access token written but never shown', async () => {
    await whatsappTab('Senders').click();
    const row = page.getByRole('row', { name: /\+15550001111/ });
    await row.getByTestId('throughput').getByText('80 msg/s').waitFor();
    expect(await page.content()).not.toContain(stack.seed.accessToken);

    await page.getByRole('button', { name: 'Edit sender +15550001111' }).focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'Edit sender +15550001111' });
    await form.waitFor();
    // The form moves focus to its first field in an effect, after it is painted: wait for it, bounded.
    await page.waitForFunction(() => document.activeElement?.id === 'edit-throughput', undefined, { timeout: 5000 });
    await page.keyboard.press('Control+A');
    await page.keyboard.type('5000');
    await page.keyboard.press('Enter');
    await form.getByText('Throughput must be a whole number of messages per second from 1 to 1000').waitFor();
    await expect(form.getByLabel('Throughput (messages/s)').getAttribute('aria-invalid')).resolves.toBe('true');
    await expectAccessible();

    await page.keyboard.press('Control+A');
    await page.keyboard.type('200');
    await page.keyboard.press('Tab');
    await page.keyboard.type(SANDBOX_WABA_ID);
    await page.keyboard.press('Tab');
    await page.keyboard.type('EAAG-console-rotated-token');
    await page.keyboard.press('Enter');
    await page.getByText('Sender +15550001111 saved: 200 messages/s, access token replaced.').waitFor();
    await row.getByTestId('throughput').getByText('200 msg/s').waitFor();
    await row.getByText(SANDBOX_WABA_ID).waitFor();
    expect(await page.content()).not.toContain('EAAG-console-rotated-token');
    const api = await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/whatsapp/senders`, { headers: { authorization: `Bearer ${admin.accessToken}` } });
    expect((await api.json()).senders[0]).toMatchObject({ throughput: 200, wabaId: SANDBOX_WABA_ID, accessTokenSet: true });

    await page.getByText('Add a sender number').click();
    await page.getByRole('button', { name: 'Add sender' }).click();
    await page.getByText('Number must have a country code').waitFor();
    await page.getByText('Access token is required').waitFor();
    await page.getByLabel('Number', { exact: true }).fill('+15550002222');
    await page.getByLabel('Phone-number id').fill('106500000000002');
    await page.getByLabel('Access token', { exact: true }).fill('EAAG-console-secret-token');
    await page.getByRole('form', { name: 'Add a sender number' }).getByLabel('Throughput (messages/s)').fill('0');
    await page.getByRole('button', { name: 'Add sender' }).click();
    await page.getByRole('form', { name: 'Add a sender number' }).getByText('Throughput must be a whole number').waitFor();
    await page.getByRole('form', { name: 'Add a sender number' }).getByLabel('Throughput (messages/s)').fill('40');
    await page.getByRole('button', { name: 'Add sender' }).click();
    await page.getByText('Sender +15550002222 added.').waitFor();
    await page
      .getByRole('row', { name: /\+15550002222/ })
      .getByTestId('throughput')
      .getByText('40 msg/s')
      .waitFor();
    expect(await page.content()).not.toContain('EAAG-console-secret-token');
    await page.getByLabel('Number', { exact: true }).fill('+15550002222');
    await page.getByLabel('Phone-number id').fill('106500000000002');
    await page.getByLabel('Access token', { exact: true }).fill('EAAG-console-secret-token');
    await page.getByRole('button', { name: 'Add sender' }).click();
    await page
      .getByRole('alert')
      .getByText(/^Number \+15550002222 is already a sender/)
      .waitFor();
    await expectAccessible();
    await screenshots(page, 'whatsapp-senders');
  });

  it('WhatsApp → Templates: Sync from Meta reads the Business Account’s carousels with status, cards, headers and buttons', async () => {
    await whatsappTab('Templates').click();
    // Held on its way to the gateway, the sync shows its progress: a spinner, and the button busy.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/whatsapp/templates/sync', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Sync from Meta' }).click();
    await page.getByRole('status').getByText('Syncing templates from Meta…').waitFor();
    await expect(page.getByRole('button', { name: 'Sync from Meta' }).getAttribute('aria-busy')).resolves.toBe('true');
    release();
    const result = page.getByTestId('sync-result');
    await result.getByText(`Synced from WhatsApp Business Account ${SANDBOX_WABA_ID}: 3 created, 0 updated, 0 unchanged, 0 deleted, 1 skipped (not carousels).`).waitFor();

    const synced = page.getByRole('article', { name: 'demo_summer_carousel' });
    await synced.getByTestId('template-status').getByText('APPROVED').waitFor();
    await synced.getByText('Synced from Meta').waitFor();
    await synced.getByTestId('card-count').getByText('3', { exact: true }).waitFor();
    await expect(synced.getByTestId('template-card').count()).resolves.toBe(3);
    const card = synced.getByRole('list', { name: 'Buttons of card 2' });
    await card.getByText('Quick reply').waitFor();
    await card.getByText('“More like this”').waitFor();
    await card.getByText('https://shop.example.com/item/{{1}}').waitFor();
    await card.getByText(/dynamic suffix/).waitFor();
    await page.getByRole('article', { name: 'demo_video_tour' }).getByTestId('header-format').getByText('video').waitFor();
    await page.getByRole('article', { name: 'demo_autumn_carousel' }).getByTestId('template-status').getByText('PENDING').waitFor();
    await expectAccessible();
    await screenshots(page, 'whatsapp-templates');

    // Again: nothing changes, and the page says so.
    await page.getByRole('button', { name: 'Sync from Meta' }).click();
    await result.getByText(/0 created, 0 updated, 3 unchanged/).waitFor();
    await page.unroute('**/whatsapp/templates/sync');
  });

  it('WhatsApp → Test carousel: field errors, then a carousel followed to read', async () => {
    await whatsappTab('Test carousel').click();
    await page.getByLabel('Template').selectOption({ label: 'summer_carousel (3 cards)' });
    expect(await page.getByLabel('Template').locator('option', { hasText: 'demo_autumn_carousel' }).count()).toBe(0); // not approved
    await page.getByLabel('Sender').selectOption('+15550001111');
    await page.getByLabel('Recipient').fill('+919812345678');
    await page.getByRole('button', { name: 'Send test carousel' }).click();
    await page.getByText('Card 1 media link must be an http(s) URL').waitFor();
    for (let i = 0; i < 3; i++) await page.getByLabel(`Card ${i + 1} image link`).fill(`https://cdn.example.com/console-${i}.jpg`);
    await expectAccessible();
    await screenshots(page, 'whatsapp-test-carousel');
    await page.getByRole('button', { name: 'Send test carousel' }).click();
    await page.getByRole('link', { name: /^Follow message/ }).click();
    await page.getByTestId('message-detail').getByTestId('status').getByText('read').waitFor({ timeout: 20_000 });
    expect(stack.cloud.messages.some((m) => JSON.stringify(m.body).includes('console-2.jpg'))).toBe(true);
    await screenshots(page, 'message-detail-read');
  });

  it('Settings → Webhook: the signing secret is shown once and can be rotated; a disabled webhook says so until it is saved again', async () => {
    await section('Settings').click();
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhook' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('URL is required').waitFor();
    await page.getByLabel('Webhook URL').fill('https://localhost/events');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const first = await page.getByTestId('webhook-secret').inputValue();
    expect(first.length).toBeGreaterThan(20);
    await page.getByRole('button', { name: 'Save and rotate secret' }).click();
    await until(async () => ((await page.getByTestId('webhook-secret').inputValue()) !== first ? true : undefined), 10_000, 'a rotated secret');
    await page.getByText('The previous secret also signs calls until').waitFor();

    // An endpoint the platform disabled says so, and saving its URL enables it again.
    await stack.gateway.get(PrismaService, { strict: false }).callbackEndpoint.update({
      where: { botId_kind: { botId: stack.seed.botId, kind: 'webhook' } },
      data: { failingSince: new Date(Date.now() - 80 * 3600_000), disabledAt: new Date(), disabledReason: 'answered 500' },
    });
    await page.reload();
    await page.getByTestId('webhook-disabled').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('webhook-disabled').waitFor({ state: 'detached' });
    await expectAccessible();
    await screenshots(page, 'webhook');
  });

  it('Settings → OAuth clients: created with the secret shown once, then deleted', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'OAuth clients' }).click();
    await page.getByText('Register a client').click();
    await page.getByRole('button', { name: 'Register client' }).click();
    await page.getByText('Name is required').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Acme CRM');
    await page.getByLabel('Redirect URIs').fill('http://localhost/cb#fragment');
    await page.getByRole('button', { name: 'Register client' }).click();
    await page
      .getByRole('alert')
      .getByText(/fragment/)
      .waitFor();
    await page.getByLabel('Redirect URIs').fill('https://crm.example.com/oauth/callback');
    await page.getByRole('button', { name: 'Register client' }).click();
    expect(await page.getByTestId('client-secret').inputValue()).toMatch(/^bcs_/);
    await page
      .getByRole('row', { name: /Acme CRM/ })
      .getByText('https://crm.example.com/oauth/callback')
      .waitFor();
    await expectAccessible();
    await screenshots(page, 'oauth-clients');
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Delete client Acme CRM' }).click();
    await page
      .getByRole('row', { name: /Acme CRM/ })
      .getByText(/^Deleted/)
      .waitFor();
  });

  it('Members: lists the bot’s members with their roles', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Members' }).click();
    await page
      .getByRole('row', { name: new RegExp(viewer.email) })
      .getByText('viewer')
      .waitFor();
    await expectAccessible();
    await screenshots(page, 'members');
  });

  it('a member without the role sees a clear “not allowed” notice, at phone width', async () => {
    const other = await browser.newPage(stack.url, PHONE);
    try {
      const p = other.page;
      await signIn(p, stack.url, viewer);
      await p.goto(`${stack.url}/console/#/bots/${stack.seed.botId}/settings/api-keys`);
      const notice = p.getByTestId('not-allowed');
      await notice.getByText('This page needs the admin role on this bot; your role is viewer.').waitFor();
      expect(await p.getByRole('button', { name: 'Generate New Key' }).count()).toBe(0);
      expect(await axeViolations(p)).toEqual([]);
      await screenshots(p, 'not-allowed');
      await p.goto(`${stack.url}/console/#/bots/${stack.seed.botId}/push`);
      await p.getByTestId('not-allowed').waitFor();
      // The API refuses too: the console only hides what the server would answer 403 to.
      const token = await p.evaluate(async () => (await fetch('/v1/auth/refresh', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json());
      expect((await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/api-keys`, { headers: { authorization: `Bearer ${token.access_token}` } })).status).toBe(403);
    } finally {
      await other.context.close();
    }
  });

  it('signs out, and the page shows no CSP violation or script error throughout', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(browser.problems).toEqual([]);
  });
});
