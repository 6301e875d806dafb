import { expect } from 'chai';
import { importCustomerPricesInBatches } from '../../../src/plugin/customer-price/import.js';
import { expectError, getShop } from '../../helpers/shop.js';
import { admin, newCustomer, product } from '../fast-order/helpers.js';

/** Polls the run until it has ended (it is written in the background of the process that took the file). */
async function finished(id: string): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const res = await (await admin()).get(`/suite-import-run/${id}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    if (res.body.data.state === 'done' || res.body.data.state === 'failed') return res.body.data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`import run ${id} did not end`);
}

describe('import runs: customer prices with progress', () => {
  it('writes the checked file batch by batch and tells the rows done after each', async () => {
    const customer = await newCustomer();
    const items = [await product(), await product(), await product(), await product(), await product()];
    const text = [
      'customer_number,product_number,price',
      ...items.map((item, i) => `${customer.customer.customerNumber},${item.number},${i + 1}.00`),
    ].join('\n');
    const told: Array<[number, number]> = [];
    const shop = await getShop();
    const result = await importCustomerPricesInBatches(
      shop.runtime,
      text,
      async (done, total) => {
        told.push([done, total]);
        // What is told is written: the batches before it are committed.
        const written = await shop
          .db('suite_customer_prices')
          .where({ customer_id: customer.customer.id })
          .count({ n: '*' });
        expect(Number(written[0]!.n)).to.equal(done);
      },
      2,
    );
    expect(told).to.deep.equal([
      [0, 5],
      [2, 5],
      [4, 5],
      [5, 5],
    ]);
    expect(result).to.deep.equal({ success: true, created: 5, updated: 0, unchanged: 0 });
  });

  it('answers 202 with the queued run; the run ends done with the counts, the prices are there', async () => {
    const customer = await newCustomer();
    const a = await product();
    const b = await product();
    const text = [
      'customer_number,product_number,price',
      `${customer.customer.customerNumber},${a.number},9.50`,
      `${customer.customer.customerNumber},${b.number},4`,
    ].join('\n');
    const started = await (await admin()).csv('/_action/suite-customer-price/import-run', text);
    expect(started.status, JSON.stringify(started.body)).to.equal(202);
    expect(started.body.data).to.include({ kind: 'customer-prices', state: 'queued', doneRows: 0 });
    expect(started.body.data.startedBy).to.match(/^(user|integration):/);
    const run = await finished(started.body.data.id);
    expect(run).to.include({ state: 'done', totalRows: 2, doneRows: 2 });
    expect(run.result).to.deep.equal({ success: true, created: 2, updated: 0, unchanged: 0 });
    const prices = await (await getShop()).db('suite_customer_prices').where({ customer_id: customer.customer.id });
    expect(prices.map((p: { price_net: unknown }) => Number(p.price_net)).sort((x, y) => x - y)).to.deep.equal([
      400, 950,
    ]);
  });

  it('a file with bad rows fails the run with each bad line named and writes nothing; unknown runs are 404', async () => {
    const customer = await newCustomer();
    const a = await product();
    const text = [
      'customer_number,product_number,price',
      `${customer.customer.customerNumber},${a.number},5.00`,
      `NO-SUCH-CUSTOMER,${a.number},5.00`,
      `${customer.customer.customerNumber},NO-SUCH-PRODUCT,5.00`,
    ].join('\n');
    const started = await (await admin()).csv('/_action/suite-customer-price/import-run', text);
    expect(started.status).to.equal(202);
    const run = await finished(started.body.data.id);
    expect(run.state).to.equal('failed');
    expect(run.errors.map((e: { meta: { line: number } }) => e.meta.line)).to.deep.equal([3, 4]);
    expect(await (await getShop()).db('suite_customer_prices').where({ product_id: a.id })).to.have.length(0);
    expectError(await (await admin()).get(`/suite-import-run/${'0'.repeat(32)}`), 404);
    expectError(await (await admin()).get('/suite-import-run/not-an-id'), 400);
  });
});
