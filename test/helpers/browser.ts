import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import type { ShopApp } from '../../src/host/app.js';
import { clientAddress, getShop } from './shop.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface BrowserHarness {
  browser: Browser;
  /** The test app's base URL, e.g. http://127.0.0.1:40123 */
  base: string;
  port: number;
  close(): Promise<void>;
}

/** Skips the calling suite, with how to get Chromium, when it is not installed. */
function requireChromium(context: Mocha.Context): void {
  if (existsSync(CHROMIUM)) return;
  console.warn(`      skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  context.skip();
}

/**
 * Headless Chromium that resolves shop.test to a server on this loopback port. Each browser context
 * comes from its own address, like each `http()` agent, so a suite that logs in many times within a
 * minute does not run into the per-IP login limits of one shared address.
 */
export async function launchChromium(port: number): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--host-resolver-rules=MAP shop.test 127.0.0.1:${port}`,
    ],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) =>
    newContext({ ...options, extraHTTPHeaders: { 'x-forwarded-for': clientAddress(), ...options.extraHTTPHeaders } });
  return browser;
}

/** Chromium for a server already listening (the Vendure example shop), or a skip without Chromium. */
export async function browserFor(context: Mocha.Context, port: number): Promise<Browser> {
  requireChromium(context);
  return launchChromium(port);
}

/**
 * Debian's Chromium, headless, against the shared test app on a loopback port. Mailed links point
 * at the sales channel's domain (shop.test): the browser resolves it to this server. Call from a
 * `before` hook; without Chromium the suite is skipped with a message saying how to get it.
 * `shop` serves another app instead of the shared one (the demo shop has its own database).
 */
export async function startBrowser(context: Mocha.Context, shop?: ShopApp): Promise<BrowserHarness> {
  requireChromium(context);
  const server: Server = createServer((shop ?? (await getShop())).app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const browser = await launchChromium(port);
  return {
    browser,
    base: `http://127.0.0.1:${port}`,
    port,
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
