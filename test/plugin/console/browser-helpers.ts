import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { CONSOLE, createAdminUser } from './helpers.js';

/** Screenshots for a person to look at (var/ is ignored by git). */
export const SCREENSHOTS = 'var/screenshots/console';

/** Logs an operator in through the console's login form (a new managing admin user unless given). */
export async function consolePage(browser: Browser, user?: { username: string; password: string }): Promise<Page> {
  const { username, password } = user ?? (await createAdminUser());
  // The console's CSP allows no scripts; axe is the test's instrument, not the page's.
  const page = await (await browser.newContext({ bypassCSP: true })).newPage();
  await page.goto(`http://shop.test${CONSOLE}`);
  expect(page.url()).to.contain(`${CONSOLE}/login`);
  await page.fill('#username', username);
  await page.fill('#password', password);
  await Promise.all([
    page.waitForURL(`http://shop.test${CONSOLE}`),
    page.click('button[type=submit]:has-text("Log in")'),
  ]);
  return page;
}

/** axe-core's serious and critical findings (the crawler's rules; shared with the Vendure console tests). */
export { axeFindings } from '../../helpers/console-crawl.js';
