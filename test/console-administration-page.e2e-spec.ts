import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { Clock } from '@platform/accounts';
import { MessageRepository, PrismaService } from '@platform/database';
import { SeededAdmin, advanceClock, seedBotAdmin } from '@platform/testing';
import qrcode from 'qrcode-generator';
import { qrPath } from '../apps/console/src/qr-path.js';
import { ConsoleBrowser, DESKTOP, PHONE, axeViolations, screenshots, sidewaysScroll, signIn, submitSignIn } from './console-browser.js';
import { useStack } from './e2e-stack.js';

jest.setTimeout(120_000);

/**
 * The console's administration in Chromium (issue 23 item 6): two-factor enrolment and sign-in with the code,
 * an invitation accepted in a fresh browser, the audit log, the message log's columns, timeline and CSV export,
 * sender health and deletion, and the OAuth clients page at 1280 px. axe at 390 and 1280 px on each page;
 * screenshots under .local/screenshots/console/admin-*.
 */
describe('console administration in a real browser', () => {
  const stack = useStack({ seed: true, cloud: true });
  const browser = new ConsoleBrowser();
  let admin: SeededAdmin;
  let page: Page;
  let secret: string;
  stack.defer(() => browser.close());

  beforeAll(async () => {
    admin = await seedBotAdmin(stack.gateway, stack.seed.botId, 'admin');
    await browser.launch();
    ({ page } = await browser.newPage(stack.url));
  });
  afterAll(() => expect(browser.problems).toEqual([]));

  /** axe at phone then desktop width: no serious or critical violation at either. */
  const expectAccessible = async (p: Page = page) => {
    for (const size of [PHONE, DESKTOP]) {
      await p.setViewportSize(size);
      expect(await axeViolations(p)).toEqual([]);
    }
  };
  const settings = async (tab: string) => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: tab }).click();
    await page.getByRole('heading', { name: `Settings · ${tab}` }).waitFor();
  };
  const codeNow = () => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: stack.gateway.get(Clock, { strict: false }).now().getTime() });

  it('turns on two-factor sign-in from Your account: QR code (its chunk fetched only then), key, code, recovery codes shown once', async () => {
    const fetched: string[] = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    await signIn(page, stack.url, admin);
    await settings('Your account');
    expect(fetched.filter((f) => /\/assets\/qrcode-/.test(f))).toEqual([]); // not in the first load, nor on the account page before an enrolment
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    secret = (await page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = (await page.getByRole('link', { name: 'the setup link' }).getAttribute('href'))!;
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(new URL(uri).searchParams.get('secret')).toBe(secret);
    // The QR code: an image with a text alternative, whose modules are those of the setup link's QR code.
    const qr = page.getByRole('img', { name: /QR code of the setup link/ });
    await qr.waitFor();
    expect(fetched.filter((f) => /\/assets\/qrcode-/.test(f))).toHaveLength(1);
    expect(await qr.locator('path').getAttribute('d')).toBe(qrPath(qrcode, uri).d);
    await screenshots(page, 'admin-totp-qr');
    await expectAccessible();
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    await page.getByText('Code must be the 6 digits your app shows').waitFor();
    await page.getByLabel('Code from the app').fill(codeNow());
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    await page.getByTestId('recovery-codes').waitFor();
    expect(await page.getByTestId('recovery-codes').getByRole('listitem').count()).toBe(10);
    await page.getByTestId('two-factor-on').getByText('10 recovery codes left').waitFor();
    await expectAccessible();
    await screenshots(page, 'admin-account');
  });

  it('signing in again asks for the code after the password, and a wrong one is named', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await submitSignIn(page, admin);
    const code = page.getByLabel('Two-factor code');
    await code.waitFor();
    await expect(code.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await expectAccessible();
    await screenshots(page, 'admin-sign-in-code');
    await code.fill('000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('The two-factor code is wrong or was used already').waitFor();
    // The confirmation spent the current step: the app's next code signs in.
    const undo = advanceClock(stack.gateway, 30_000);
    try {
      await code.fill(codeNow());
      await page.getByRole('button', { name: 'Sign in' }).click();
      // Back where the session ended.
      await page.getByRole('heading', { name: 'Settings · Your account' }).waitFor();
    } finally {
      undo();
    }
  });

  it('invites someone by link; in a fresh browser the link shows the invitation and creates the account', async () => {
    await settings('Members');
    const email = `invited-${randomUUID().slice(0, 8)}@example.com`;
    await page.getByLabel('E-mail to invite').fill(email);
    await page.getByLabel('Role', { exact: true }).last().selectOption('developer');
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    const link = await page.getByTestId('invitation-link').inputValue();
    expect(link).toMatch(new RegExp(`^${stack.url}/console/#/invitation/biv_`));
    await page.getByRole('row', { name: new RegExp(email) }).waitFor();
    await expectAccessible();
    await screenshots(page, 'admin-members-invitations');

    const { context, page: guest } = await browser.newPage(stack.url);
    try {
      await guest.goto(link);
      await guest.getByTestId('invitation').getByText(email).waitFor();
      await expectAccessible(guest);
      await screenshots(guest, 'admin-invitation');
      await guest.getByLabel('Choose a password').fill('short');
      await guest.getByRole('button', { name: 'Create account and sign in' }).click();
      await guest.getByText('Password must be at least 12 characters long').waitFor();
      await guest.getByLabel('Choose a password').fill('the invited passphrase');
      await guest.getByLabel('Repeat the password').fill('the invited passphrase');
      await guest.getByRole('button', { name: 'Create account and sign in' }).click();
      await guest.getByRole('heading', { name: 'Overview' }).waitFor();
      await guest.getByText(email).first().waitFor();
      expect(guest.url()).not.toContain('biv_');
    } finally {
      await context.close();
    }
  });

  it('the audit log lists what was done, by whom and from where, and filters by action', async () => {
    await settings('Audit log');
    const log = page.getByTestId('audit-log');
    await log.getByText('invitations.accept').waitFor();
    await log.getByText('invitations.create').waitFor();
    await page.getByLabel('Action').fill('invitations.create');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForFunction(() => !document.querySelector('[data-testid=audit-log]')?.textContent?.includes('invitations.accept'));
    const row = log.getByRole('row', { name: /invitations\.create/ });
    await row.getByText(admin.email).waitFor();
    await row.getByText('Done (201)').waitFor();
    await row.getByText('127.0.0.1').waitFor();
    await expectAccessible();
    await screenshots(page, 'admin-audit-log');
    // At 390 px every Settings tab is on screen (the row wraps), none cut at the edge nor hidden past it.
    await page.setViewportSize(PHONE);
    const tabs = page.getByRole('navigation', { name: 'Settings' });
    const offScreen = await tabs.getByRole('link').evaluateAll((links) =>
      links
        .filter((a) => {
          const r = a.getBoundingClientRect();
          return r.left < 0 || r.right > window.innerWidth || r.width === 0;
        })
        .map((a) => a.textContent),
    );
    expect(offScreen).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await tabs.getByRole('link', { name: 'Your account' }).click();
    await page.getByRole('heading', { name: 'Settings · Your account' }).waitFor();
    await page.setViewportSize(DESKTOP);
  });

  it('the message log shows sender and error, finds a message by id, shows its attempts, and exports CSV', async () => {
    const db = stack.gateway.get(PrismaService);
    const senderId = (await db.channelSender.findFirst({ where: { botId: stack.seed.botId } }))!.id;
    const id = randomUUID();
    await db.message.create({ data: { id, botId: stack.seed.botId, templateId: stack.seed.templateId, senderId, channel: 'whatsapp', recipient: '15550006666', status: 'processing', attempts: 1 } });
    const messages = stack.gateway.get(MessageRepository, { strict: false });
    await messages.recordError(id, '131000', 'Something went wrong', false);
    await db.message.update({ where: { id }, data: { attempts: 2 } });
    await messages.recordError(id, '131026', 'Message undeliverable', true);

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Messages' }).click();
    await page.getByLabel('Message id').fill(id);
    await page.getByRole('button', { name: 'Filter' }).click();
    const row = page.locator(`tr[data-msg-id="${id}"]`);
    await row.getByTestId('error').getByText('131026: Message undeliverable').waitFor();
    expect(await page.getByTestId('message-log').locator('tbody tr').count()).toBe(1);
    await row.getByText('+15550001111').waitFor();
    // Times name their zone.
    expect(await row.locator('td').nth(3).textContent()).toMatch(/(GMT|UTC|[A-Z]{2,5})([+-]\d+)?$/);
    await expectAccessible();
    await screenshots(page, 'admin-messages');

    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(file.suggestedFilename()).toMatch(/^messages-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await file.path())!, 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(`${id},`);
    expect(csv[1]).toContain(',failed,+15550006666,+15550001111,summer_carousel,2,,131026,Message undeliverable,');

    await row.getByRole('link').click();
    const timeline = page.getByTestId('timeline');
    await timeline.getByText('Attempt 1: failed, retried').waitFor();
    await timeline.getByText('Attempt 2: failed, given up').waitFor();
    await timeline.getByText('131000: Something went wrong').waitFor();
    await expectAccessible();
    await screenshots(page, 'admin-message-timeline');
  });

  it('a sender whose sends fail shows it, and can be deleted', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'WhatsApp' }).click();
    const row = page.getByRole('row', { name: /\+15550001111/ });
    await row.getByTestId('sender-health').getByText('1 failed in 24 h').waitFor();
    await row
      .getByTestId('sender-health')
      .getByText(/131026 Message undeliverable/)
      .waitFor();
    await expectAccessible();
    await screenshots(page, 'admin-senders');
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Delete sender +15550001111' }).click();
    await page.getByText('Sender +15550001111 deleted.').waitFor();
    await page.getByTestId('empty-senders').waitFor();
  });

  it('the OAuth clients page fits a 1280 px screen: nothing scrolls sideways and Delete is on screen', async () => {
    const long = (n: number) => `https://crm-${n}.example.com/oauth/callback/with/a/rather/long/path/segment/${'x'.repeat(40)}`;
    for (const name of ['Acme CRM with a long name', 'Mobile app']) {
      const res = await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/oauth-clients`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.accessToken}` },
        body: JSON.stringify({ name, type: 'confidential', redirect_uris: [long(1), long(2)] }),
      });
      expect(res.status).toBe(201);
    }
    await page.setViewportSize(DESKTOP);
    await settings('OAuth clients');
    const del = page.getByRole('button', { name: 'Delete client Mobile app' });
    await del.waitFor();
    expect(await sidewaysScroll(page)).toEqual([]);
    const box = (await del.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(DESKTOP.width);
    await expectAccessible();
    await page.setViewportSize(DESKTOP);
    expect(await sidewaysScroll(page)).toEqual([]);
    await screenshots(page, 'admin-oauth-clients');
  });
});
