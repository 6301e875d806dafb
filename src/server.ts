import cluster from 'node:cluster';
import { createServer, type Server } from 'node:http';
import { createApp } from './host/app.js';
import { DEFAULT_DATABASE_URL } from './lib/db.js';
import { installGracefulShutdown } from './host/ops/shutdown.js';
import { describeStartupError } from './host/ops/startup-errors.js';
import { runClusterPrimary, webConcurrency, type ListeningMessage } from './host/ops/cluster.js';
import { loadConfig } from './host/config.js';
import { createLogger } from './host/logger.js';

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** One web process: migrate, seed the demo shop when empty, listen, shut down gracefully on SIGTERM/SIGINT. */
async function serve(): Promise<void> {
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
  if (cluster.isWorker) {
    // In cluster mode the primary prints the banner once, for all processes.
    const listening: ListeningMessage = { type: 'suite:listening', port, banner: lines };
    process.send!(listening);
  } else {
    process.stdout.write(`${lines.join('\n')}\n`);
  }

  installGracefulShutdown(server, {
    readyDelayMs: shop.config.shutdownReadyDelayMs,
    graceMs: shop.config.shutdownGraceMs,
    health: shop.health,
    log: shop.runtime.log,
    close: () => shop.close(),
  });
}

/**
 * Process entry: WEB_CONCURRENCY=1 (the default on SQLite) serves in this process; more makes this
 * process the cluster primary, which forks that many web processes (src/host/ops/cluster.ts).
 */
async function main(): Promise<void> {
  if (cluster.isWorker) return serve();
  const config = loadConfig();
  const processes = webConcurrency(process.env, config.databaseUrl);
  if (processes === 1) return serve();
  runClusterPrimary({
    processes,
    // The web processes exit on their own at graceMs; the primary waits a little longer for their exit codes.
    graceMs: config.shutdownGraceMs + 2000,
    log: createLogger(config.logLevel),
    onListening: (listening) =>
      process.stdout.write(
        `${[...listening.banner, `  Processes:         ${processes} (WEB_CONCURRENCY)`].join('\n')}\n`,
      ),
  });
}

main().catch((error: unknown) => {
  const line = describeStartupError(error, {
    port: Number(process.env.PORT ?? 8080),
    databaseUrl: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
  });
  process.stderr.write(`Suite B2B could not start: ${line}\n`);
  process.exit(1);
});
