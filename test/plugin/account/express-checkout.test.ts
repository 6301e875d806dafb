import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { nowDb } from '../../../src/lib/time.js';
import { insertProduct } from '../../helpers/checkout.js';
import { expectError, getShop } from '../../helpers/shop.js';
import { as, employeeWith, newCustomer, type Customer } from '../sales-representative/helpers.js';

async function addAddress(customer: Customer, city: string): Promise<string> {
  const id = newId();
  await (await getShop()).db('customer_addresses').insert({
    id,
    customer_id: customer.customer.id,
    company: null,
    first_name: 'Express',
    last_name: 'Address',
    street: 'Fast Lane 1',
    zipcode: '10115',
    city,
    country_code: 'DE',
    created_at: nowDb(),
  });
  return id;
}

async function fillCart(token: string, quantity = 2): Promise<void> {
  const product = await insertProduct({ name: 'Express widget' });
  const added = await (
    await as(token)
  ).post('/checkout/cart/line-item', { items: [{ productId: product.id, quantity }] });
  expect(added.status, JSON.stringify(added.body)).to.be.oneOf([200, 201]);
}

describe('account: POST /express-checkout/order', () => {
  it("orders the cart in one step with the caller's express settings, else the customer's defaults", async () => {
    const customer = await newCustomer();
    const client = await as(customer.token);
    const berlin = await addAddress(customer, 'Berlin');
    const potsdam = await addAddress(customer, 'Potsdam');
    await client.patch('/express-checkout-setting', {
      enabled: true,
      defaultBillingAddressId: berlin,
      defaultShippingAddressId: potsdam,
    });
    await fillCart(customer.token);
    const placed = await client.post('/express-checkout/order', { customerComment: 'Quick one' });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    expect(placed.body.billingAddress).to.include({ city: 'Berlin' });
    expect(placed.body.shippingAddress).to.include({ city: 'Potsdam' });
    expect(placed.body.customerComment).to.equal('Quick one');
    expect(placed.body.lineItems).to.have.length(1);
    // The cart is ordered: a second express order finds an empty cart.
    expectError(await client.post('/express-checkout/order', {}), 400, 'SUITE__CART_EMPTY');

    // Unset addresses fall back to the customer's defaults.
    await client.patch('/express-checkout-setting', { defaultBillingAddressId: null, defaultShippingAddressId: null });
    await fillCart(customer.token);
    const fallback = await client.post('/express-checkout/order', {});
    expect(fallback.status, JSON.stringify(fallback.body)).to.equal(200);
    expect(fallback.body.billingAddress).to.include({ city: 'Testcity' });
    expect(fallback.body.shippingAddress).to.include({ city: 'Testcity' });
  });

  it('orders with the setting’s shipping and payment method; an unknown one is refused when set', async () => {
    const customer = await newCustomer();
    const client = await as(customer.token);
    const unknown = expectError(
      await client.patch('/express-checkout-setting', { enabled: true, defaultShippingMethod: 'drone' }),
      400,
      'SUITE__CHECKOUT_METHOD_UNKNOWN',
    );
    expect(unknown.source?.pointer).to.equal('/defaultShippingMethod');
    const set = await client.patch('/express-checkout-setting', {
      enabled: true,
      defaultShippingMethod: 'express',
      defaultPaymentMethod: 'invoice',
    });
    expect(set.status, JSON.stringify(set.body)).to.equal(200);
    await fillCart(customer.token);
    const placed = await client.post('/express-checkout/order', {});
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    expect(placed.body.deliveries[0].shippingMethod.technicalName).to.equal('express');
    expect(placed.body.transactions[0].paymentMethod.technicalName).to.equal('invoice');
  });

  it('refuses a disabled or incomplete express checkout with a clear error', async () => {
    const customer = await newCustomer();
    const client = await as(customer.token);
    await fillCart(customer.token);
    expectError(await client.post('/express-checkout/order', {}), 400, 'SUITE__EXPRESS_CHECKOUT_DISABLED');
    await client.patch('/express-checkout-setting', { enabled: true });
    await (
      await getShop()
    )
      .db('customers')
      .where({ id: customer.customer.id })
      .update({ default_billing_address_id: null, default_shipping_address_id: null });
    const incomplete = await client.post('/express-checkout/order', {});
    const error = expectError(incomplete, 400, 'SUITE__EXPRESS_CHECKOUT_INCOMPLETE');
    expect(error.source?.pointer).to.equal('/defaultBillingAddressId');
    expect(incomplete.body.errors[0].meta.missing).to.deep.equal(['defaultBillingAddressId']);
    expect(error.detail).to.contain('defaultBillingAddressId');
  });

  it('is per buyer and needs orders.create; bad input 400, guests 401', async () => {
    const customer = await newCustomer();
    await (await as(customer.token)).patch('/express-checkout-setting', { enabled: true });
    const buyer = await employeeWith(['orders.create', 'orders.read'], customer);
    await fillCart(buyer.token);
    // The company's setting is not the employee's.
    expectError(
      await (await as(buyer.token)).post('/express-checkout/order', {}),
      400,
      'SUITE__EXPRESS_CHECKOUT_DISABLED',
    );
    await (await as(buyer.token)).patch('/express-checkout-setting', { enabled: true });
    const placed = await (await as(buyer.token)).post('/express-checkout/order', {});
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);

    const reader = await employeeWith(['orders.read'], customer);
    expectError(await (await as(reader.token)).post('/express-checkout/order', {}), 403);
    expectError(await (await as(null)).post('/express-checkout/order', {}), 401);
    expectError(
      await (await as(customer.token)).post('/express-checkout/order', { comment: 'unknown field' }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(
      await (await as(customer.token)).post('/express-checkout/order', { customerComment: 5 }),
      400,
      'SUITE__INVALID_INPUT',
    );
  });
});
