import { expect } from 'chai';
import { insertProduct, type TestProduct } from '../../helpers/checkout.js';
import { adminToken, http } from '../../helpers/shop.js';
import { as } from '../employee/helpers.js';

/** 100.00 net at 19 % tax: every order of one piece totals 119.00. */
export const ORDER_TOTAL = 119;

export async function widget(stock = 1000): Promise<TestProduct> {
  return insertProduct({ name: 'On account widget', priceNet: 10000, taxRateBp: 1900, stock });
}

export async function admin(method: 'get' | 'put' | 'delete', path: string, body?: unknown) {
  const request = (await http())[method](`/api${path}`).set('authorization', `Bearer ${await adminToken()}`);
  return body === undefined ? request : request.send(body as object);
}

export async function setCreditLine(customerId: string, limit: number, currencyIso = 'EUR'): Promise<void> {
  const res = await admin('put', `/b2b/credit-line/${customerId}`, { limit, currencyIso });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
}

export async function setTerms(
  customerId: string,
  terms: { daysNet: number; discountPercent: number; discountDays: number },
): Promise<void> {
  const res = await admin('put', `/b2b/payment-terms/${customerId}`, terms);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
}

/** Fills the caller's cart with one widget. */
export async function fillCart(token: string, productId: string): Promise<void> {
  const res = await (await as(token)).post('/checkout/cart/line-item', { items: [{ productId, quantity: 1 }] });
  expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
}

export async function orderOnAccount(token: string, productId: string) {
  await fillCart(token, productId);
  return (await as(token)).post('/checkout/order', { paymentMethod: 'on-account' });
}
