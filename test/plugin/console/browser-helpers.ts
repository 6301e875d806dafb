import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { CONSOLE, createAdminUser } from './helpers.js';

/** Screenshots for a person to look at (var/ is ignored by git). */
export const SCREENSHOTS = 'var/screenshots/console';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

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

/** axe-core's serious and critical findings on the page as it is now (the same rules as console-browser.test.ts). */
export async function axeFindings(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const found = await page.evaluate<string[]>(`axe
    .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
    .then((result) => result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.impact + ' ' + v.id + ': ' + v.help + ' at ' + v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(', ')))`);
  return found.map((finding) => `${page.url()}: ${finding}`);
}
