import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { insertProduct } from '../../helpers/checkout.js';
import { deliverMail, expectError, getShop, testMailbox } from '../../helpers/shop.js';
import { receiveMail } from '../employee/helpers.js';
import { as, createRepresentative, employeeWith, newCustomer } from './helpers.js';

describe('sales representatives: POST /product-request/{productId}/send', () => {
  it('mails the customer’s representative the question, the product and who asks', async () => {
    const { customer, employee, token } = await employeeWith(['orders.read']);
    const rep = await createRepresentative([customer.customer.id]);
    const item = await insertProduct({ name: 'Question Valve' });
    const res = await (
      await as(token)
    ).post(`/product-request/${item.id}/send`, { comment: 'Is there a version in brass?', quantity: 40 });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({ success: true });
    const mail = await receiveMail(rep.email, 'Question about');
    expect(mail.subject).to.contain(item.number).and.contain('Question Valve');
    expect(mail.text)
      .to.contain('Is there a version in brass?')
      .and.contain('quantity 40')
      .and.contain(employee.email)
      .and.contain(customer.customer.customerNumber);

    const byCustomer = await (
      await as(customer.token)
    ).post(`/product-request/${item.id}/send`, { comment: 'And in steel?' });
    expect(byCustomer.status).to.equal(200);
    await deliverMail();
    const second = await (
      await testMailbox()
    ).waitFor((m) => m.envelopeTo.includes(rep.email) && String(m.text).includes('And in steel?'));
    expect(second.text).to.contain(customer.customer.email);
  });

  it('answers a hidden or unknown product 404 alike, no representative 400, bad input 400, guests 401', async () => {
    const customer = await newCustomer();
    const client = await as(customer.token);
    const item = await insertProduct();
    expectError(
      await client.post(`/product-request/${item.id}/send`, { comment: 'Anyone?' }),
      400,
      'SUITE__NO_SALES_REPRESENTATIVE',
    );
    await createRepresentative([customer.customer.id]);
    const hidden = await insertProduct();
    await (await getShop()).db('products').where({ id: hidden.id }).update({ active: false });
    const unknownId = newId();
    const seen = expectError(
      await client.post(`/product-request/${hidden.id}/send`, { comment: 'x' }),
      404,
      'SUITE__NOT_FOUND',
    );
    const unknown = expectError(
      await client.post(`/product-request/${unknownId}/send`, { comment: 'x' }),
      404,
      'SUITE__NOT_FOUND',
    );
    expect(seen.detail!.replace(hidden.id, '<id>')).to.equal(unknown.detail!.replace(unknownId, '<id>'));
    expectError(await client.post(`/product-request/${item.id}/send`, {}), 400, 'SUITE__INVALID_INPUT');
    expectError(await client.post(`/product-request/${item.id}/send`, { comment: '   ' }), 400, 'SUITE__INVALID_INPUT');
    expectError(
      await client.post(`/product-request/${item.id}/send`, { comment: 'x', quantity: 1.5 }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(await client.post('/product-request/nope/send', { comment: 'x' }), 400);
    expectError(await (await as(null)).post(`/product-request/${item.id}/send`, { comment: 'x' }), 401);
  });
});
