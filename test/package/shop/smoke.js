// The smoke check of the installed package, over HTTP against the running shop: what a Vendure
// merchant tries first. Prints one line per check and mocha's "N passing" / "N failing" summary.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { idMapper } from 'suite-b2b/vendure';

const base = process.argv[2];
/** When the shop started (ms): nothing inside the installed package may be newer. */
const startedAt = Number(process.argv[3]);
const ids = idMapper('increment');
const results = [];

async function check(name, work) {
  try {
    await work();
    results.push(true);
    process.stdout.write(`  ✔ ${name}\n`);
  } catch (error) {
    results.push(false);
    process.stdout.write(`  ✖ ${name}\n      ${String(error?.stack ?? error)}\n`);
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

async function gql(api, query, variables = {}, headers = {}) {
  const res = await globalThis.fetch(`${base}/${api}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const body = await res.json();
  if (body.errors) throw new Error(`${api}: ${JSON.stringify(body.errors)}`);
  return { data: body.data, token: res.headers.get('vendure-auth-token') };
}

async function rest(method, path, headers = {}, body) {
  const res = await globalThis.fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const bearer = (token) => ({ authorization: `Bearer ${token}` });
const login = async (api, username, password) => {
  const { data, token } = await gql(
    api,
    'mutation ($u: String!, $p: String!) { login(username: $u, password: $p) { __typename } }',
    { u: username, p: password },
  );
  assert(data.login.__typename === 'CurrentUser', `${api} login of ${username}: ${JSON.stringify(data.login)}`);
  return token;
};

const BUYER = { email: 'buyer@smoke.test', password: 'smoke-buyer-2026' };
const PURCHASER = { email: 'purchaser@smoke.test', password: 'smoke-purchaser-2026' };
let admin;
let buyer;
let contextToken;

await check(
  'set up through the APIs: a customer and a customer group (Admin API), the desk only for that group (b2b-admin-api), a role needing approval and an employee (store-api)',
  async () => {
    admin = await login('admin-api', 'superadmin', 'superadmin');
    await gql(
      'admin-api',
      'mutation ($i: CreateCustomerInput!, $p: String) { createCustomer(input: $i, password: $p) { __typename } }',
      { i: { emailAddress: BUYER.email, firstName: 'Bea', lastName: 'Buyer' }, p: BUYER.password },
      bearer(admin),
    );
    const group = await gql(
      'admin-api',
      'mutation { createCustomerGroup(input: { name: "Partners" }) { id } }',
      {},
      bearer(admin),
    );
    const desk = await gql('admin-api', '{ product(slug: "standing-desk") { variants { id } } }', {}, bearer(admin));
    const assigned = await rest('POST', '/b2b-admin-api/suite-partial-assortment-product-rule', bearer(admin), {
      productId: ids.toPlugin(desk.data.product.variants[0].id),
      ruleId: ids.toPlugin(group.data.createCustomerGroup.id),
    });
    assert(assigned.status === 204, `partial assortment rule: ${assigned.status} ${JSON.stringify(assigned.body)}`);

    buyer = await login('shop-api', BUYER.email, BUYER.password);
    const role = await rest('POST', '/store-api/b2b/employee-roles/create', bearer(buyer), {
      name: 'Purchaser',
      permissions: ['orders.create'],
      requiresApproval: true,
    });
    assert(role.status === 200, `role: ${role.status} ${JSON.stringify(role.body)}`);
    const employee = await rest('POST', '/store-api/b2b/employee', bearer(buyer), {
      email: PURCHASER.email,
      firstName: 'Paul',
      lastName: 'Purchaser',
      password: PURCHASER.password,
      roleId: role.body.role.id,
    });
    assert(employee.status === 200, `employee: ${employee.status} ${JSON.stringify(employee.body)}`);
  },
);

await check('an employee logs in at POST /store-api/account/login', async () => {
  const wrong = await rest(
    'POST',
    '/store-api/account/login',
    {},
    { email: PURCHASER.email, password: 'not-the-password' },
  );
  assert(wrong.status === 401, `wrong password: ${wrong.status}`);
  const res = await rest('POST', '/store-api/account/login', {}, PURCHASER);
  assert(
    res.status === 200 && typeof res.body.contextToken === 'string',
    `login: ${res.status} ${JSON.stringify(res.body)}`,
  );
  contextToken = res.body.contextToken;
  const context = await rest('GET', '/store-api/context', { 'suite-context-token': contextToken });
  assert(
    context.body.actor?.type === 'employee' && context.body.customer?.email === BUYER.email,
    `context: ${JSON.stringify(context.body)}`,
  );
});

await check(
  "the desk (partial assortment: group Partners only) is not in the Shop API's products for the customer, a guest and the employee",
  async () => {
    for (const headers of [bearer(buyer), {}, { 'suite-context-token': contextToken }]) {
      const { data } = await gql('shop-api', '{ products { totalItems items { slug } } }', {}, headers);
      const slugs = data.products.items.map((p) => p.slug);
      assert(
        !slugs.includes('standing-desk') && slugs.includes('office-chair') && data.products.totalItems === 3,
        `products: ${JSON.stringify(data.products)}`,
      );
    }
  },
);

await check(
  "the employee's checkout is vetoed: transitionOrderToState answers SUITE__ORDER_APPROVAL_REQUIRED",
  async () => {
    const auth = await gql(
      'shop-api',
      'mutation ($t: String!) { authenticate(input: { suiteB2B: { contextToken: $t } }) { __typename } }',
      { t: contextToken },
    );
    assert(auth.data.authenticate.__typename === 'CurrentUser', `authenticate: ${JSON.stringify(auth.data)}`);
    const headers = { ...bearer(auth.token), 'suite-context-token': contextToken };
    const chair = await gql('shop-api', '{ product(slug: "office-chair") { variants { id } } }', {}, headers);
    const added = await gql(
      'shop-api',
      'mutation ($v: ID!) { addItemToOrder(productVariantId: $v, quantity: 2) { __typename } }',
      { v: chair.data.product.variants[0].id },
      headers,
    );
    assert(added.data.addItemToOrder.__typename === 'Order', `addItemToOrder: ${JSON.stringify(added.data)}`);
    await gql(
      'shop-api',
      'mutation { setOrderShippingAddress(input: { fullName: "Smoke Company", streetLine1: "Hauptstr. 1", city: "Berlin", postalCode: "10115", countryCode: "DE" }) { __typename } }',
      {},
      headers,
    );
    const methods = await gql('shop-api', '{ eligibleShippingMethods { id } }', {}, headers);
    await gql(
      'shop-api',
      'mutation ($id: [ID!]!) { setOrderShippingMethod(shippingMethodId: $id) { __typename } }',
      { id: [methods.data.eligibleShippingMethods[0].id] },
      headers,
    );
    const { data } = await gql(
      'shop-api',
      'mutation { transitionOrderToState(state: "ArrangingPayment") { __typename ... on OrderStateTransitionError { transitionError } } }',
      {},
      headers,
    );
    const answer = data.transitionOrderToState;
    assert(
      answer.__typename === 'OrderStateTransitionError' &&
        /^SUITE__ORDER_APPROVAL_REQUIRED/.test(answer.transitionError),
      `transition: ${JSON.stringify(answer)}`,
    );
  },
);

await check(
  'both OpenAPI documents are served: /store-api/_info/openapi3.json and /b2b-admin-api/_info/openapi3.json',
  async () => {
    const store = await rest('GET', '/store-api/_info/openapi3.json');
    assert(
      store.status === 200 && store.body.openapi?.startsWith('3.1') && '/account/login' in store.body.paths,
      `store: ${store.status}`,
    );
    const adminDoc = await rest('GET', '/b2b-admin-api/_info/openapi3.json');
    assert(
      adminDoc.status === 200 && '/suite-partial-assortment-product-rule' in adminDoc.body.paths,
      `admin: ${adminDoc.status}`,
    );
  },
);

await check('an Admin API list links its pages on /b2b-admin-api', async () => {
  const list = await rest('GET', '/b2b-admin-api/suite-partial-assortment-product-rule?limit=1', bearer(admin));
  assert(
    list.status === 200 && list.body.links.self.startsWith('/b2b-admin-api/suite-partial-assortment-product-rule?'),
    `links: ${JSON.stringify(list.body.links)}`,
  );
});

await check(
  'installed without tsx, our dev dependencies or the drivers, PDF and logging libraries this shop does not use; a CommonJS project can require suite-b2b/vendure too',
  async () => {
    // An SQLite shop: better-sqlite3 is there because the shop installed it, nothing else of ours is.
    for (const absent of ['tsx', 'mocha', 'eslint', 'pg', 'mysql2', 'pdfkit', 'pino', 'prom-client'])
      assert(!existsSync(join('node_modules', absent)), `node_modules/${absent} is installed`);
    const answer = execFileSync(
      process.execPath,
      ['-e', "process.stdout.write(typeof require('suite-b2b/vendure').SuiteB2BPlugin.init)"],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    assert(answer === 'function', `require('suite-b2b/vendure'): ${answer}`);
  },
);

await check('nothing was written inside the installed package (node_modules/suite-b2b)', async () => {
  const newer = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (statSync(path).mtimeMs > startedAt) newer.push(path);
      if (entry.isDirectory()) walk(path);
    }
  };
  walk('node_modules/suite-b2b');
  assert(newer.length === 0, `written: ${newer.join(', ')}`);
});

const passed = results.filter(Boolean).length;
process.stdout.write(`\n  ${passed} passing\n`);
if (passed < results.length) process.stdout.write(`  ${results.length - passed} failing\n`);
process.exitCode = passed === results.length ? 0 : 1;
