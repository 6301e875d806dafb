import { expect } from 'chai';
import { addToCart, insertProduct, type TestProduct } from '../../helpers/checkout.js';
import { getShop } from '../../helpers/shop.js';
import { outboxRows, receiveMail } from '../employee/helpers.js';
import {
  as,
  createEmployee,
  createRepresentative,
  loginAs,
  newCustomer,
  type Customer,
  type Representative,
} from '../sales-representative/helpers.js';

export { as, newCustomer, outboxRows, receiveMail, type Customer, type TestProduct };

/** For a root-level before hook: the shared app migrates every table first, which takes a while on MariaDB. */
export async function startShop(this: Mocha.Context): Promise<void> {
  this.timeout(180000);
  await getShop();
}

export interface Company {
  customer: Customer;
  rep: Representative & { token: string };
}

/** A fresh customer looked after by a fresh sales representative (logged in, acting for it). */
export async function company(): Promise<Company> {
  const customer = await newCustomer();
  const rep = await createRepresentative([customer.customer.id]);
  return { customer, rep: { ...rep, token: await loginAs(rep.email, rep.password) } };
}

/** An employee of the customer whose role holds exactly these permissions, logged in. */
export async function employee(
  customer: Customer,
  permissions: string[],
): Promise<{ id: string; email: string; token: string }> {
  const created = await createEmployee(customer.token, { permissions });
  return { id: created.id, email: created.email, token: await loginAs(created.email, created.password) };
}

export async function product(priceNet = 1000, stock = 1000): Promise<TestProduct> {
  return insertProduct({ priceNet, stock });
}

export async function defaultAddressId(customerId: string): Promise<string> {
  return (await (await getShop()).db('customers').where({ id: customerId }).first('default_billing_address_id'))
    .default_billing_address_id;
}

export async function fillCart(token: string, items: Array<{ productId: string; quantity: number }>): Promise<void> {
  const res = await addToCart(token, items);
  expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
}

/** Asks for an offer of chosen items; returns the offer. */
export async function requestOffer(
  token: string,
  items: Array<{ productId: string; quantity: number; comment?: string }>,
  extra: Record<string, unknown> = {},
) {
  const res = await (
    await as(token)
  ).post('/offer-item-request', { subject: 'Quarterly supplies', commission: 'PO-4711', lineItems: items, ...extra });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

/** A requested offer the representative has mailed: open for the customer's decision. */
export async function openOffer(
  c: Company,
  items: Array<{ productId: string; quantity: number }>,
  prices: number[] = [],
) {
  const offer = await requestOffer(c.customer.token, items);
  if (prices.length) {
    const lineItems = offer.lineItems.map((line: { id: string }, index: number) => ({
      id: line.id,
      unitPrice: prices[index],
    }));
    const priced = await (await as(c.rep.token)).put(`/offer/${offer.id}`, { lineItems });
    expect(priced.status, JSON.stringify(priced.body)).to.equal(200);
  }
  const sent = await (await as(c.rep.token)).post(`/offer-mail/${offer.id}`, {});
  expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
  const read = await (await as(c.customer.token)).get(`/offer/${offer.id}`);
  expect(read.body.status).to.equal('open');
  return read.body;
}

/** Moves an offer's validity into the past (as time passing would). */
export async function backdateValidity(offerId: string): Promise<void> {
  await (await getShop()).db('b2b_offers').where({ id: offerId }).update({ valid_until: '2020-01-01 00:00:00.000' });
}

export async function storedStatus(offerId: string): Promise<string> {
  return (await (await getShop()).db('b2b_offers').where({ id: offerId }).first('status')).status;
}

export async function ordersOfOffer(offerId: string): Promise<Array<{ id: string; custom_fields: string }>> {
  const rows = await (
    await getShop()
  )
    .db('orders')
    .where('custom_fields', 'like', `%${offerId}%`)
    .select('id', 'custom_fields');
  return rows;
}

/** A Store API PUT to one of several app processes (concurrency tests across processes). */
export async function putOnProcess(
  app: { url: string },
  path: string,
  token: string,
  body: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${app.url}/store-api${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'suite-context-token': token },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}
