import { expect } from 'chai';
import { DEMO_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { AppError } from '../../src/lib/errors.js';
import { DEMO_APPROVER } from '../../src/plugin/employee/demo.js';
import { bearer, bootShop, type GqlAnswer, type ShopClient, storeContextOf } from './helpers/shop.js';

/**
 * Contract 4.1's checkout methods on Vendure (payment-methods.ts, order-process.ts, place-order.ts):
 * a unit's allowed shipping and payment methods (the company add-on's checkout-methods) name Vendure
 * methods by code; the checkers `suite-b2b-allowed` (shipping) and `suite-b2b-available` (payment)
 * the shop puts on its methods leave the others out of the Shop API's eligible methods; an order that
 * carries a disallowed shipping method anyway is refused when it moves to ArrangingPayment, one paid by
 * a disallowed method when Vendure places it; the plugin's placeOrder picks allowed methods by default.
 */
describe('Vendure: the checkout methods an organisation unit allows', function () {
  this.timeout(180_000);
  let client: ShopClient;
  let armVariantId: string;
  let admin: Record<string, string>;
  let companyAdmin: Record<string, string>;
  let buyer: Record<string, string>;
  let unitId: string;
  const shippingIds: Record<string, string> = {};

  const address =
    'mutation { setOrderShippingAddress(input: { fullName: "Demo Company", streetLine1: "Hauptstr. 1", city: "Berlin", postalCode: "10115", countryCode: "DE" }) { __typename } }';
  const addItem =
    'mutation ($v: ID!, $q: Int!) { addItemToOrder(productVariantId: $v, quantity: $q) { __typename ... on ErrorResult { errorCode message } } }';
  const setShipping =
    'mutation ($id: [ID!]!) { setOrderShippingMethod(shippingMethodId: $id) { __typename ... on Order { shippingLines { shippingMethod { code } } } ... on ErrorResult { errorCode message } } }';
  const toPayment =
    'mutation { transitionOrderToState(state: "ArrangingPayment") { __typename ... on Order { state } ... on OrderStateTransitionError { transitionError } } }';
  const backToCart = 'mutation { transitionOrderToState(state: "AddingItems") { __typename } }';

  const eligibleShipping = async (headers: Record<string, string>) =>
    (
      (await client.gql('shop-api', '{ eligibleShippingMethods { code } }', {}, headers)).data
        .eligibleShippingMethods as Array<{ code: string }>
    )
      .map((m) => m.code)
      .sort();
  const eligiblePayment = async (headers: Record<string, string>) =>
    (
      (await client.gql('shop-api', '{ eligiblePaymentMethods { code isEligible } }', {}, headers)).data
        .eligiblePaymentMethods as Array<{ code: string; isEligible: boolean }>
    )
      .filter((m) => m.isEligible)
      .map((m) => m.code)
      .sort();
  const restrict = async (paymentMethods: string[] | null, shippingMethods: string[] | null) => {
    const res = await client.rest('PUT', `/store-api/b2b/organisation-unit/${unitId}/checkout-methods`, companyAdmin, {
      paymentMethods,
      shippingMethods,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };
  const gqlOk = (answer: GqlAnswer) => {
    expect(answer.errors, JSON.stringify(answer)).to.equal(undefined);
    return answer.data;
  };
  /** The shop's shipping method with `code`, governed by the plugin's checker (or Vendure's default one). */
  const checkerOn = async (code: string, checker: 'suite-b2b-allowed' | 'default-shipping-eligibility-checker') => {
    const args = checker === 'default-shipping-eligibility-checker' ? [{ name: 'orderMinimum', value: '0' }] : [];
    const updated = await client.gql(
      'admin-api',
      'mutation ($input: UpdateShippingMethodInput!) { updateShippingMethod(input: $input) { checker { code } } }',
      { input: { id: shippingIds[code], checker: { code: checker, arguments: args }, translations: [] } },
      admin,
    );
    expect(gqlOk(updated).updateShippingMethod.checker.code).to.equal(checker);
  };
  /** A monitor arm more in the buyer's active order, which goes to Berlin. */
  const fillCart = async (headers: Record<string, string>) => {
    const added = await client.gql('shop-api', addItem, { v: armVariantId, q: 1 }, headers);
    expect(added.data?.addItemToOrder.__typename, JSON.stringify(added)).to.equal('Order');
    await client.gql('shop-api', address, {}, headers);
  };
  const shipBy = async (headers: Record<string, string>, code: string) => {
    const set = await client.gql('shop-api', setShipping, { id: [shippingIds[code]] }, headers);
    expect(set.data.setOrderShippingMethod.shippingLines, JSON.stringify(set)).to.deep.equal([
      { shippingMethod: { code } },
    ]);
  };

  before(async function () {
    this.timeout(240_000);
    client = await bootShop({ label: 'vendure_checkout_methods', runJobs: false });
    const { data } = await client.gql('shop-api', '{ product(slug: "monitor-arm") { variants { id } } }');
    armVariantId = data.product.variants[0].id;
    admin = bearer(await client.vendureLogin('admin-api', 'superadmin', 'superadmin'));
    // The example shop's one shipping method; the shop adds an express one, both governed by the plugin's checker.
    const express = await client.gql(
      'admin-api',
      `mutation { createShippingMethod(input: { code: "express", fulfillmentHandler: "manual-fulfillment",
        checker: { code: "suite-b2b-allowed", arguments: [] },
        calculator: { code: "default-shipping-calculator", arguments: [
          { name: "rate", value: "1500" }, { name: "includesTax", value: "exclude" }, { name: "taxRate", value: "0" }] },
        translations: [{ languageCode: en, name: "Express", description: "" }] }) { id code } }`,
      {},
      admin,
    );
    expect(gqlOk(express).createShippingMethod.code).to.equal('express');
    const methods = gqlOk(await client.gql('admin-api', '{ shippingMethods { items { id code } } }', {}, admin))
      .shippingMethods.items as Array<{ id: string; code: string }>;
    for (const method of methods) shippingIds[method.code] = method.id;
    expect(Object.keys(shippingIds).sort()).to.deep.equal(['express', 'standard-shipping']);
    await checkerOn('standard-shipping', 'suite-b2b-allowed');
    // A second payment method under the plugin's checker beside the shop's invoice (no checker).
    const prepayment = await client.gql(
      'admin-api',
      `mutation { createPaymentMethod(input: { code: "prepayment", enabled: true,
        handler: { code: "dummy-payment-handler", arguments: [{ name: "automaticSettle", value: "false" }] },
        checker: { code: "suite-b2b-available", arguments: [] },
        translations: [{ languageCode: en, name: "Prepayment" }] }) { id } }`,
      {},
      admin,
    );
    gqlOk(prepayment);
    // And the plugin's payment on account (offered once the company has a credit line).
    const onAccount = await client.gql(
      'admin-api',
      `mutation { createPaymentMethod(input: { code: "on-account", enabled: true,
        handler: { code: "suite-b2b-on-account", arguments: [] },
        checker: { code: "suite-b2b-available", arguments: [] },
        translations: [{ languageCode: en, name: "On account" }] }) { id } }`,
      {},
      admin,
    );
    gqlOk(onAccount);

    companyAdmin = bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    buyer = await client.employeeHeaders(DEMO_APPROVER.email, DEMO_APPROVER.password);
    const employeeId = (await client.rest('GET', '/store-api/context', buyer)).body.employee.id as string;
    const unit = await client.rest('POST', '/store-api/b2b/organisation-unit', companyAdmin, { name: 'Field team' });
    expect(unit.status, JSON.stringify(unit.body)).to.equal(200);
    unitId = unit.body.unit.id as string;
    const member = await client.rest(
      'PUT',
      `/store-api/b2b/organisation-unit/${unitId}/member/${employeeId}`,
      companyAdmin,
      {},
    );
    expect(member.status, JSON.stringify(member.body)).to.equal(200);
  });

  after(async function () {
    this.timeout(60_000);
    await client?.close();
  });

  it('the shop is offered the checker suite-b2b-allowed for its shipping methods', async () => {
    const { shippingEligibilityCheckers } = gqlOk(
      await client.gql('admin-api', '{ shippingEligibilityCheckers { code } }', {}, admin),
    );
    expect(shippingEligibilityCheckers.map((c: { code: string }) => c.code)).to.include('suite-b2b-allowed');
  });

  it("a unit's methods name Vendure codes: an unknown code is a 400 and changes nothing, known codes are saved", async () => {
    const path = `/store-api/b2b/organisation-unit/${unitId}/checkout-methods`;
    const unknown = await client.rest('PUT', path, companyAdmin, {
      paymentMethods: ['invoice'],
      shippingMethods: ['express', 'drone'],
    });
    expect(unknown.status, JSON.stringify(unknown.body)).to.equal(400);
    expect(unknown.body.errors[0]).to.deep.include({ code: 'SUITE__CHECKOUT_METHOD_UNKNOWN' });
    expect(unknown.body.errors[0].source.pointer).to.equal('/shippingMethods/1');
    expect(unknown.body.errors[0].meta.known.sort()).to.deep.equal(['express', 'standard-shipping']);
    const unknownPayment = await client.rest('PUT', path, companyAdmin, {
      paymentMethods: ['cash'],
      shippingMethods: null,
    });
    expect(unknownPayment.status, JSON.stringify(unknownPayment.body)).to.equal(400);
    expect(unknownPayment.body.errors[0].meta.known.sort()).to.deep.equal(['invoice', 'on-account', 'prepayment']);
    expect((await client.rest('GET', path, companyAdmin)).body).to.deep.include({
      paymentMethods: null,
      shippingMethods: null,
    });

    const saved = await restrict(['invoice'], ['express']);
    expect(saved).to.deep.include({
      unitId,
      paymentMethods: ['invoice'],
      shippingMethods: ['express'],
      effective: { paymentMethods: ['invoice'], shippingMethods: ['express'] },
    });
    await restrict(null, null);
  });

  it("the unit's buyer is offered only its methods; a shipping method set before the restriction is refused at ArrangingPayment", async () => {
    // Unrestricted: the buyer is offered both shipping methods and both payment methods, and sets standard.
    await fillCart(buyer);
    expect(await eligibleShipping(buyer)).to.deep.equal(['express', 'standard-shipping']);
    await shipBy(buyer, 'standard-shipping');
    expect(await eligiblePayment(buyer)).to.deep.equal(['invoice', 'prepayment']);

    await restrict(['invoice'], ['express']);
    expect(await eligibleShipping(buyer)).to.deep.equal(['express']);
    expect(await eligiblePayment(buyer)).to.deep.equal(['invoice']);
    // The company admin belongs to no unit: unrestricted.
    await fillCart(companyAdmin);
    expect(await eligibleShipping(companyAdmin)).to.deep.equal(['express', 'standard-shipping']);
    expect(await eligiblePayment(companyAdmin)).to.deep.equal(['invoice', 'prepayment']);

    // Vendure refuses to set standard now (its checker says no) ...
    const again = await client.gql('shop-api', setShipping, { id: [shippingIds['standard-shipping']] }, buyer);
    expect(again.data.setOrderShippingMethod.errorCode, JSON.stringify(again)).to.equal(
      'INELIGIBLE_SHIPPING_METHOD_ERROR',
    );
    // ... and the order that still carries it does not go to payment.
    const refused = (await client.gql('shop-api', toPayment, {}, buyer)).data.transitionOrderToState;
    expect(refused.__typename, JSON.stringify(refused)).to.equal('OrderStateTransitionError');
    expect(refused.transitionError).to.match(/^SUITE__SHIPPING_METHOD_NOT_ALLOWED: .*"standard-shipping".*express/);

    const express = await client.gql('shop-api', setShipping, { id: [shippingIds.express] }, buyer);
    expect(express.data.setOrderShippingMethod.shippingLines, JSON.stringify(express)).to.deep.equal([
      { shippingMethod: { code: 'express' } },
    ]);
    const moved = (await client.gql('shop-api', toPayment, {}, buyer)).data.transitionOrderToState;
    expect(moved, JSON.stringify(moved)).to.deep.equal({ __typename: 'Order', state: 'ArrangingPayment' });
    await client.gql('shop-api', backToCart, {}, buyer);
    await restrict(null, null);
  });

  it('a shipping method without the checker is offered, but an order with it is refused at ArrangingPayment', async () => {
    await restrict(null, ['express']);
    await checkerOn('standard-shipping', 'default-shipping-eligibility-checker');
    try {
      await fillCart(buyer);
      expect(await eligibleShipping(buyer)).to.deep.equal(['express', 'standard-shipping']);
      await shipBy(buyer, 'standard-shipping');
      const refused = (await client.gql('shop-api', toPayment, {}, buyer)).data.transitionOrderToState;
      expect(refused.transitionError, JSON.stringify(refused)).to.match(/^SUITE__SHIPPING_METHOD_NOT_ALLOWED: /);
      const active = await client.gql('shop-api', '{ activeOrder { state } }', {}, buyer);
      expect(active.data.activeOrder.state).to.equal('AddingItems');
    } finally {
      await checkerOn('standard-shipping', 'suite-b2b-allowed');
      await restrict(null, null);
    }
  });

  it("paying by a shop method the unit does not allow (one without the plugin's checker) is refused when Vendure places the order", async () => {
    await restrict(['prepayment'], null);
    try {
      await fillCart(buyer);
      await shipBy(buyer, 'express');
      const moved = (await client.gql('shop-api', toPayment, {}, buyer)).data.transitionOrderToState;
      expect(moved.state, JSON.stringify(moved)).to.equal('ArrangingPayment');
      // The shop's invoice method has no checker: Vendure offers it, the plugin refuses it at placement.
      expect(await eligiblePayment(buyer)).to.deep.equal(['invoice', 'prepayment']);
      const pay = (method: string) =>
        client.gql(
          'shop-api',
          'mutation ($m: String!) { addPaymentToOrder(input: { method: $m, metadata: {} }) { __typename ... on Order { state payments { method state } } ... on ErrorResult { errorCode message } } }',
          { m: method },
          buyer,
        );
      const refused = await pay('invoice');
      expect(refused.data?.addPaymentToOrder ?? null, JSON.stringify(refused)).to.equal(null);
      expect(refused.errors?.[0]?.message).to.match(/^SUITE__PAYMENT_METHOD_NOT_ALLOWED: .*"invoice".*prepayment/);
      const active = await client.gql('shop-api', '{ activeOrder { state payments { id } } }', {}, buyer);
      expect(active.data.activeOrder).to.deep.equal({ state: 'ArrangingPayment', payments: [] });
      const paid = await pay('prepayment');
      expect(paid.data?.addPaymentToOrder, JSON.stringify(paid)).to.deep.include({
        state: 'PaymentAuthorized',
        payments: [{ method: 'prepayment', state: 'Authorized' }],
      });
    } finally {
      await restrict(null, null);
    }
  });

  it("the plugin's checkout.placeOrder picks allowed methods by default (the shop's configured one only if allowed, on account if only it is) and refuses a disallowed one", async () => {
    const { state } = client.shop;
    const ctx = await storeContextOf(client, buyer);
    const fill = async () => {
      const added = await client.gql('shop-api', addItem, { v: armVariantId, q: 1 }, buyer);
      expect(added.data?.addItemToOrder.__typename, JSON.stringify(added)).to.equal('Order');
      return (await state.runtime.cart.current(state.db, ctx)).token;
    };
    /** The placed order's shipping and payment methods, as Vendure's Admin API shows them. */
    const methodsOf = async (orderId: string) => {
      const { order } = gqlOk(
        await client.gql(
          'admin-api',
          'query ($id: ID!) { order(id: $id) { shippingLines { shippingMethod { code } } payments { method } } }',
          { id: state.ids.toVendure(orderId) },
          admin,
        ),
      );
      return {
        shipping: order.shippingLines.map((l: { shippingMethod: { code: string } }) => l.shippingMethod.code),
        payment: order.payments.map((p: { method: string }) => p.method),
      };
    };
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: unknown) => error,
      );

    await restrict(['prepayment'], ['express']);
    // As a shop that configures invoice as the placed orders' payment method (adapter option placedOrderPaymentMethod).
    const options = state.options as { placedOrderPaymentMethod?: string };
    options.placedOrderPaymentMethod = 'invoice';
    try {
      // Unrestricted, the order would ship standard (the cheaper, first eligible) and be paid by invoice
      // (configured); the unit allows express and prepayment only.
      const byDefault = await state.runtime.checkout.placeOrder(state.db, ctx, { cartToken: await fill() });
      expect(await methodsOf(byDefault.id)).to.deep.equal({ shipping: ['express'], payment: ['prepayment'] });
    } finally {
      delete options.placedOrderPaymentMethod;
    }

    const next = await fill();
    const refused = await refusal(
      state.runtime.checkout.placeOrder(state.db, ctx, { cartToken: next, shippingMethod: 'standard-shipping' }),
    );
    expect(refused).to.be.instanceOf(AppError);
    expect((refused as AppError).code).to.equal('SUITE__SHIPPING_METHOD_NOT_ALLOWED');
    const unknown = await refusal(
      state.runtime.checkout.placeOrder(state.db, ctx, { cartToken: next, shippingMethod: 'drone' }),
    );
    expect((unknown as AppError).code).to.equal('SUITE__SHIPPING_METHOD_UNKNOWN');

    // Only on account allowed: an order naming no method is paid on account and charges the credit line.
    await restrict(['on-account'], null);
    const customerId = (await client.rest('GET', '/store-api/context', companyAdmin)).body.customer.id as string;
    const line = `/b2b-admin-api/b2b/credit-line/${customerId}`;
    const limit = await client.rest('PUT', line, admin, { limit: 1000, currencyIso: 'USD' });
    expect(limit.status, JSON.stringify(limit.body)).to.equal(200);
    const onAccount = await state.runtime.checkout.placeOrder(state.db, ctx, { cartToken: next });
    expect(onAccount.paymentMethod).to.equal('on-account');
    expect(await methodsOf(onAccount.id)).to.deep.equal({ shipping: ['standard-shipping'], payment: ['on-account'] });
    expect((await client.rest('GET', line, admin)).body.data.attributes.balance).to.equal(onAccount.total / 100);

    await restrict(null, null);
    const named = await state.runtime.checkout.placeOrder(state.db, ctx, {
      cartToken: await fill(),
      shippingMethod: 'express',
    });
    expect(await methodsOf(named.id)).to.deep.equal({ shipping: ['express'], payment: ['invoice'] });
  });
});
