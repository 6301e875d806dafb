import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { addToCart, insertProduct, placeOrder } from '../../helpers/checkout.js';
import { adminToken, http } from '../../helpers/shop.js';
import { as as employeeClient, loginAs, newCustomer, STORE, TOKEN, uniqueEmail } from '../employee/helpers.js';

export { createEmployee, employeeWith, loginAs, newCustomer, type Customer } from '../employee/helpers.js';

/** A Store API client for the token (employee test client plus PUT). */
export async function as(token: string | null) {
  const client = await employeeClient(token);
  return {
    ...client,
    put: (path: string, body: unknown = {}) => {
      const req = client.agent.put(`${STORE}${path}`);
      return (token ? req.set(TOKEN, token) : req).send(body as object);
    },
  };
}

export interface Representative {
  id: string;
  email: string;
  password: string;
}

export async function admin() {
  const token = await adminToken();
  const agent = await http();
  const auth = (req: ReturnType<typeof agent.get>) => req.set('authorization', `Bearer ${token}`);
  return {
    get: (path: string) => auth(agent.get(`/api${path}`)),
    post: (path: string, body: unknown = {}) => auth(agent.post(`/api${path}`)).send(body as object),
    patch: (path: string, body: unknown = {}) => auth(agent.patch(`/api${path}`)).send(body as object),
    delete: (path: string) => auth(agent.delete(`/api${path}`)),
  };
}

/** A representative set up by the operator through the Admin API, assigned to these customers. */
export async function createRepresentative(
  customerIds: string[],
  extra: Record<string, unknown> = {},
): Promise<Representative> {
  const email = uniqueEmail('rep');
  const password = `pw-${newId().slice(0, 12)}`;
  const res = await (
    await admin()
  ).post('/suite-sales-representative', { email, password, firstName: 'Rita', lastName: 'Rep', customerIds, ...extra });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return { id: res.body.data.id, email, password };
}

/** A logged-in representative looking after fresh customers (acting for the first). */
export async function representativeWith(customerCount = 1) {
  const customers = [];
  for (let i = 0; i < customerCount; i++) customers.push(await newCustomer());
  const rep = await createRepresentative(customers.map((c) => c.customer.id));
  return { rep, customers, token: await loginAs(rep.email, rep.password) };
}

/** Places an order of one new product (net 10.00 × quantity) with the token; returns the order id. */
export async function orderAs(token: string, quantity = 1, priceNet = 1000): Promise<string> {
  const product = await insertProduct({ priceNet });
  expect((await addToCart(token, [{ productId: product.id, quantity }])).status).to.be.oneOf([200, 201]);
  const res = await placeOrder(token);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.id;
}

export async function switchTo(token: string, customerId: string): Promise<string> {
  const res = await (
    await http()
  )
    .post('/store-api/sales-representative/switch-customer')
    .set('suite-context-token', token)
    .send({ customerId });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.contextToken;
}
