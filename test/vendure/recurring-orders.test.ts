import { expect } from 'chai';
import { DEMO_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { placeDueOccurrences } from '../../src/plugin/recurring-order/index.js';
import { bearer, bootShop, type ShopClient } from './helpers/shop.js';

/** A calendar date `days` after today (UTC): a start in the future, so no real-time job run touches it. */
function dayFromToday(days: number): string {
  const today = new Date();
  return new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + days))
    .toISOString()
    .slice(0, 10);
}

/**
 * Recurring orders inside a Vendure shop: the job prices the recurring order's items for the buyer
 * (`cart.priceLines`, contract 4.4: no cart holds them) and places them through the adapter's
 * `checkout.placeOrder` as a Vendure order (decision 0055: every occurrence failed
 * `SUITE__RECURRING_ORDER_NOT_PLACEABLE`, a made-up cart token priced nothing).
 */
describe('Vendure: a recurring order places its occurrences as Vendure orders', function () {
  this.timeout(120_000);
  let client: ShopClient;
  let admin: Record<string, string>;

  before(async function () {
    this.timeout(240_000);
    client = await bootShop({ label: 'vendure_recurring' });
    admin = bearer(await client.vendureLogin('admin-api', 'superadmin', 'superadmin'));
  });

  after(async function () {
    this.timeout(60_000);
    await client?.close();
  });

  it("the job run on the start date places the customer's cart as a Vendure order; the occurrence is placed", async () => {
    const buyer = bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    const added = await client.rest('POST', '/store-api/b2b/add-to-cart', buyer, {
      items: [{ productNumber: 'PAPER-001', quantity: 3 }],
    });
    expect(added.body, JSON.stringify(added.body)).to.include({ success: true, added: 1 });
    const start = dayFromToday(2);
    const created = await client.rest('POST', '/store-api/b2b/recurring-order', buyer, {
      name: 'Paper every week',
      source: 'cart',
      interval: { unit: 'week', count: 1 },
      startDate: start,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body.items).to.have.length(1);
    await client.settleJobs();

    const summary = await placeDueOccurrences(client.shop.state.runtime, {
      now: new Date(`${start}T08:00:00.000Z`),
      missed: 'place-once',
    });
    const read = await client.rest('GET', `/store-api/b2b/recurring-order/${created.body.id}`, buyer);
    expect(read.status, JSON.stringify(read.body)).to.equal(200);
    const [occurrence] = read.body.occurrences as Array<Record<string, unknown>>;
    expect(occurrence, JSON.stringify(read.body.occurrences)).to.include({ dueDate: start, status: 'placed' });
    expect(occurrence!.orderNumber).to.be.a('string');
    expect(read.body.nextDate).to.not.equal(start);
    expect(summary).to.include({ placed: 1, failed: 0, approvals: 0, held: 0 });

    await client.settleJobs();
    const orders = await client.gql(
      'admin-api',
      '{ orders(options: { filter: { code: { eq: $code } } }) { items { code state active customer { emailAddress } lines { quantity unitPrice productVariant { sku } } } } }'.replace(
        '$code',
        JSON.stringify(occurrence!.orderNumber),
      ),
      {},
      admin,
    );
    expect(orders.errors, JSON.stringify(orders.errors)).to.equal(undefined);
    expect(orders.data.orders.items).to.have.length(1);
    const [order] = orders.data.orders.items;
    expect(order).to.deep.include({ active: false, customer: { emailAddress: DEMO_CUSTOMER.email } });
    expect(order.state).to.equal('PaymentAuthorized');
    expect(order.lines).to.deep.equal([{ quantity: 3, unitPrice: 549, productVariant: { sku: 'PAPER-001' } }]);
  });
});
