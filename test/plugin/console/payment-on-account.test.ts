import { expect } from 'chai';
import { createTestCustomer, getShop, login } from '../../helpers/shop.js';
import { createUnit } from '../company/helpers.js';
import { admin } from '../payment-on-account/helpers.js';
import { as } from '../sales-representative/helpers.js';
import { CONSOLE, loginOperator } from './helpers.js';

describe('console: a company’s credit line and payment terms', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('the operator sets the credit line, the company’s terms and a unit’s; a refusal stays next to its field', async () => {
    const created = await createTestCustomer({ company: 'Terms & Lines GmbH' });
    const customerId = created.customer.id;
    const client = await as(await login(created.email, created.password));
    const sales = await createUnit(client, 'Sales');
    await createUnit(client, 'North', sales);
    const operator = await loginOperator();
    const base = `/companies/${customerId}/payment-on-account`;

    const company = await operator.agent.get(`${CONSOLE}/companies/${customerId}`);
    expect(company.text).to.contain(`${CONSOLE}${base}`);
    const empty = await operator.agent.get(`${CONSOLE}${base}`);
    expect(empty.status).to.equal(200);
    expect(empty.text).to.contain('data-test="no-credit-line"').and.contain('Sales › North');

    expect((await operator.post(`${base}/credit-line`, { limit: '2500', currencyIso: 'eur' })).status).to.equal(303);
    expect((await admin('get', `/b2b/credit-line/${customerId}`)).body.data.attributes).to.include({
      limit: 2500,
      currencyIso: 'EUR',
      balance: 0,
    });
    expect(
      (await operator.post(`${base}/terms`, { daysNet: '30', discountPercent: '2', discountDays: '10' })).status,
    ).to.equal(303);
    expect((await admin('get', `/b2b/payment-terms/${customerId}`)).body.data.attributes).to.deep.equal({
      daysNet: 30,
      discountPercent: 2,
      discountDays: 10,
    });

    // A discount beyond the days net: refused next to the field, the typed values kept, nothing saved.
    const refused = await operator.post(`${base}/units/${sales}/terms`, {
      daysNet: '14',
      discountPercent: '3',
      discountDays: '20',
    });
    expect(refused.status).to.equal(400);
    expect(refused.text).to.contain(`data-test="field-error-${sales}-discountDays"`).and.contain('value="20"');
    expect((await admin('get', `/b2b/payment-terms/${customerId}/unit/${sales}`)).status).to.equal(404);

    expect(
      (await operator.post(`${base}/units/${sales}/terms`, { daysNet: '14', discountPercent: '', discountDays: '' }))
        .status,
    ).to.equal(303);
    expect((await admin('get', `/b2b/payment-terms/${customerId}/unit/${sales}`)).body.data.attributes).to.deep.equal({
      daysNet: 14,
      discountPercent: 0,
      discountDays: 0,
    });
    const page = await operator.agent.get(`${CONSOLE}${base}`);
    expect(page.text).to.contain('€2,500.00').and.contain('data-test="remove-unit-terms"');

    expect((await operator.post(`${base}/units/${sales}/terms/remove`, {})).status).to.equal(303);
    expect((await admin('get', `/b2b/payment-terms/${customerId}/unit/${sales}`)).status).to.equal(404);
    expect((await operator.agent.get(`${CONSOLE}/companies/${'0'.repeat(32)}/payment-on-account`)).status).to.equal(
      404,
    );
  });
});
