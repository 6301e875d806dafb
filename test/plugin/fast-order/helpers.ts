import type supertest from 'supertest';
import { newId } from '../../../src/lib/ids.js';
import { nowDb } from '../../../src/lib/time.js';
import { adminToken, createTestCustomer, getShop, http, login } from '../../helpers/shop.js';
import { assign, createRule, KINDS } from '../partial-assortment/fixtures.js';
import type { Customer } from '../employee/helpers.js';

export { employeeWith, newCustomer, type Customer } from '../employee/helpers.js';

export const STORE = '/store-api';

/** Store API calls as a context token (or none). */
export async function as(token: string | null) {
  const agent = await http();
  const wrap = (req: supertest.Test) => (token ? req.set('suite-context-token', token) : req);
  return {
    get: (path: string) => wrap(agent.get(`${STORE}${path}`)),
    post: (path: string, body: unknown = {}) => wrap(agent.post(`${STORE}${path}`)).send(body as object),
    put: (path: string, body: unknown = {}) => wrap(agent.put(`${STORE}${path}`)).send(body as object),
    patch: (path: string, body: unknown = {}) => wrap(agent.patch(`${STORE}${path}`)).send(body as object),
    delete: (path: string, body?: unknown) =>
      body === undefined
        ? wrap(agent.delete(`${STORE}${path}`))
        : wrap(agent.delete(`${STORE}${path}`)).send(body as object),
    csv: (path: string, text: string) =>
      wrap(agent.post(`${STORE}${path}`))
        .set('content-type', 'text/csv')
        .send(text),
  };
}

/** Admin API calls with a bearer token (or none). */
export async function admin(authorized = true) {
  const token = authorized ? await adminToken() : null;
  const agent = await http();
  const wrap = (req: supertest.Test) => (token ? req.set('authorization', `Bearer ${token}`) : req);
  return {
    get: (path: string) => wrap(agent.get(`/api${path}`)),
    post: (path: string, body: unknown = {}) => wrap(agent.post(`/api${path}`)).send(body as object),
    patch: (path: string, body: unknown = {}) => wrap(agent.patch(`/api${path}`)).send(body as object),
    delete: (path: string) => wrap(agent.delete(`/api${path}`)),
    csv: (path: string, text: string) =>
      wrap(agent.post(`/api${path}`))
        .set('content-type', 'text/csv')
        .send(text),
  };
}

export interface Product {
  id: string;
  number: string;
  name: string;
}

/** A product straight in the catalog: 10.00 net, 19 % tax, 100 in stock unless told. */
export async function product(
  input: { number?: string; name?: string; priceNet?: number; stock?: number; tiers?: Array<[number, number]> } = {},
): Promise<Product> {
  const db = (await getShop()).db;
  const id = newId();
  const number = input.number ?? `FO-${id.slice(0, 12).toUpperCase()}`;
  const name = input.name ?? `Widget ${id.slice(0, 8)}`;
  await db('products').insert({
    id,
    version_id: newId(),
    product_number: number,
    name,
    description: null,
    stock: input.stock ?? 100,
    active: true,
    tax_rate_bp: 1900,
    price_net: input.priceNet ?? 1000,
    created_at: nowDb(),
  });
  for (const [minQuantity, priceNet] of input.tiers ?? [])
    await db('product_tier_prices').insert({
      id: newId(),
      product_id: id,
      min_quantity: minQuantity,
      price_net: priceNet,
    });
  return { id, number, name };
}

/** Hides a product from everyone but one (absent) customer through a partial assortment rule. */
export async function hide(productId: string): Promise<void> {
  const rule = await createRule({ type: 'customerId', operator: '=', value: [newId()] });
  await assign(KINDS[2], productId, rule);
}

export async function customerGroup(): Promise<string> {
  const id = newId();
  await (await getShop()).db('customer_groups').insert({ id, name: `Group ${id.slice(0, 6)}`, created_at: nowDb() });
  return id;
}

export async function groupMember(groupId: string): Promise<Customer> {
  const created = await createTestCustomer({ groupId });
  return { ...created, token: await login(created.email, created.password) };
}

/** Sets a customer (or group) price through the Admin API. */
export async function setPrice(input: {
  customerId?: string;
  customerGroupId?: string;
  productId: string;
  minQuantity?: number;
  price: number;
}): Promise<string> {
  const res = await (await admin()).post('/suite-customer-price', input);
  if (res.status !== 201 && res.status !== 200)
    throw new Error(`price failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

export async function setNumber(token: string, productId: string, customerProductNumber: string): Promise<string> {
  const res = await (await as(token)).post('/b2b/customer-product-number', { productId, customerProductNumber });
  if (res.status !== 200) throw new Error(`number failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.customerProductNumber.id;
}

export async function setConfig(values: Record<string, unknown>): Promise<void> {
  const res = await (await admin()).patch('/_action/plugin-config/suite-b2b', values);
  if (res.status !== 200) throw new Error(`config failed: ${res.status} ${JSON.stringify(res.body)}`);
}
