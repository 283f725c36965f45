import type { BrowserContext, Page } from 'playwright-core';
import { seedBotAdmin } from '@platform/testing';
import { ConsoleBrowser, submitSignIn } from './console-browser.js';
import { useStack } from './e2e-stack.js';

/**
 * A console opened without a session asks nothing of /v1/auth/refresh, so the browser's console shows no
 * 401; with one, a reload keeps it. The page's scripts see only the readable `bp_session` flag, never the token.
 */
describe('console without a session (Chromium)', () => {
  const stack = useStack({ seed: true });
  const browser = new ConsoleBrowser();
  let context: BrowserContext;
  let page: Page;
  /** Calls to /v1/auth/refresh with their status, and the browser console's errors, since the last `clear()`. */
  const refreshes: number[] = [];
  const errors: string[] = [];
  const clear = () => void (refreshes.splice(0), errors.splice(0));
  stack.defer(() => browser.close());

  beforeAll(async () => {
    await browser.launch();
    ({ context, page } = await browser.newPage(stack.url));
    page.setDefaultTimeout(30_000);
    page.on('response', (r) => void (new URL(r.url()).pathname === '/v1/auth/refresh' && refreshes.push(r.status())));
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
  });

  const signInForm = () => page.getByRole('button', { name: 'Sign in' }).waitFor();
  const pageCookies = () => page.evaluate(() => document.cookie);

  it('signed out: the sign-in form with no refresh call and no error in the browser console; signed in: a reload keeps the session; signed out again: no call', async () => {
    await page.goto(`${stack.url}/console/`);
    await signInForm();
    await page.waitForLoadState('networkidle');
    expect({ refreshes, errors }).toEqual({ refreshes: [], errors: [] });

    await submitSignIn(page, await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer'));
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await pageCookies()).toBe('bp_session=1'); // the flag only: the refresh token stays HttpOnly

    clear();
    await page.reload();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect({ refreshes, errors }).toEqual({ refreshes: [200], errors: [] });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signInForm();
    expect(await pageCookies()).toBe('');
    clear();
    await page.reload();
    await signInForm();
    await page.waitForLoadState('networkidle');
    expect({ refreshes, errors }).toEqual({ refreshes: [], errors: [] });
  });

  it('a flag left without its session is asked about once, then cleared', async () => {
    // As the gateway sets it (Path=/console), but with no refresh cookie beside it.
    await context.addCookies([{ name: 'bp_session', value: '1', domain: new URL(stack.url).hostname, path: '/console', sameSite: 'Strict' }]);
    clear();
    await page.reload();
    await signInForm();
    await page.waitForLoadState('networkidle');
    expect(refreshes).toEqual([401]);
    expect(await pageCookies()).toBe('');
    clear();
    await page.reload();
    await signInForm();
    await page.waitForLoadState('networkidle');
    expect({ refreshes, errors }).toEqual({ refreshes: [], errors: [] });
    expect(browser.problems).toEqual([]);
  });
});
