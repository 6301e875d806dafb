import { expect } from 'chai';
import { getShop } from '../../helpers/shop.js';
import { CONSOLE, loginOperator, requestAccount } from './helpers.js';

describe("console: numbers and dates in the operator's language", () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('formats dates by the browser’s Accept-Language, en-GB when it names none Intl knows', async () => {
    const { id } = await requestAccount('Locale Test GmbH');
    const operator = await loginOperator();
    const received = async (language: string | null) => {
      const request = operator.agent.get(`${CONSOLE}/account-requests/${id}`);
      if (language) request.set('accept-language', language);
      const page = await request;
      expect(page.status).to.equal(200);
      return /<dt>Received<\/dt><dd>([^<]*)<\/dd>/.exec(page.text)![1]!;
    };
    const german = await received('de-DE,de;q=0.9,en;q=0.5');
    const american = await received('en-US');
    const british = await received(null);
    expect(german, 'de-DE').to.match(/^\d{2}\.\d{2}\.\d{4}$/);
    expect(american, 'en-US').to.match(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(british, 'en-GB').to.match(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);
    expect(await received('xx-invalid-language-tag-that-is-long')).to.equal(british);
  });
});
