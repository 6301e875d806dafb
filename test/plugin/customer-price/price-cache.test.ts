import { expect } from 'chai';
import supertest from 'supertest';
import { getShop } from '../../helpers/shop.js';
import { sideApp } from '../../helpers/side-app.js';
import { statementsDuring } from '../../helpers/statements.js';
import { admin, as, customerGroup, groupMember, product } from '../fast-order/helpers.js';
import { moveClock } from '../../helpers/clock.js';
import { nowMs } from '../../../src/lib/time.js';

type Calculated = { unitPrice: number; source: string };

/**
 * Customer price rows are kept per process at the customer prices version read with the request's
 * context (price-cache.ts): a warm request reads no price row, and every change shows on the next
 * request, whoever wrote it — and a period that begins or ends shows without any write.
 */
describe('customer prices: kept rows per customer prices version', function () {
  this.timeout(60000);

  async function scene() {
    const group = await customerGroup();
    const buyer = await groupMember(group);
    const client = await as(buyer.token);
    const item = await product({ priceNet: 1000 });
    const priceAt = async (quantity = 1) => {
      const res = await client.post(`/product-price/${item.id}/${quantity}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.calculatedPrice as Calculated;
    };
    return { group, buyer, client, item, priceAt };
  }

  async function setPrice(body: Record<string, unknown>): Promise<string> {
    const res = await (await admin()).post('/suite-customer-price', body);
    expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
    return res.body.data.id as string;
  }

  it('answers a warm request without reading price rows, and shows an Admin API change on the next one', async () => {
    const { db } = await getShop();
    const { buyer, item, priceAt } = await scene();
    const id = await setPrice({ customerId: buyer.customer.id, productId: item.id, price: 8 });
    expect(await priceAt()).to.deep.include({ unitPrice: 8, source: 'customer-price' });
    const warm = await statementsDuring(db, /suite_customer_prices/, () => priceAt());
    expect(warm.result).to.deep.include({ unitPrice: 8 });
    expect(warm.statements, 'a warm request reads no price row').to.deep.equal([]);

    expect(
      await setPrice({ customerId: buyer.customer.id, productId: item.id, price: 6 }),
      'the same key: the row replaced',
    ).to.equal(id);
    expect(await priceAt()).to.deep.include({ unitPrice: 6, source: 'customer-price' });
    expect((await (await admin()).delete(`/suite-customer-price/${id}`)).status).to.be.oneOf([200, 204]);
    expect(await priceAt()).to.deep.include({ unitPrice: 10, source: 'list' });
  });

  it('shows a price written by plain SQL, a group price, and a write of another app process', async () => {
    const shop = await getShop();
    const { group, buyer, item, priceAt } = await scene();
    expect(await priceAt()).to.deep.include({ unitPrice: 10, source: 'list' });
    await setPrice({ customerGroupId: group, productId: item.id, price: 7 });
    expect(await priceAt()).to.deep.include({ unitPrice: 7, source: 'customer-group-price' });
    const id = await setPrice({ customerId: buyer.customer.id, productId: item.id, price: 5 });
    expect(await priceAt()).to.deep.include({ unitPrice: 5, source: 'customer-price' });
    await shop.db('suite_customer_prices').where({ id }).update({ price_net: 450 });
    expect(await priceAt()).to.deep.include({ unitPrice: 4.5, source: 'customer-price' });

    const other = await sideApp({ logLevel: 'silent' });
    try {
      const priceThere = async () =>
        (
          await supertest(other.shop.app)
            .post(`/store-api/product-price/${item.id}/1`)
            .set('suite-context-token', buyer.token)
        ).body.calculatedPrice as Calculated;
      expect(await priceThere()).to.deep.include({ unitPrice: 4.5 });
      await shop.db('suite_customer_prices').where({ id }).delete();
      expect(await priceThere()).to.deep.include({ unitPrice: 7, source: 'customer-group-price' });
      expect(await priceAt()).to.deep.include({ unitPrice: 7, source: 'customer-group-price' });
    } finally {
      await other.shop.close();
    }
  });

  it('applies a period that ends, and quantities, to the kept rows without any write', async () => {
    const { buyer, item, priceAt } = await scene();
    await setPrice({ customerId: buyer.customer.id, productId: item.id, price: 9 });
    await setPrice({
      customerId: buyer.customer.id,
      productId: item.id,
      minQuantity: 10,
      price: 3,
      validUntil: new Date(nowMs() + 60_000).toISOString(),
    });
    expect(await priceAt(10)).to.deep.include({ unitPrice: 3 });
    expect(await priceAt(1), 'the "from 10" row kept with the other is not applied to 1').to.deep.include({
      unitPrice: 9,
    });
    moveClock(61_000);
    expect(await priceAt(10), 'the "from 10" ended').to.deep.include({ unitPrice: 9 });
  });
});
