import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { insertProduct, type TestProduct } from '../../helpers/checkout.js';
import { getShop } from '../../helpers/shop.js';
import { as, createEmployee, loginAs, newCustomer, type Customer, type Employee } from '../employee/helpers.js';
import { createRepresentative, representativeWith } from '../sales-representative/helpers.js';

export { as, createEmployee, loginAs, newCustomer, type Customer, type Employee };
export { addToCart, insertProduct, placeOrder } from '../../helpers/checkout.js';

export const DAY = 24 * 3600 * 1000;
export const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

/** A sales representative login (the event manager's sales staff). */
export async function salesStaff(): Promise<{ token: string; id: string; email: string; password: string }> {
  const { rep, token } = await representativeWith(1);
  return { ...rep, token };
}

export { createRepresentative };

export async function createSpecification(
  staffToken: string,
  type: string,
  name = `${type} ${newId().slice(0, 6)}`,
): Promise<{ id: string; name: string }> {
  const res = await (await as(staffToken)).post('/event-manager/specification', { type, name });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

export interface TestEvent {
  id: string;
  productId: string;
  product: TestProduct;
  name: string;
}

/** An event on a new product (stock 1000, 50.00 net), published unless told otherwise. */
export async function createEvent(
  staffToken: string,
  input: Record<string, unknown> = {},
  status: string | null = 'published',
): Promise<TestEvent & { body: any }> {
  const product = input.productId
    ? null
    : await insertProduct({ stock: 1000, priceNet: 5000, name: `Ticket ${newId().slice(0, 6)}` });
  const body = {
    productId: product?.id,
    name: `Event ${newId().slice(0, 8)}`,
    language: 'en',
    startsAt: inDays(10),
    endsAt: new Date(Date.now() + 10 * DAY + 8 * 3600 * 1000).toISOString(),
    ...input,
  };
  const client = await as(staffToken);
  const created = await client.post('/event-manager/event', body);
  expect(created.status, JSON.stringify(created.body)).to.equal(200);
  let event = created.body;
  if (status) {
    const set = await client.post(`/event-manager/event/${event.id}/status`, { status });
    expect(set.status, JSON.stringify(set.body)).to.equal(200);
    event = set.body;
  }
  return {
    id: event.id,
    productId: event.productId,
    product: product ?? ({ id: event.productId } as TestProduct),
    name: event.name,
    body: event,
  };
}

/** One ticket line for the event with this participant payload. */
export function ticket(
  event: { id: string; productId: string },
  participant?: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return {
    productId: event.productId,
    quantity: 1,
    payload: { eventId: event.id, ...(participant ? { participant } : {}), ...extra },
  };
}

export async function participantsOf(eventId: string): Promise<Array<Record<string, any>>> {
  return (await getShop())
    .db('b2b_event_participants')
    .where({ event_id: eventId })
    .orderBy('created_at')
    .orderBy('waiting_position');
}

/** A customer with two employees allowed to register for events and order. */
export async function companyWithColleagues(count = 2): Promise<{ customer: Customer; employees: Employee[] }> {
  const customer = await newCustomer();
  const employees: Employee[] = [];
  for (let i = 0; i < count; i++)
    employees.push(await createEmployee(customer.token, { permissions: ['event.register', 'orders.create'] }));
  return { customer, employees };
}
