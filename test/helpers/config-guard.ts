import type { Suite } from 'mocha';
import supertest from 'supertest';
import type { ShopApp } from '../../src/host/app.js';
import { pluginConfigAccess } from '../../src/host-kit/plugin-loader.js';
import { adminToken, startedShop } from './shop.js';

/**
 * The shared app's plugin configuration is the same after every test file as when the app started:
 * a file that changes a setting puts it back (or gets an app of its own), so no later file — in
 * whatever order a process runs them — sees its change. test/setup.ts adds this check as the last
 * "after all" hook of each file's top-level suites: a change left behind is put back and fails there.
 */
let baseline: Record<string, unknown> | null = null;

/** The plugins' settings as they read them (defaults and stored values). */
export function pluginSettings(shop: ShopApp): Promise<Record<string, unknown>> {
  return pluginConfigAccess(shop.db, shop.plugins[0]!.manifest).all();
}

/** The configuration the app started with (taken by getShop once the app is up). */
export async function rememberBaseline(shop: ShopApp): Promise<void> {
  baseline = { ...(await pluginSettings(shop)) };
}

async function checkPutBack(): Promise<void> {
  const shop = await startedShop();
  if (!shop || !baseline) return;
  const start = baseline;
  const now = await pluginSettings(shop);
  const changed = [...new Set([...Object.keys(start), ...Object.keys(now)])].filter(
    (key) => JSON.stringify(start[key]) !== JSON.stringify(now[key]),
  );
  if (changed.length === 0) return;
  await supertest(shop.app)
    .patch('/api/_action/plugin-config/suite-b2b')
    .set('authorization', `Bearer ${await adminToken()}`)
    .send(Object.fromEntries(changed.map((key) => [key, start[key] ?? null])));
  throw new Error(
    `this file left the plugin configuration changed (${changed.join(', ')}): put it back in an after hook`,
  );
}

/** Appends the check to every top-level suite of the run (each file's describe blocks). */
export function guardConfigurationOf(root: Suite): void {
  for (const suite of root.suites) suite.afterAll('the plugin configuration is put back', checkPutBack);
}
