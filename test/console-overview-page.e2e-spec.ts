import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { seedBotAdmin } from '@platform/testing';
import { ConsoleBrowser, DESKTOP, PHONE, axeViolations, screenshots, sidewaysScroll } from './console-browser.js';
import { sqlRows } from './push-support.js';
import { useStack } from './e2e-stack.js';

/** The console's home in Chromium: empty states first, then charts and tables over seeded rows, at 390 and 1280 px. */
describe('console overview page (Chromium)', () => {
  const stack = useStack({ seed: true });
  const browser = new ConsoleBrowser();
  let page: Page;
  stack.defer(() => browser.close());
  const sql = (text: string, params: unknown[] = []) => sqlRows(stack.env.DATABASE_URL, text, params);

  beforeAll(async () => {
    await browser.launch();
    ({ page } = await browser.newPage(stack.url));
    const admin = await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer');
    await page.goto(`${stack.url}/console/`);
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.keyboard.press('Enter');
  });

  const accessibleAtBothWidths = async () => {
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      expect(await axeViolations(page)).toEqual([]);
      expect(await sidewaysScroll(page)).toEqual([]);
    }
  };

  it('is the home page, and with nothing sent yet says what to do next', async () => {
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(page.url()).toMatch(/#\/bots\/[^/]+\/overview$/);
    await page.getByTestId('empty-carousels').getByRole('link', { name: 'WhatsApp → Test carousel' }).waitFor();
    await page.getByTestId('empty-journeys').waitFor();
    // The bot has a sender number that sent nothing yet: the page does not ask to add one.
    expect(await page.getByTestId('empty-senders').textContent()).toMatch(/^No sender sent anything from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d\. Send one a test carousel, or choose a longer range\.$/);
    await accessibleAtBothWidths();
    await screenshots(page, 'overview-empty');
    // Once its only sender is deleted, it does.
    await sql('UPDATE channel_senders SET deleted_at = now() WHERE bot_id = $1', [stack.seed.botId]);
    await page.getByRole('button', { name: 'Last 90 days' }).click(); // another range: the page reads again
    await page.getByTestId('empty-senders').getByText('This bot has no sender number yet.').waitFor();
    await page.getByTestId('empty-senders').getByRole('link', { name: 'Add a sender number' }).waitFor();
    await sql('UPDATE channel_senders SET deleted_at = NULL WHERE bot_id = $1', [stack.seed.botId]);
  });

  it('draws the charts and fills the funnel and journey tables; the range picker reads again', async () => {
    const bot = stack.seed.botId;
    const [{ id: template }] = await sql('SELECT id FROM templates WHERE bot_id = $1', [bot]);
    const [{ id: sender }] = await sql('SELECT id FROM channel_senders WHERE bot_id = $1', [bot]);
    // today and the 6 days before: 4 read, 2 delivered, 1 failed each
    await sql(
      `INSERT INTO messages (id, bot_id, template_id, sender_id, channel, recipient, status, created_at, updated_at)
       SELECT gen_random_uuid(), $1, $2, $3, 'whatsapp', '919800000000', (ARRAY['read','read','read','read','delivered','delivered','failed'])[s]::"MessageStatus", t, t
       FROM generate_series(0, 6) d, generate_series(1, 7) s, LATERAL (SELECT date_trunc('day', now()) - d * interval '1 day' + interval '1 minute' AS t) x`,
      [bot, template, sender],
    );
    const conversation = randomUUID();
    await sql(`INSERT INTO conversations (id, bot_id, channel, user_id, created_at, updated_at) VALUES ($1, $2, 'web', 'u1', now(), now())`, [conversation, bot]);
    for (const [node, kind, outcome] of [
      ['ask', 'question', 'ok'],
      ['lookup', 'code', 'error'],
      ['bye', 'end', 'ok'],
    ])
      await sql(`INSERT INTO bot_steps (conversation_id, bot_id, version, journey, node, kind, outcome, duration_ms, started_at) VALUES ($1, $2, 1, 'start', $3, $4, $5, 1, now())`, [
        conversation,
        bot,
        node,
        kind,
        outcome,
      ]);

    // A journey that only greets and hands on to another (a goto node): completed, and where it went, as the published version names it.
    const published = await fetch(`${stack.url}/v1/bots/${bot}/versions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.seed.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        definition: {
          schemaVersion: 1,
          startJourney: 'greet',
          variables: [],
          journeys: [
            {
              slug: 'greet',
              start: 'hello',
              nodes: [
                { id: 'hello', kind: 'message', text: 'Hi!' },
                { id: 'to-start', kind: 'goto', journey: 'start' },
              ],
              edges: [{ from: 'hello', to: 'to-start' }],
            },
            { slug: 'start', start: 'bye', nodes: [{ id: 'bye', kind: 'end', text: 'Bye.' }], edges: [] },
          ],
        },
      }),
    });
    expect(published.status).toBe(201);
    const greeted = randomUUID();
    await sql(`INSERT INTO conversations (id, bot_id, channel, user_id, created_at, updated_at) VALUES ($1, $2, 'web', 'u2', now(), now())`, [greeted, bot]);
    for (const [node, kind] of [
      ['hello', 'message'],
      ['to-start', 'goto'],
    ])
      await sql(`INSERT INTO bot_steps (conversation_id, bot_id, version, journey, node, kind, outcome, duration_ms, started_at) VALUES ($1, $2, 1, 'greet', $3, $4, 'ok', 1, now())`, [
        greeted,
        bot,
        node,
        kind,
      ]);

    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await page.getByTestId('overview-totals').getByText('49').waitFor();
    // uPlot, loaded on this page only, drew into the chart box
    await page.getByTestId('chart-carousels').locator('canvas').waitFor();
    const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name.split('/').pop()));
    expect(scripts.some((n) => n?.startsWith('overview-charts-'))).toBe(true);
    await page.getByRole('table', { name: 'Delivery funnel per template' }).getByText('28 (57.1%)').waitFor();
    const journey = page.getByTestId('journey-start');
    await journey
      .getByRole('row', { name: /lookup/ })
      .locator('td.bad')
      .getByText('1 (100.0%)')
      .waitFor();
    await page.getByText(/start: 1 conversation, 100.0% completed, 0.0% left waiting/).waitFor();
    await page.getByText('greet: 1 conversation, 100.0% completed (100.0% by handing on to start), 0.0% left waiting, 0.0% of steps failed').waitFor();
    await page
      .getByTestId('journey-greet')
      .getByRole('row', { name: /to-start/ })
      .getByText('1 handed on to start')
      .waitFor();
    await accessibleAtBothWidths();
    await screenshots(page, 'overview');

    // a day with nothing: back to the empty states; a reversed range is named before any call
    await page.getByLabel('From (UTC)').fill('2020-01-02');
    await page.getByLabel('To (UTC)').fill('2020-01-01');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('alert').getByText('The first day must not be after the last day.').waitFor();
    await page.getByLabel('To (UTC)').fill('2020-01-03');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByTestId('empty-carousels').waitFor();
    expect(browser.problems).toEqual([]);
  });
});
