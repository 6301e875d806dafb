import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { pdfTexts } from '../../helpers/pdf.js';
import { adminToken, expectError, http } from '../../helpers/shop.js';
import { as, employeeWith, newCustomer } from '../employee/helpers.js';
import { admin, fillCart, ORDER_TOTAL, orderOnAccount, setCreditLine, setTerms, widget } from './helpers.js';

/** The invoice's text as one string, whitespace collapsed. */
async function invoiceText(token: string, order: Record<string, any>): Promise<string> {
  const res = await (
    await as(token)
  ).agent
    .get(`/store-api/document/download/${order.documents[0].id}`)
    .set('suite-context-token', token)
    .buffer(true);
  expect(res.status).to.equal(200);
  return pdfTexts(res.body as Buffer)
    .join(' ')
    .replace(/\s+/g, ' ');
}

const today = () => new Date().toISOString().slice(0, 10);
const inDays = (days: number) =>
  new Date(Date.parse(`${today()}T00:00:00Z`) + days * 86400000).toISOString().slice(0, 10);

describe('payment on account', function () {
  this.timeout(60000);

  it('lists on account beside invoice only to a buyer whose company has a credit line in the channel’s currency', async () => {
    const methods = async (token: string | null) => {
      const res = await (await as(token)).post('/payment-method', {});
      expect(res.status).to.equal(200);
      return res.body.elements.map((m: { technicalName: string }) => m.technicalName);
    };
    expect(await methods(null)).to.deep.equal(['invoice']);
    const company = await newCustomer();
    expect(await methods(company.token)).to.deep.equal(['invoice']);
    await setCreditLine(company.customer.id, 500, 'USD');
    expect(await methods(company.token)).to.deep.equal(['invoice']);
    await setCreditLine(company.customer.id, 500);
    expect(await methods(company.token)).to.deep.equal(['invoice', 'on-account']);
    const buyer = await employeeWith(['orders.create'], company);
    expect(await methods(buyer.token)).to.deep.equal(['invoice', 'on-account']);
  });

  it('charges the credit line, refuses an order over the remaining line with a code, and a cancellation releases the amount', async () => {
    const company = await newCustomer();
    const product = await widget();
    await setCreditLine(company.customer.id, 250);

    const first = await orderOnAccount(company.token, product.id);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body.transactions[0].paymentMethod.technicalName).to.equal('on-account');
    const second = await orderOnAccount(company.token, product.id);
    expect(second.status, JSON.stringify(second.body)).to.equal(200);

    const view = await (await as(company.token)).get('/b2b/payment-on-account');
    expect(view.status).to.equal(200);
    expect(view.body.creditLine).to.deep.equal({
      limit: 250,
      currencyIso: 'EUR',
      balance: 2 * ORDER_TOTAL,
      remaining: 250 - 2 * ORDER_TOTAL,
    });

    // 12.00 left: a 119.00 order is refused, nothing is written, the cart stays.
    await fillCart(company.token, product.id);
    const refused = await (await as(company.token)).post('/checkout/order', { paymentMethod: 'on-account' });
    const error = expectError(refused, 400, 'SUITE__CREDIT_LINE_EXCEEDED');
    expect(error.detail).to.contain('12.00 EUR');
    // Paid by invoice, the same cart is ordered (the line limits only orders on account).
    const byInvoice = await (await as(company.token)).post('/checkout/order', {});
    expect(byInvoice.status, JSON.stringify(byInvoice.body)).to.equal(200);
    expect(byInvoice.body.transactions[0].paymentMethod.technicalName).to.equal('invoice');

    const cancel = async (orderId: string) =>
      (await http())
        .post(`/api/_action/order/${orderId}/state/cancel`)
        .set('authorization', `Bearer ${await adminToken()}`)
        .send({});
    expect((await cancel(first.body.id)).status).to.equal(200);
    expect((await cancel(byInvoice.body.id)).status).to.equal(200);
    const line = await admin('get', `/b2b/credit-line/${company.customer.id}`);
    expect(line.body.data.attributes).to.deep.equal({
      limit: 250,
      currencyIso: 'EUR',
      balance: ORDER_TOTAL,
      remaining: 250 - ORDER_TOTAL,
    });
    // A second cancellation is refused by the host and releases nothing twice.
    expect((await cancel(first.body.id)).status).to.equal(400);
    expect((await admin('get', `/b2b/credit-line/${company.customer.id}`)).body.data.attributes.balance).to.equal(
      ORDER_TOTAL,
    );

    // The room freed lets the next order on account through.
    expect((await orderOnAccount(company.token, product.id)).status).to.equal(200);
  });

  it('refuses an order on account without a credit line, or in another currency, and an unknown payment method', async () => {
    const company = await newCustomer();
    const product = await widget();
    expectError(await orderOnAccount(company.token, product.id), 400, 'SUITE__CREDIT_LINE_MISSING');
    await setCreditLine(company.customer.id, 1000, 'USD');
    expectError(
      await (await as(company.token)).post('/checkout/order', { paymentMethod: 'on-account' }),
      400,
      'SUITE__CREDIT_LINE_CURRENCY',
    );
    expectError(
      await (await as(company.token)).post('/checkout/order', { paymentMethod: 'bitcoin' }),
      400,
      'SUITE__PAYMENT_METHOD_UNKNOWN',
    );
  });

  it('puts the payment terms on the order and in the invoice PDF, and shows them at checkout', async () => {
    const company = await newCustomer();
    const product = await widget();
    await setCreditLine(company.customer.id, 1000);
    await setTerms(company.customer.id, { daysNet: 30, discountPercent: 2, discountDays: 10 });
    const { token } = await employeeWith(['orders.create', 'orders.read'], company);

    const checkout = await (await as(token)).get('/b2b/payment-on-account');
    expect(checkout.body.paymentTerms).to.deep.equal({ daysNet: 30, discountPercent: 2, discountDays: 10 });

    const placed = await orderOnAccount(token, product.id);
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    expect(placed.body.customFields.paymentTerms).to.deep.equal({ daysNet: 30, discountPercent: 2, discountDays: 10 });
    const read = await (await as(token)).get(`/order/${placed.body.id}`);
    expect(read.body.customFields.paymentTerms.daysNet).to.equal(30);

    const text = await invoiceText(company.token, placed.body);
    expect(text).to.contain(`Payment on account: 30 days net, due ${inDays(30)}.`);
    expect(text).to.contain(`2 % discount if paid within 10 days (by ${inDays(10)}).`);
    expect(text).not.to.contain('within 30 days, quoting');
  });

  it('an employee without orders.create may not read the checkout view; a guest gets 401', async () => {
    const company = await newCustomer();
    const { token } = await employeeWith(['orders.read'], company);
    expectError(await (await as(token)).get('/b2b/payment-on-account'), 403);
    expectError(await (await as(null)).get('/b2b/payment-on-account'), 401);
  });

  describe('Admin API', () => {
    it('refuses a limit with more decimals than the currency has (400 SUITE__INVALID_AMOUNT, as budgets), nothing written', async () => {
      const company = await newCustomer();
      const refused = expectError(
        await admin('put', `/b2b/credit-line/${company.customer.id}`, { limit: 10.555, currencyIso: 'EUR' }),
        400,
        'SUITE__INVALID_AMOUNT',
      );
      expect(refused.source).to.deep.equal({ pointer: '/limit' });
      expectError(await admin('get', `/b2b/credit-line/${company.customer.id}`), 404);
      const kept = await admin('put', `/b2b/credit-line/${company.customer.id}`, { limit: 10.55, currencyIso: 'EUR' });
      expect(kept.status, JSON.stringify(kept.body)).to.equal(200);
      expect(kept.body.data.attributes.limit).to.equal(10.55);
    });

    it('validates input (400, nothing written), answers 404 for an unknown customer and a missing line, 401 without a token', async () => {
      const company = await newCustomer();
      expectError(await admin('get', `/b2b/credit-line/${company.customer.id}`), 404);
      expectError(
        await admin('put', `/b2b/credit-line/${company.customer.id}`, { limit: -1, currencyIso: 'EUR' }),
        400,
      );
      expectError(
        await admin('put', `/b2b/credit-line/${company.customer.id}`, { limit: 10, currencyIso: 'euro' }),
        400,
      );
      expectError(await admin('put', `/b2b/credit-line/not-an-id`, { limit: 10, currencyIso: 'EUR' }), 400);
      expectError(await admin('get', `/b2b/credit-line/${company.customer.id}`), 404);
      expectError(await admin('put', `/b2b/credit-line/${newId()}`, { limit: 10, currencyIso: 'EUR' }), 404);
      expectError(
        await admin('put', `/b2b/payment-terms/${company.customer.id}`, {
          daysNet: 30,
          discountPercent: 2,
          discountDays: 40,
        }),
        400,
        'SUITE__PAYMENT_TERMS_INVALID',
      );
      expectError(
        await admin('put', `/b2b/payment-terms/${company.customer.id}`, {
          daysNet: 30,
          discountPercent: 2.001,
          discountDays: 10,
        }),
        400,
      );
      expectError(await admin('get', `/b2b/payment-terms/${company.customer.id}`), 404);
      expectError(await (await http()).get(`/api/b2b/credit-line/${company.customer.id}`), 401);

      await setCreditLine(company.customer.id, 5000.5);
      expect((await admin('get', `/b2b/credit-line/${company.customer.id}`)).body.data.attributes).to.deep.equal({
        limit: 5000.5,
        currencyIso: 'EUR',
        balance: 0,
        remaining: 5000.5,
      });
      await setTerms(company.customer.id, { daysNet: 14, discountPercent: 0, discountDays: 0 });
      expect((await admin('get', `/b2b/payment-terms/${company.customer.id}`)).body.data.attributes).to.deep.equal({
        daysNet: 14,
        discountPercent: 0,
        discountDays: 0,
      });
    });

    it('the Admin OpenAPI document carries the routes', async () => {
      const doc = (await (await http()).get('/api/_info/openapi3.json')).body;
      expect(doc.paths).to.have.property('/b2b/credit-line/{customerId}');
      expect(doc.paths).to.have.property('/b2b/payment-terms/{customerId}');
      const store = (await (await http()).get('/store-api/_info/openapi3.json')).body;
      expect(store.paths).to.have.property('/b2b/payment-on-account');
    });
  });

  it('a fill of the cart still works while the line is exhausted (only the order is refused)', async () => {
    const company = await newCustomer();
    const product = await widget();
    await setCreditLine(company.customer.id, 0);
    await fillCart(company.token, product.id);
    expectError(
      await (await as(company.token)).post('/checkout/order', { paymentMethod: 'on-account' }),
      400,
      'SUITE__CREDIT_LINE_EXCEEDED',
    );
  });
});
