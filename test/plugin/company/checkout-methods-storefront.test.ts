import { expect } from 'chai';
import { addToCart } from '../../helpers/checkout.js';
import { loggedInVisitor } from '../../helpers/storefront.js';
import { product } from '../order-approval/helpers.js';
import { as, createEmployee, newCustomer } from '../sales-representative/helpers.js';
import { createUnit } from './helpers.js';

const radios = (html: string, name: string) =>
  [...html.matchAll(new RegExp(`<input type="radio" name="${name}" value="([^"]+)"`, 'g'))].map((m) => m[1]);

describe('organisation units: checkout methods in the storefront', () => {
  it('the company admin limits a unit to express delivery; its buyer’s checkout offers only express and refuses standard', async () => {
    const admin = await newCustomer();
    const unit = await createUnit(await as(admin.token), 'Field team');
    const buyer = await createEmployee(admin.token, { permissions: ['orders.create', 'orders.read'] });
    await (await as(admin.token)).put(`/b2b/organisation-unit/${unit}/member/${buyer.id}`, {});

    const adminVisitor = await loggedInVisitor(admin.email, admin.password);
    const units = await adminVisitor.get('/account/organisation-units');
    expect(units.text).to.contain(`/account/organisation-units/${unit}/checkout-methods`);
    const page = await adminVisitor.get(`/account/organisation-units/${unit}/checkout-methods`);
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('Delivery now allowed: every method.');
    const saved = await adminVisitor.post(`/account/organisation-units/${unit}/checkout-methods`, {
      shippingMethods: 'express',
    });
    expect(saved.status, saved.text).to.equal(303);
    const after = await adminVisitor.get(`/account/organisation-units/${unit}/checkout-methods?done=saved`);
    expect(after.text).to.contain('The checkout methods were saved.').and.contain('Delivery now allowed: Express.');
    expect(after.text).to.contain('Payment now allowed: every method.');

    // The buyer's checkout: only express to choose; a forged standard is refused with the code, express orders.
    const buyerVisitor = await loggedInVisitor(buyer.email, buyer.password);
    const item = await product();
    await buyerVisitor.post('/cart/add', { productId: item.id, quantity: '1' });
    const checkout = await buyerVisitor.get('/checkout');
    expect(radios(checkout.text, 'shippingMethod')).to.deep.equal(['express']);
    expect(radios(checkout.text, 'paymentMethod')).to.deep.equal(['invoice']);
    const refused = await buyerVisitor.post('/checkout/order', { shippingMethod: 'standard' });
    expect(refused.status).to.equal(400);
    expect(refused.text).to.contain('data-code="SUITE__SHIPPING_METHOD_NOT_ALLOWED"');
    const placed = await buyerVisitor.post('/checkout/order', { shippingMethod: 'express', paymentMethod: 'invoice' });
    expect(placed.status, placed.text).to.equal(303);

    // The admin's own checkout is not limited.
    await addToCart(admin.token, [{ productId: item.id, quantity: 1 }]);
    expect(radios((await adminVisitor.get('/checkout')).text, 'shippingMethod')).to.deep.equal(['standard', 'express']);
  });

  it('an unknown method is shown as the refusal, and a reader sees the page without the form', async () => {
    const admin = await newCustomer();
    const unit = await createUnit(await as(admin.token), 'Sales');
    const adminVisitor = await loggedInVisitor(admin.email, admin.password);
    const refused = await adminVisitor.post(`/account/organisation-units/${unit}/checkout-methods`, {
      shippingMethods: ['express', 'drone'],
    });
    expect(refused.status).to.equal(400);
    expect(refused.text).to.contain('There is no shipping method &quot;drone&quot;');
    const reader = await createEmployee(admin.token, { permissions: ['organisation-unit.read'] });
    const readerPage = await (
      await loggedInVisitor(reader.email, reader.password)
    ).get(`/account/organisation-units/${unit}/checkout-methods`);
    expect(readerPage.status).to.equal(200);
    expect(readerPage.text).not.to.contain('data-test="checkout-methods-form"');
  });
});
