import type { Knex } from 'knex';
import { hashPassword } from '../../src/host-kit/passwords.js';
import { newId } from '../../src/lib/ids.js';
import { nowDb, toDbTime } from '../../src/lib/time.js';
import { insertInBatches, type BenchScenario } from '../types.js';
import { seedCatalog } from './catalog-cart.js';

/**
 * The customer event overview under load: 1,000 published events (half in English) on bench
 * products (none restricted by the partial-assortment scenario), three formats, 10 participants each;
 * the first page (25) of English events with seat counts.
 */
export const EV_CUSTOMER = { email: 'bench-ev-buyer@bench.test', password: 'bench-ev-buyer-password' };
const EVENTS = 1_000;
const PARTICIPANTS_PER_EVENT = 10;
const DAY = 24 * 3600 * 1000;

async function seedEvents(db: Knex, products: number): Promise<void> {
  await seedCatalog(db, products);
  let customer = await db('customers').where({ email: EV_CUSTOMER.email }).first('id');
  if (!customer) {
    customer = { id: newId() };
    const salesChannel = await db('sales_channels').orderBy('created_at').first('id');
    await db('customers').insert({
      id: customer.id,
      sales_channel_id: salesChannel.id,
      customer_number: 'BENCH-EV-1',
      email: EV_CUSTOMER.email,
      password_hash: await hashPassword(EV_CUSTOMER.password),
      first_name: 'Bench',
      last_name: 'Events',
      company: 'Bench EV Ltd',
      tags: '[]',
      active: true,
      created_at: nowDb(),
    });
  }
  // Every other bench product, starting with the second: the partial-assortment scenario restricts
  // the others (seedAssignments), which would hide the events from this customer and leave the
  // overview measuring an empty page.
  const productIds = (
    await db('products')
      .where('product_number', 'like', 'BENCH-%')
      .orderBy('product_number')
      .limit(EVENTS * 2)
      .select('id')
  )
    .map((r) => r.id as string)
    .filter((_, i) => i % 2 === 1);
  const seeded = await db('b2b_events')
    .where('name', 'like', 'Bench event %')
    .orderBy('name')
    .select('id', 'product_id');
  if (seeded.length > 0) {
    // A database seeded before the events moved to the unrestricted products.
    if (seeded[0].product_id !== productIds[0])
      for (const [i, event] of seeded.entries())
        if (productIds[i]) await db('b2b_events').where({ id: event.id }).update({ product_id: productIds[i] });
    return;
  }
  const now = nowDb();
  const formats = ['Workshop', 'Webinar', 'Conference'].map((name, position) => ({
    id: newId(),
    type: 'format',
    name: `Bench ${name}`,
    description: null,
    position,
    created_at: now,
  }));
  await insertInBatches(db, 'b2b_event_specifications', formats);
  const events = productIds.map((productId, i) => ({
    id: newId(),
    product_id: productId,
    name: `Bench event ${String(i).padStart(4, '0')}`,
    language: i % 2 === 0 ? 'en' : 'de',
    format_id: formats[i % formats.length]!.id,
    description: 'A bench event.',
    starts_at: toDbTime(new Date(Date.now() + (30 + (i % 300)) * DAY)),
    ends_at: toDbTime(new Date(Date.now() + (30 + (i % 300)) * DAY + 8 * 3600 * 1000)),
    participant_limit: 50,
    waiting_list: true,
    status: 'published',
    created_at: now,
  }));
  await insertInBatches(db, 'b2b_events', events);
  const participants = events.flatMap((event) =>
    Array.from({ length: PARTICIPANTS_PER_EVENT }, (_, k) => ({
      id: newId(),
      event_id: event.id,
      customer_id: customer.id,
      first_name: 'Pat',
      last_name: `Participant ${k}`,
      email: `pat-${k}-${event.id.slice(0, 8)}@bench.test`,
      status: 'registered',
      documents: '[]',
      created_by_type: 'customer',
      created_at: now,
    })),
  );
  await insertInBatches(db, 'b2b_event_participants', participants);
}

export const scenarios: BenchScenario[] = [
  {
    name: 'event overview',
    seed: ({ db, size }) => seedEvents(db, size.products),
    async requests(env) {
      const token = await env.login(EV_CUSTOMER.email, EV_CUSTOMER.password);
      const now = nowDb();
      const where =
        "from b2b_events as ev inner join products as p on p.id = ev.product_id where p.active = ? and ev.status in ('published') and ev.ends_at >= ? and ev.language = ?";
      const page = `select ev.id ${where} order by ev.starts_at asc, ev.id asc limit 25`;
      return {
        app: {
          method: 'POST',
          path: '/store-api/events',
          headers: { 'suite-context-token': token },
          body: JSON.stringify({ limit: 25, filter: [{ type: 'equals', field: 'language', value: 'en' }] }),
        },
        baselineSql: [
          {
            sql: `select ev.*, p.name as product_name, p.product_number ${where} order by ev.starts_at asc, ev.id asc limit 25`,
            bindings: [1, now, 'en'],
          },
          { sql: `select count(*) as n ${where}`, bindings: [1, now, 'en'] },
          {
            sql: `select * from b2b_event_specifications where id in (select format_id from (${page}) as pg join b2b_events e on e.id = pg.id)`,
            bindings: [1, now, 'en'],
          },
          {
            sql: `select event_id, status, count(*) as n from b2b_event_participants where event_id in (select id from (${page}) as pg) group by event_id, status`,
            bindings: [1, now, 'en'],
          },
        ],
      };
    },
  },
];
