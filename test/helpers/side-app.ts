import { Writable } from 'node:stream';
import { createApp, type ShopApp } from '../../src/host/app.js';
import type { HostConfig } from '../../src/host/config.js';
import { getShop, TEST_APP_SECRET } from './shop.js';

/** A second app on the shared test database, with its own settings and its log lines captured. */
export async function sideApp(
  config: Partial<HostConfig> = {},
): Promise<{ shop: ShopApp; logLines: Array<Record<string, unknown>> }> {
  const shared = await getShop();
  const logLines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line.trim()) logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const shop = await createApp({
    db: shared.db,
    logDestination: destination,
    config: {
      databaseUrl: shared.config.databaseUrl,
      appSecret: TEST_APP_SECRET,
      publicUrl: 'http://shop.test',
      logLevel: 'info',
      workers: false,
      validateResponses: true,
      listingTotalCacheSeconds: 0,
      mailerUrl: shared.config.mailerUrl,
      ...config,
    },
  });
  return { shop, logLines };
}
