import { expect } from 'chai';
import { sentenceOfRule } from '../../../src/lib/validation-sentences.js';
import { createTestCustomer, getShop } from '../../helpers/shop.js';
import { insertProduct } from '../../helpers/checkout.js';
import { loginOperator } from './helpers.js';

/** The text of a field's error on a console page (`{{> field-error}}`), HTML entities undone. */
function fieldError(html: string, id: string): string {
  const match = new RegExp(`data-test="field-error-${id}">([^<]*)<`).exec(html);
  if (!match) throw new Error(`no error next to "${id}" on the page`);
  return match[1]!
    .replace(/&quot;/g, '"')
    .replace(/&#x3D;/g, '=')
    .replace(/&amp;/g, '&')
    .replace(/&gt;/g, '>');
}

// Before decision 0050 the console said "/email must match format \"email\"." next to a field.
describe('console: schema refusals as sentences next to their fields', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('says what to enter for an e-mail address, a blank label and a currency code, never a pointer or a pattern', async () => {
    const operator = await loginOperator();
    const rep = await operator.post('/sales-representatives/create', {
      email: 'not-an-email',
      firstName: 'Rita',
      lastName: 'Rep',
      password: 'pw-long-enough-2026',
    });
    expect(rep.status).to.equal(400);
    expect(fieldError(rep.text, 'email')).to.equal('Enter an e-mail address, such as name@example.com.');

    const integration = await operator.post('/integrations', { label: '   ' });
    expect(integration.status).to.equal(400);
    expect(fieldError(integration.text, 'label')).to.match(/^Fill in this field/);

    const { customer } = await createTestCustomer({ company: 'Sentence Prices AG' });
    const product = await insertProduct();
    const price = await operator.post('/customer-prices/save', {
      customerNumber: customer.customerNumber,
      productNumber: product.number,
      price: '12.50',
      minQuantity: '1',
      currency: 'euro',
    });
    expect(price.status).to.equal(400);
    expect(fieldError(price.text, 'currency')).to.equal('Enter a three-letter currency code in capitals, such as EUR.');
    for (const page of [rep.text, integration.text, price.text]) {
      const shown = [...page.matchAll(/(?:data-test="field-error-[^"]+"|role="alert")>([^<]*)</g)].map((m) => m[1]!);
      expect(shown.filter((message) => /must |^\//.test(message))).to.deep.equal([]);
    }
  });

  it('has a sentence for each rule the declarations use', () => {
    expect(sentenceOfRule({ rule: 'minimum', comparison: '>=', limit: 1 })).to.equal('Enter 1 or more.');
    expect(sentenceOfRule({ rule: 'maxLength', limit: 255 })).to.equal('Enter at most 255 characters.');
    expect(sentenceOfRule({ rule: 'type', type: 'integer' })).to.equal('Enter a whole number.');
    expect(sentenceOfRule({ rule: 'enum', allowedValues: ['skip', 'catch-up'] })).to.equal(
      'Choose one of "skip", "catch-up".',
    );
    expect(sentenceOfRule({ rule: 'required', missingProperty: 'email' })).to.equal('Fill in this field.');
    expect(sentenceOfRule(undefined)).to.equal(null);
  });
});
