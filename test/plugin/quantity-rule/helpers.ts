import { expect } from 'chai';
import type supertest from 'supertest';
import { insertProduct, type TestProduct } from '../../helpers/checkout.js';
import { adminToken, expectError, getShop, http } from '../../helpers/shop.js';

export const QUANTITY_NOT_ALLOWED = 'SUITE__QUANTITY_NOT_ALLOWED';

/** For a root-level before hook: the shared app migrates every table first, which takes a while on MariaDB. */
export async function startShop(this: Mocha.Context): Promise<void> {
  this.timeout(180000);
  await getShop();
}

/** Admin API calls with the tests' integration token (or none). */
export async function admin(authorized = true) {
  const token = authorized ? await adminToken() : null;
  const agent = await http();
  const wrap = (req: supertest.Test) => (token ? req.set('authorization', `Bearer ${token}`) : req);
  return {
    get: (path: string) => wrap(agent.get(`/api${path}`)),
    put: (path: string, body: unknown = {}) => wrap(agent.put(`/api${path}`)).send(body as object),
    delete: (path: string) => wrap(agent.delete(`/api${path}`)),
  };
}

/** Sets a product's rule through the Admin API, as an operator does. */
export async function setRule(productId: string, rule: Record<string, unknown>): Promise<void> {
  const res = await (await admin()).put(`/suite-quantity-rule/${productId}`, rule);
  expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
}

/** A product sold in packs of 12 (minimum one pack, any number of packs). */
export async function packOf12(input: { priceNet?: number; stock?: number } = {}): Promise<TestProduct> {
  const product = await insertProduct({ priceNet: input.priceNet ?? 100, stock: input.stock ?? 1000 });
  await setRule(product.id, { packSize: 12 });
  return product;
}

/** The refusal of 13 of a pack of 12: its own code, the asked quantity and the allowed ones next to it. */
export function expectRefusalOf13(res: supertest.Response, productId: string, pointer?: string): void {
  const error = expectError(res, 400, QUANTITY_NOT_ALLOWED) as {
    meta?: Record<string, unknown>;
    detail?: string;
    source?: { pointer?: string };
  };
  expect(error.meta).to.deep.include({
    productId,
    asked: 13,
    allowed: [12, 24],
    packSize: 12,
    minQuantity: 12,
    step: 12,
  });
  expect(error.detail).to.contain('packs of 12').and.contain('12 or 24');
  if (pointer) expect(error.source?.pointer).to.equal(pointer);
}

/** The same refusal as an item of an add-to-cart answer (fast order, the representative's fast order). */
export function expectItemRefusalOf13(item: {
  added: boolean;
  error: { code: string; detail: string; meta?: Record<string, unknown> } | null;
}): void {
  expect(item.added).to.equal(false);
  expect(item.error?.code).to.equal(QUANTITY_NOT_ALLOWED);
  expect(item.error?.meta).to.deep.include({ asked: 13, allowed: [12, 24] });
}
