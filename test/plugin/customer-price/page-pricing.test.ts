import { expect } from 'chai';
import type { Knex } from 'knex';
import { getShop } from '../../helpers/shop.js';
import { admin, as, customerGroup, groupMember, product } from '../fast-order/helpers.js';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function price(body: Record<string, unknown>) {
  const res = await (await admin()).post('/suite-customer-price', body);
  expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
}

/** The SQL statements `work` runs on the shop's database that name the customer price table. */
async function priceStatements(work: () => Promise<unknown>): Promise<string[]> {
  const db = (await getShop()).db;
  const seen: string[] = [];
  const listen = (query: Knex.Sql) => {
    if (query.sql.includes('suite_customer_prices')) seen.push(query.sql);
  };
  db.on('query', listen);
  try {
    await work();
  } finally {
    db.off('query', listen);
  }
  return seen;
}

type Calculated = { unitPrice: number; source: string; listPrice?: { unitPrice: number } };

describe('customer prices: a page priced at once', () => {
  it('prices a page mixing customer, group, tier and list prices, tiers and an expired price as one product at a time does, in one statement', async () => {
    const group = await customerGroup();
    const buyer = await groupMember(group);
    const client = await as(buyer.token);
    const own = buyer.customer.id;

    // tiers of its own beat the group's price; from 10 a lower one
    const tiered = await product({ priceNet: 1000, tiers: [[5, 900]] });
    await price({ customerId: own, productId: tiered.id, price: 8, listPrice: 12 });
    await price({ customerId: own, productId: tiered.id, minQuantity: 10, price: 7 });
    await price({ customerGroupId: group, productId: tiered.id, price: 6 });
    // only the group's price
    const groupOnly = await product({ priceNet: 1000 });
    await price({ customerGroupId: group, productId: groupOnly.id, price: 5 });
    // the customer's price expired: the group's applies
    const expired = await product({ priceNet: 1000 });
    await price({ customerId: own, productId: expired.id, price: 3, validFrom: inDays(-10), validUntil: inDays(-1) });
    await price({ customerGroupId: group, productId: expired.id, price: 4 });
    // an expired "from 10" leaves 10 to the "from 1"; a coming "from 20" does not apply yet
    const expiredTier = await product({ priceNet: 1000 });
    await price({ customerId: own, productId: expiredTier.id, price: 9 });
    await price({ customerId: own, productId: expiredTier.id, minQuantity: 10, price: 2, validUntil: inDays(-1) });
    await price({ customerId: own, productId: expiredTier.id, minQuantity: 20, price: 1, validFrom: inDays(3) });
    // a price in another currency, and a host tier from 1
    const otherCurrency = await product({ priceNet: 1000, tiers: [[1, 950]] });
    await price({ customerId: own, productId: otherCurrency.id, price: 3, currency: 'USD' });
    // a customer price only from 5: below, the list price
    const fromFive = await product({ priceNet: 1000 });
    await price({ customerId: own, productId: fromFive.id, minQuantity: 5, price: 2 });
    // no prices at all
    const plain = await product({ priceNet: 1000 });

    const products = [tiered, groupOnly, expired, expiredTier, otherCurrency, fromFive, plain];
    const ids = products.map((p) => p.id);
    const expected: Record<string, Partial<Calculated>> = {
      [tiered.id]: { unitPrice: 8, source: 'customer-price' },
      [groupOnly.id]: { unitPrice: 5, source: 'customer-group-price' },
      [expired.id]: { unitPrice: 4, source: 'customer-group-price' },
      [expiredTier.id]: { unitPrice: 9, source: 'customer-price' },
      [otherCurrency.id]: { unitPrice: 9.5, source: 'tier' },
      [fromFive.id]: { unitPrice: 10, source: 'list' },
      [plain.id]: { unitPrice: 10, source: 'list' },
    };

    let search: { status: number; body: { elements: Array<{ id: string; calculatedPrice: Calculated }> } } | undefined;
    const statements = await priceStatements(async () => {
      search = await client.post('/b2b/fast-order-product-search', { ids, limit: 25 });
    });
    expect(search!.status, JSON.stringify(search!.body)).to.equal(200);
    expect(statements, 'one statement for the page, none per product').to.have.length(1);
    const searched = new Map(search!.body.elements.map((e) => [e.id, e.calculatedPrice]));
    expect(searched.size).to.equal(products.length);
    for (const p of products) expect(searched.get(p.id), p.id).to.deep.include(expected[p.id]!);
    expect(searched.get(tiered.id)!.listPrice).to.deep.include({ unitPrice: 12 });

    // The host's own listing prices the same way.
    const listing = await client.post('/product', { ids, limit: 25 });
    expect(listing.status, JSON.stringify(listing.body)).to.equal(200);
    for (const element of listing.body.elements as Array<{ id: string; calculatedPrice: Calculated }>)
      expect(element.calculatedPrice).to.deep.equal(searched.get(element.id));

    // One product at a time, at several quantities, the same prices as the page's (product table tiers).
    const table = await client.post('/product-table-listing', { ids, limit: 25 });
    expect(table.status, JSON.stringify(table.body)).to.equal(200);
    const tiersOf = new Map(
      (table.body.elements as Array<{ id: string; tierPrices: unknown }>).map((e) => [e.id, e.tierPrices]),
    );
    expect(tiersOf.get(tiered.id)).to.deep.equal([
      { minQuantity: 1, maxQuantity: 9, unitPrice: 8, source: 'customer-price' },
      { minQuantity: 10, maxQuantity: null, unitPrice: 7, source: 'customer-price' },
    ]);
    expect(tiersOf.get(fromFive.id)).to.deep.equal([
      { minQuantity: 1, maxQuantity: 4, unitPrice: 10, source: 'list' },
      { minQuantity: 5, maxQuantity: null, unitPrice: 2, source: 'customer-price' },
    ]);
    const single = async (id: string, quantity: number) =>
      (await client.post(`/product-price/${id}/${quantity}`)).body.calculatedPrice as Calculated;
    for (const p of products) expect(await single(p.id, 1), p.id).to.deep.equal(searched.get(p.id));
    expect(await single(tiered.id, 10)).to.deep.include({ unitPrice: 7, source: 'customer-price' });
    expect(await single(expiredTier.id, 10), 'the expired "from 10"').to.deep.include({ unitPrice: 9 });
    expect(await single(expiredTier.id, 25), 'the coming "from 20"').to.deep.include({ unitPrice: 9 });
    expect(await single(fromFive.id, 5)).to.deep.include({ unitPrice: 2, source: 'customer-price' });
    expect(await single(otherCurrency.id, 3)).to.deep.include({ unitPrice: 9.5, source: 'tier' });

    // A cart of all of them at 10 (one line each) is priced alike.
    const cart = await client.post('/checkout/cart/line-item', {
      items: products.map((p) => ({ productId: p.id, quantity: 10 })),
    });
    expect(cart.status, JSON.stringify(cart.body)).to.equal(200);
    const lineUnit = new Map(
      (cart.body.lineItems as Array<{ productId: string; price: { unitPrice: number } }>).map((l) => [
        l.productId,
        l.price.unitPrice,
      ]),
    );
    expect(Object.fromEntries(products.map((p) => [p.id, lineUnit.get(p.id)]))).to.deep.equal({
      [tiered.id]: 7,
      [groupOnly.id]: 5,
      [expired.id]: 4,
      [expiredTier.id]: 9,
      [otherCurrency.id]: 9.5,
      [fromFive.id]: 2,
      [plain.id]: 10,
    });
  });

  it('reads no customer price for a guest and one statement for a customer without prices', async () => {
    const group = await customerGroup();
    const buyer = await groupMember(group);
    const items = [await product({ priceNet: 1000 }), await product({ priceNet: 2000, tiers: [[1, 1500]] })];
    const ids = items.map((p) => p.id);
    let body: { elements: Array<{ calculatedPrice: Calculated }> } | undefined;
    const statements = await priceStatements(async () => {
      body = (await (await as(buyer.token)).post('/b2b/fast-order-product-search', { ids })).body;
    });
    expect(statements).to.have.length(1);
    expect(body!.elements.map((e) => [e.calculatedPrice.unitPrice, e.calculatedPrice.source])).to.have.deep.members([
      [10, 'list'],
      [15, 'tier'],
    ]);
    expect(await priceStatements(() => (async () => (await as(null)).post('/product', { ids }))())).to.have.length(0);
  });
});
