import { newId } from '../../src/lib/ids.js';
import { nowDb } from '../../src/lib/time.js';
import { hashPassword } from '../../src/host-kit/passwords.js';
import { encodeCursor, keysetKeys } from '../../src/lib/keyset.js';
import { productCriteriaSpec } from '../../src/host/catalog/product-search.js';
import { insertInBatches, type BenchEnv, type BenchScenario } from '../types.js';

export const BENCH_CUSTOMER = { email: 'bench-buyer@bench.test', password: 'bench-buyer-password' };

/** Products (with one category each) and a customer with a login; shared by every scenario. */
export async function seedCatalog(db: Parameters<BenchScenario['seed']>[0]['db'], products: number): Promise<void> {
  const have = Number((await db('products').where('product_number', 'like', 'BENCH-%').count({ n: '*' }))[0]!.n);
  if (have < products) {
    const categoryIds = Array.from({ length: 20 }, () => newId());
    if (have === 0)
      await insertInBatches(
        db,
        'categories',
        categoryIds.map((id, i) => ({
          id,
          version_id: newId(),
          parent_id: null,
          name: `Bench category ${i}`,
          position: i,
          active: true,
          created_at: nowDb(),
        })),
      );
    const categories = (await db('categories').where('name', 'like', 'Bench category%').select('id')).map(
      (r) => r.id as string,
    );
    const rows = [];
    const links = [];
    for (let i = have; i < products; i++) {
      const id = newId();
      rows.push({
        id,
        version_id: newId(),
        product_number: `BENCH-${String(i).padStart(7, '0')}`,
        name: `Bench product ${String(i).padStart(7, '0')}`,
        description: 'A product for load tests.',
        stock: 1000000,
        active: true,
        tax_rate_bp: 1900,
        price_net: 1000 + (i % 5000),
        created_at: nowDb(),
      });
      links.push({ product_id: id, category_id: categories[i % categories.length] });
    }
    await insertInBatches(db, 'products', rows);
    await insertInBatches(db, 'product_categories', links);
  }
  if (!(await db('customers').where({ email: BENCH_CUSTOMER.email }).first('id'))) {
    const salesChannel = await db('sales_channels').orderBy('created_at').first('id');
    await db('customers').insert({
      id: newId(),
      sales_channel_id: salesChannel.id,
      customer_number: 'BENCH-1',
      email: BENCH_CUSTOMER.email,
      password_hash: await hashPassword(BENCH_CUSTOMER.password),
      first_name: 'Bench',
      last_name: 'Buyer',
      company: 'Bench Ltd',
      tags: '[]',
      active: true,
      created_at: nowDb(),
    });
  }
}

/**
 * Buyers of a cart scenario: customers with a login each, so each has a cart of its own
 * (BENCH_CART_BUYERS, default 10). Each scenario has its own (`kind`): a scenario's setup empties
 * and refills its buyers' carts, which must not be another scenario's.
 */
export function cartBuyers(kind: string): Array<{ email: string; password: string }> {
  return Array.from({ length: Math.max(1, Number(process.env.BENCH_CART_BUYERS ?? 10)) }, (_, i) => ({
    email: `bench-${kind}-buyer-${i}@bench.test`,
    password: 'bench-cart-buyer-password',
  }));
}
const CART_BUYERS = cartBuyers('cart');

/**
 * The buyer whose cart the bare route's update of a cart scenario writes: a line the app's requests
 * never add to. The update raises a quantity thousands of times a run; on an app buyer's line that
 * reached the line limit (10,000) and turned the app's next adds of it into 400s once the app and the
 * bare route took turns.
 */
export function baselineBuyer(kind: string): { email: string; password: string } {
  return { email: `bench-${kind}-baseline-buyer@bench.test`, password: 'bench-cart-buyer-password' };
}
const BASELINE_BUYER = baselineBuyer('cart');

/**
 * Twenty bench products `token`'s customer can see: the partial assortment scenario restricts every
 * other bench product to its own customer, and the demo catalog's products have little stock, which
 * a fast run would use up.
 */
export async function visibleBenchProducts(
  env: BenchEnv,
  token: string,
): Promise<Array<{ id: string; productNumber: string }>> {
  const listing = await fetch(`${env.baseUrl}/store-api/product`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'suite-context-token': token },
    body: JSON.stringify({ limit: 20, filter: [{ type: 'prefix', field: 'productNumber', value: 'BENCH-' }] }),
  });
  return ((await listing.json()) as { elements: Array<{ id: string; productNumber: string }> }).elements;
}

/**
 * A fresh cart for each token, holding a line of each body (added through the app at `path`): a
 * login finds its open cart again, and lines of earlier runs would reach the line limit or a demo
 * product's stock. Answers the open cart token of `baselineEmail`'s customer, one of them.
 */
export async function freshCarts(
  env: BenchEnv,
  tokens: string[],
  path: string,
  bodies: string[],
  baselineEmail: string,
): Promise<string> {
  for (const token of tokens) {
    await fetch(`${env.baseUrl}/store-api/checkout/cart`, {
      method: 'DELETE',
      headers: { 'suite-context-token': token },
    });
    for (const body of bodies) {
      const res = await fetch(`${env.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'suite-context-token': token },
        body,
      });
      // The fast order add answers 200 with success: false for an item it could not add.
      const answer = (await res.json()) as { success?: boolean };
      if (!res.ok || answer.success === false)
        throw new Error(`bench: adding ${body} at ${path} failed (${res.status}): ${JSON.stringify(answer)}`);
    }
  }
  const customer = await env.db('customers').where({ email: baselineEmail }).first('id');
  const cart = await env
    .db('carts')
    .where({ customer_id: customer.id })
    .whereNull('order_id')
    .orderBy('updated_at', 'desc')
    .first('token');
  return (cart?.token as string | undefined) ?? '';
}

export async function seedCartBuyers(
  db: Parameters<BenchScenario['seed']>[0]['db'],
  buyers = CART_BUYERS,
): Promise<void> {
  const salesChannel = await db('sales_channels').orderBy('created_at').first('id');
  const have = new Set(
    (await db('customers')
      .whereIn(
        'email',
        buyers.map((buyer) => buyer.email),
      )
      .pluck('email')) as string[],
  );
  const passwordHash = await hashPassword(buyers[0]!.password);
  for (const [i, buyer] of buyers.entries())
    if (!have.has(buyer.email))
      await db('customers').insert({
        id: newId(),
        sales_channel_id: salesChannel.id,
        customer_number: buyer.email.split('@')[0]!.toUpperCase(),
        email: buyer.email,
        password_hash: passwordHash,
        first_name: 'Bench',
        last_name: `Cart buyer ${i}`,
        company: 'Bench Ltd',
        tags: '[]',
        active: true,
        created_at: nowDb(),
      });
}

const listingSql = [
  {
    sql: 'select id, version_id, product_number, name, description, stock, tax_rate_bp, price_net from products where active = ? order by name asc, id asc limit 25',
    bindings: [1],
  },
  { sql: 'select count(*) as n from products where active = ?', bindings: [1] },
];

const PAGE = 25;

/**
 * The last listing page two ways: by page number (the database skips every row before it) and by
 * the cursor the page before answers (keyset: it starts after that row through the sort's index).
 */
async function lastPage(
  db: BenchEnv['db'],
): Promise<{ page: number; offset: number; total: number; after: { name: string; id: string } }> {
  const total = Number((await db('products').where('active', true).count({ n: '*' }))[0]!.n);
  const offset = Math.floor((total - 1) / PAGE) * PAGE;
  const after = (await db('products')
    .where('active', true)
    .orderBy([{ column: 'name' }, { column: 'id' }])
    .offset(offset - 1)
    .first('name', 'id')) as { name: string; id: string };
  return { page: offset / PAGE + 1, offset, total, after };
}

export const scenarios: BenchScenario[] = [
  {
    name: 'product listing',
    seed: ({ db, size }) => seedCatalog(db, size.products),
    async requests(env) {
      const token = await env.login(BENCH_CUSTOMER.email, BENCH_CUSTOMER.password);
      return {
        app: {
          method: 'POST',
          path: '/store-api/product',
          headers: { 'suite-context-token': token },
          body: JSON.stringify({ limit: 25 }),
        },
        baselineSql: listingSql,
      };
    },
  },
  {
    name: 'first listing page by cursor',
    seed: ({ db, size }) => seedCatalog(db, size.products),
    async requests(env) {
      const token = await env.login(BENCH_CUSTOMER.email, BENCH_CUSTOMER.password);
      return {
        app: {
          method: 'POST',
          path: '/store-api/product',
          headers: { 'suite-context-token': token },
          body: JSON.stringify({ limit: PAGE, cursor: '' }),
        },
        baselineSql: [
          {
            sql: 'select id, version_id, product_number, name, description, stock, tax_rate_bp, price_net from products where active = ? order by name asc, id asc limit 26',
            bindings: [1],
          },
          listingSql[1]!,
        ],
      };
    },
  },
  {
    name: 'last listing page by number',
    seed: ({ db, size }) => seedCatalog(db, size.products),
    async requests(env) {
      const token = await env.login(BENCH_CUSTOMER.email, BENCH_CUSTOMER.password);
      const { page, offset } = await lastPage(env.db);
      return {
        app: {
          method: 'POST',
          path: '/store-api/product',
          headers: { 'suite-context-token': token },
          body: JSON.stringify({ limit: PAGE, page }),
        },
        baselineSql: [{ ...listingSql[0]!, sql: `${listingSql[0]!.sql} offset ${offset}` }, listingSql[1]!],
      };
    },
  },
  {
    name: 'last listing page by cursor',
    seed: ({ db, size }) => seedCatalog(db, size.products),
    async requests(env) {
      const token = await env.login(BENCH_CUSTOMER.email, BENCH_CUSTOMER.password);
      const { after, total } = await lastPage(env.db);
      const keys = keysetKeys([], productCriteriaSpec.defaultSort, productCriteriaSpec.idColumn);
      // The cursor the page before answers: it carries the total the walk's first page counted.
      const cursor = encodeCursor(keys, [after.name, after.id], total);
      return {
        app: {
          method: 'POST',
          path: '/store-api/product',
          headers: { 'suite-context-token': token },
          body: JSON.stringify({ limit: PAGE, cursor }),
        },
        baselineSql: [
          {
            sql: 'select id, version_id, product_number, name, description, stock, tax_rate_bp, price_net from products where active = ? and (name > ? or (name = ? and id > ?)) order by name asc, id asc limit 26',
            bindings: [1, after.name, after.name, after.id],
          },
          listingSql[1]!,
        ],
      };
    },
  },
  {
    name: 'cart add',
    seed: async ({ db, size }) => {
      await seedCatalog(db, size.products);
      await seedCartBuyers(db, [...CART_BUYERS, BASELINE_BUYER]);
    },
    async requests(env) {
      const [baselineToken, ...tokens] = await Promise.all(
        [BASELINE_BUYER, ...CART_BUYERS].map((buyer) => env.login(buyer.email, buyer.password)),
      );
      // Twenty bench products the customers can see, added in turn: carts of twenty lines, none of
      // which reaches the per-line quantity limit.
      const products = (await visibleBenchProducts(env, tokens[0]!)).map((p) => p.id);
      const bodies = products.map((id: string) => JSON.stringify({ items: [{ productId: id, quantity: 1 }] }));
      const baselineCart = await freshCarts(
        env,
        [baselineToken!, ...tokens],
        '/store-api/checkout/cart/line-item',
        bodies,
        BASELINE_BUYER.email,
      );
      return {
        // Ten buyers with a cart each, a request for each in turn: concurrent adds to one cart queue on
        // its lock (on MariaDB that queue, not the add, was the figure), and no shop's buyer adds ten
        // lines at once. One buyer: BENCH_CART_BUYERS=1.
        app: {
          method: 'POST',
          path: '/store-api/checkout/cart/line-item',
          callers: tokens.map((token) => ({ 'suite-context-token': token })),
          bodies,
        },
        baselineSql: [
          { sql: 'select * from products where id = ? and active = ?', bindings: [products[0], 1] },
          {
            sql: 'update cart_line_items set quantity = quantity + 1 where cart_token = ? and product_id = ?',
            bindings: [baselineCart, products[0]],
          },
          { sql: 'select * from cart_line_items where cart_token = ? order by position', bindings: [baselineCart] },
          { sql: `select * from products where id in (${products.map(() => '?').join(',')})`, bindings: products },
        ],
      };
    },
  },
];
