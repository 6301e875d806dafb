import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type ShopApp } from '../../src/host/app.js';
import { seedDemoIfEmpty } from '../../src/host/seed/demo.js';
import { TEST_APP_SECRET } from './shop.js';

export interface DemoShop {
  shop: ShopApp;
  /** The start banner's lines joined: URLs and demo logins. */
  banner: string;
  close(): Promise<void>;
}

/**
 * The demo shop `npm start` seeds, on its own embedded database in a temporary folder: the demo's
 * fixed logins would collide with other tests' data in the shared test database.
 */
export async function startDemoShop(name: string, options: { publicUrl?: string } = {}): Promise<DemoShop> {
  const dir = mkdtempSync(join(tmpdir(), `suite-${name}-`));
  const shop = await createApp({
    config: {
      databaseUrl: `sqlite:${join(dir, 'demo.sqlite')}`,
      appSecret: TEST_APP_SECRET,
      logLevel: 'silent',
      workers: false,
      validateResponses: true,
      varDir: dir,
      ...options,
    },
  });
  const banner = (await seedDemoIfEmpty(shop, true)).lines.join('\n');
  return {
    shop,
    banner,
    async close() {
      await shop.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
