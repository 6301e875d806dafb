import { createServer } from 'node:http';
import { createApp } from '../../src/host/app.js';

/**
 * One app process for scale-out tests: configured from the environment (DATABASE_URL, APP_SECRET,
 * WORKERS=0), listening on a free port, which it prints as "LISTENING <port>".
 */
const shop = await createApp({ config: { validateResponses: true } });
const server = createServer(shop.app);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => {
  server.close(() => {
    void shop.close().finally(() => process.exit(0));
  });
  server.closeAllConnections();
});
