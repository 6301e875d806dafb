import { expect } from 'chai';
import { insertProduct } from '../../helpers/checkout.js';
import { CONSOLE, loginOperator } from '../console/helpers.js';
import { admin, startShop } from './helpers.js';

describe("quantity rules: the operator's console page", function () {
  this.timeout(60000);
  before(startShop);

  it('sets a rule by product number through the Admin API, shows its refusals at the fields, lists and deletes it', async () => {
    const operator = await loginOperator();
    const product = await insertProduct({ name: 'Console Paper' });
    const page = await operator.agent.get(`${CONSOLE}/quantity-rules`);
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('Set a product');

    const unknown = await operator.post('/quantity-rules', { productNumber: 'NO-SUCH-NUMBER', packSize: '12' });
    expect(unknown.status).to.equal(400);
    expect(unknown.text).to.contain('data-test="field-error-productNumber"');
    const inconsistent = await operator.post('/quantity-rules', {
      productNumber: product.number,
      packSize: '12',
      minQuantity: '13',
    });
    expect(inconsistent.status).to.equal(400);
    expect(inconsistent.text)
      .to.contain('data-test="field-error-minQuantity"')
      .and.contain('multiple of the pack size 12');

    const saved = await operator.post('/quantity-rules', {
      productNumber: product.number,
      packSize: '12',
      maxQuantity: '120',
      priceUnit: 'pack',
    });
    expect(saved.status, saved.text).to.equal(303);
    const rule = await (await admin()).get(`/suite-quantity-rule/${product.id}`);
    expect(rule.body.data.attributes).to.include({
      packSize: 12,
      minQuantity: 12,
      step: 12,
      maxQuantity: 120,
      priceUnit: 'pack',
    });
    const list = await operator.agent.get(saved.headers.location as string);
    expect(list.text).to.contain(`The quantity rule of ${product.number} is saved.`);
    const row = [...list.text.matchAll(/<tr data-test="quantity-rule-row">([\s\S]*?)<\/tr>/g)].find((match) =>
      match[1]!.includes('Console Paper'),
    )![1]!;
    expect(row).to.contain('>120<').and.contain('>pack<');
    const remove = /action="([^"]+\/delete)"/.exec(row)![1]!;
    expect((await operator.post(remove.slice(CONSOLE.length))).status).to.equal(303);
    expect((await (await admin()).get(`/suite-quantity-rule/${product.id}`)).status).to.equal(404);
  });

  it('refuses a read-only operator a change', async () => {
    const reader = await loginOperator(true);
    const product = await insertProduct();
    expect((await reader.agent.get(`${CONSOLE}/quantity-rules`)).status).to.equal(200);
    expect((await reader.post('/quantity-rules', { productNumber: product.number, packSize: '6' })).status).to.equal(
      403,
    );
    expect((await (await admin()).get(`/suite-quantity-rule/${product.id}`)).status).to.equal(404);
  });
});
