import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { insertProduct } from '../../helpers/checkout.js';
import { expectError, getShop, http } from '../../helpers/shop.js';
import { as as storeAs, newCustomer } from '../employee/helpers.js';
import { hide } from '../fast-order/helpers.js';
import { nearestAllowed, defaultRule } from '../../../src/plugin/quantity-rule/rules.js';
import { storefrontVisitor } from '../../helpers/storefront.js';
import { admin, startShop } from './helpers.js';

describe('quantity rules: Admin API (operators set them) and Store API (themes read them)', function () {
  this.timeout(60000);
  before(startShop);

  it('sets a rule (201, then 200), reads, lists and deletes it; defaults follow the pack size', async () => {
    const product = await insertProduct();
    const client = await admin();
    const created = await client.put(`/suite-quantity-rule/${product.id}`, {
      packSize: 6,
      maxQuantity: 60,
      priceUnit: 'pack',
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.data).to.deep.include({ id: product.id, type: 'suite_quantity_rule' });
    expect(created.body.data.attributes).to.include({
      productId: product.id,
      minQuantity: 6,
      step: 6,
      packSize: 6,
      maxQuantity: 60,
      priceUnit: 'pack',
    });
    const replaced = await client.put(`/suite-quantity-rule/${product.id}`, { minQuantity: 10, step: 5 });
    expect(replaced.status).to.equal(200);
    expect(replaced.body.data.attributes).to.include({
      minQuantity: 10,
      step: 5,
      packSize: 1,
      maxQuantity: null,
      priceUnit: 'piece',
    });
    expect((await client.get(`/suite-quantity-rule/${product.id}`)).body.data.attributes.minQuantity).to.equal(10);
    const list = await client.get(`/suite-quantity-rule?productId=${product.id}`);
    expect(list.status).to.equal(200);
    expect(list.body.meta.total).to.equal(1);
    expect(list.body.data[0].id).to.equal(product.id);
    expect((await client.delete(`/suite-quantity-rule/${product.id}`)).status).to.equal(204);
    expectError(await client.get(`/suite-quantity-rule/${product.id}`), 404);
    expectError(await client.delete(`/suite-quantity-rule/${product.id}`), 404);
  });

  it('refuses an inconsistent rule (400 with the field), an unknown product (404), bad input (400) and callers without the admin token (401)', async () => {
    const product = await insertProduct();
    const client = await admin();
    const notAPack = expectError(
      await client.put(`/suite-quantity-rule/${product.id}`, { packSize: 12, minQuantity: 13 }),
      400,
      'SUITE__QUANTITY_RULE_INVALID',
    );
    expect(notAPack.source?.pointer).to.equal('/minQuantity');
    expectError(
      await client.put(`/suite-quantity-rule/${product.id}`, { minQuantity: 10, maxQuantity: 5 }),
      400,
      'SUITE__QUANTITY_RULE_INVALID',
    );
    expectError(
      await client.put(`/suite-quantity-rule/${product.id}`, { priceUnit: 'pack' }),
      400,
      'SUITE__QUANTITY_RULE_INVALID',
    );
    expectError(await client.put(`/suite-quantity-rule/${product.id}`, { packSize: 0 }), 400, 'SUITE__INVALID_INPUT');
    expectError(await client.put(`/suite-quantity-rule/${product.id}`, { step: 'many' }), 400, 'SUITE__INVALID_INPUT');
    expectError(await client.put(`/suite-quantity-rule/${product.id}`, { unknown: 1 }), 400, 'SUITE__INVALID_INPUT');
    expectError(await client.put(`/suite-quantity-rule/not-an-id`, {}), 400);
    expectError(await client.put(`/suite-quantity-rule/${newId()}`, { packSize: 2 }), 404);
    expectError(await (await admin(false)).put(`/suite-quantity-rule/${product.id}`, { packSize: 2 }), 401);
    expectError(await (await admin(false)).get('/suite-quantity-rule'), 401);
    expectError(await client.get(`/suite-quantity-rule/${product.id}`), 404);
  });

  it('answers the rule with the piece and pack price to buyers and guests; the default rule for a product without one; 404 for a hidden product', async () => {
    const pack = await insertProduct({ priceNet: 250 });
    const plain = await insertProduct({ priceNet: 990 });
    expect(
      (
        await (
          await admin()
        ).put(`/suite-quantity-rule/${pack.id}`, { packSize: 12, maxQuantity: 120, priceUnit: 'pack' })
      ).status,
    ).to.equal(201);
    const { token } = await newCustomer();
    for (const client of [await storeAs(token), await storeAs(null)]) {
      const one = await client.get(`/quantity-rule/${pack.id}`);
      expect(one.status, JSON.stringify(one.body)).to.equal(200);
      expect(one.body).to.deep.equal({
        id: pack.id,
        productId: pack.id,
        minQuantity: 12,
        maxQuantity: 120,
        step: 12,
        packSize: 12,
        priceUnit: 'pack',
        custom: true,
        unitPrice: 2.5,
        packPrice: 30,
        apiAlias: 'suite_quantity_rule',
      });
    }
    const list = await (await storeAs(token)).post('/quantity-rule/list', { productIds: [plain.id, pack.id, newId()] });
    expect(list.status).to.equal(200);
    expect(list.body.total).to.equal(2);
    expect(
      list.body.elements.map((rule: { productId: string; custom: boolean; minQuantity: number }) => [
        rule.productId,
        rule.custom,
        rule.minQuantity,
      ]),
    ).to.deep.equal([
      [plain.id, false, 1],
      [pack.id, true, 12],
    ]);
    await hide(plain.id);
    expectError(await (await storeAs(token)).get(`/quantity-rule/${plain.id}`), 404);
    expectError(await (await storeAs(token)).get(`/quantity-rule/${newId()}`), 404);
    expectError(
      await (await storeAs(token)).post('/quantity-rule/list', { productIds: [] }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(
      await (await storeAs(token)).post('/quantity-rule/list', { productIds: ['x'] }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(await (await storeAs(token)).post('/quantity-rule/list', {}), 400, 'SUITE__INVALID_INPUT');
  });

  it("carries the rule in the Store API product answer (extensions.quantityRule) and shows it on the storefront's product page", async () => {
    const pack = await insertProduct({ priceNet: 250 });
    const plain = await insertProduct();
    expect(
      (
        await (
          await admin()
        ).put(`/suite-quantity-rule/${pack.id}`, { packSize: 12, maxQuantity: 96, priceUnit: 'pack' })
      ).status,
    ).to.equal(201);
    const detail = await (await storeAs(null)).get(`/product/${pack.id}`);
    expect(detail.status, JSON.stringify(detail.body)).to.equal(200);
    expect(detail.body.extensions.quantityRule).to.deep.equal({
      minQuantity: 12,
      maxQuantity: 96,
      step: 12,
      packSize: 12,
      priceUnit: 'pack',
      custom: true,
    });
    expect((await (await storeAs(null)).get(`/product/${plain.id}`)).body.extensions.quantityRule).to.include({
      minQuantity: 1,
      step: 1,
      packSize: 1,
      custom: false,
    });

    const { email, password } = await newCustomer();
    const visitor = await storefrontVisitor();
    await visitor.login(email, password);
    const page = await visitor.get(`/product/${pack.id}`);
    expect(page.status).to.equal(200);
    expect(page.text).to.match(
      /data-test="quantity-rule">Sold in packs of 12, minimum 12, maximum 96, in steps of 12</,
    );
    expect(page.text).to.match(/data-test="pack-price">Per pack of 12: <strong>[^<]*30[.,]00/);
    expect(page.text).to.contain('min="12" step="12" max="96" value="12"');
    const refused = await visitor.post('/cart/add', { productId: pack.id, quantity: '13' });
    expect(refused.status).to.equal(400);
    expect(refused.text).to.contain('13 is not allowed').and.contain('12 or 24');
    await visitor.get(`/product/${pack.id}`);
    expect((await visitor.post('/cart/add', { productId: pack.id, quantity: '24' })).status).to.equal(303);
    const plainPage = await visitor.get(`/product/${plain.id}`);
    expect(plainPage.text).not.to.contain('data-test="quantity-rule"');
    expect(plainPage.text).to.contain('min="1" step="1"');
  });

  it('publishes the routes in both OpenAPI documents', async () => {
    const store = await (await http()).get('/store-api/_info/openapi3.json');
    expect(Object.keys(store.body.paths)).to.include.members(['/quantity-rule/list', '/quantity-rule/{productId}']);
    const adminDoc = await (await http()).get('/api/_info/openapi3.json');
    expect(Object.keys(adminDoc.body.paths)).to.include.members([
      '/suite-quantity-rule',
      '/suite-quantity-rule/{productId}',
    ]);
  });

  it('deletes the rule with its product', async () => {
    const product = await insertProduct();
    expect((await (await admin()).put(`/suite-quantity-rule/${product.id}`, { packSize: 2 })).status).to.equal(201);
    expect((await (await admin()).delete(`/product/${product.id}`)).status).to.equal(204);
    expectError(await (await admin()).get(`/suite-quantity-rule/${product.id}`), 404);
    expect(await (await getShop()).db('suite_quantity_rules').where({ product_id: product.id }).first()).to.equal(
      undefined,
    );
  });

  it('names the allowed quantities next to the asked one', () => {
    const rule = { ...defaultRule('p'), minQuantity: 12, step: 12, packSize: 12, maxQuantity: 48 };
    expect(nearestAllowed(rule, 13)).to.deep.equal([12, 24]);
    expect(nearestAllowed(rule, 5)).to.deep.equal([12]);
    expect(nearestAllowed(rule, 50)).to.deep.equal([48]);
    expect(nearestAllowed(rule, 47)).to.deep.equal([36, 48]);
    expect(nearestAllowed({ ...defaultRule('p'), minQuantity: 10, step: 5 }, 12)).to.deep.equal([10, 15]);
  });
});
