// The real browser of test/console.e2e-spec.ts: Debian's chromium driven by playwright-core (its own
// browser downloads cannot work here), axe-core for accessibility, screenshots at phone and desktop widths
// (for a person to look at: see TAKE_SCREENSHOTS).
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Browser, BrowserContext, BrowserContextOptions, Locator, Page, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(process.cwd(), '.local', 'screenshots', 'console');
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/**
 * Screenshots assert nothing; they are for a person to look at, after any run, CI's included (under
 * `.local/screenshots/`). TEST_SCREENSHOTS=0 leaves them out, for a quicker run on one's own machine.
 */
export const TAKE_SCREENSHOTS = process.env.TEST_SCREENSHOTS !== '0';

/** Headless Debian chromium as every browser test runs it: no sandbox (containers), nothing fetched in the background. */
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export class ConsoleBrowser {
  private browser?: Browser;
  /** Content-Security-Policy violations and page errors seen on any page: a test expects none. */
  readonly problems: string[] = [];

  /** Playwright gives the browser a fresh --user-data-dir of its own, removed on close. */
  async launch(): Promise<void> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    this.browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
    });
  }

  /** A fresh context (its own cookies) that may use the clipboard, as a person's browser would allow; `options` as Playwright's (a time zone…). */
  async newPage(origin: string, viewport = DESKTOP, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await this.browser!.newContext({ ...options, viewport });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const page = await context.newPage();
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) this.problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (err) => this.problems.push(`page error: ${err.message}`));
    return { context, page };
  }

  async close(): Promise<void> {
    await this.browser?.close();
  }
}

/**
 * axe-core's serious and critical violations on the page as it is now. The script is evaluated through
 * the DevTools protocol, which the page's CSP does not govern (an injected <script> would be refused).
 * It is evaluated once per document: the console's routes keep it, a load or reload brings it again.
 * Half a megabyte of script, it took about half a second to evaluate on each check.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // Colours are judged as they end up: a button whose colours are still in their CSS transition (a
  // filter just chosen, a hover) measures as neither its old nor its new contrast. Endless animations
  // (a spinner) are not waited for, and nothing longer than 2 s.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: unknown }> }> }> } }
    ).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`);
}

/**
 * What scrolls sideways on the page as it is now: the page itself (wider than the viewport), or a table
 * box (wider than its wrapper); empty when nothing does.
 */
export async function sidewaysScroll(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > window.innerWidth) found.push(`the page: ${doc.scrollWidth} px wide in a ${window.innerWidth} px viewport`);
    document.querySelectorAll<HTMLElement>('.table-wrap').forEach((wrap, i) => {
      if (wrap.scrollWidth > wrap.clientWidth) found.push(`table ${i + 1}: ${wrap.scrollWidth} px wide in ${wrap.clientWidth} px`);
    });
    return found;
  });
}

/** Screenshots of the page at phone then desktop width (`<name>-390.png`, `<name>-1280.png`); the viewport is restored. Nothing unless TAKE_SCREENSHOTS. */
export async function screenshots(page: Page, name: string): Promise<void> {
  if (!TAKE_SCREENSHOTS) return;
  const before = page.viewportSize() ?? DESKTOP;
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${size.width}.png`), fullPage: true });
  }
  await page.setViewportSize(before);
}

/** One screenshot of the page or an element as it is now, `file` under SCREENSHOTS; nothing unless TAKE_SCREENSHOTS. */
export async function screenshot(target: Page | Locator, file: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (TAKE_SCREENSHOTS) await target.screenshot({ path: join(SCREENSHOTS, file), ...options });
}

/** Fills the sign-in form that is on screen with `who`'s e-mail and password and sends it by keyboard. */
export async function submitSignIn(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.keyboard.press('Enter');
}

/** Opens the console at `origin` and signs in as `who`; waits for the heading `landing` (the Overview, where sign-in leads) unless null. */
export async function signIn(page: Page, origin: string, who: { email: string; password: string }, landing: string | null = 'Overview'): Promise<void> {
  await page.goto(`${origin}/console/`);
  await submitSignIn(page, who);
  if (landing) await page.getByRole('heading', { name: landing }).waitFor();
}
