import type { BenchRequest, BenchScenario, VendureBenchEnv, VendureComparison } from '../types.js';
import {
  BENCH_CUSTOMER,
  baselineBuyer,
  cartBuyers,
  freshCarts,
  seedCartBuyers,
  seedCatalog,
  visibleBenchProducts,
} from './catalog-cart.js';
import { fastOrderSearchSql } from './fast-order.js';

/**
 * The unchanged plugin inside Vendure (src/adapters/vendure) against the reference host, the same
 * plugin routes in the same run: the fast order search (catalog.searchProducts on Vendure's tables)
 * and the fast order add-to-cart (cart.addLineItems: Vendure's OrderService.addItemToOrder on the
 * customer's active order). The reference side runs on the bench catalog (BENCH_PRODUCTS), the
 * Vendure side on the example shop's catalog (4 products): the ratio compares the two hosts' cost
 * per request of the route, not equal data sizes (docs/vendure.md, Bench).
 */
const SEARCH = { path: '/store-api/b2b/fast-order-product-search', body: { term: 'BENCH-000001', limit: 10 } };
const VENDURE_SEARCH = { term: 'pap', limit: 10 };
const ADD = '/store-api/b2b/add-to-cart';
/** The reference side's buyers (bench/scenarios/catalog-cart.ts), not the cart add scenario's: each scenario empties its buyers' carts. */
const ADD_BUYERS = cartBuyers('fast-order-cart');
const ADD_BASELINE_BUYER = baselineBuyer('fast-order-cart');
/** The example shop's products with a large stock (the cart grows by one per request). */
const VENDURE_PRODUCTS = ['PAPER-001', 'ARM-001'];

async function vendureCustomer(env: VendureBenchEnv): Promise<Record<string, string>> {
  // Imported here: the example shop's module loads Vendure, which other runs of the bench do not need.
  const { DEMO_CUSTOMER } = await import('../../examples/vendure-shop/shop.js');
  return { authorization: `Bearer ${await env.login(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password)}` };
}

/** A fresh active order per run (Vendure caps an order at 999 items). */
async function emptyVendureCart(env: VendureBenchEnv, headers: Record<string, string>): Promise<void> {
  await fetch(`${env.baseUrl}/shop-api`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: 'mutation { removeAllOrderLines { __typename } }' }),
  });
}

export const scenarios: BenchScenario[] = [
  {
    name: 'vendure fast order search',
    seed: ({ db, size }) => seedCatalog(db, size.products),
    async requests(env) {
      const token = await env.login(BENCH_CUSTOMER.email, BENCH_CUSTOMER.password);
      const customer = await env.db('customers').where({ email: BENCH_CUSTOMER.email }).first('id');
      return {
        app: {
          method: 'POST',
          path: SEARCH.path,
          headers: { 'suite-context-token': token },
          body: JSON.stringify(SEARCH.body),
        },
        // The fast order search's statements (bench/scenarios/fast-order.ts): until the seventh round
        // only the number range, without the name scan and the customer's numbers the app runs.
        baselineSql: fastOrderSearchSql(customer.id as string, SEARCH.body.term),
      };
    },
    async vendure(env): Promise<BenchRequest> {
      return {
        method: 'POST',
        path: SEARCH.path,
        headers: await vendureCustomer(env),
        body: JSON.stringify(VENDURE_SEARCH),
      };
    },
  },
  {
    name: 'vendure fast order add-to-cart',
    seed: async ({ db, size }) => {
      await seedCatalog(db, size.products);
      await seedCartBuyers(db, [...ADD_BUYERS, ADD_BASELINE_BUYER]);
    },
    async requests(env) {
      // The cart add scenario's buyers, each with a cart of its own and requests for each in turn
      // (bench/scenarios/catalog-cart.ts): concurrent adds to one cart queue on its lock, which on
      // MariaDB, not the add, was the figure.
      const [baselineToken, ...tokens] = await Promise.all(
        [ADD_BASELINE_BUYER, ...ADD_BUYERS].map((buyer) => env.login(buyer.email, buyer.password)),
      );
      // Twenty products the buyers can see added in turn, as in the cart add scenario: no line reaches
      // the per-line quantity limit (10,000) in a run. Until the eighth round these were BENCH-0000001
      // to 20, half of which the partial assortment scenario hides: every other request answered
      // "not found" (200, success: false) without a cart write.
      const numbers = (await visibleBenchProducts(env, tokens[0]!)).map((p) => p.productNumber);
      const bodies = numbers.map((productNumber) => JSON.stringify({ items: [{ productNumber, quantity: 1 }] }));
      // A fresh cart each run with every line in it: the measured adds raise their quantities, as the
      // bare route's update does (in a cart of its own).
      const baselineCart = await freshCarts(env, [baselineToken!, ...tokens], ADD, bodies, ADD_BASELINE_BUYER.email);
      const products = await env.db('products').whereIn('product_number', numbers).select('id');
      return {
        app: { method: 'POST', path: ADD, callers: tokens.map((token) => ({ 'suite-context-token': token })), bodies },
        // The cart add's statements (bench/scenarios/catalog-cart.ts) with the product found by its number.
        baselineSql: [
          { sql: 'select * from products where product_number = ? and active = ?', bindings: [numbers[0], 1] },
          {
            sql: 'update cart_line_items set quantity = quantity + 1 where cart_token = ? and product_id = ?',
            bindings: [baselineCart, products[0]!.id],
          },
          { sql: 'select * from cart_line_items where cart_token = ? order by position', bindings: [baselineCart] },
          {
            sql: `select * from products where id in (${products.map(() => '?').join(',')})`,
            bindings: products.map((p) => p.id as string),
          },
        ],
      };
    },
    async vendure(env): Promise<BenchRequest> {
      const headers = await vendureCustomer(env);
      await emptyVendureCart(env, headers);
      return {
        method: 'POST',
        path: ADD,
        headers,
        bodies: VENDURE_PRODUCTS.map((productNumber) => JSON.stringify({ items: [{ productNumber, quantity: 1 }] })),
      };
    },
  },
];

/** A GraphQL request to the shop (for the comparisons' set-up); GraphQL errors throw. */
async function graphql(
  env: VendureBenchEnv,
  api: 'shop-api' | 'admin-api',
  headers: Record<string, string>,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<any> {
  const res = await fetch(`${env.baseUrl}/${api}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const answer = (await res.json()) as { data?: any; errors?: unknown[] };
  if (answer.errors?.length) throw new Error(`bench: ${api} answered ${JSON.stringify(answer.errors)}`);
  return answer.data;
}

const shopApiRequest = (
  headers: Record<string, string>,
  query: string,
  variables: Record<string, unknown> = {},
): BenchRequest => ({
  method: 'POST',
  path: '/shop-api',
  headers,
  body: JSON.stringify({ query, variables }),
});

/** The example shop's ids in the plugin's form (its default AutoIncrementIdStrategy, src/adapters/vendure/ids.ts). */
const pluginId = (vendureId: string) => vendureId.padStart(32, '0');

/**
 * A partial assortment the customer meets: the standing desk assigned the rule "customer group
 * Partners" (the demo customer is not a partner, so the desk is hidden from them), switched on and
 * off through the plugin's Admin API. Without it no rule narrows the customer's catalog.
 */
async function deskRule(env: VendureBenchEnv): Promise<{ on(): Promise<void>; off(): Promise<void> }> {
  const admin = { authorization: `Bearer ${await env.adminLogin()}` };
  const { PARTNER_GROUP } = await import('../../examples/vendure-shop/shop.js');
  const groups = await graphql(env, 'admin-api', admin, '{ customerGroups { items { id name } } }');
  const group = (groups.customerGroups.items as Array<{ id: string; name: string }>).find(
    (g) => g.name === PARTNER_GROUP,
  )!;
  const desk = await graphql(env, 'admin-api', admin, '{ product(slug: "standing-desk") { variants { id } } }');
  const productId = pluginId(String(desk.product.variants[0].id));
  const ruleId = pluginId(String(group.id));
  const call = async (method: 'POST' | 'DELETE', path: string, body?: unknown) => {
    const res = await fetch(`${env.baseUrl}/b2b-admin-api/suite-partial-assortment-product-rule${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...admin },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status !== 204)
      throw new Error(`bench: the partial assortment rule answered ${res.status} ${await res.text()}`);
  };
  return {
    on: () => call('POST', '', { productId, ruleId }),
    off: () => call('DELETE', `/${productId}/${ruleId}`),
  };
}

/** The same Shop API query by the demo customer with the desk hidden (a partial assortment active) and without any rule. */
function assortmentComparison(name: string, query: string, totalOf: (data: any) => number): VendureComparison {
  return {
    name,
    target: 0.8,
    async sides(env) {
      const headers = await vendureCustomer(env);
      const rule = await deskRule(env);
      // Checked once: the rule hides the desk (3 of the 4 products), without it all four answer.
      await rule.on();
      const narrowed = totalOf(await graphql(env, 'shop-api', headers, query));
      await rule.off();
      const all = totalOf(await graphql(env, 'shop-api', headers, query));
      if (narrowed !== 3 || all !== 4)
        throw new Error(`bench: ${name}: expected 3 products with the rule and 4 without, got ${narrowed} and ${all}`);
      return {
        measured: { label: 'with a partial assortment', request: shopApiRequest(headers, query), before: rule.on },
        against: { label: 'without', request: shopApiRequest(headers, query), before: rule.off },
      };
    },
  };
}

/**
 * Inside the example Vendure shop only: the plugin's fast order add-to-cart
 * (cart.addLineItems → OrderService.addItemToOrder, behind the plugin's route, context and checks)
 * against Vendure's own Shop API `addItemToOrder` for the same line (the demo customer's active
 * order, emptied before each fire: Vendure caps an order at 999 items), and Vendure's Shop API
 * `products` and `search` with a partial assortment active against the same queries without one.
 */
export const vendureComparisons: VendureComparison[] = [
  {
    name: 'vendure add-to-cart: plugin route vs addItemToOrder',
    target: 0.7,
    async sides(env) {
      const headers = await vendureCustomer(env);
      const paper = await graphql(
        env,
        'shop-api',
        headers,
        '{ product(slug: "copy-paper-a4") { variants { id sku } } }',
      );
      const variant = paper.product.variants[0] as { id: string; sku: string };
      const addItem =
        'mutation ($v: ID!) { addItemToOrder(productVariantId: $v, quantity: 1) { __typename ... on Order { id } } }';
      const emptied = () => emptyVendureCart(env, headers);
      // Checked once: both add the line.
      await emptied();
      const viaPlugin = await fetch(`${env.baseUrl}${ADD}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ items: [{ productNumber: variant.sku, quantity: 1 }] }),
      });
      if (viaPlugin.status !== 200)
        throw new Error(`bench: the plugin's add-to-cart answered ${viaPlugin.status} ${await viaPlugin.text()}`);
      const viaVendure = await graphql(env, 'shop-api', headers, addItem, { v: variant.id });
      if (viaVendure.addItemToOrder.__typename !== 'Order')
        throw new Error(`bench: addItemToOrder answered ${JSON.stringify(viaVendure)}`);
      return {
        measured: {
          label: 'plugin add-to-cart',
          request: {
            method: 'POST',
            path: ADD,
            headers,
            body: JSON.stringify({ items: [{ productNumber: variant.sku, quantity: 1 }] }),
          },
          before: emptied,
        },
        against: {
          label: 'addItemToOrder',
          request: shopApiRequest(headers, addItem, { v: variant.id }),
          before: emptied,
        },
      };
    },
  },
  assortmentComparison(
    'vendure Shop API products: with vs without a partial assortment',
    '{ products { totalItems items { id name slug } } }',
    (data) => data.products.totalItems as number,
  ),
  assortmentComparison(
    'vendure Shop API search: with vs without a partial assortment',
    '{ search(input: { groupByProduct: true }) { totalItems items { productName slug } } }',
    (data) => data.search.totalItems as number,
  ),
];
