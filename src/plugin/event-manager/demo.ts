import { inTransaction } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { nowDb, nowMs, toDbTime } from '../../lib/time.js';
import type { DemoShop, HostRuntime } from '../../contract/index.js';
import { hasEventNamed, insertEvent } from './repository.js';

const DAY = 24 * 3600 * 1000;
/** The demo catalog's ticket-like product; any demo product when it is absent. */
const TICKET_NAME = 'Workshop seat';
export const DEMO_EVENT_NAME = 'Cordless tools workshop';

/** A published event in four weeks on the demo's workshop product, so the event pages have something to show. Seeding twice is a no-op. */
export async function seedEventDemo(host: HostRuntime, demo: DemoShop): Promise<string[]> {
  const products = await host.catalog.products(host.db, demo.productIds);
  const ticket = products.find((product) => product.name === TICKET_NAME) ?? products.at(-1);
  if (!ticket) return [];
  await inTransaction(host.db, async (trx) => {
    if (await hasEventNamed(trx, ticket.id, DEMO_EVENT_NAME)) return;
    const start = new Date(nowMs() + 28 * DAY);
    start.setUTCHours(9, 0, 0, 0);
    await insertEvent(trx, {
      id: newId(),
      product_id: ticket.id,
      name: DEMO_EVENT_NAME,
      language: 'en',
      description: 'A day with the cordless range: hands-on stations, safety briefing and lunch.',
      starts_at: toDbTime(start),
      ends_at: toDbTime(new Date(start.getTime() + 8 * 3600 * 1000)),
      participant_limit: 20,
      registration_deadline: toDbTime(new Date(start.getTime() - 2 * DAY)),
      waiting_list: true,
      status: 'published',
      created_at: nowDb(),
    });
  });
  return [`Event: "${DEMO_EVENT_NAME}" on "${ticket.name}", 20 seats, waiting list`];
}
