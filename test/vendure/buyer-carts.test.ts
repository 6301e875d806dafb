import { expect } from 'chai';
import { DEMO_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { DEMO_APPROVER, DEMO_PURCHASER } from '../../src/plugin/employee/demo.js';
import { DEMO_REPRESENTATIVE } from '../../src/plugin/sales-representative/demo.js';
import { buyerColumn } from '../../src/adapters/vendure/active-order.js';
import { bearer, bootShop, type ShopClient } from './helpers/shop.js';

/**
 * One cart per buyer on Vendure (active-order.ts): the company admin (the customer's own login),
 * each employee and a sales representative acting for the company have their own Vendure active
 * order of the one customer — in Vendure's Shop API and in the plugin's cart routes alike.
 */
describe('Suite B2B inside a Vendure shop: one cart per buyer', function () {
  this.timeout(120_000);
  let t: ShopClient;
  let purchaser: Record<string, string>;
  let approver: Record<string, string>;
  let companyAdmin: Record<string, string>;

  type Order = {
    id: string;
    code: string;
    state: string;
    lines: Array<{ quantity: number; productVariant: { sku: string } }>;
  };
  const activeOrderOf = async (headers: Record<string, string>) => {
    const answer = await t.gql(
      'shop-api',
      '{ activeOrder { id code state lines { quantity productVariant { sku } } } }',
      {},
      headers,
    );
    expect(answer.errors, JSON.stringify(answer.errors)).to.equal(undefined);
    return answer.data.activeOrder as Order | null;
  };
  const linesOf = (order: Order | null) => (order?.lines ?? []).map((l) => [l.productVariant.sku, l.quantity]);
  const variantIdOf = async (slug: string) =>
    (await t.gql('shop-api', `{ product(slug: "${slug}") { variants { id } } }`)).data.product.variants[0].id as string;
  const addItem = async (headers: Record<string, string>, slug: string, quantity: number) => {
    const answer = await t.gql(
      'shop-api',
      'mutation ($v: ID!, $q: Int!) { addItemToOrder(productVariantId: $v, quantity: $q) { __typename ... on Order { id } } }',
      { v: await variantIdOf(slug), q: quantity },
      headers,
    );
    expect(answer.data?.addItemToOrder.__typename, JSON.stringify(answer)).to.equal('Order');
    return answer;
  };
  /** The plugin's fast order add-to-cart (cart.addLineItems) with the plugin's context only. */
  const fastAdd = async (headers: Record<string, string>, productNumber: string, quantity: number) => {
    const added = await t.rest('POST', '/store-api/b2b/add-to-cart', headers, { items: [{ productNumber, quantity }] });
    expect(added.status, JSON.stringify(added.body)).to.equal(200);
    expect(added.body, JSON.stringify(added.body)).to.include({ success: true, added: 1 });
  };
  const contextOnly = (headers: Record<string, string>) => ({ 'suite-context-token': headers['suite-context-token']! });
  const actorId = async (headers: Record<string, string>) =>
    (await t.rest('GET', '/store-api/context', headers)).body.actor.id as string;
  const checkout = async (headers: Record<string, string>) => {
    await t.gql(
      'shop-api',
      'mutation { setOrderShippingAddress(input: { fullName: "Demo Company", streetLine1: "Hauptstr. 1", city: "Berlin", postalCode: "10115", countryCode: "DE" }) { __typename } }',
      {},
      headers,
    );
    const methods = await t.gql('shop-api', '{ eligibleShippingMethods { id } }', {}, headers);
    await t.gql(
      'shop-api',
      'mutation ($id: [ID!]!) { setOrderShippingMethod(shippingMethodId: $id) { __typename } }',
      { id: [methods.data.eligibleShippingMethods[0].id] },
      headers,
    );
    const passed = await t.gql(
      'shop-api',
      'mutation { transitionOrderToState(state: "ArrangingPayment") { __typename ... on OrderStateTransitionError { transitionError } } }',
      {},
      headers,
    );
    expect(passed.data.transitionOrderToState.__typename, JSON.stringify(passed)).to.equal('Order');
    const payment = await t.gql('shop-api', '{ eligiblePaymentMethods { code isEligible } }', {}, headers);
    const method = payment.data.eligiblePaymentMethods.find((m: { isEligible: boolean }) => m.isEligible)
      .code as string;
    const paid = await t.gql(
      'shop-api',
      'mutation ($m: String!) { addPaymentToOrder(input: { method: $m, metadata: {} }) { __typename ... on Order { id code state } } }',
      { m: method },
      headers,
    );
    expect(paid.data.addPaymentToOrder.__typename, JSON.stringify(paid)).to.equal('Order');
    return paid.data.addPaymentToOrder as { id: string; code: string; state: string };
  };

  before(async function () {
    this.timeout(240_000);
    t = await bootShop({ label: 'vendure-buyer-carts' });
    purchaser = await t.employeeHeaders(DEMO_PURCHASER.email, DEMO_PURCHASER.password);
    approver = await t.employeeHeaders(DEMO_APPROVER.email, DEMO_APPROVER.password);
    companyAdmin = bearer(await t.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
  });

  after(async function () {
    this.timeout(60_000);
    await t?.close();
  });

  it("two employees each keep their own cart through Vendure's Shop API and the plugin's add-to-cart; the company admin's cart is a third", async () => {
    await addItem(purchaser, 'copy-paper-a4', 2);
    await addItem(approver, 'office-chair', 1);
    await fastAdd(contextOnly(purchaser), 'PAPER-001', 1);
    await fastAdd(contextOnly(approver), 'CHAIR-001', 1);
    await fastAdd(companyAdmin, 'ARM-001', 1);

    const [mine, theirs, admins] = [
      await activeOrderOf(purchaser),
      await activeOrderOf(approver),
      await activeOrderOf(companyAdmin),
    ];
    expect(linesOf(mine)).to.deep.equal([['PAPER-001', 3]]);
    expect(linesOf(theirs)).to.deep.equal([['CHAIR-001', 2]]);
    expect(linesOf(admins)).to.deep.equal([['ARM-001', 1]]);

    // All three are orders of the one Vendure customer; the employees' name their buyer, the admin's none (as orders from before).
    const rows = await t.shop.state
      .db('order')
      .whereIn('id', [mine!.id, theirs!.id, admins!.id])
      .select('id', 'customerId', buyerColumn());
    const customer = await t.shop.state.db('customer').where({ emailAddress: DEMO_CUSTOMER.email }).first('id');
    expect(rows.map((r: { customerId: unknown }) => String(r.customerId))).to.deep.equal([
      String(customer.id),
      String(customer.id),
      String(customer.id),
    ]);
    const buyerOfOrder = (id: string) =>
      rows.find((r: { id: unknown }) => String(r.id) === id)[buyerColumn()] as string | null;
    expect(buyerOfOrder(mine!.id)).to.equal(`employee:${await actorId(purchaser)}`);
    expect(buyerOfOrder(theirs!.id)).to.equal(`employee:${await actorId(approver)}`);
    expect(buyerOfOrder(admins!.id)).to.equal(null);

    // A new login of the purchaser (a new Vendure session) finds the purchaser's cart again.
    const again = await t.employeeHeaders(DEMO_PURCHASER.email, DEMO_PURCHASER.password);
    expect((await activeOrderOf(again))?.id).to.equal(mine!.id);
  });

  it('a sales representative acting for the company has a cart of its own', async () => {
    const login = await t.pluginLogin(DEMO_REPRESENTATIVE.email, DEMO_REPRESENTATIVE.password);
    const customerId = t.shop.state.ids.toPlugin(
      (await t.shop.state.db('customer').where({ emailAddress: DEMO_CUSTOMER.email }).first('id')).id,
    );
    const switched = await t.rest(
      'POST',
      '/store-api/sales-representative/switch-customer',
      { 'suite-context-token': login },
      { customerId },
    );
    expect(switched.status, JSON.stringify(switched.body)).to.equal(200);
    const representative = { 'suite-context-token': switched.body.contextToken as string };
    await fastAdd(representative, 'DESK-001', 1);

    // In Vendure's Shop API too, with a Vendure session of the customer.
    const session = await t.gql(
      'shop-api',
      'mutation ($t: String!) { authenticate(input: { suiteB2B: { contextToken: $t } }) { __typename } }',
      { t: representative['suite-context-token'] },
    );
    expect(session.data.authenticate.__typename, JSON.stringify(session)).to.equal('CurrentUser');
    expect(linesOf(await activeOrderOf({ ...bearer(session.token!), ...representative }))).to.deep.equal([
      ['DESK-001', 1],
    ]);
    expect(linesOf(await activeOrderOf(purchaser))).to.deep.equal([['PAPER-001', 3]]);
    expect(linesOf(await activeOrderOf(companyAdmin))).to.deep.equal([['ARM-001', 1]]);
  });

  it("an approval request from the purchaser's cart takes only the purchaser's lines", async () => {
    const cart = (await activeOrderOf(purchaser))!;
    const created = await t.rest('POST', '/store-api/order-approval/create', contextOnly(purchaser), {
      cartToken: t.shop.state.ids.toPlugin(cart.id),
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const approval = await t.rest(
      'GET',
      `/store-api/b2b/order-approval/${created.headers.get('suite-order-approval-id')!}`,
      purchaser,
    );
    expect(approval.status, JSON.stringify(approval.body)).to.equal(200);
    expect(
      approval.body.lineItems.map((l: { productNumber: string; quantity: number }) => [l.productNumber, l.quantity]),
    ).to.deep.equal([['PAPER-001', 3]]);
  });

  it("the approver's checkout places the approver's cart only: the purchaser's and the admin's carts stay as they were", async () => {
    const [mine, admins, theirs] = [
      await activeOrderOf(purchaser),
      await activeOrderOf(companyAdmin),
      await activeOrderOf(approver),
    ];
    const placed = await checkout(approver);
    expect(placed.id).to.equal(theirs!.id);
    expect(placed.state).to.equal('PaymentAuthorized');

    expect(await activeOrderOf(purchaser)).to.deep.equal(mine);
    expect(await activeOrderOf(companyAdmin)).to.deep.equal(admins);
    // The approver's next cart is a new one, again the approver's own.
    expect(await activeOrderOf(approver)).to.equal(null);
    await fastAdd(contextOnly(approver), 'PAPER-001', 1);
    const next = (await activeOrderOf(approver))!;
    expect(next.id).to.not.be.oneOf([placed.id, mine!.id, admins!.id]);
    expect(linesOf(next)).to.deep.equal([['PAPER-001', 1]]);

    // The placed order is the customer's, placed by the approver (the plugin's order list).
    const listed = await t.rest('POST', '/store-api/b2b/employee-orders', companyAdmin, {});
    const order = listed.body.orders.elements.find((o: { orderNumber: string }) => o.orderNumber === placed.code);
    expect(order?.placedBy, JSON.stringify(listed.body)).to.deep.equal({
      type: 'employee',
      id: await actorId(approver),
    });
  });

  it('a guest keeps the cart of its Vendure session, as in stock Vendure', async () => {
    const first = await addItem({}, 'copy-paper-a4', 1);
    const guest = bearer(first.token!);
    const cart = await activeOrderOf(guest);
    expect(linesOf(cart)).to.deep.equal([['PAPER-001', 1]]);
    expect(cart!.id).to.equal(first.data.addItemToOrder.id);
    expect(await activeOrderOf({})).to.equal(null);
    expect(linesOf(await activeOrderOf(purchaser))).to.deep.equal([['PAPER-001', 3]]);
  });
});
