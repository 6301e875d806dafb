import { createInterface } from 'node:readline';
import { createApp } from '../../../src/host/app.js';
import { placeDueOccurrences } from '../../../src/plugin/recurring-order/index.js';

/**
 * One worker process for the cross-process test: the app from the environment (DATABASE_URL,
 * APP_SECRET, WORKERS=0), then on "go" on stdin it runs the recurring-order placement for each
 * instant of RUN_AT (a JSON array of ISO times), prints "DONE" and exits.
 */
const shop = await createApp({ config: { validateResponses: true } });
const instants = JSON.parse(process.env.RUN_AT ?? '[]') as string[];
process.stdout.write('READY\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== 'go') continue;
  for (const instant of instants)
    await placeDueOccurrences(shop.runtime, { now: new Date(instant), missed: 'place-once' });
  process.stdout.write('DONE\n');
  break;
}
lines.close();
await shop.close();
process.exit(0);
