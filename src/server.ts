import { createServer } from 'node:http';
import { createApp } from './host/app.js';

/** Process entry: read env, migrate, listen, shut down gracefully on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const shop = await createApp();
  const { seedDemoIfEmpty } = await import('./host/seed/demo.js');
  const demo = await seedDemoIfEmpty(shop);
  const server = createServer(shop.app);
  await new Promise<void>((resolve) => server.listen(shop.config.port, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : shop.config.port;
  const base = `http://localhost:${port}`;
  const lines = [
    `Suite B2B is running on ${base} (database: ${shop.internals.dialect})`,
    `  Storefront:        ${base}/`,
    `  Store API:         ${base}/store-api   (docs: ${base}/store-api/_info/swagger.html)`,
    `  Admin API:         ${base}/api         (docs: ${base}/api/_info/swagger.html)`,
    ...demo.lines,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    shop.runtime.log.info({ signal }, 'shutting down: finishing in-flight requests');
    server.close(async () => {
      await shop.close();
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(1), 15000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Suite B2B could not start: ${(error as Error).message}\n`);
  process.exit(1);
});
