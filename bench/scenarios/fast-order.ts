import type { Knex } from 'knex';
import { hashPassword } from '../../src/host-kit/passwords.js';
import { newId } from '../../src/lib/ids.js';
import { nowDb } from '../../src/lib/time.js';
import { insertInBatches, type BenchScenario } from '../types.js';
import { seedCatalog } from './catalog-cart.js';

/**
 * Fast order under load, on the bench catalog (BENCH_PRODUCTS, up to 100,000): a customer with
 * 1,000 customer prices and 1,000 customer product numbers searches by a product number prefix
 * (100 hits, first page of 10), and asks the price of a product at a quantity.
 */
export const FO_CUSTOMER = { email: 'bench-fo-buyer@bench.test', password: 'bench-fo-buyer-password' };
const OWN = 1_000;
const TERM = 'BENCH-00012';

async function seedFastOrder(db: Knex, products: number): Promise<void> {
  await seedCatalog(db, products);
  let customer = await db('customers').where({ email: FO_CUSTOMER.email }).first('id');
  if (!customer) {
    customer = { id: newId() };
    const salesChannel = await db('sales_channels').orderBy('created_at').first('id');
    await db('customers').insert({
      id: customer.id,
      sales_channel_id: salesChannel.id,
      customer_number: 'BENCH-FO-1',
      email: FO_CUSTOMER.email,
      password_hash: await hashPassword(FO_CUSTOMER.password),
      first_name: 'Bench',
      last_name: 'Fast order',
      company: 'Bench FO Ltd',
      tags: '[]',
      active: true,
      created_at: nowDb(),
    });
  }
  const have = Number((await db('suite_customer_prices').where({ customer_id: customer.id }).count({ n: '*' }))[0]!.n);
  if (have > 0) return;
  const ids = (
    await db('products').where('product_number', 'like', 'BENCH-%').orderBy('product_number').limit(OWN).select('id')
  ).map((r) => r.id as string);
  const now = nowDb();
  await insertInBatches(
    db,
    'suite_customer_prices',
    ids.flatMap((productId) =>
      [1, 10].map((minQuantity) => ({
        id: newId(),
        customer_id: customer.id,
        customer_group_id: null,
        product_id: productId,
        min_quantity: minQuantity,
        price_net: 900 - minQuantity * 10,
        created_at: now,
      })),
    ),
  );
  await insertInBatches(
    db,
    'suite_customer_product_numbers',
    ids.map((productId, i) => ({
      id: newId(),
      customer_id: customer.id,
      product_id: productId,
      product_number: `OWN-${i}`,
      number_key: `own-${i}`,
      created_at: now,
    })),
  );
}

/**
 * The bare route's statements for a fast order search of `term` (a product number prefix) by a
 * customer, in the shape the app runs on SQLite: number prefixes as index ranges, the customer's
 * numbers by index, the name by a scan; a page of 10 and the total.
 */
export function fastOrderSearchSql(customerId: string, term: string): Array<{ sql: string; bindings: unknown[] }> {
  // The prefix's upper bound: its last character raised by one ('BENCH-00012' → 'BENCH-00013').
  const upper = (prefix: string) =>
    `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}`;
  const where =
    'from products left join suite_customer_product_numbers as cpn on cpn.product_id = products.id and cpn.customer_id = ? where products.active = ? and ' +
    '((products.product_number >= ? and products.product_number < ?) or products.id in (select product_id from suite_customer_product_numbers where customer_id = ? and number_key >= ? and number_key < ?) or products.name like ?)';
  const bindings = [
    customerId,
    1,
    term,
    upper(term),
    customerId,
    term.toLowerCase(),
    upper(term.toLowerCase()),
    `%${term}%`,
  ];
  return [
    {
      sql: `select products.id, products.product_number, products.name, products.stock, cpn.product_number as own ${where} order by products.product_number limit 10`,
      bindings,
    },
    { sql: `select count(*) as n ${where}`, bindings },
  ];
}

export const scenarios: BenchScenario[] = [
  {
    name: 'fast order search',
    seed: ({ db, size }) => seedFastOrder(db, size.products),
    async requests(env) {
      const token = await env.login(FO_CUSTOMER.email, FO_CUSTOMER.password);
      const customer = await env.db('customers').where({ email: FO_CUSTOMER.email }).first('id');
      return {
        app: {
          method: 'POST',
          path: '/store-api/b2b/fast-order-product-search',
          headers: { 'suite-context-token': token },
          body: JSON.stringify({ term: TERM, limit: 10 }),
        },
        baselineSql: fastOrderSearchSql(customer.id as string, TERM),
      };
    },
  },
  {
    name: 'fast order product price',
    seed: ({ db, size }) => seedFastOrder(db, size.products),
    async requests(env) {
      const token = await env.login(FO_CUSTOMER.email, FO_CUSTOMER.password);
      const customer = await env.db('customers').where({ email: FO_CUSTOMER.email }).first('id');
      const product = await env.db('products').where('product_number', 'BENCH-0000005').first('id');
      return {
        app: {
          method: 'POST',
          path: `/store-api/product-price/${product.id}/12`,
          headers: { 'suite-context-token': token },
          body: '{}',
        },
        baselineSql: [
          { sql: 'select * from products where id = ? and active = ?', bindings: [product.id, 1] },
          {
            sql: 'select price_net from suite_customer_prices where customer_id = ? and product_id = ? and min_quantity <= ? order by min_quantity desc limit 1',
            bindings: [customer.id, product.id, 12],
          },
        ],
      };
    },
  },
];
