import type { Knex } from 'knex';
import { hashPassword } from '../../src/host-kit/passwords.js';
import { newId } from '../../src/lib/ids.js';
import { nowDb, toDbTime } from '../../src/lib/time.js';
import { insertInBatches, type BenchScenario } from '../types.js';
import { seedCatalog } from './catalog-cart.js';

/**
 * "My assortment" (src/plugin/order-again) of a company with 100,000 orders of two products each
 * over the bench catalog: POST /automatic-lists/assortment, first page of 25. The order hooks keep
 * `suite_ordered_products` and `suite_assortments`; the seed writes what they would have written
 * for those orders (the host's order tables are not read by the list).
 */
export const AL_CUSTOMER = { email: 'bench-al-buyer@bench.test', password: 'bench-al-buyer-password' };
export const ASSORTMENT_ORDERS = 100_000;
const PAGE = 25;

async function seedAssortment(db: Knex, products: number): Promise<void> {
  await seedCatalog(db, products);
  let customer = await db('customers').where({ email: AL_CUSTOMER.email }).first('id');
  if (!customer) {
    customer = { id: newId() };
    const salesChannel = await db('sales_channels').orderBy('created_at').first('id');
    await db('customers').insert({
      id: customer.id,
      sales_channel_id: salesChannel.id,
      customer_number: 'BENCH-AL-1',
      email: AL_CUSTOMER.email,
      password_hash: await hashPassword(AL_CUSTOMER.password),
      first_name: 'Bench',
      last_name: 'Assortment',
      company: 'Bench AL Ltd',
      tags: '[]',
      active: true,
      created_at: nowDb(),
    });
  }
  const have = Number((await db('suite_ordered_products').where({ customer_id: customer.id }).count({ n: '*' }))[0]!.n);
  if (have > 0) return;
  const ids = (await db('products').where('product_number', 'like', 'BENCH-%').select('id')).map((r) => r.id as string);
  const start = Date.now() - ASSORTMENT_ORDERS * 60_000;
  const summary = new Map<string, { count: number; total: number; lastQuantity: number; lastDate: string }>();
  let batch: Array<Record<string, unknown>> = [];
  for (let i = 0; i < ASSORTMENT_ORDERS; i++) {
    const orderId = newId();
    const date = toDbTime(start + i * 60_000);
    // Two products per order, a popular head (i % 50) and a long tail over the catalog.
    for (const productId of new Set([ids[i % 50]!, ids[(i * 7919) % ids.length]!])) {
      const quantity = 1 + (i % 9);
      batch.push({ order_id: orderId, product_id: productId, customer_id: customer.id, quantity, order_date: date });
      const s = summary.get(productId) ?? { count: 0, total: 0, lastQuantity: 0, lastDate: date };
      summary.set(productId, { count: s.count + 1, total: s.total + quantity, lastQuantity: quantity, lastDate: date });
    }
    if (batch.length >= 5000) {
      await insertInBatches(db, 'suite_ordered_products', batch);
      batch = [];
    }
  }
  await insertInBatches(db, 'suite_ordered_products', batch);
  await insertInBatches(
    db,
    'suite_assortments',
    [...summary].map(([productId, s]) => ({
      customer_id: customer.id,
      product_id: productId,
      order_count: s.count,
      total_quantity: s.total,
      last_quantity: s.lastQuantity,
      last_order_date: s.lastDate,
    })),
  );
}

export const scenarios: BenchScenario[] = [
  {
    name: 'my assortment',
    seed: ({ db, size }) => seedAssortment(db, size.products),
    async requests(env) {
      const token = await env.login(AL_CUSTOMER.email, AL_CUSTOMER.password);
      const customer = await env.db('customers').where({ email: AL_CUSTOMER.email }).first('id');
      const page = await env
        .db('suite_assortments')
        .where({ customer_id: customer.id })
        .orderBy('last_order_date', 'desc')
        .orderBy('product_id', 'desc')
        .limit(PAGE)
        .select('product_id');
      const productIds = page.map((r) => r.product_id as string);
      return {
        app: {
          method: 'POST',
          path: '/store-api/automatic-lists/assortment',
          headers: { 'suite-context-token': token, 'content-type': 'application/json' },
          body: JSON.stringify({ limit: PAGE, page: 1 }),
        },
        baselineSql: [
          {
            sql: 'select product_id, order_count, total_quantity, last_quantity, last_order_date from suite_assortments where customer_id = ? order by last_order_date desc, product_id desc limit ?',
            bindings: [customer.id, PAGE],
          },
          { sql: 'select count(*) as n from suite_assortments where customer_id = ?', bindings: [customer.id] },
          {
            sql: `select * from products where id in (${productIds.map(() => '?').join(', ')}) and active = ?`,
            bindings: [...productIds, 1],
          },
        ],
      };
    },
  },
];
