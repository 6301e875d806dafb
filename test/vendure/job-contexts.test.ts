import { expect } from 'chai';
import { DEMO_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { bearer, bootShop, type ShopClient } from './helpers/shop.js';

/**
 * Vendure's own jobs run with a RequestContext it serialised when they were queued: on the worker it
 * has no express request (a plain copy of its simple fields). The plugin's hooks on such a context
 * (the price strategy the search index calls, visibility, the active order strategy) must not take it
 * for a live request (decision 0055: `req.get is not a function` failed every `update-search-index`
 * job of an order placed through the Shop API).
 */
describe("Vendure: the shop's own jobs run with the plugin installed", function () {
  this.timeout(120_000);
  let client: ShopClient;
  let admin: Record<string, string>;

  before(async function () {
    this.timeout(240_000);
    client = await bootShop({ label: 'vendure_job_contexts' });
    admin = bearer(await client.vendureLogin('admin-api', 'superadmin', 'superadmin'));
  });

  after(async function () {
    this.timeout(60_000);
    await client?.close();
  });

  it('an order placed through the Shop API leaves no job FAILED; its update-search-index jobs are COMPLETED', async () => {
    const buyer = bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    const { data } = await client.gql('shop-api', '{ product(slug: "copy-paper-a4") { variants { id } } }');
    const variantId = data.product.variants[0].id as string;
    const added = await client.gql(
      'shop-api',
      'mutation ($v: ID!) { addItemToOrder(productVariantId: $v, quantity: 2) { __typename ... on ErrorResult { message } } }',
      { v: variantId },
      buyer,
    );
    expect(added.data.addItemToOrder.__typename, JSON.stringify(added)).to.equal('Order');
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
    const moved = await client.gql(
      'shop-api',
      'mutation { transitionOrderToState(state: "ArrangingPayment") { __typename ... on OrderStateTransitionError { transitionError } } }',
      {},
      buyer,
    );
    expect(moved.data.transitionOrderToState.__typename, JSON.stringify(moved)).to.equal('Order');
    const paid = await client.gql(
      'shop-api',
      'mutation { addPaymentToOrder(input: { method: "invoice", metadata: {} }) { __typename ... on Order { state } ... on ErrorResult { message } } }',
      {},
      buyer,
    );
    expect(paid.data.addPaymentToOrder, JSON.stringify(paid)).to.deep.include({
      __typename: 'Order',
      state: 'PaymentAuthorized',
    });

    await client.settleJobs();
    const jobs = await client.gql(
      'admin-api',
      '{ jobs(options: { take: 100 }) { items { queueName state error } } }',
      {},
      admin,
    );
    expect(jobs.errors, JSON.stringify(jobs.errors)).to.equal(undefined);
    const items = jobs.data.jobs.items as Array<{ queueName: string; state: string; error: unknown }>;
    expect(items.filter((job) => job.state === 'FAILED')).to.deep.equal([]);
    const searchIndex = items.filter((job) => job.queueName === 'update-search-index');
    expect(searchIndex, 'the order queued search index updates').to.not.have.length(0);
    expect(searchIndex.map((job) => job.state)).to.deep.equal(searchIndex.map(() => 'COMPLETED'));
  });
});
