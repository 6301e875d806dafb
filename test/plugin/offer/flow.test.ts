import { expect } from 'chai';
import { getShop } from '../../helpers/shop.js';
import { as, company, defaultAddressId, fillCart, product, receiveMail, startShop } from './helpers.js';

describe('offers: the whole flow', () => {
  before(startShop);

  it('customer asks from the cart → representative prices and mails the PDF → customer accepts → order at the offered prices', async () => {
    const c = await company();
    const [a, b] = [await product(1000), await product(2500)];
    await fillCart(c.customer.token, [
      { productId: a.id, quantity: 10 },
      { productId: b.id, quantity: 2 },
    ]);
    const addressId = await defaultAddressId(c.customer.customer.id);
    const customer = await as(c.customer.token);
    const requested = await customer.post('/offer-request', {
      billigAddressId: addressId,
      deliverAddressId: addressId,
      subject: 'Spring stock',
      commission: 'PO-1',
      customerComment: 'Best price for 10?',
    });
    expect(requested.status, JSON.stringify(requested.body)).to.equal(200);
    const offer = requested.body;
    expect(offer).to.include({
      status: 'requested',
      subject: 'Spring stock',
      commission: 'PO-1',
      customerComment: 'Best price for 10?',
      billigAddressId: addressId,
      deliverAddressId: addressId,
      netTotal: 150,
      total: 178.5,
    });
    expect(offer.lineItems.map((l: any) => [l.productId, l.quantity, l.unitPrice, l.listPrice])).to.deep.equal([
      [a.id, 10, 10, 10],
      [b.id, 2, 25, 25],
    ]);
    const requestMail = await receiveMail(c.rep.email, offer.offerNumber);
    expect(requestMail.text).to.contain('Best price for 10?');

    const rep = await as(c.rep.token);
    const priced = await rep.put(`/offer/${offer.id}`, {
      lineItems: [{ id: offer.lineItems[0].id, unitPrice: 8.5 }],
      salesComment: 'Volume discount on A.',
    });
    expect(priced.status, JSON.stringify(priced.body)).to.equal(200);
    expect(priced.body).to.include({ status: 'draft', netTotal: 135, salesComment: 'Volume discount on A.' });
    const sent = await rep.post(`/offer-mail/${offer.id}`, { message: 'As discussed on the phone.' });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    expect(sent.body.recipient).to.equal(c.customer.email);

    const mail = await receiveMail(c.customer.email, `Your offer ${offer.offerNumber}`);
    expect(mail.text).to.contain('As discussed on the phone.');
    expect(mail.attachments).to.have.length(1);
    expect(mail.attachments[0]!.contentType).to.equal('application/pdf');
    expect(mail.attachments[0]!.content.subarray(0, 5).toString()).to.equal('%PDF-');

    const open = (await customer.get(`/offer/${offer.id}`)).body;
    expect(open.status).to.equal('open');
    expect(open.documents.map((d: any) => d.id)).to.deep.equal([sent.body.documentId]);
    const days = (new Date(open.validUntil).getTime() - Date.now()) / 86400000;
    expect(days).to.be.within(29.9, 30.1);

    const accepted = await customer.put(`/offer/${offer.id}`, { action: 'accept' });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
    expect(accepted.body.status).to.equal('accepted');
    const order = (await customer.get(`/order/${accepted.body.orderId}`)).body;
    expect(order.orderNumber).to.equal(accepted.body.orderNumber);
    expect(order.lineItems.map((l: any) => [l.productId, l.quantity, l.unitPrice])).to.deep.equal([
      [a.id, 10, 8.5],
      [b.id, 2, 25],
    ]);
    expect(order.amountNet).to.equal(135);
    expect(order.customFields).to.deep.include({ offerId: offer.id });
    const db = (await getShop()).db;
    expect(await db('orders').where({ customer_id: c.customer.customer.id }).count({ n: '*' }).first()).to.satisfy(
      (r: any) => Number(r.n) === 1,
    );
    await receiveMail(c.rep.email, `Offer ${offer.offerNumber} accepted`);
  });
});
