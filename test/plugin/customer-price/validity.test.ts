import { expect } from 'chai';
import { expectError } from '../../helpers/shop.js';
import { admin, as, newCustomer, product } from '../fast-order/helpers.js';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function price(body: Record<string, unknown>) {
  const res = await (await admin()).post('/suite-customer-price', body);
  expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
  return res.body.data;
}

describe('customer prices: validity period, currency and pseudo price', () => {
  it('applies a price only within its period; an expired or coming price leaves the quantity to the next one', async () => {
    const buyer = await newCustomer();
    const item = await product({ priceNet: 1000 });
    const client = await as(buyer.token);
    await price({ customerId: buyer.customer.id, productId: item.id, price: 9, validFrom: inDays(-10) });
    const expired = await price({
      customerId: buyer.customer.id,
      productId: item.id,
      minQuantity: 10,
      price: 7,
      validFrom: inDays(-10),
      validUntil: inDays(-1),
    });
    expect(expired.attributes.validUntil).to.be.a('string');
    const coming = await price({
      customerId: buyer.customer.id,
      productId: item.id,
      minQuantity: 20,
      price: 6,
      validFrom: inDays(5),
    });

    const at = async (quantity: number) =>
      (await client.post(`/product-price/${item.id}/${quantity}`)).body.calculatedPrice;
    expect(await at(1)).to.include({ unitPrice: 9, source: 'customer-price' });
    expect(await at(10), 'the expired "from 10" no longer applies').to.include({ unitPrice: 9 });
    expect(await at(25), 'the coming "from 20" does not apply yet').to.include({ unitPrice: 9 });

    // The cart prices the same way.
    const added = await client.post('/checkout/cart/line-item', { items: [{ productId: item.id, quantity: 10 }] });
    expect(added.status, JSON.stringify(added.body)).to.be.oneOf([200, 201]);
    const cart = await client.get('/checkout/cart');
    expect(JSON.stringify(cart.body)).to.contain('"unitPrice":9');

    // The Store API list shows current and coming prices with their period, not expired ones.
    const listed = await client.post('/customer-prices', {});
    const byId = new Map(listed.body.elements.map((p: { id: string }) => [p.id, p]));
    expect(byId.has(expired.id)).to.equal(false);
    expect(byId.get(coming.id)).to.deep.include({ price: 6, currency: null, listPrice: null });
    expect((byId.get(coming.id) as { validFrom: string }).validFrom).to.be.a('string');

    // Once it starts, it applies: moved into the past through the Admin API.
    await price({
      customerId: buyer.customer.id,
      productId: item.id,
      minQuantity: 20,
      price: 6,
      validFrom: inDays(-1),
    });
    expect(await at(25)).to.include({ unitPrice: 6 });
  });

  it('applies a price naming a currency only in a sales channel of that currency', async () => {
    const buyer = await newCustomer();
    const item = await product({ priceNet: 1000 });
    const client = await as(buyer.token);
    await price({ customerId: buyer.customer.id, productId: item.id, price: 5, currency: 'USD' });
    expect((await client.post(`/product-price/${item.id}/1`)).body.calculatedPrice).to.include({
      unitPrice: 10,
      source: 'list',
    });
    expect((await client.post('/customer-prices', {})).body.total).to.equal(0);
    const eur = await price({ customerId: buyer.customer.id, productId: item.id, price: 8, currency: 'EUR' });
    expect(eur.attributes).to.include({ currency: 'EUR' });
    expect((await client.post(`/product-price/${item.id}/1`)).body.calculatedPrice).to.include({
      unitPrice: 8,
      source: 'customer-price',
    });
  });

  it('shows a pseudo (strike-through) price beside the price, with the saving', async () => {
    const buyer = await newCustomer();
    const item = await product({ priceNet: 1000 });
    const client = await as(buyer.token);
    const set = await price({ customerId: buyer.customer.id, productId: item.id, price: 8, listPrice: 10 });
    expect(set.attributes).to.include({ listPrice: 10 });
    const calculated = (await client.post(`/product-price/${item.id}/3`)).body.calculatedPrice;
    expect(calculated).to.include({ unitPrice: 8, totalPrice: 24 });
    expect(calculated.listPrice).to.deep.equal({ unitPrice: 10, totalPrice: 30, discount: 6, percentage: 20 });
    const search = await client.post('/b2b/fast-order-product-search', { ids: [item.id] });
    expect(search.body.elements[0].calculatedPrice.listPrice).to.deep.include({ unitPrice: 10 });
    // Without one, no listPrice at all.
    const plain = await product();
    expect((await client.post(`/product-price/${plain.id}/1`)).body.calculatedPrice).to.not.have.property('listPrice');
  });

  it('refuses a period that ends before it starts, bad currencies and dates with 400', async () => {
    const buyer = await newCustomer();
    const item = await product();
    const api = await admin();
    const base = { customerId: buyer.customer.id, productId: item.id, price: 1 };
    expectError(
      await api.post('/suite-customer-price', { ...base, validFrom: inDays(2), validUntil: inDays(1) }),
      400,
      'SUITE__INVALID_VALIDITY_PERIOD',
    );
    expectError(
      await api.post('/suite-customer-price', { ...base, validFrom: inDays(1), validUntil: inDays(1) }),
      400,
      'SUITE__INVALID_VALIDITY_PERIOD',
    );
    expectError(await api.post('/suite-customer-price', { ...base, currency: 'eur' }), 400, 'SUITE__INVALID_INPUT');
    expectError(
      await api.post('/suite-customer-price', { ...base, validFrom: 'tomorrow' }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(await api.post('/suite-customer-price', { ...base, listPrice: -1 }), 400, 'SUITE__INVALID_INPUT');
  });
});
