import { expect } from 'chai';
import { addToCart, insertProduct, placeOrder } from '../../helpers/checkout.js';
import { expectError } from '../../helpers/shop.js';
import { as as storeAs, newCustomer } from '../employee/helpers.js';
import { companyAdmin, expectPage, textOf } from '../storefront-b2b/helpers.js';
import { as as offerAs, company as offerCompany, openOffer, requestOffer } from '../offer/helpers.js';
import { company as approvalCompany, requestApproval } from '../order-approval/helpers.js';
import { representativeWith } from '../sales-representative/helpers.js';
import {
  expectItemRefusalOf13,
  expectRefusalOf13,
  packOf12,
  QUANTITY_NOT_ALLOWED,
  setRule,
  startShop,
} from './helpers.js';

/** The cart's lines as [productId, quantity]. */
async function cartLines(token: string): Promise<Array<[string, number]>> {
  const cart = await (await storeAs(token)).get('/checkout/cart');
  return cart.body.lineItems.map((line: { productId: string; quantity: number }) => [line.productId, line.quantity]);
}

describe('quantity rules: a pack of 12 refuses 13 everywhere a quantity enters', function () {
  this.timeout(60000);
  before(startShop);

  it('Store API cart: adding 13 is refused with the allowed quantities, 12 and 24 are taken', async () => {
    const { token } = await newCustomer();
    const pack = await packOf12();
    expectRefusalOf13(await addToCart(token, [{ productId: pack.id, quantity: 13 }]), pack.id);
    expect(await cartLines(token)).to.deep.equal([]);
    expect((await addToCart(token, [{ productId: pack.id, quantity: 12 }])).status).to.equal(200);
    // Added to the line of 12: 13 more makes 25, refused; 12 more makes 24.
    expectError(await addToCart(token, [{ productId: pack.id, quantity: 13 }]), 400, QUANTITY_NOT_ALLOWED);
    expect((await addToCart(token, [{ productId: pack.id, quantity: 12 }])).status).to.equal(200);
    expect(await cartLines(token)).to.deep.equal([[pack.id, 24]]);
  });

  it('Store API cart: changing a line to 13 is refused and the line keeps its quantity', async () => {
    const { token } = await newCustomer();
    const pack = await packOf12();
    const added = await addToCart(token, [{ productId: pack.id, quantity: 12 }]);
    const lineId = added.body.lineItems[0].id as string;
    expectRefusalOf13(
      await (await storeAs(token)).patch('/checkout/cart/line-item', { items: [{ id: lineId, quantity: 13 }] }),
      pack.id,
    );
    expect(await cartLines(token)).to.deep.equal([[pack.id, 12]]);
    expect(
      (await (await storeAs(token)).patch('/checkout/cart/line-item', { items: [{ id: lineId, quantity: 36 }] }))
        .status,
    ).to.equal(200);
    expect(await cartLines(token)).to.deep.equal([[pack.id, 36]]);
  });

  it('checkout: a cart line of 13 put in before the rule was set is refused with the same code', async () => {
    const { token } = await newCustomer();
    const product = await insertProduct({ priceNet: 100 });
    expect((await addToCart(token, [{ productId: product.id, quantity: 13 }])).status).to.equal(200);
    await setRule(product.id, { packSize: 12 });
    expectRefusalOf13(await placeOrder(token), product.id);
    expect(await cartLines(token), 'the cart is left as it was, to correct').to.deep.equal([[product.id, 13]]);
  });

  it('fast order typed (Store API): the item of 13 is reported with the code and allowed quantities, the others are added', async () => {
    const { token } = await newCustomer();
    const pack = await packOf12();
    const other = await insertProduct();
    const res = await (
      await storeAs(token)
    ).post('/b2b/add-to-cart', {
      items: [
        { productNumber: pack.number, quantity: 13 },
        { productNumber: other.number, quantity: 1 },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ success: false, added: 1, failed: 1 });
    expectItemRefusalOf13(res.body.items[0]);
    expect(await cartLines(token)).to.deep.equal([[other.id, 1]]);
  });

  it('fast order CSV upload (storefront): the line of 13 comes back with the reason, 24 goes into the cart', async () => {
    const { browser } = await companyAdmin();
    const pack = await packOf12();
    expectPage(await browser.get('/account/fast-order'));
    const refused = await browser.upload(
      '/account/fast-order',
      { productNumber: ['', '', '', '', ''], quantity: ['', '', '', '', ''], lines: '' },
      { csvFile: { fileName: 'order.csv', content: `product_number;quantity\n${pack.number};13\n` } },
    );
    expect(refused.status).to.equal(400);
    expect(textOf(refused.text)).to.contain('packs of 12').and.contain('13 is not allowed').and.contain('12 or 24');
    const taken = await browser.upload(
      '/account/fast-order',
      { productNumber: ['', '', '', '', ''], quantity: ['', '', '', '', ''], lines: '' },
      { csvFile: { fileName: 'order.csv', content: `product_number;quantity\n${pack.number};24\n` } },
    );
    expect(taken.status, textOf(taken.text).slice(0, 400)).to.equal(303);
  });

  it('product list to cart (storefront): a list item of 13 is not put into the cart, with the reason', async () => {
    const { customer, browser } = await companyAdmin();
    const pack = await packOf12();
    const list = await (
      await storeAs(customer.token)
    ).post('/product-lists/create', { name: 'Workshop', items: [{ productId: pack.id, quantity: 13 }] });
    expect(list.status, JSON.stringify(list.body)).to.equal(200);
    expectPage(await browser.get(`/account/product-lists/${list.body.id}`));
    const res = await browser.post(`/account/product-lists/${list.body.id}/to-cart`);
    expect(res.status).to.equal(400);
    expect(textOf(res.text)).to.contain('13 is not allowed').and.contain('12 or 24');
    expect(await cartLines(customer.token)).to.deep.equal([]);
  });

  it('offer request: 13 of chosen items, or a cart line of 13, is refused', async () => {
    const c = await offerCompany();
    const pack = await packOf12();
    expectRefusalOf13(
      await (
        await storeAs(c.customer.token)
      ).post('/offer-item-request', {
        subject: 'S',
        commission: 'C',
        lineItems: [{ productId: pack.id, quantity: 13 }],
      }),
      pack.id,
      '/lineItems/0/quantity',
    );
    const later = await insertProduct({ priceNet: 100 });
    expect((await addToCart(c.customer.token, [{ productId: later.id, quantity: 13 }])).status).to.equal(200);
    await setRule(later.id, { packSize: 12 });
    expectError(
      await (await storeAs(c.customer.token)).post('/offer-request', { subject: 'S', commission: 'C' }),
      400,
      QUANTITY_NOT_ALLOWED,
    );
  });

  it('offer edit by the sales side: changing a line to 13 is refused', async () => {
    const c = await offerCompany();
    const pack = await packOf12();
    const offer = await requestOffer(c.customer.token, [{ productId: pack.id, quantity: 12 }]);
    expectRefusalOf13(
      await (
        await offerAs(c.rep.token)
      ).put(`/offer/${offer.id}`, { lineItems: [{ id: offer.lineItems[0].id, quantity: 13 }] }),
      pack.id,
      '/lineItems/0/quantity',
    );
    expectError(
      await (
        await offerAs(c.rep.token)
      ).post(`/offer-add-products/${offer.id}`, { object: [{ productId: pack.id, quantity: 13 }] }),
      400,
      QUANTITY_NOT_ALLOWED,
    );
  });

  it('offer accept: an offer of 13 made before the rule is not ordered, and stays open', async () => {
    const c = await offerCompany();
    const product = await insertProduct({ priceNet: 100 });
    const offer = await openOffer(c, [{ productId: product.id, quantity: 13 }]);
    await setRule(product.id, { packSize: 12 });
    expectRefusalOf13(await (await storeAs(c.customer.token)).post(`/offer-order/${offer.id}`, {}), product.id);
    expect((await (await storeAs(c.customer.token)).get(`/offer/${offer.id}`)).body.status).to.equal('open');
  });

  it('approval execute: an approved order of 13 made before the rule is not placed; the refusal names the allowed quantities', async () => {
    const setup = await approvalCompany();
    const product = await insertProduct({ priceNet: 100 });
    const id = await requestApproval(setup.requester.token, [{ productId: product.id, quantity: 13 }]);
    expect((await (await storeAs(setup.customer.token)).post(`/b2b/order-approval/${id}/approve`, {})).status).to.equal(
      200,
    );
    await setRule(product.id, { packSize: 12 });
    const res = await (await storeAs(setup.requester.token)).post(`/b2b/order-approval/${id}/execute`, {});
    const error = expectError(res, 400, 'SUITE__ORDER_APPROVAL_EXECUTION_FAILED') as { meta?: Record<string, any> };
    expect(error.meta?.executionResult.errors).to.deep.equal([QUANTITY_NOT_ALLOWED]);
    expect(error.meta?.refusal).to.deep.include({ code: QUANTITY_NOT_ALLOWED, asked: 13, allowed: [12, 24] });
    expect((await (await storeAs(setup.requester.token)).get(`/b2b/order-approval/${id}`)).body.status).to.equal(
      'approved',
    );
  });

  it('approval create and line edit: a cart line of 13 is not sent for approval; an approver cannot change a line to 13', async () => {
    const setup = await approvalCompany();
    const later = await insertProduct({ priceNet: 100 });
    expect((await addToCart(setup.requester.token, [{ productId: later.id, quantity: 13 }])).status).to.equal(200);
    await setRule(later.id, { packSize: 12 });
    const cart = await (await storeAs(setup.requester.token)).get('/checkout/cart');
    expectError(
      await (await storeAs(setup.requester.token)).post('/order-approval/create', { cartToken: cart.body.token }),
      400,
      QUANTITY_NOT_ALLOWED,
    );
    await (await storeAs(setup.requester.token)).delete('/checkout/cart');

    const pack = await packOf12();
    const id = await requestApproval(setup.requester.token, [{ productId: pack.id, quantity: 12 }]);
    const approval = await (await storeAs(setup.customer.token)).get(`/b2b/order-approval/${id}`);
    const lineId = approval.body.lineItems[0].id as string;
    expectRefusalOf13(
      await (
        await storeAs(setup.customer.token)
      ).patch(`/b2b/order-approval/${id}/line-items/${lineId}`, { quantity: 13 }),
      pack.id,
      '/quantity',
    );
    expect(
      (
        await (
          await storeAs(setup.customer.token)
        ).patch(`/b2b/order-approval/${id}/line-items/${lineId}`, { quantity: 24 })
      ).status,
    ).to.equal(200);
  });

  it("the sales representative's fast order: 13 is reported with the code and allowed quantities, nothing is added", async () => {
    const { token } = await representativeWith(1);
    const pack = await packOf12();
    const res = await (
      await storeAs(token)
    ).post('/sales-representative/fast-order', { items: [{ productNumber: pack.number, quantity: 13 }] });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expectItemRefusalOf13(res.body.items[0]);
    expect(await cartLines(token)).to.deep.equal([]);
    const taken = await (
      await storeAs(token)
    ).post('/sales-representative/fast-order', { items: [{ productNumber: pack.number, quantity: 12 }] });
    expect(taken.body.items[0].added).to.equal(true);
  });
});
