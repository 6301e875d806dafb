import { expect } from 'chai';
import { tableLayout } from '../../src/host-kit/pdf.js';
import { addToCart, insertProduct, placeOrder } from '../helpers/checkout.js';
import { pdfTexts } from '../helpers/pdf.js';
import { adminToken, defaultSalesChannelId, getShop, http, loginNewCustomer } from '../helpers/shop.js';

describe('host: invoice PDF', () => {
  it('names the seller from the sales channel settings, with amounts and rates unbroken', async () => {
    const shop = await getShop();
    const channelId = await defaultSalesChannelId(shop);
    const patched = await (
      await http()
    )
      .patch(`/api/sales-channel/${channelId}`)
      .set('authorization', `Bearer ${await adminToken()}`)
      .send({ sellerAddress: 'Invoice Test Trading GmbH\nQuay 5\n20457 Hamburg', vatId: 'DE999888777' });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect(patched.body.data.attributes).to.include({ vatId: 'DE999888777' });

    const buyer = await loginNewCustomer();
    const product = await insertProduct({ name: 'Invoice widget', priceNet: 14515, stock: 5 });
    await addToCart(buyer.token, [{ productId: product.id, quantity: 2 }]);
    const order = await placeOrder(buyer.token);
    expect(order.status).to.equal(200);
    const documentId = order.body.documents[0].id;
    const pdf = await (
      await http()
    )
      .get(`/store-api/document/download/${documentId}`)
      .set('suite-context-token', buyer.token)
      .buffer(true);
    expect(pdf.status).to.equal(200);
    const texts = pdfTexts(pdf.body as Buffer);
    expect(texts).to.include('Storefront · Invoice Test Trading GmbH · Quay 5 · 20457 Hamburg · VAT ID: DE999888777');
    // Every cell comes out as one piece: nothing wrapped.
    for (const cell of ['Pos.', '19 %', '145.15 EUR', '290.30 EUR', 'Tax 19 %', '55.16 EUR', '345.46 EUR'])
      expect(texts, cell).to.include(cell);
  });

  it('lays out tables: figure columns right-aligned at their natural width, the widest text column takes the rest', () => {
    const measure = (text: string) => text.length * 5;
    const rows = [
      ['Pos.', 'Product number', 'Item', 'Quantity', 'Unit price (net)', 'Tax', 'Total (net)'],
      ['1', 'DEMO-10001', 'Cordless drill with a rather long name', '2', '145.15 EUR', '19 %', '290.30 EUR'],
    ];
    const { widths, right } = tableLayout(rows, measure, 495);
    expect(right).to.deep.equal([true, false, false, true, true, true, true]);
    for (const [column, cell] of [
      [0, 'Pos.'],
      [5, '19 %'],
      [6, 'Total (net)'],
      [4, 'Unit price (net)'],
    ] as const)
      expect(widths[column]).to.be.greaterThan(measure(cell) + 8);
    expect(widths.reduce((a, b) => a + b, 0)).to.be.closeTo(495, 0.001);
    expect(widths[2]).to.equal(Math.max(...widths));

    const totals = tableLayout(
      [
        ['Totals', ''],
        ['Net total', '290.30 EUR'],
        ['Tax 19 %', '55.16 EUR'],
      ],
      measure,
      495,
    );
    expect(totals.right).to.deep.equal([false, true]);
    expect(totals.widths[0]).to.be.greaterThan(totals.widths[1]!);
  });
});
