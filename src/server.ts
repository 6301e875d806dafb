import { createServer, type Server } from 'node:http';
import { createApp } from './host/app.js';
import { DEFAULT_DATABASE_URL } from './lib/db.js';
import { installGracefulShutdown } from './host/ops/shutdown.js';
import { describeStartupError } from './host/ops/startup-errors.js';

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Process entry: read env, migrate, listen, shut down gracefully on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const shop = await createApp();
  const { seedDemoIfEmpty } = await import('./host/seed/demo.js');
  const demo = await seedDemoIfEmpty(shop);
  const server = createServer(shop.app);
  try {
    await listen(server, shop.config.port);
  } catch (error) {
    await shop.close();
    throw error;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : shop.config.port;
  const base = `http://localhost:${port}`;
  const lines = [
    `Suite B2B is running on ${base} (database: ${shop.internals.dialect})`,
    `  Storefront:        ${base}/`,
    `  Store API:         ${base}/store-api   (docs: ${base}/store-api/_info/swagger.html)`,
    `  Admin API:         ${base}/api         (docs: ${base}/api/_info/swagger.html)`,
    `  Probes:            ${base}/health/live  ${base}/health/ready`,
    ...demo.lines,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  installGracefulShutdown(server, {
    readyDelayMs: shop.config.shutdownReadyDelayMs,
    graceMs: shop.config.shutdownGraceMs,
    health: shop.health,
    log: shop.runtime.log,
    close: () => shop.close(),
  });
}

main().catch((error: unknown) => {
  const line = describeStartupError(error, { port: Number(process.env.PORT ?? 8080), databaseUrl: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL });
  process.stderr.write(`Suite B2B could not start: ${line}\n`);
  process.exit(1);
});
