import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { nowDb } from '../../../src/lib/time.js';
import { addToCart, insertProduct, type TestProduct } from '../../helpers/checkout.js';
import { getShop } from '../../helpers/shop.js';
import {
  as,
  createEmployee,
  createRole,
  loginAs,
  newCustomer,
  type Customer,
  type Employee,
} from '../employee/helpers.js';

export { as, newCustomer, type Customer, type TestProduct };

/** A root-level before hook: the shared app migrates every table first, which takes a while on MariaDB. */
export async function startShop(this: Mocha.Context): Promise<void> {
  this.timeout(180000);
  await getShop();
}

export const REQUESTER_PERMISSIONS = ['orders.create', 'orders.read', 'order-approval.request', 'budget.read'];
export const APPROVER_PERMISSIONS = ['orders.create', 'order-approval.approve', 'order-approval.request'];

export interface LoggedInEmployee extends Employee {
  token: string;
  name: string;
}

/** An employee of `customer` with a role holding `permissions` (and `requiresApproval` when asked). */
export async function employee(
  customer: Customer,
  permissions: string[],
  options: { requiresApproval?: boolean } = {},
): Promise<LoggedInEmployee> {
  const role = await createRole(
    customer.token,
    [...new Set(permissions)],
    options.requiresApproval ? { requiresApproval: true } : {},
  );
  const created = await createEmployee(customer.token, { roleId: role.id });
  return { ...created, token: await loginAs(created.email, created.password), name: 'Erin Employee' };
}

export async function product(
  input: { priceNet?: number; stock?: number; categoryId?: string } = {},
): Promise<TestProduct> {
  const created = await insertProduct({ priceNet: input.priceNet ?? 1000, stock: input.stock ?? 1000 });
  if (input.categoryId)
    await (await getShop()).db('product_categories').insert({ product_id: created.id, category_id: input.categoryId });
  return created;
}

export async function category(): Promise<string> {
  const id = newId();
  await (await getShop()).db('categories').insert({
    id,
    version_id: newId(),
    parent_id: null,
    name: `Category ${id.slice(0, 6)}`,
    position: 0,
    active: true,
    created_at: nowDb(),
  });
  return id;
}

/** Puts the items in the caller's cart and returns the cart token. */
export async function fillCart(token: string, items: Array<{ productId: string; quantity: number }>): Promise<string> {
  const res = await addToCart(token, items);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.token as string;
}

/** Fills the cart and asks for approval; returns the approval id. */
export async function requestApproval(
  token: string,
  items: Array<{ productId: string; quantity: number }>,
  customerComment?: string,
): Promise<string> {
  const cartToken = await fillCart(token, items);
  const res = await (
    await as(token)
  ).post('/order-approval/create', { cartToken, ...(customerComment ? { customerComment } : {}) });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  const id = res.headers['suite-order-approval-id'] as string;
  expect(id).to.match(/^[0-9a-f]{32}$/);
  // As a storefront does after sending the request: the next purchase starts with an empty cart.
  expect((await (await as(token)).delete('/checkout/cart')).status).to.equal(204);
  return id;
}

export async function setSettings(
  adminToken: string,
  settings: { mode: string; approverEmployeeIds?: string[]; nValue?: number },
): Promise<void> {
  const res = await (await as(adminToken)).post('/b2b/order-approval/customer-settings', settings);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
}

export async function approval(token: string, id: string): Promise<Record<string, any>> {
  const res = await (await as(token)).get(`/b2b/order-approval/${id}`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

export async function createBudget(adminToken: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await (
    await as(adminToken)
  ).post('/budget', { name: `Budget ${newId().slice(0, 6)}`, periodType: 'monthly', ...body });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.budget;
}

/** A company with an admin login, a requester employee and two approver employees (n-of 2 ready). */
export async function company(options: { requiresApproval?: boolean } = {}) {
  const customer = await newCustomer();
  const requester = await employee(customer, REQUESTER_PERMISSIONS, {
    requiresApproval: options.requiresApproval ?? true,
  });
  const approverA = await employee(customer, APPROVER_PERMISSIONS);
  const approverB = await employee(customer, APPROVER_PERMISSIONS);
  return { customer, requester, approverA, approverB };
}

export async function outbox(template: string, to?: string): Promise<Array<Record<string, any>>> {
  const query = (await getShop()).db('mail_outbox').where({ template }).orderBy('created_at');
  if (to) query.where({ recipient: to });
  return query;
}
