import { expect } from 'chai';
import { expectError, http } from '../../helpers/shop.js';
import { as, employeeWith, newCustomer } from '../employee/helpers.js';
import { as as companyClient } from '../sales-representative/helpers.js';
import { createUnit } from '../company/helpers.js';
import { admin, fillCart, setTerms, widget } from './helpers.js';

const BUYER = ['orders.create', 'orders.read'];

async function unitTerms(customerId: string, unitId: string, terms: Record<string, number>) {
  const res = await admin('put', `/b2b/payment-terms/${customerId}/unit/${unitId}`, terms);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
}

/** The terms an order of the buyer carries, and what checkout shows them beforehand. */
async function termsOfOrder(token: string, productId: string) {
  const shown = (await (await as(token)).get('/b2b/payment-on-account')).body.paymentTerms;
  await fillCart(token, productId);
  const placed = await (await as(token)).post('/checkout/order', {});
  expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
  expect(placed.body.customFields.paymentTerms, 'checkout showed the terms the order got').to.deep.equal(shown);
  return placed.body.customFields.paymentTerms as { daysNet: number } | undefined;
}

describe('payment on account: payment terms per organisation unit', () => {
  it('a unit’s terms apply to its subtree instead of the company’s; the deepest unit’s win; removing them restores the company’s', async () => {
    const company = await newCustomer();
    const client = await companyClient(company.token);
    const product = await widget();
    await setTerms(company.customer.id, { daysNet: 30, discountPercent: 0, discountDays: 0 });
    const sales = await createUnit(client, 'Sales');
    const north = await createUnit(client, 'North', sales);
    const team = await createUnit(client, 'Team', north);
    const purchasing = await createUnit(client, 'Purchasing');
    const northBuyer = await employeeWith(BUYER, company);
    const teamBuyer = await employeeWith(BUYER, company);
    const purchasingBuyer = await employeeWith(BUYER, company);
    await client.put(`/b2b/organisation-unit/${north}/member/${northBuyer.employee.id}`, {});
    await client.put(`/b2b/organisation-unit/${team}/member/${teamBuyer.employee.id}`, {});
    await client.put(`/b2b/organisation-unit/${purchasing}/member/${teamBuyer.employee.id}`, {});
    await client.put(`/b2b/organisation-unit/${purchasing}/member/${purchasingBuyer.employee.id}`, {});

    await unitTerms(company.customer.id, sales, { daysNet: 14, discountPercent: 2, discountDays: 7 });
    await unitTerms(company.customer.id, purchasing, { daysNet: 60, discountPercent: 0, discountDays: 0 });
    await unitTerms(company.customer.id, team, { daysNet: 45, discountPercent: 0, discountDays: 0 });

    expect(await termsOfOrder(northBuyer.token, product.id)).to.deep.equal({
      daysNet: 14,
      discountPercent: 2,
      discountDays: 7,
    });
    // Team (three deep) and Purchasing (top level) both have terms: the deeper unit's apply.
    expect((await termsOfOrder(teamBuyer.token, product.id))?.daysNet).to.equal(45);
    expect((await termsOfOrder(purchasingBuyer.token, product.id))?.daysNet).to.equal(60);
    // The company admin orders under the company's terms.
    expect((await termsOfOrder(company.token, product.id))?.daysNet).to.equal(30);

    const read = await admin('get', `/b2b/payment-terms/${company.customer.id}/unit/${sales}`);
    expect(read.body.data).to.deep.include({ id: sales, type: 'b2b_payment_terms' });
    expect((await admin('delete', `/b2b/payment-terms/${company.customer.id}/unit/${sales}`)).status).to.equal(204);
    expect((await termsOfOrder(northBuyer.token, product.id))?.daysNet).to.equal(30);
    expectError(await admin('get', `/b2b/payment-terms/${company.customer.id}/unit/${sales}`), 404);
  });

  it('refuses another company’s unit (404), invalid terms (400) and a caller without an admin token (401)', async () => {
    const company = await newCustomer();
    const other = await newCustomer();
    const theirs = await createUnit(await companyClient(other.token), 'Theirs');
    const ours = await createUnit(await companyClient(company.token), 'Ours');
    const terms = { daysNet: 30, discountPercent: 0, discountDays: 0 };
    expectError(await admin('put', `/b2b/payment-terms/${company.customer.id}/unit/${theirs}`, terms), 404);
    expectError(
      await admin('put', `/b2b/payment-terms/${company.customer.id}/unit/${ours}`, {
        daysNet: 10,
        discountPercent: 3,
        discountDays: 20,
      }),
      400,
      'SUITE__PAYMENT_TERMS_INVALID',
    );
    expectError(await admin('get', `/b2b/payment-terms/${company.customer.id}/unit/${ours}`), 404);
    const anonymous = await (
      await http()
    )
      .put(`/api/b2b/payment-terms/${company.customer.id}/unit/${ours}`)
      .send(terms);
    expect(anonymous.status).to.equal(401);
  });
});
