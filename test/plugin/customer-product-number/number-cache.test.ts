import { expect } from 'chai';
import { getShop } from '../../helpers/shop.js';
import { statementsDuring } from '../../helpers/statements.js';
import { as, newCustomer, product, setNumber } from '../fast-order/helpers.js';

/**
 * A customer's numbers are kept per process at the customer product numbers version read with the
 * request's context (number-cache.ts): a warm search reads none, and a change by any writer shows on
 * the next request.
 */
describe('customer product numbers: kept per numbers version', () => {
  it('answers a warm fast order search without reading numbers, and shows a number changed by plain SQL or deleted on the next one', async () => {
    const shop = await getShop();
    const buyer = await newCustomer();
    const client = await as(buyer.token);
    const item = await product();
    await setNumber(buyer.token, item.id, 'OWN-A');
    const ownNumber = async () => {
      const res = await client.post('/b2b/fast-order-product-search', { ids: [item.id] });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.elements[0].customerProductNumber as string | null;
    };
    expect(await ownNumber()).to.equal('OWN-A');
    const warm = await statementsDuring(shop.db, /suite_customer_product_numbers/, ownNumber);
    expect(warm.result).to.equal('OWN-A');
    expect(warm.statements, warm.statements.join('\n')).to.deep.equal([]);

    await shop.db('suite_customer_product_numbers').where({ customer_id: buyer.customer.id, product_id: item.id }).update({ product_number: 'OWN-B', number_key: 'own-b' });
    expect(await ownNumber()).to.equal('OWN-B');
    await shop.db('suite_customer_product_numbers').where({ customer_id: buyer.customer.id, product_id: item.id }).delete();
    expect(await ownNumber()).to.equal(null);
  });
});
