import { expect } from 'chai';
import { DEMO_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { DEMO_APPROVER, DEMO_PURCHASER } from '../../src/plugin/employee/demo.js';
import { PARTICIPANTS } from '../../src/plugin/event-manager/repository.js';
import { bearer, bootShop, type ShopClient, storeContextOf } from './helpers/shop.js';
import { insertPublishedEvent } from './helpers/events.js';

/**
 * The plugin's own checkout of the buyer's Vendure cart (`checkout.placeOrder` with a `cartToken`):
 * express checkout orders the caller's active order through Vendure's order process, with the
 * plugin's interceptors (approval) and hooks; and event tickets added through the plugin's cart
 * (`cart.addLineItems` with `payload.participant`) carry their participant into that order.
 */
describe("Suite B2B inside a Vendure shop: the plugin checks out the buyer's cart", function () {
  this.timeout(120_000);
  let t: ShopClient;
  let purchaser: Record<string, string>;
  let approver: Record<string, string>;

  type Order = {
    id: string;
    code: string;
    state: string;
    lines: Array<{
      quantity: number;
      productVariant: { sku: string };
      customFields: { suiteParticipant: string | null };
    }>;
  };
  const activeOrderOf = async (headers: Record<string, string>) => {
    const answer = await t.gql(
      'shop-api',
      '{ activeOrder { id code state lines { quantity productVariant { sku } customFields { suiteParticipant } } } }',
      {},
      headers,
    );
    expect(answer.errors, JSON.stringify(answer.errors)).to.equal(undefined);
    return answer.data.activeOrder as Order | null;
  };
  const contextOnly = (headers: Record<string, string>) => ({ 'suite-context-token': headers['suite-context-token']! });
  const fastAdd = async (headers: Record<string, string>, productNumber: string, quantity: number) => {
    const added = await t.rest('POST', '/store-api/b2b/add-to-cart', contextOnly(headers), {
      items: [{ productNumber, quantity }],
    });
    expect(added.body, JSON.stringify(added.body)).to.include({ success: true, added: 1 });
  };
  const enableExpress = async (headers: Record<string, string>) => {
    const res = await t.rest('PATCH', '/store-api/express-checkout-setting', contextOnly(headers), { enabled: true });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };
  const placedOrders = async () => {
    const admin = bearer(await t.vendureLogin('admin-api', 'superadmin', 'superadmin'));
    const { data } = await t.gql(
      'admin-api',
      '{ orders(options: { filter: { active: { eq: false } } }) { items { id code state orderPlacedAt lines { quantity productVariant { sku } } } } }',
      {},
      admin,
    );
    return data.orders.items as Array<{
      id: string;
      code: string;
      state: string;
      orderPlacedAt: string | null;
      lines: Array<{ quantity: number; productVariant: { sku: string } }>;
    }>;
  };

  before(async function () {
    this.timeout(240_000);
    t = await bootShop({ label: 'vendure-cart-checkout', runJobs: false });
    purchaser = await t.employeeHeaders(DEMO_PURCHASER.email, DEMO_PURCHASER.password);
    approver = await t.employeeHeaders(DEMO_APPROVER.email, DEMO_APPROVER.password);
    // The customer's default address in Vendure: express checkout's billing and shipping address.
    const customer = bearer(await t.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    const address = await t.gql(
      'shop-api',
      'mutation { createCustomerAddress(input: { fullName: "Bea Buyer", company: "Demo Company", streetLine1: "Lagerweg 5", city: "Hamburg", postalCode: "20095", countryCode: "DE", defaultShippingAddress: true, defaultBillingAddress: true }) { id } }',
      {},
      customer,
    );
    expect(address.errors, JSON.stringify(address.errors)).to.equal(undefined);
  });

  after(async function () {
    this.timeout(60_000);
    await t?.close();
  });

  it("express checkout refuses the purchaser's cart for approval and leaves it as it was", async () => {
    await fastAdd(purchaser, 'PAPER-001', 2);
    await enableExpress(purchaser);
    const before = await activeOrderOf(purchaser);
    const refused = await t.rest('POST', '/store-api/express-checkout/order', contextOnly(purchaser), {});
    expect(refused.status, JSON.stringify(refused.body)).to.equal(400);
    expect(refused.body.errors[0].code).to.equal('SUITE__ORDER_APPROVAL_REQUIRED');
    expect(await activeOrderOf(purchaser)).to.deep.equal(before);
  });

  it("express checkout places the approver's cart as a Vendure order through Vendure's order process; the purchaser's cart stays", async () => {
    await fastAdd(approver, 'CHAIR-001', 2);
    await enableExpress(approver);
    const cart = (await activeOrderOf(approver))!;
    const mine = await activeOrderOf(purchaser);

    const placed = await t.rest('POST', '/store-api/express-checkout/order', contextOnly(approver), {
      customerComment: 'Gate 3',
    });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    expect(placed.body.orderNumber).to.equal(cart.code);
    expect(placed.body.placedBy).to.deep.equal({
      type: 'employee',
      id: (await t.rest('GET', '/store-api/context', contextOnly(approver))).body.actor.id,
    });

    // The cart itself became the order (Vendure's code), paid with the shop's method, placed, the address the customer's default.
    const order = (await placedOrders()).find((o) => o.code === cart.code);
    expect(order, JSON.stringify(await placedOrders())).to.not.equal(undefined);
    expect(order!.id).to.equal(cart.id);
    expect(order!.state).to.equal('PaymentAuthorized');
    expect(order!.orderPlacedAt).to.be.a('string');
    expect(order!.lines.map((l) => [l.productVariant.sku, l.quantity])).to.deep.equal([['CHAIR-001', 2]]);
    const admin = bearer(await t.vendureLogin('admin-api', 'superadmin', 'superadmin'));
    const address = await t.gql(
      'admin-api',
      `{ order(id: "${cart.id}") { shippingAddress { streetLine1 city } } }`,
      {},
      admin,
    );
    expect(address.data.order.shippingAddress).to.deep.equal({ streetLine1: 'Lagerweg 5', city: 'Hamburg' });

    // The approver's next cart is a new one; the purchaser's is untouched; ordering the old cart again is refused.
    expect(await activeOrderOf(approver)).to.equal(null);
    expect(await activeOrderOf(purchaser)).to.deep.equal(mine);
    const again = await t.rest('POST', '/store-api/express-checkout/order', contextOnly(approver), {});
    expect(again.status, JSON.stringify(again.body)).to.equal(400);
    expect(again.body.errors[0].code).to.equal('SUITE__CART_EMPTY');
  });

  it("an event ticket added through the plugin's cart (cart.addLineItems with payload.participant) carries its participant, and express checkout registers it", async () => {
    const { state } = t.shop;
    const { data } = await t.gql('shop-api', '{ product(slug: "monitor-arm") { variants { id } } }');
    const productId = state.ids.toPlugin(data.product.variants[0].id);
    const eventId = await insertPublishedEvent(state.db, productId);
    // The approver's context as the plugin's routes get it (the event registration page calls cart.addLineItems so; Vendure mounts no storefront pages).
    const ctx = await storeContextOf(t, approver);
    const cart = await state.runtime.cart.addLineItems(state.runtime.db, ctx, [
      {
        productId,
        quantity: 1,
        payload: { eventId, participant: { firstName: 'Ann', lastName: 'Example', email: 'Ann@Example.test' } },
      },
    ]);
    expect(
      cart.lineItems.map((l) => [
        l.productId,
        l.quantity,
        (l.payload.participant as { email?: string } | undefined)?.email,
      ]),
    ).to.deep.equal([[productId, 1, 'ann@example.test']]);
    // A second participant is a line of its own; the same one again is refused by the event manager.
    const two = await state.runtime.cart.addLineItems(state.runtime.db, ctx, [
      {
        productId,
        quantity: 1,
        payload: { eventId, participant: { firstName: 'Ben', lastName: 'Example', email: 'ben@example.test' } },
      },
    ]);
    expect(two.lineItems).to.have.length(2);
    let refused: unknown = null;
    await state.runtime.cart
      .addLineItems(state.runtime.db, ctx, [
        {
          productId,
          quantity: 1,
          payload: { eventId, participant: { firstName: 'Ann', lastName: 'Example', email: 'ann@example.test' } },
        },
      ])
      .catch((error: unknown) => (refused = error));
    expect(refused, 'the same participant twice').to.not.equal(null);
    expect((await state.runtime.cart.current(state.runtime.db, ctx)).lineItems).to.have.length(2);

    // In Vendure's Shop API the lines carry the participant as the Shop API path stores it.
    const order = (await activeOrderOf(approver))!;
    expect(order.lines.map((l) => JSON.parse(l.customFields.suiteParticipant ?? 'null')?.email)).to.deep.equal([
      'ann@example.test',
      'ben@example.test',
    ]);

    const placed = await t.rest('POST', '/store-api/express-checkout/order', contextOnly(approver), {});
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    const registered = await state
      .db(PARTICIPANTS)
      .where({ event_id: eventId })
      .orderBy('email')
      .select('email', 'status');
    expect(registered).to.deep.equal([
      { email: 'ann@example.test', status: 'registered' },
      { email: 'ben@example.test', status: 'registered' },
    ]);
    // The placed order's lines name their participant (the plugin's order read).
    const read = await t.rest('GET', `/store-api/b2b/employee-order/${placed.body.id}`, contextOnly(approver));
    expect(read.status, JSON.stringify(read.body)).to.equal(200);
    expect(
      read.body.lineItems
        .map((l: { payload: { participant?: { email?: string } } }) => l.payload.participant?.email)
        .sort(),
    ).to.deep.equal(['ann@example.test', 'ben@example.test']);
  });
});
