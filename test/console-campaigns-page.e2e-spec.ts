import type { Page } from 'playwright-core';
import { seedBotAdmin } from '@platform/testing';
import { ConsoleBrowser, DESKTOP, PHONE, axeViolations, screenshots, sidewaysScroll } from './console-browser.js';
import { useStack } from './e2e-stack.js';

/** The console's campaigns page in Chromium: a campaign from a CSV with column mapping and preview, started, followed to the end. */
describe('console campaigns page (Chromium)', () => {
  const stack = useStack({ cloud: true, seed: true, worker: true });
  const browser = new ConsoleBrowser();
  let page: Page;
  stack.defer(() => browser.close());

  beforeAll(async () => {
    await browser.launch();
    ({ page } = await browser.newPage(stack.url));
    const admin = await seedBotAdmin(stack.gateway, stack.seed.botId, 'developer');
    await page.goto(`${stack.url}/console/`);
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
  });

  const accessibleAtBothWidths = async () => {
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      expect(await axeViolations(page)).toEqual([]);
      expect(await sidewaysScroll(page)).toEqual([]);
    }
  };

  it('creates a campaign from a CSV: columns picked from its header, a preview with the bad row, then started and followed to completed', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Campaigns' }).click();
    await page.getByTestId('no-campaigns').waitFor();
    await page.getByLabel('Name').fill('Winter sale');
    const csv = ['phone,tz,picture', '+919800000001,Asia/Kolkata,https://cdn.example.com/1.jpg', '+919800000002,UTC,https://cdn.example.com/2.jpg', '+919800000003,UTC,not-a-link'].join('\n');
    await page.getByLabel(/^Recipients \(CSV/).setInputFiles({ name: 'audience.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByLabel('Number column').waitFor();
    expect(await page.getByLabel('Number column').inputValue()).toBe('phone');
    expect(await page.getByLabel('Time zone column').inputValue()).toBe('tz');
    for (let i = 1; i <= 3; i++) await page.getByLabel(`Card ${i} media link column`).selectOption('picture');
    await accessibleAtBothWidths();
    await screenshots(page, 'campaign-new');

    await page.getByRole('button', { name: 'Create and upload' }).click();
    await page.getByTestId('audience-counts').getByText('3 rows: 2 recipients, 1 invalid, 0 repeated numbers').waitFor();
    await page.getByTestId('preview-errors').getByText('column picture: "not-a-link" is not an http(s) URL').waitFor();
    await accessibleAtBothWidths();
    await screenshots(page, 'campaign-preview');

    // Invalid rows are skipped only when the user says so.
    await page.getByRole('button', { name: 'Start campaign' }).click();
    await page.getByText(/1 invalid rows .* skipInvalid/).waitFor();
    await page.getByLabel('Skip the 1 invalid rows').check();
    await page.getByRole('button', { name: 'Start campaign' }).click();
    await page.getByRole('heading', { name: 'Winter sale' }).waitFor();
    await page.getByTestId('campaign-status').getByText('completed').waitFor({ timeout: 20_000 });
    await page.getByTestId('funnel-sent').getByText('2').waitFor({ timeout: 10_000 });
    expect(stack.cloud.arrivals.map((a) => a.to).sort()).toEqual(['919800000001', '919800000002']);
    await accessibleAtBothWidths();
    await screenshots(page, 'campaign-progress');

    await page.getByRole('link', { name: '← Campaigns' }).click();
    await page.getByTestId('campaign-list').getByRole('link', { name: 'Winter sale' }).waitFor();
  }, 90_000);

  it("warns when the sender's messaging limit would be passed, and starts only once the user says so", async () => {
    stack.cloud.messagingLimits.set(stack.seed.phoneNumberId, 'TIER_50');
    await page.goto(`${stack.url}/console/#/bots/${stack.seed.botId}/campaigns`);
    await page.getByLabel('Name').fill('Spring sale');
    const csv = ['phone,tz,picture', ...Array.from({ length: 60 }, (_, i) => `+9195${String(i).padStart(8, '0')},UTC,https://cdn.example.com/${i}.jpg`)].join('\n');
    await page.getByLabel(/^Recipients \(CSV/).setInputFiles({ name: 'audience.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByLabel('Number column').waitFor();
    for (let i = 1; i <= 3; i++) await page.getByLabel(`Card ${i} media link column`).selectOption('picture');
    await page.getByRole('button', { name: 'Create and upload' }).click();
    await page.getByTestId('audience-counts').getByText('60 rows: 60 recipients').waitFor();

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
  }, 90_000);
});
