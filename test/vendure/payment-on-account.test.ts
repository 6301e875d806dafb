import { expect } from 'chai';
import { DEMO_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { AppError } from '../../src/lib/errors.js';
import { newId } from '../../src/lib/ids.js';
import { DEMO_APPROVER } from '../../src/plugin/employee/demo.js';
import { bearer, bootShop, type GqlAnswer, type ShopClient, storeContextOf } from './helpers/shop.js';

/**
 * Payment on account on Vendure (payment-methods.ts): the plugin's `on-account` method is a Vendure
 * PaymentMethodHandler (`suite-b2b-on-account`) with the eligibility checker `suite-b2b-available`;
 * Shop API `addPaymentToOrder` with it charges the company's credit line in the transaction that
 * places the order, refuses an order over the remaining line with the plugin's code, and cancelling
 * the order releases the charge. Concurrent checkouts never overdraw the line.
 */
describe('Vendure: payment on account through the Shop API', function () {
  this.timeout(180_000);
  let client: ShopClient;
  let armVariantId: string;
  let admin: Record<string, string>;
  let companyAdmin: Record<string, string>;
  let customerId: string;

  const address =
    'mutation { setOrderShippingAddress(input: { fullName: "Demo Company", streetLine1: "Hauptstr. 1", city: "Berlin", postalCode: "10115", countryCode: "DE" }) { __typename } }';
  const toPayment =
    'mutation { transitionOrderToState(state: "ArrangingPayment") { __typename ... on Order { state totalWithTax } ... on OrderStateTransitionError { transitionError } } }';
  const backToCart = 'mutation { transitionOrderToState(state: "AddingItems") { __typename } }';
  const payOnAccount =
    'mutation { addPaymentToOrder(input: { method: "on-account", metadata: {} }) { __typename ... on Order { id code state totalWithTax payments { method state amount } } ... on ErrorResult { errorCode message } } }';
  const addItem =
    'mutation ($v: ID!, $q: Int!) { addItemToOrder(productVariantId: $v, quantity: $q) { __typename ... on ErrorResult { errorCode message } } }';
  const cancel =
    'mutation ($id: ID!) { cancelOrder(input: { orderId: $id, reason: "test", cancelShipping: true }) { __typename ... on Order { state } ... on ErrorResult { errorCode message } } }';
  const refusalOf = (answer: GqlAnswer) => answer.errors?.[0]?.message ?? '';

  /** Adds a monitor arm to the caller's active order (unless `add` is false) and takes it to ArrangingPayment; answers its total (minor units). */
  const toArrangingPayment = async (headers: Record<string, string>, add = true): Promise<number> => {
    if (add) {
      const added = await client.gql('shop-api', addItem, { v: armVariantId, q: 1 }, headers);
      expect(added.data?.addItemToOrder.__typename, JSON.stringify(added)).to.equal('Order');
    }
    await client.gql('shop-api', address, {}, headers);
    const methods = await client.gql('shop-api', '{ eligibleShippingMethods { id } }', {}, headers);
    await client.gql(
      'shop-api',
      'mutation ($id: [ID!]!) { setOrderShippingMethod(shippingMethodId: $id) { __typename } }',
      { id: [methods.data.eligibleShippingMethods[0].id] },
      headers,
    );
    const moved = (await client.gql('shop-api', toPayment, {}, headers)).data.transitionOrderToState;
    expect(moved.state, JSON.stringify(moved)).to.equal('ArrangingPayment');
    return moved.totalWithTax as number;
  };
  const setLimit = async (limit: number) => {
    const res = await client.rest('PUT', `/b2b-admin-api/b2b/credit-line/${customerId}`, admin, {
      limit,
      currencyIso: 'USD',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };
  const creditLine = async () =>
    (await client.rest('GET', `/b2b-admin-api/b2b/credit-line/${customerId}`, admin)).body.data.attributes as {
      limit: number;
      balance: number;
      remaining: number;
    };
  const onAccountEligible = async (headers: Record<string, string>) => {
    const { data } = await client.gql('shop-api', '{ eligiblePaymentMethods { code isEligible } }', {}, headers);
    return (data.eligiblePaymentMethods as Array<{ code: string; isEligible: boolean }>).find(
      (m) => m.code === 'on-account',
    )?.isEligible;
  };

  before(async function () {
    this.timeout(240_000);
    client = await bootShop({ label: 'vendure_on_account', runJobs: false });
    const { data } = await client.gql('shop-api', '{ product(slug: "monitor-arm") { variants { id } } }');
    armVariantId = data.product.variants[0].id;
    admin = bearer(await client.vendureLogin('admin-api', 'superadmin', 'superadmin'));
    // The shop creates its payment method with the plugin's handler and checker, as for any handler.
    const created = await client.gql(
      'admin-api',
      `mutation { createPaymentMethod(input: { code: "on-account", enabled: true,
        handler: { code: "suite-b2b-on-account", arguments: [] },
        checker: { code: "suite-b2b-available", arguments: [] },
        translations: [{ languageCode: en, name: "On account" }] }) { id } }`,
      {},
      admin,
    );
    expect(created.data?.createPaymentMethod.id, JSON.stringify(created)).to.be.a('string');
    companyAdmin = bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    customerId = (await client.rest('GET', '/store-api/context', companyAdmin)).body.customer.id as string;
  });

  after(async function () {
    this.timeout(60_000);
    await client?.close();
  });

  it('the handler and checker are offered to the shop; the method is eligible only for a company with a credit line', async () => {
    const handlers = await client.gql(
      'admin-api',
      '{ paymentMethodHandlers { code } paymentMethodEligibilityCheckers { code } }',
      {},
      admin,
    );
    expect(handlers.data.paymentMethodHandlers.map((h: { code: string }) => h.code)).to.include('suite-b2b-on-account');
    expect(handlers.data.paymentMethodEligibilityCheckers.map((c: { code: string }) => c.code)).to.include(
      'suite-b2b-available',
    );
    await client.gql('shop-api', addItem, { v: armVariantId, q: 1 }, companyAdmin);
    expect(await onAccountEligible(companyAdmin)).to.equal(false);
    await toArrangingPayment(companyAdmin, false);
    const refused = await client.gql('shop-api', payOnAccount, {}, companyAdmin);
    expect(refused.data.addPaymentToOrder.errorCode, JSON.stringify(refused)).to.equal(
      'INELIGIBLE_PAYMENT_METHOD_ERROR',
    );
    await setLimit(1000);
    expect(await onAccountEligible(companyAdmin)).to.equal(true);
    await client.gql('shop-api', backToCart, {}, companyAdmin);
  });

  it('an order on account charges the line when placed, one over the remaining line is refused with the plugin code, cancelling releases it', async () => {
    const total = await toArrangingPayment(companyAdmin, false);
    // Room for one order, not for two.
    await setLimit(Math.round(total * 1.5) / 100);
    const paid = await client.gql('shop-api', payOnAccount, {}, companyAdmin);
    const order = paid.data?.addPaymentToOrder;
    expect(order?.state, JSON.stringify(paid)).to.equal('PaymentAuthorized');
    expect(order.payments).to.deep.equal([{ method: 'on-account', state: 'Authorized', amount: total }]);
    expect(await creditLine()).to.include({ balance: total / 100 });
    const charges = await client.shop.state.db('suite_credit_line_charges').select('order_id', 'amount', 'released_at');
    expect(charges.map((c) => [c.order_id, Number(c.amount), c.released_at])).to.deep.equal([
      [client.shop.state.ids.toPlugin(order.id), total, null],
    ]);
    const orders = (await client.rest('GET', `/store-api/b2b/payment-on-account`, companyAdmin)).body;
    expect(orders.creditLine).to.include({ balance: total / 100 });

    // The next order does not fit the remaining line: refused when Vendure would place it, nothing of it stays.
    await toArrangingPayment(companyAdmin);
    const refused = await client.gql('shop-api', payOnAccount, {}, companyAdmin);
    expect(refused.data?.addPaymentToOrder ?? null, JSON.stringify(refused)).to.equal(null);
    expect(refusalOf(refused)).to.match(/^SUITE__CREDIT_LINE_EXCEEDED: The order total /);
    const active = await client.gql('shop-api', '{ activeOrder { state payments { id } } }', {}, companyAdmin);
    expect(active.data.activeOrder).to.deep.equal({ state: 'ArrangingPayment', payments: [] });
    expect(await creditLine()).to.include({ balance: total / 100 });

    // Cancelling the placed order releases its charge (once); the waiting order fits now.
    const cancelled = await client.gql('admin-api', cancel, { id: order.id }, admin);
    expect(cancelled.data.cancelOrder, JSON.stringify(cancelled)).to.deep.equal({
      __typename: 'Order',
      state: 'Cancelled',
    });
    expect(await creditLine()).to.include({ balance: 0 });
    const again = await client.gql('shop-api', payOnAccount, {}, companyAdmin);
    expect(again.data?.addPaymentToOrder?.state, JSON.stringify(again)).to.equal('PaymentAuthorized');
    expect(await creditLine()).to.include({ balance: total / 100 });
    await client.gql('admin-api', cancel, { id: again.data.addPaymentToOrder.id }, admin);
    expect(await creditLine()).to.include({ balance: 0 });
  });

  it('ten employees paying on account at once against a line that fits two: exactly two placed and charged', async () => {
    const approver = await client.employeeHeaders(DEMO_APPROVER.email, DEMO_APPROVER.password);
    const roleId = (await client.rest('GET', '/store-api/context', approver)).body.employee.roleId as string;
    // The login route allows ten logins a minute from one address: the counters start afresh, as after a minute.
    await client.shop.state.db('rate_limit_counters').delete();
    const employees: Array<Record<string, string>> = [];
    for (let i = 0; i < 10; i++) {
      const email = `on-account-${i}-${newId().slice(0, 6)}@demo-company.test`;
      const created = await client.rest('POST', '/store-api/b2b/employee', companyAdmin, {
        email,
        firstName: `Buyer ${i}`,
        lastName: 'On account',
        roleId,
        password: 'concurrent-2026',
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      employees.push(await client.employeeHeaders(email, 'concurrent-2026'));
    }
    const totals = new Set<number>();
    for (const headers of employees) totals.add(await toArrangingPayment(headers));
    expect(totals.size).to.equal(1);
    const [total] = [...totals] as [number];
    await setLimit(Math.round(total * 2.5) / 100);

    const answers = await Promise.all(employees.map((headers) => client.gql('shop-api', payOnAccount, {}, headers)));
    const placed = answers.filter((answer) => answer.data?.addPaymentToOrder?.state === 'PaymentAuthorized');
    const refused = answers.filter((answer) => /^SUITE__CREDIT_LINE_EXCEEDED: /.test(refusalOf(answer)));
    expect(placed.length, JSON.stringify(answers)).to.equal(2);
    expect(refused.length, JSON.stringify(answers)).to.equal(8);
    expect(await creditLine()).to.include({ balance: (2 * total) / 100 });
    const charged = await client.shop.state.db('suite_credit_line_charges').whereNull('released_at').pluck('order_id');
    expect(charged.sort()).to.deep.equal(
      placed.map((answer) => client.shop.state.ids.toPlugin(answer.data.addPaymentToOrder.id)).sort(),
    );
  });

  /** The demo approver's Store API context, as a plugin route gets it (rate-limit counters reset first). */
  const approverContext = async () => {
    const { state } = client.shop;
    // Ten logins before this one: the login route's counters start afresh, as after a minute.
    await state.db('rate_limit_counters').delete();
    const approver = await client.employeeHeaders(DEMO_APPROVER.email, DEMO_APPROVER.password);
    const ctx = await storeContextOf(client, approver);
    const fill = async () => {
      const added = await client.gql('shop-api', addItem, { v: armVariantId, q: 1 }, approver);
      expect(added.data?.addItemToOrder.__typename, JSON.stringify(added)).to.equal('Order');
      return (await state.runtime.cart.current(state.db, ctx)).token;
    };
    return { state, ctx, fill };
  };

  it("the plugin's checkout.placeOrder pays on account with the shop's method when asked, never by default; an unknown method is a 400", async () => {
    const { state, ctx, fill } = await approverContext();
    await setLimit(1000);
    const before = (await creditLine()).balance;
    const paymentsOf = async (orderId: string) =>
      (
        await client.gql(
          'admin-api',
          'query ($id: ID!) { order(id: $id) { payments { method state } } }',
          { id: state.ids.toVendure(orderId) },
          admin,
        )
      ).data.order.payments as Array<{ method: string; state: string }>;

    const cartToken = await fill();
    const unknown = await state.runtime.checkout
      .placeOrder(state.db, ctx, { cartToken, paymentMethod: 'no-such-method' })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(unknown).to.be.instanceOf(AppError);
    expect((unknown as AppError).code).to.equal('SUITE__PAYMENT_METHOD_UNKNOWN');

    const onAccount = await state.runtime.checkout.placeOrder(state.db, ctx, {
      cartToken,
      paymentMethod: 'on-account',
    });
    expect(onAccount.paymentMethod).to.equal('on-account');
    expect(await paymentsOf(onAccount.id)).to.deep.equal([{ method: 'on-account', state: 'Authorized' }]);
    expect((await creditLine()).balance).to.equal(before + onAccount.total / 100);

    const byDefault = await state.runtime.checkout.placeOrder(state.db, ctx, { cartToken: await fill() });
    expect(byDefault.paymentMethod).to.equal(undefined);
    expect(await paymentsOf(byDefault.id)).to.deep.equal([{ method: 'invoice', state: 'Authorized' }]);
    expect((await creditLine()).balance).to.equal(before + onAccount.total / 100);
  });

  it("the plugin's checkout.placeOrder checks the credit line against the total with shipping: a line that fits only the goods refuses", async () => {
    const { state, ctx, fill } = await approverContext();
    await setLimit(1000);
    const cartToken = await fill();
    const goods = (await state.runtime.cart.price(state.db, ctx, (await state.runtime.cart.get(state.db, cartToken))!))
      .total;
    const line = await creditLine();
    // Room for the goods with tax, not for the shipping the order adds (the example shop's 5.00).
    await setLimit(line.balance + goods / 100 + 0.01);
    const refused = await state.runtime.checkout
      .placeOrder(state.db, ctx, { cartToken, paymentMethod: 'on-account' })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused, 'the shipping does not fit the line').to.be.instanceOf(AppError);
    expect((refused as AppError).code).to.equal('SUITE__CREDIT_LINE_EXCEEDED');
    expect((await creditLine()).balance, 'nothing charged').to.equal(line.balance);
  });
});
