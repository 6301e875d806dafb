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

    await shop
      .db('suite_customer_product_numbers')
      .where({ customer_id: buyer.customer.id, product_id: item.id })
      .update({ product_number: 'OWN-B', number_key: 'own-b' });
    expect(await ownNumber()).to.equal('OWN-B');
    await shop
      .db('suite_customer_product_numbers')
      .where({ customer_id: buyer.customer.id, product_id: item.id })
      .delete();
    expect(await ownNumber()).to.equal(null);
  });

  it('adds by shop number and by own number without reading either when warm, and a renumbered product or a changed own number shows on the next add', async () => {
    const shop = await getShop();
    const buyer = await newCustomer();
    const client = await as(buyer.token);
    const byShopNumber = await product();
    const byOwnNumber = await product();
    await setNumber(buyer.token, byOwnNumber.id, 'OWN-ADD-A');
    const add = async (...numbers: string[]) => {
      const res = await client.post('/b2b/add-to-cart', {
        items: numbers.map((productNumber) => ({ productNumber, quantity: 1 })),
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return (res.body.items as Array<{ productId: string | null; added: boolean }>).map((item) =>
        item.added ? item.productId : null,
      );
    };
    expect(await add(byShopNumber.number, 'own-add-a')).to.deep.equal([byShopNumber.id, byOwnNumber.id]);
    const warm = await statementsDuring(shop.db, /product_number|number_key/, () =>
      add(byShopNumber.number, 'OWN-ADD-A'),
    );
    expect(warm.result).to.deep.equal([byShopNumber.id, byOwnNumber.id]);
    expect(warm.statements, warm.statements.join('\n')).to.deep.equal([]);

    // Plain SQL, as another process or an import would write: the products and numbers versions move (triggers).
    await shop
      .db('products')
      .where({ id: byShopNumber.id })
      .update({ product_number: `${byShopNumber.number}-NEW` });
    expect(await add(byShopNumber.number, `${byShopNumber.number}-NEW`)).to.deep.equal([null, byShopNumber.id]);
    await shop.db('products').where({ id: byShopNumber.id }).update({ active: false });
    expect(await add(`${byShopNumber.number}-NEW`)).to.deep.equal([null]);
    await shop
      .db('suite_customer_product_numbers')
      .where({ customer_id: buyer.customer.id, product_id: byOwnNumber.id })
      .update({ product_number: 'OWN-ADD-B', number_key: 'own-add-b' });
    expect(await add('OWN-ADD-A', 'OWN-ADD-B')).to.deep.equal([null, byOwnNumber.id]);
  });
});
