import { expect } from 'chai';
import { DEMO_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { DEMO_APPROVER } from '../../src/plugin/employee/demo.js';
import { bearer, bootShop, type ShopClient } from './helpers/shop.js';

/**
 * A channel whose prices include tax (Vendure's `pricesIncludeTax`, 19 % tax): the variant prices are
 * gross, and so are the plugin's customer prices (decision 0032: they follow the channel, as
 * Vendure's own variant prices do). Vendure's lines show the entered gross price and its net; the
 * plugin's contract answers net prices (fast order search, cart.price), budgets count net.
 */
describe('Vendure: a channel whose prices include tax', function () {
  this.timeout(180_000);
  let t: ShopClient;
  let admin: Record<string, string>;
  let buyer: Record<string, string>;
  let customerId: string;
  let armId: string;
  let paperId: string;

  interface Line {
    quantity: number;
    unitPrice: number;
    unitPriceWithTax: number;
    linePrice: number;
    linePriceWithTax: number;
    productVariant: { sku: string };
  }
  const activeOrder =
    '{ activeOrder { id subTotal subTotalWithTax shipping lines { quantity unitPrice unitPriceWithTax linePrice linePriceWithTax productVariant { sku } } } }';
  const lineOf = (order: { lines: Line[] }, sku: string) => {
    const found = order.lines.find((l) => l.productVariant.sku === sku)!;
    const { productVariant: _variant, ...prices } = found;
    return prices;
  };
  const customerPrice = async (productId: string, price: number, minQuantity = 1) => {
    const created = await t.rest('POST', '/b2b-admin-api/suite-customer-price', admin, {
      customerId,
      productId: t.shop.state.ids.toPlugin(productId),
      minQuantity,
      price,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
  };

  before(async function () {
    this.timeout(240_000);
    t = await bootShop({ label: 'vendure_gross', runJobs: false });
    admin = bearer(await t.vendureLogin('admin-api', 'superadmin', 'superadmin'));
    const channel = await t.gql('admin-api', '{ activeChannel { id } }', {}, admin);
    const updated = await t.gql(
      'admin-api',
      'mutation ($id: ID!) { updateChannel(input: { id: $id, pricesIncludeTax: true }) { __typename ... on Channel { pricesIncludeTax } } }',
      { id: channel.data.activeChannel.id },
      admin,
    );
    expect(updated.data?.updateChannel, JSON.stringify(updated)).to.deep.equal({
      __typename: 'Channel',
      pricesIncludeTax: true,
    });
    const arm = await t.gql('shop-api', '{ product(slug: "monitor-arm") { variants { id } } }');
    armId = arm.data.product.variants[0].id;
    const paper = await t.gql('shop-api', '{ product(slug: "copy-paper-a4") { variants { id } } }');
    paperId = paper.data.product.variants[0].id;
    buyer = bearer(await t.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    customerId = (await t.rest('GET', '/store-api/context', buyer)).body.customer.id as string;
  });

  after(async function () {
    this.timeout(60_000);
    await t?.close();
  });

  it('the list price is gross in Vendure and net in the plugin (fast order search, price criteria)', async () => {
    const shown = await t.gql(
      'shop-api',
      '{ product(slug: "monitor-arm") { variants { price priceWithTax } } }',
      {},
      buyer,
    );
    // 79.90 entered with tax: 67.14 net.
    expect(shown.data.product.variants[0]).to.deep.equal({ price: 6714, priceWithTax: 7990 });
    const found = await t.rest('POST', '/store-api/b2b/fast-order-product-search', buyer, { term: 'ARM' });
    expect(found.status, JSON.stringify(found.body)).to.equal(200);
    expect(found.body.elements[0].calculatedPrice, JSON.stringify(found.body.elements[0])).to.include({
      unitPrice: 67.14,
    });
    // `price` criteria compare net prices: the arm (67.14 net, 79.90 gross) is under 70.
    const cheap = await t.rest('POST', '/store-api/b2b/fast-order-product-search', buyer, {
      filter: [{ type: 'range', field: 'price', parameters: { lt: 70 } }],
    });
    expect(cheap.status, JSON.stringify(cheap.body)).to.equal(200);
    expect(cheap.body.elements.map((e: { productNumber: string }) => e.productNumber)).to.include('ARM-001');
  });

  it("a customer price is entered gross on it: Vendure's variant and active order line show it with its net, cart.price answers the net", async () => {
    await customerPrice(armId, 59.5);
    const shown = await t.gql(
      'shop-api',
      '{ product(slug: "monitor-arm") { variants { price priceWithTax } } }',
      {},
      buyer,
    );
    expect(shown.data.product.variants[0]).to.deep.equal({ price: 5000, priceWithTax: 5950 });

    const added = await t.rest('POST', '/store-api/b2b/add-to-cart', buyer, {
      items: [{ productId: t.shop.state.ids.toPlugin(armId), quantity: 2 }],
    });
    expect(added.body.success, JSON.stringify(added.body)).to.equal(true);
    const order = (await t.gql('shop-api', activeOrder, {}, buyer)).data.activeOrder;
    expect(lineOf(order, 'ARM-001')).to.deep.equal({
      quantity: 2,
      unitPrice: 5000,
      unitPriceWithTax: 5950,
      linePrice: 10000,
      linePriceWithTax: 11900,
    });
    const found = await t.rest('POST', '/store-api/b2b/fast-order-product-search', buyer, { term: 'ARM' });
    expect(found.body.elements[0].calculatedPrice, JSON.stringify(found.body.elements[0])).to.include({
      unitPrice: 50,
    });

    // cart.price: an approval of this cart carries the net unit price and Vendure's net total.
    const created = await t.rest('POST', '/store-api/order-approval/create', buyer, {
      cartToken: t.shop.state.ids.toPlugin(order.id),
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const approval = await t.rest(
      'GET',
      `/store-api/b2b/order-approval/${created.headers.get('suite-order-approval-id')}`,
      buyer,
    );
    expect(approval.body.netPrice).to.equal(100);
    const arm = approval.body.lineItems.find((l: { productNumber: string }) => l.productNumber === 'ARM-001');
    expect(arm).to.include({ quantity: 2, unitPrice: 50 });
  });

  it("a customer price from a minimum quantity is gross too: Vendure's line is priced by its quantity", async () => {
    // Paper: 5.49 gross; from 10 packs 4.76 gross (4.00 net).
    await customerPrice(paperId, 4.76, 10);
    const fields =
      '... on Order { lines { quantity unitPrice unitPriceWithTax linePrice linePriceWithTax productVariant { sku } } } ... on ErrorResult { errorCode message }';
    const three = await t.gql(
      'shop-api',
      `mutation ($id: ID!) { addItemToOrder(productVariantId: $id, quantity: 3) { ${fields} } }`,
      { id: paperId },
      buyer,
    );
    expect(lineOf(three.data.addItemToOrder, 'PAPER-001'), JSON.stringify(three)).to.deep.equal({
      quantity: 3,
      unitPrice: 461,
      unitPriceWithTax: 549,
      linePrice: 1384,
      linePriceWithTax: 1647,
    });
    const twelve = await t.gql(
      'shop-api',
      `mutation ($id: ID!) { addItemToOrder(productVariantId: $id, quantity: 9) { ${fields} } }`,
      { id: paperId },
      buyer,
    );
    expect(lineOf(twelve.data.addItemToOrder, 'PAPER-001'), JSON.stringify(twelve)).to.deep.equal({
      quantity: 12,
      unitPrice: 400,
      unitPriceWithTax: 476,
      linePrice: 4800,
      linePriceWithTax: 5712,
    });
  });

  it("an employee's Shop API order charges the budget the net of its lines", async () => {
    const companyAdmin = buyer;
    const approver = await t.employeeHeaders(DEMO_APPROVER.email, DEMO_APPROVER.password);
    const approverId = (await t.rest('GET', '/store-api/context', approver)).body.actor.id as string;
    const budget = await t.rest('POST', '/store-api/budget', companyAdmin, {
      name: 'Gross channel',
      amount: 1000,
      periodType: 'monthly',
      employeeIds: [approverId],
      allowApproval: false,
    });
    expect(budget.status, JSON.stringify(budget.body)).to.equal(200);
    const added = await t.gql(
      'shop-api',
      'mutation ($v: ID!) { addItemToOrder(productVariantId: $v, quantity: 2) { __typename } }',
      { v: armId },
      approver,
    );
    expect(added.data.addItemToOrder.__typename, JSON.stringify(added)).to.equal('Order');
    await t.gql(
      'shop-api',
      'mutation { setOrderShippingAddress(input: { fullName: "Demo Company", streetLine1: "Hauptstr. 1", city: "Berlin", postalCode: "10115", countryCode: "DE" }) { __typename } }',
      {},
      approver,
    );
    const methods = await t.gql('shop-api', '{ eligibleShippingMethods { id } }', {}, approver);
    await t.gql(
      'shop-api',
      'mutation ($id: [ID!]!) { setOrderShippingMethod(shippingMethodId: $id) { __typename } }',
      { id: [methods.data.eligibleShippingMethods[0].id] },
      approver,
    );
    const moved = await t.gql(
      'shop-api',
      'mutation { transitionOrderToState(state: "ArrangingPayment") { __typename ... on Order { state } ... on OrderStateTransitionError { transitionError } } }',
      {},
      approver,
    );
    expect(moved.data.transitionOrderToState, JSON.stringify(moved)).to.deep.equal({
      __typename: 'Order',
      state: 'ArrangingPayment',
    });
    const order = (await t.gql('shop-api', activeOrder, {}, approver)).data.activeOrder;
    expect(lineOf(order, 'ARM-001')).to.include({ unitPrice: 5000, unitPriceWithTax: 5950 });
    const paid = await t.gql(
      'shop-api',
      'mutation { addPaymentToOrder(input: { method: "invoice", metadata: {} }) { __typename ... on Order { state } ... on ErrorResult { errorCode message } } }',
      {},
      approver,
    );
    expect(paid.data?.addPaymentToOrder.state, JSON.stringify(paid)).to.equal('PaymentAuthorized');
    const used = (await t.rest('GET', `/store-api/budget/${budget.body.budget.id}`, companyAdmin)).body.used as number;
    // The budget counts the goods' net (as on a net channel): 2 × 50.00, not the gross 119.00.
    expect(order.subTotal).to.equal(10000);
    expect(used).to.equal(100);
  });
});
