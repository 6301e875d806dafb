import { expect } from 'chai';
import { DEMO_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { bearer, bootShop, type ShopClient } from './helpers/shop.js';

/**
 * Quantity rules in Vendure's own Shop API: the operator sets a rule through the plugin's Admin API
 * (/b2b-admin-api), and the plugin's line-item processor, run by the adapter's OrderInterceptor on
 * addItemToOrder / adjustOrderLine and again on the way to payment, refuses a quantity the rule does
 * not admit with the plugin's code and the allowed quantities in the error result.
 */
describe('Vendure: quantity rules (a pack of 12) in the Shop API', function () {
  this.timeout(60_000);
  let client: ShopClient;
  let buyer: Record<string, string>;
  let admin: Record<string, string>;
  let paperVariantId: string;
  let chairVariantId: string;

  const orderFields = 'id lines { id quantity productVariant { id } }';
  const addItem = `mutation ($v: ID!, $q: Int!) { addItemToOrder(productVariantId: $v, quantity: $q) { __typename ... on Order { ${orderFields} } ... on OrderInterceptorError { errorCode message interceptorError } ... on ErrorResult { errorCode message } } }`;
  const adjust = `mutation ($l: ID!, $q: Int!) { adjustOrderLine(orderLineId: $l, quantity: $q) { __typename ... on Order { ${orderFields} } ... on OrderInterceptorError { errorCode message interceptorError } ... on ErrorResult { errorCode message } } }`;
  const toPayment =
    'mutation { transitionOrderToState(state: "ArrangingPayment") { __typename ... on Order { state } ... on OrderStateTransitionError { transitionError } } }';
  const variantOf = async (slug: string) =>
    (await client.gql('shop-api', `{ product(slug: "${slug}") { variants { id } } }`)).data.product.variants[0]
      .id as string;
  const setRule = async (variantId: string, rule: Record<string, unknown>) => {
    const res = await client.rest(
      'PUT',
      `/b2b-admin-api/suite-quantity-rule/${client.shop.state.ids.toPlugin(variantId)}`,
      admin,
      rule,
    );
    expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
  };

  before(async function () {
    this.timeout(240_000);
    client = await bootShop({ label: 'vendure_quantity_rules', runJobs: false });
    paperVariantId = await variantOf('copy-paper-a4');
    chairVariantId = await variantOf('office-chair');
    admin = bearer(await client.vendureLogin('admin-api', 'superadmin', 'superadmin'));
    buyer = bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    await setRule(paperVariantId, { packSize: 12 });
  });

  after(async function () {
    this.timeout(60_000);
    await client?.close();
  });

  it('addItemToOrder of 13 answers an OrderInterceptorError with the code and the allowed quantities; 12 is added', async () => {
    const refused = await client.gql('shop-api', addItem, { v: paperVariantId, q: 13 }, buyer);
    const result = refused.data.addItemToOrder;
    expect(result.__typename, JSON.stringify(refused)).to.equal('OrderInterceptorError');
    expect(result.errorCode).to.equal('ORDER_INTERCEPTOR_ERROR');
    expect(result.interceptorError)
      .to.match(/^SUITE__QUANTITY_NOT_ALLOWED: /)
      .and.contain('packs of 12')
      .and.contain('13 is not allowed')
      .and.contain('12 or 24');
    const added = await client.gql('shop-api', addItem, { v: paperVariantId, q: 12 }, buyer);
    expect(added.data.addItemToOrder.__typename, JSON.stringify(added)).to.equal('Order');
  });

  it('adjustOrderLine to 13 is refused the same way and the line keeps 12; 24 is taken', async () => {
    const { data } = await client.gql('shop-api', `{ activeOrder { ${orderFields} } }`, {}, buyer);
    const line = data.activeOrder.lines.find(
      (l: { productVariant: { id: string } }) => l.productVariant.id === paperVariantId,
    );
    const refused = await client.gql('shop-api', adjust, { l: line.id, q: 13 }, buyer);
    expect(refused.data.adjustOrderLine.__typename, JSON.stringify(refused)).to.equal('OrderInterceptorError');
    expect(refused.data.adjustOrderLine.interceptorError)
      .to.match(/^SUITE__QUANTITY_NOT_ALLOWED: /)
      .and.contain('12 or 24');
    const after = await client.gql('shop-api', `{ activeOrder { ${orderFields} } }`, {}, buyer);
    expect(after.data.activeOrder.lines.find((l: { id: string }) => l.id === line.id).quantity).to.equal(12);
    const taken = await client.gql('shop-api', adjust, { l: line.id, q: 24 }, buyer);
    expect(taken.data.adjustOrderLine.__typename, JSON.stringify(taken)).to.equal('Order');
  });

  it('a line put in before its rule was set is refused on the way to payment, with the same code', async () => {
    const added = await client.gql('shop-api', addItem, { v: chairVariantId, q: 13 }, buyer);
    expect(added.data.addItemToOrder.__typename, JSON.stringify(added)).to.equal('Order');
    await setRule(chairVariantId, { packSize: 12 });
    await client.gql(
      'shop-api',
      'mutation { setOrderShippingAddress(input: { fullName: "Demo Company", streetLine1: "Hauptstr. 1", city: "Berlin", postalCode: "10115", countryCode: "DE" }) { __typename } }',
      {},
      buyer,
    );
    const methods = await client.gql('shop-api', '{ eligibleShippingMethods { id } }', {}, buyer);
    await client.gql(
      'shop-api',
      'mutation ($id: [ID!]!) { setOrderShippingMethod(shippingMethodId: $id) { __typename } }',
      { id: [methods.data.eligibleShippingMethods[0].id] },
      buyer,
    );
    const refused = await client.gql('shop-api', toPayment, {}, buyer);
    expect(refused.data.transitionOrderToState.__typename, JSON.stringify(refused)).to.equal(
      'OrderStateTransitionError',
    );
    expect(refused.data.transitionOrderToState.transitionError)
      .to.contain('SUITE__QUANTITY_NOT_ALLOWED')
      .and.contain('12 or 24');
  });

  it('the Shop API carries the rule on the variant (suiteExtensions.quantityRule, contract 3.5), for buyers and guests', async () => {
    const query = '{ product(slug: "copy-paper-a4") { variants { id suiteExtensions } } }';
    for (const headers of [buyer, {}]) {
      const { data, errors } = await client.gql('shop-api', query, {}, headers);
      expect(errors, JSON.stringify(errors)).to.equal(undefined);
      expect(data.product.variants[0].suiteExtensions.quantityRule).to.deep.equal({
        minQuantity: 12,
        maxQuantity: null,
        step: 12,
        packSize: 12,
        priceUnit: 'piece',
        custom: true,
      });
    }
    const desk = await client.gql(
      'shop-api',
      '{ product(slug: "standing-desk") { variants { suiteExtensions } } }',
      {},
      buyer,
    );
    expect(desk.data.product.variants[0].suiteExtensions.quantityRule).to.include({
      minQuantity: 1,
      step: 1,
      packSize: 1,
      custom: false,
    });
  });

  it("fast order through the adapter's cart: two items of 12 make a line of 24, and one more pack joins it (min 24)", async () => {
    const armVariantId = await variantOf('monitor-arm');
    await setRule(armVariantId, { packSize: 12, minQuantity: 24, step: 12 });
    const productId = client.shop.state.ids.toPlugin(armVariantId);
    const add = (items: Array<Record<string, unknown>>) =>
      client.rest('POST', '/store-api/b2b/add-to-cart', buyer, { items });
    const two = await add([
      { productId, quantity: 12 },
      { productId, quantity: 12 },
    ]);
    expect(two.status, JSON.stringify(two.body)).to.equal(200);
    expect(two.body, JSON.stringify(two.body)).to.include({ success: true, added: 2 });
    const onePack = await add([{ productId, quantity: 12 }]);
    expect(onePack.body, JSON.stringify(onePack.body)).to.include({ success: true, added: 1 });
    const off = await add([{ productId, quantity: 6 }]);
    expect(off.body.items[0].error.detail, JSON.stringify(off.body)).to.contain('42 is not allowed');
    const { data } = await client.gql('shop-api', `{ activeOrder { ${orderFields} } }`, {}, buyer);
    const line = data.activeOrder.lines.find(
      (l: { productVariant: { id: string } }) => l.productVariant.id === armVariantId,
    );
    expect(line.quantity).to.equal(36);
  });

  it("the plugin's Store API answers the rule on Vendure too", async () => {
    const res = await client.rest(
      'GET',
      `/store-api/quantity-rule/${client.shop.state.ids.toPlugin(paperVariantId)}`,
      buyer,
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ minQuantity: 12, step: 12, packSize: 12, custom: true });
  });
});
