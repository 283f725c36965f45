import type { Page } from 'playwright-core';
import { seedBotAdmin } from '@platform/testing';
import { ConsoleBrowser, DESKTOP, PHONE, axeViolations, screenshots, sidewaysScroll, signIn } from './console-browser.js';
import { useStack } from './e2e-stack.js';

/** The message log's filters in Chromium, in a browser set to India's time zone: From/To named, and every placeholder shown whole. */
describe('console message log filters (Chromium)', () => {
  const stack = useStack({ seed: true });
  const browser = new ConsoleBrowser();
  let page: Page;
  stack.defer(() => browser.close());

  beforeAll(async () => {
    await browser.launch();
    ({ page } = await browser.newPage(stack.url, DESKTOP, { timezoneId: 'Asia/Kolkata', locale: 'en-US' }));
    page.setDefaultTimeout(30_000);
    await signIn(page, stack.url, await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer'));
  });

  /** Each datetime-local field's width and the width it needs to show all of "mm/dd/yyyy, --:-- --" (a copy of it at its own size). */
  const dateFields = (p: Page) =>
    p.evaluate(() =>
      [...document.querySelectorAll<HTMLInputElement>('input[type="datetime-local"]')].map((el) => {
        const copy = el.cloneNode() as HTMLInputElement;
        copy.style.cssText = 'width: auto; position: absolute; visibility: hidden';
        el.parentElement!.append(copy);
        const needs = Math.ceil(copy.getBoundingClientRect().width);
        copy.remove();
        return { id: el.id, has: Math.floor(el.getBoundingClientRect().width), needs };
      }),
    );

  /**
   * Each text filter with a placeholder, empty (so the placeholder shows): the width its placeholder's text
   * needs (measured in a copy set in the placeholder's own font) and the width inside its padding. Chromium's
   * scrollWidth does not count a placeholder (it is not the field's value), so it cannot tell one that is cut.
   */
  const placeholders = (p: Page) =>
    p.evaluate(() =>
      [...document.querySelectorAll<HTMLInputElement>('.message-filters input[placeholder]')].map((el) => {
        const style = getComputedStyle(el, '::placeholder');
        const own = getComputedStyle(el);
        const text = document.createElement('span');
        text.textContent = el.placeholder;
        text.style.cssText = `position: absolute; visibility: hidden; white-space: pre; font: ${style.font}; letter-spacing: ${style.letterSpacing}; word-spacing: ${style.wordSpacing}`;
        document.body.append(text);
        const needs = Math.ceil(text.getBoundingClientRect().width);
        text.remove();
        const has = Math.floor(el.clientWidth - parseFloat(own.paddingLeft) - parseFloat(own.paddingRight));
        return { id: el.id, placeholder: el.placeholder, shown: el.value === '', has, needs };
      }),
    );

  it('names the time zone the From and To fields are read in (the browser’s, as the table’s times), and shows every field’s placeholder whole (From, To, Message id, Recipient) at 1280 and 390 px', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Messages' }).click();
    await page.getByRole('heading', { name: 'Messages', exact: true, level: 1 }).waitFor();
    await page.getByLabel('From (GMT+5:30)').waitFor();
    await page.getByLabel('To (GMT+5:30)').waitFor();
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      const fields = await dateFields(page);
      expect(fields.map((f) => f.id)).toEqual(['f-since', 'f-until']);
      for (const f of fields) expect({ ...f, cut: f.has < f.needs }).toEqual({ ...f, cut: false });
      const texts = await placeholders(page);
      expect(texts.map((t) => t.id)).toEqual(['f-recipient', 'f-id']);
      for (const t of texts) expect({ ...t, size: size.width, cut: t.has < t.needs }).toEqual({ ...t, size: size.width, shown: true, cut: false });
      expect(await sidewaysScroll(page)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
    }
    // A time typed there is the browser's: 10:00 in India is 04:30 UTC, what the API is asked for.
    await page.setViewportSize(DESKTOP);
    const asked = page.waitForRequest((r) => r.url().includes('/messages?') && r.url().includes('since='));
    await page.getByLabel('From (GMT+5:30)').fill('2026-11-01T10:00');
    await page.getByRole('button', { name: 'Filter' }).click();
    expect(new URL((await asked).url()).searchParams.get('since')).toBe('2026-11-01T04:30:00.000Z');
    await screenshots(page, 'messages-filters');
    expect(browser.problems).toEqual([]);
  });
});
