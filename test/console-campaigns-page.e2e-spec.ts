import type { Page } from 'playwright-core';
import { SANDBOX_WABA_ID } from '@platform/sandbox';
import { seedBotAdmin } from '@platform/testing';
import { ConsoleBrowser, DESKTOP, PHONE, axeViolations, screenshots, sidewaysScroll, signIn } from './console-browser.js';
import { useStack } from './e2e-stack.js';

/**
 * The console's campaigns page in Chromium: a campaign of the synced demo carousel from a CSV, its
 * columns mapped to the body parameter, each card's media link, body parameter and button values, a
 * preview with the bad row, then started and followed to the end.
 */
describe('console campaigns page (Chromium)', () => {
  const stack = useStack({ cloud: true, seed: true, worker: true });
  const browser = new ConsoleBrowser();
  let page: Page;
  stack.defer(() => browser.close());

  beforeAll(async () => {
    // The demo templates as Meta has them (libs/sandbox), synced through the sender's Business Account.
    const admin = await seedBotAdmin(stack.gateway, stack.seed.botId, 'admin');
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${stack.url}/v1/bots/${stack.seed.botId}${path}`, {
        method,
        headers: { authorization: `Bearer ${admin.accessToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      return res.json();
    };
    const { senders } = await call('GET', '/whatsapp/senders');
    await call('PATCH', `/whatsapp/senders/${senders[0].id}`, { wabaId: SANDBOX_WABA_ID });
    await call('POST', '/whatsapp/templates/sync');

    await browser.launch();
    ({ page } = await browser.newPage(stack.url));
    await signIn(page, stack.url, await seedBotAdmin(stack.gateway, stack.seed.botId, 'developer'));
  });

  afterAll(() => expect(browser.problems).toEqual([]));

  const accessibleAtBothWidths = async () => {
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      expect(await axeViolations(page)).toEqual([]);
      expect(await sidewaysScroll(page)).toEqual([]);
    }
  };

  it('creates a campaign of the demo carousel from a CSV: every template value mapped, a preview with the bad row, then started and followed to completed', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Campaigns' }).click();
    await page.getByTestId('no-campaigns').waitFor();
    await page.getByLabel('Name').fill('Winter sale');
    await page.getByLabel('Template').selectOption({ label: 'demo_summer_carousel (3 cards)' });
    const csv = [
      'phone,tz,first_name,picture,discount,sku',
      '+919800000001,Asia/Kolkata,Asha,https://cdn.example.com/1.jpg,10%,sku-1',
      '+919800000002,UTC,Ravi,https://cdn.example.com/2.jpg,20%,sku-2',
      '+919800000003,UTC,Meera,not-a-link,30%,sku-3',
    ].join('\n');
    await page.getByLabel(/^Recipients \(CSV/).setInputFiles({ name: 'audience.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByLabel('Number column').waitFor();
    expect(await page.getByLabel('Number column').inputValue()).toBe('phone');
    expect(await page.getByLabel('Time zone column').inputValue()).toBe('tz');
    // The fields are the synced template's: its body parameter, and per card a media link (guessed from the header), a body parameter and two buttons.
    await expect(page.getByTestId('card-values').count()).resolves.toBe(3);
    for (let i = 1; i <= 3; i++) expect(await page.getByLabel(`Card ${i} image link`).inputValue()).toBe('picture');

    // A value left unmapped is named before anything is created.
    await page.getByRole('button', { name: 'Create and upload' }).click();
    await page.getByText('Choose the column of Message body {{1}}, or one value for everyone').waitFor();
    await page.getByText('Choose the column of Card 3 “Shop now” URL suffix, or one value for everyone').waitFor();
    await expect(page.getByLabel('Card 2 body {{1}}').getAttribute('aria-invalid')).resolves.toBe('true');

    await page.getByLabel('Message body {{1}}').selectOption('first_name');
    for (let i = 1; i <= 3; i++) {
      await page.getByLabel(`Card ${i} body {{1}}`).selectOption('discount');
      await page.getByLabel(`Card ${i} “Shop now” URL suffix`).selectOption('sku');
      await page.getByLabel(`Card ${i} “More like this” payload`).selectOption({ label: 'the same for everyone…' });
      await page.getByLabel(`Card ${i} “More like this” payload for everyone`).fill(`more_like_${i}`);
    }
    await accessibleAtBothWidths();
    await screenshots(page, 'campaign-new');

    await page.getByRole('button', { name: 'Create and upload' }).click();
    await page.getByTestId('audience-counts').getByText('3 rows: 2 recipients, 1 invalid row, 0 repeated numbers', { exact: true }).waitFor();
    // Each row as it will be sent: its body value, then per card its media link, body value, payload and URL suffix.
    const first = page.getByTestId('preview-rows').getByRole('row').nth(1);
    await first.getByText('Body: Asha', { exact: true }).waitFor();
    await first.getByText('Card 3: https://cdn.example.com/1.jpg, 10%, more_like_3, sku-1', { exact: true }).waitFor();
    await page.getByTestId('preview-errors').getByText('column picture: "not-a-link" is not an http(s) URL').waitFor();
    await accessibleAtBothWidths();
    await screenshots(page, 'campaign-preview');

    // Invalid rows are skipped only when the user says so.
    await page.getByRole('button', { name: 'Start campaign' }).click();
    await page.getByText(/1 invalid row .* skipInvalid/).waitFor();

    // The draft, opened again from the list, shows the same preview and starts from there.
    await page.getByTestId('campaign-list').getByRole('link', { name: 'Winter sale' }).click();
    await page.getByTestId('campaign-status').getByText('draft').waitFor();
    await page.getByTestId('audience-counts').getByText('3 rows: 2 recipients, 1 invalid row, 0 repeated numbers', { exact: true }).waitFor();
    await page.getByTestId('preview-errors').getByText('column picture: "not-a-link" is not an http(s) URL').waitFor();
    await page.getByTestId('preview-rows').getByText('Body: Ravi', { exact: true }).waitFor();
    await page.getByLabel('Skip the 1 invalid row').check();
    await page.getByRole('button', { name: 'Start campaign' }).click();
    await page.getByRole('heading', { name: 'Winter sale', exact: true }).waitFor();
    await page.getByTestId('campaign-status').getByText('completed').waitFor({ timeout: 20_000 });
    await page.getByTestId('funnel-sent').getByText('2').waitFor({ timeout: 10_000 });
    expect(stack.cloud.arrivals.map((a) => a.to).sort()).toEqual(['919800000001', '919800000002']);
    // Each recipient's own values reached the Cloud API, in the synced template.
    const sent = JSON.stringify(stack.cloud.messages.find((m) => JSON.stringify(m.body).includes('"919800000002"'))?.body);
    for (const value of ['demo_summer_carousel', '"Ravi"', '"20%"', '"sku-2"', '"more_like_3"', 'https://cdn.example.com/2.jpg']) expect(sent).toContain(value);
    await accessibleAtBothWidths();
    await screenshots(page, 'campaign-progress');

    await page.getByRole('link', { name: '← Campaigns' }).click();
    await page.getByTestId('campaign-list').getByRole('link', { name: 'Winter sale' }).waitFor();
  }, 120_000);

  it("warns when the sender's messaging limit would be passed, and starts only once the user says so", async () => {
    stack.cloud.messagingLimits.set(stack.seed.phoneNumberId, 'TIER_50');
    await page.goto(`${stack.url}/console/#/bots/${stack.seed.botId}/campaigns`);
    await page.getByLabel('Name').fill('Spring sale');
    const csv = ['phone,tz,picture', ...Array.from({ length: 60 }, (_, i) => `+9195${String(i).padStart(8, '0')},UTC,https://cdn.example.com/${i}.jpg`)].join('\n');
    await page.getByLabel(/^Recipients \(CSV/).setInputFiles({ name: 'audience.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByLabel('Number column').waitFor();
    for (let i = 1; i <= 3; i++) await page.getByLabel(`Card ${i} image link`).selectOption('picture');
    await page.getByRole('button', { name: 'Create and upload' }).click();
    await page.getByTestId('audience-counts').getByText('60 rows: 60 recipients, 0 invalid rows, 0 repeated numbers').waitFor();

    // The start reads the tier from Meta: refused, and the warning with the choice to go on appears.
    await page.getByRole('button', { name: 'Start campaign' }).click();
    await page
      .getByTestId('tier-warning')
      .getByText(/messaging limit TIER_50: at most 50 unique users in 24 hours/)
      .waitFor();
    expect(await page.getByTestId('tier-warning').textContent()).toMatch(/this campaign would add 60 more in the next 24 hours/);
    expect(await page.getByText(/at most 50 unique users/).count()).toBe(1); // said once, not again as an error
    await accessibleAtBothWidths();
    await screenshots(page, 'campaign-tier-warning');
    await page.getByLabel('Start anyway, past the messaging limit').check();
    await page.getByRole('button', { name: 'Start campaign' }).click();
    await page.getByRole('heading', { name: 'Spring sale' }).waitFor();
    stack.cloud.messagingLimits.delete(stack.seed.phoneNumberId);
  }, 120_000);

  it('counts rows, recipients, invalid rows and repeated numbers alike before and after the start, marks the repeated row, and says why recipients wait', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Campaigns' }).click();
    await page.getByLabel('Name').fill('Autumn sale');
    // Quiet hours around now in UTC; in Kiritimati (UTC+14) it is 14 hours later, outside them.
    const hour = new Date().getUTCHours();
    const hh = (h: number) => `${String((h + 24) % 24).padStart(2, '0')}:00`;
    const csv = [
      'phone,tz,picture',
      '+919700000001,UTC,https://cdn.example.com/1.jpg',
      '+919700000002,UTC,https://cdn.example.com/2.jpg',
      '+919700000003,Pacific/Kiritimati,https://cdn.example.com/3.jpg',
      '+919700000004,Pacific/Kiritimati,https://cdn.example.com/4.jpg',
      '12,UTC,https://cdn.example.com/5.jpg',
      '+919700000006,Mars/Olympus,https://cdn.example.com/6.jpg',
      '+919700000007,UTC,javascript:alert(1)',
      '+919700000002,UTC,https://cdn.example.com/8.jpg',
    ].join('\n');
    await page.getByLabel(/^Recipients \(CSV/).setInputFiles({ name: 'audience.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByLabel('Number column').waitFor();
    for (let i = 1; i <= 3; i++) await page.getByLabel(`Card ${i} image link`).selectOption('picture');
    await page.getByLabel('Quiet hours from').fill(hh(hour - 1));
    await page.getByLabel('Quiet hours to').fill(hh(hour + 2));
    await page.getByRole('button', { name: 'Create and upload' }).click();

    // Rows are the file's lines; recipients its valid, distinct numbers; the rest counted apart.
    await page.getByTestId('audience-counts').getByText('8 rows: 4 recipients, 3 invalid rows, 1 repeated number', { exact: true }).waitFor();
    const previewed = page.getByTestId('preview-rows').getByRole('row');
    expect(await previewed.nth(8).textContent()).toBe('8919700000002repeats row 2, not sent');
    expect(await previewed.nth(2).textContent()).not.toContain('repeats');
    await expect(page.getByTestId('preview-errors').getByRole('row').count()).resolves.toBe(4);
    await accessibleAtBothWidths();

    // Opened again from the list, and again after a reload, the draft counts what the upload did: the file's rows and repeats too.
    await page.getByTestId('campaign-list').getByRole('link', { name: 'Autumn sale' }).click();
    await page.getByTestId('campaign-status').getByText('draft').waitFor();
    await page.getByTestId('audience-counts').getByText('8 rows: 4 recipients, 3 invalid rows, 1 repeated number', { exact: true }).waitFor();
    await page.reload();
    await page.getByTestId('campaign-status').getByText('draft').waitFor();
    await page.getByTestId('audience-counts').getByText('8 rows: 4 recipients, 3 invalid rows, 1 repeated number', { exact: true }).waitFor();
    await accessibleAtBothWidths();
    await screenshots(page, 'campaign-draft-reopened');
    expect(await page.getByTestId('campaign-recipients').textContent()).toBe(
      '4 recipients: 4 waiting (not started), 0 being sent, 0 sent, 0 failed, 0 over the frequency cap, 0 cancelled. 3 invalid rows, not sent.',
    );
    await page.getByLabel('Skip the 3 invalid rows').check();
    await page.getByRole('button', { name: 'Start campaign' }).click();

    // The two in Kiritimati go; the two in UTC wait for the end of their quiet hours, and the line says so, in step with the funnel.
    await page.getByTestId('campaign-status').getByText('running').waitFor();
    await page.getByTestId('funnel-sent').getByText('2').waitFor({ timeout: 20_000 });
    const quiet = `${hh(hour - 1)}–${hh(hour + 2)} in each recipient's time zone (UTC where the row gives none)`;
    expect(await page.getByTestId('campaign-recipients').textContent()).toBe(
      `4 recipients: 2 waiting (all in their quiet hours, ${quiet}), 0 being sent, 2 sent, 0 failed, 0 over the frequency cap, 0 cancelled. 3 invalid rows, not sent.`,
    );
    await accessibleAtBothWidths();
    await screenshots(page, 'campaign-quiet-hours');

    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Cancel campaign' }).click();
    await page.getByTestId('campaign-status').getByText('cancelled').waitFor();
    await page.getByTestId('campaign-recipients').getByText('4 recipients: 0 waiting, 0 being sent, 2 sent, 0 failed, 0 over the frequency cap, 2 cancelled. 3 invalid rows, not sent.').waitFor();
  }, 120_000);
});
