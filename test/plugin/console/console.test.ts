import { expect } from 'chai';
import supertest from 'supertest';
import { adminToken, createTestCustomer, getShop, http, login } from '../../helpers/shop.js';
import { assign, createCategory, createRule, KINDS } from '../partial-assortment/fixtures.js';

const PRODUCT_KIND = KINDS.find((kind) => kind.segment === 'product')!;
import { sideApp } from '../../helpers/side-app.js';
import { insertProduct } from '../../helpers/checkout.js';
import { accountRequestByEmail, CONSOLE, createAdminUser, csrfOf, loginOperator, requestAccount } from './helpers.js';

/** Every GET page of the console a fresh shop has links to (the crawler test follows the rest). */
const PAGES = [
  '',
  '/companies',
  '/sales-representatives',
  '/activity-types',
  '/events',
  '/mail-templates',
  '/account-requests',
  '/account-requests?status=open',
  '/customer-prices',
  '/customer-prices/edit',
  '/customer-prices/import',
  '/customer-product-numbers',
  '/integrations',
  '/failed-mails',
  '/failed-jobs',
  '/partial-assortments',
  '/partial-assortments?kind=product',
  '/partial-assortments/preview',
  '/settings',
];

async function apiGet(path: string) {
  return (await http()).get(`/api${path}`).set('authorization', `Bearer ${await adminToken()}`);
}

describe('console: login, CSRF and roles', () => {
  before(async function () {
    // The shared app (migrations on a fresh database) comes first, outside the tests' time limits.
    this.timeout(180000);
    await getShop();
  });

  it('sends a visitor without a session to the login form, refuses a wrong password, and logs a right one in with an httpOnly cookie', async () => {
    const agent = await http();
    const start = await agent.get(`${CONSOLE}/customer-prices?product=X`);
    expect(start.status).to.equal(302);
    expect(start.headers.location).to.equal(
      `${CONSOLE}/login?redirect=${encodeURIComponent(`${CONSOLE}/customer-prices?product=X`)}`,
    );
    const { username, password } = await createAdminUser();
    const form = await agent.get(start.headers.location as string);
    expect(form.status).to.equal(200);
    expect(form.text).to.contain('Log in to the B2B console');
    const wrong = await agent
      .post(`${CONSOLE}/login`)
      .type('form')
      .send({ _csrf: csrfOf(form.text), username, password: 'wrong', redirect: `${CONSOLE}/settings` });
    expect(wrong.status).to.equal(401);
    expect(wrong.text).to.contain('The user name or password is wrong.');
    expect(wrong.text).to.contain(`value="${username}"`);

    const right = await agent
      .post(`${CONSOLE}/login`)
      .type('form')
      .send({ _csrf: csrfOf(form.text), username, password, redirect: `${CONSOLE}/settings` });
    expect(right.status).to.equal(303);
    expect(right.headers.location).to.equal(`${CONSOLE}/settings`);
    const cookie = String(right.headers['set-cookie']);
    expect(cookie).to.match(
      /suite-admin-session=[A-Za-z0-9_-]{43}; Max-Age=28800; Path=\/b2b-admin; Expires=[^;]+; HttpOnly; SameSite=Strict/,
    );
    const settings = await agent.get(`${CONSOLE}/settings`);
    expect(settings.status).to.equal(200);
    expect(settings.text).to.contain(username);
    expect(settings.text).to.contain('managing');

    // A redirect off the console is not followed.
    const offsite = await (
      await http()
    )
      .post(`${CONSOLE}/login`)
      .type('form')
      .send({ _csrf: csrfOf(form.text), username, password, redirect: '//evil.test/' });
    expect([303, 403]).to.include(offsite.status);
    if (offsite.status === 303) expect(offsite.headers.location).to.equal(CONSOLE);

    const logout = await agent
      .post(`${CONSOLE}/logout`)
      .type('form')
      .send({ _csrf: csrfOf(settings.text) });
    expect(logout.status).to.equal(303);
    expect((await agent.get(`${CONSOLE}/settings`)).status).to.equal(302);
  });

  it('refuses an inactive admin user and a read-only one logs in as read-only', async () => {
    const inactive = await createAdminUser();
    await (await getShop()).db('admin_users').where({ id: inactive.id }).update({ active: false });
    const agent = await http();
    const form = await agent.get(`${CONSOLE}/login`);
    const refused = await agent
      .post(`${CONSOLE}/login`)
      .type('form')
      .send({ _csrf: csrfOf(form.text), username: inactive.username, password: inactive.password });
    expect(refused.status).to.equal(401);
    const reader = await loginOperator(true);
    const start = await reader.agent.get(CONSOLE);
    expect(start.text).to.contain('<span class="role" data-test="operator-role">read-only</span>');
    expect(start.text).to.contain('You are a read-only operator');
  });

  it('refuses a form without the session’s CSRF token with 403 and changes nothing', async () => {
    const operator = await loginOperator();
    const { id } = await requestAccount('Csrf AG');
    const missing = await operator.agent
      .post(`${CONSOLE}/account-requests/${id}/decline`)
      .type('form')
      .send({ comment: 'no' });
    expect(missing.status).to.equal(403);
    expect(missing.text).to.contain('The form has expired or did not come from this console.');
    const wrong = await operator.agent
      .post(`${CONSOLE}/account-requests/${id}/decline`)
      .type('form')
      .send({ _csrf: 'x'.repeat(43), comment: 'no' });
    expect(wrong.status).to.equal(403);
    // Another operator's token is not this session's.
    const other = await loginOperator();
    const foreign = await operator.agent
      .post(`${CONSOLE}/account-requests/${id}/decline`)
      .type('form')
      .send({ _csrf: await other.csrf(), comment: 'no' });
    expect(foreign.status).to.equal(403);
    expect((await apiGet(`/b2b-account-request/${id}`)).body.data.attributes.status).to.equal('open');
    // The login form has its own (pre-session) token.
    const login = await (await http()).post(`${CONSOLE}/login`).type('form').send({ username: 'x', password: 'y' });
    expect(login.status).to.equal(403);
  });

  it('shows a read-only operator every page and refuses each change with a visible message; a preview is no change', async () => {
    const reader = await loginOperator(true);
    const { id } = await requestAccount('Readonly KG');
    const decline = await reader.post(`/account-requests/${id}/decline`, { comment: 'not us' });
    expect(decline.status).to.equal(403);
    expect(decline.text).to.contain('Your operator role is read-only');
    const accept = await reader.post(`/account-requests/${id}/accept`);
    expect(accept.status).to.equal(403);
    expect((await apiGet(`/b2b-account-request/${id}`)).body.data.attributes.status).to.equal('open');
    expect((await reader.post('/settings', { offerDefaultValidityDays: '5' })).status).to.equal(403);
    expect((await reader.post('/customer-prices/save', { productNumber: 'X', price: '1' })).status).to.equal(403);
    expect((await reader.post('/customer-prices/import', { csv: 'product_number,price\nX,1' })).status).to.equal(403);
    const preview = await reader.post('/customer-prices/import/preview', {
      csv: 'customer_number,product_number,price\nNOPE,NOPE,1',
    });
    expect(preview.status).to.equal(400);
    expect(preview.text).to.contain('There is no customer &quot;NOPE&quot;');
  });

  it('answers every page with 200 for a managing and a read-only operator', async () => {
    for (const readOnly of [false, true]) {
      const operator = await loginOperator(readOnly);
      for (const page of PAGES) {
        const res = await operator.agent.get(`${CONSOLE}${page}`);
        expect(res.status, `${page} (read-only: ${readOnly})`).to.equal(200);
        expect(res.headers['content-security-policy']).to.contain("frame-ancestors 'none'");
      }
      expect((await operator.agent.get(`${CONSOLE}/no-such-page`)).status).to.equal(404);
      expect((await operator.agent.get(`${CONSOLE}/account-requests/${'0'.repeat(32)}`)).status).to.equal(404);
    }
  });

  it('names the operator in the request log of every console request', async () => {
    const { shop, logLines } = await sideApp();
    try {
      const { username, password } = await createAdminUser();
      const agent = supertest.agent(shop.app);
      const form = await agent.get(`${CONSOLE}/login`);
      await agent
        .post(`${CONSOLE}/login`)
        .type('form')
        .send({ _csrf: csrfOf(form.text), username, password });
      const settings = await agent.get(`${CONSOLE}/settings`);
      await agent
        .post(`${CONSOLE}/settings`)
        .type('form')
        .send({ _csrf: csrfOf(settings.text), offerDefaultValidityDays: '0' });
      const lines = logLines.filter((line) => line.msg === 'request' && String(line.route).startsWith(CONSOLE));
      const change = lines.find((line) => line.method === 'POST' && line.route === `${CONSOLE}/settings`);
      expect(change).to.include({ operator: username, actorType: 'admin-user', status: 400 });
      expect(lines.find((line) => line.route === `${CONSOLE}/login` && line.method === 'POST')).to.include({
        operator: username,
        status: 303,
      });
      expect(JSON.stringify(logLines)).not.to.contain(password);
    } finally {
      await shop.close();
    }
  });
});

describe('console: account requests', () => {
  it('lists the waiting requests, keeps the reason field on a refused decline, declines with a reason and accepts another, creating the customer', async () => {
    const operator = await loginOperator();
    const first = await requestAccount('Console Decline GmbH');
    const second = await requestAccount('Console Accept GmbH');
    const list = await operator.agent.get(`${CONSOLE}/account-requests?status=open`);
    expect(list.text).to.contain('Console Decline GmbH').and.to.contain('Console Accept GmbH');

    const noReason = await operator.post(`/account-requests/${first.id}/decline`, { comment: '  ' });
    expect(noReason.status).to.equal(400);
    expect(noReason.text).to.contain('data-test="field-error-decline-comment"');
    const tooLong = await operator.post(`/account-requests/${first.id}/decline`, { comment: 'x'.repeat(1100) });
    expect(tooLong.status).to.equal(400);
    expect(tooLong.text, 'the API’s message next to the field, the input kept')
      .to.contain('data-test="field-error-decline-comment"')
      .and.to.contain('x'.repeat(1100));
    const declined = await operator.post(`/account-requests/${first.id}/decline`, { comment: 'Consumers only' });
    expect(declined.status).to.equal(303);
    const detail = await operator.agent.get(declined.headers.location as string);
    expect(detail.text).to.contain('The request is declined.').and.to.contain('Consumers only');
    expect((await accountRequestByEmail(first.email)).attributes).to.include({
      status: 'declined',
      decisionComment: 'Consumers only',
    });

    const accepted = await operator.post(`/account-requests/${second.id}/accept`, { groupId: '', comment: '' });
    expect(accepted.status).to.equal(303);
    const request = await accountRequestByEmail(second.email);
    expect(request.attributes.status).to.equal('accepted');
    const shop = await getShop();
    expect(await shop.runtime.customers.get(shop.db, request.attributes.customerId!)).to.include({
      email: second.email,
      company: 'Console Accept GmbH',
    });
    const again = await operator.post(`/account-requests/${second.id}/accept`);
    expect(again.status).to.equal(400);
    expect(again.text).to.contain('The request was accepted already.');
  });
});

describe('console: customer prices', () => {
  it('sets a price through the form, shows the API’s refusal next to the field with the input kept, finds it, changes and deletes it', async () => {
    const operator = await loginOperator();
    const { customer } = await createTestCustomer({ company: 'Price Console AG' });
    const inserted = await insertProduct();
    const product = { productNumber: inserted.number };

    const unknown = await operator.post('/customer-prices/save', {
      customerNumber: customer.customerNumber,
      productNumber: 'NO-SUCH-PRODUCT',
      price: '12.50',
      minQuantity: '1',
    });
    expect(unknown.status).to.equal(400);
    expect(unknown.text)
      .to.contain('data-test="field-error-productNumber"')
      .and.to.contain('value="NO-SUCH-PRODUCT"')
      .and.to.contain('value="12.50"');
    const refused = await operator.post('/customer-prices/save', {
      customerNumber: customer.customerNumber,
      productNumber: product!.productNumber,
      price: '12.50',
      minQuantity: '1',
      currency: 'euro',
    });
    expect(refused.status).to.equal(400);
    expect(refused.text, 'the API’s schema refusal as a sentence next to the currency').to.contain(
      'data-test="field-error-currency">Enter a three-letter currency code in capitals, such as EUR.<',
    );
    expect(refused.text).to.contain('value="euro"');
    const validity = await operator.post('/customer-prices/save', {
      customerNumber: customer.customerNumber,
      productNumber: product!.productNumber,
      price: '12.50',
      minQuantity: '1',
      validFrom: '2030-02-01',
      validUntil: '2030-01-01',
    });
    expect(validity.status).to.equal(400);
    expect(validity.text)
      .to.contain('data-test="field-error-validUntil"')
      .and.to.contain('validUntil must be after validFrom.');

    const saved = await operator.post('/customer-prices/save', {
      customerNumber: customer.customerNumber,
      productNumber: product!.productNumber,
      price: '12,50',
      minQuantity: '10',
      validUntil: '2099-01-01',
    });
    expect(saved.status, saved.text).to.equal(303);
    const list = await operator.agent.get(
      `${CONSOLE}/customer-prices?customer=${encodeURIComponent(customer.customerNumber)}`,
    );
    expect(list.text).to.contain('Price Console AG').and.to.contain('€12.50');
    const prices = (await apiGet(`/suite-customer-price?customerId=${customer.id}`)).body.data as Array<{
      id: string;
      attributes: { price: number; minQuantity: number };
    }>;
    expect(prices.map((p) => p.attributes)).to.deep.include.members([
      { ...prices[0]!.attributes, price: 12.5, minQuantity: 10 },
    ]);

    const edit = await operator.agent.get(
      `${CONSOLE}/customer-prices/edit?customerNumber=${encodeURIComponent(customer.customerNumber)}&productNumber=${encodeURIComponent(product!.productNumber)}&minQuantity=10`,
    );
    expect(edit.text).to.contain('value="12.5"').and.to.contain('value="2099-01-01"');

    const deleted = await operator.post(`/customer-prices/${prices[0]!.id}/delete`);
    expect(deleted.status).to.equal(303);
    expect((await apiGet(`/suite-customer-price?customerId=${customer.id}`)).body.meta.total).to.equal(0);
    const empty = await operator.agent.get(
      `${CONSOLE}/customer-prices?customer=${encodeURIComponent(customer.customerNumber)}`,
    );
    expect(empty.text).to.contain('No customer prices match the search.');
    const unknownFilter = await operator.agent.get(`${CONSOLE}/customer-prices?customer=NOBODY`);
    expect(unknownFilter.status).to.equal(200);
    expect(unknownFilter.text).to.contain('There is no customer with the number &quot;NOBODY&quot;.');
  });

  it('previews a CSV with two bad lines naming both and writing nothing, then imports a good file after its preview', async () => {
    const operator = await loginOperator();
    const { customer } = await createTestCustomer();
    const products = [await insertProduct(), await insertProduct()].map((p) => ({ productNumber: p.number }));
    const csv = [
      'customer_number;product_number;min_quantity;price',
      `${customer.customerNumber};${products[0]!.productNumber};1;9.99`,
      `${customer.customerNumber};NOPE;1;5`,
      `${customer.customerNumber};${products[1]!.productNumber};1;abc`,
    ].join('\n');
    const bad = await operator.post('/customer-prices/import/preview', { csv });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('2 problem(s) found — nothing was written.');
    expect(bad.text).to.contain('data-line="3"').and.to.contain('Line 3: There is no product &quot;NOPE&quot;.');
    expect(bad.text).to.contain('data-line="4"').and.to.contain('Line 4: price must be an amount');
    expect((await apiGet(`/suite-customer-price?customerId=${customer.id}`)).body.meta.total).to.equal(0);

    const good = [csv.split('\n')[0], csv.split('\n')[1]].join('\n');
    const preview = await operator.post('/customer-prices/import/preview', { csv: good });
    expect(preview.status).to.equal(200);
    expect(preview.text).to.contain('Importing will add <strong>1</strong> new price(s)');
    expect(
      (await apiGet(`/suite-customer-price?customerId=${customer.id}`)).body.meta.total,
      'a preview writes nothing',
    ).to.equal(0);
    // The import is a run: its page shows the progress, refreshing itself until the run has ended.
    const imported = await operator.post('/customer-prices/import', { csv: good });
    expect(imported.status).to.equal(303);
    expect(imported.headers.location).to.match(/\/b2b-admin\/import-runs\/[0-9a-f]{32}$/);
    let runPage = await operator.agent.get(imported.headers.location as string);
    for (let i = 0; i < 100 && runPage.text.includes('http-equiv="refresh"'); i++) {
      expect(runPage.text).to.contain('data-test="import-progress"');
      await new Promise((resolve) => setTimeout(resolve, 50));
      runPage = await operator.agent.get(imported.headers.location as string);
    }
    expect(runPage.text)
      .to.contain('data-test="import-done"')
      .and.to.contain(
        'Imported 1 line(s): <strong>1</strong> new, <strong>0</strong> changed, <strong>0</strong> unchanged.',
      );
    expect((await apiGet(`/suite-customer-price?customerId=${customer.id}`)).body.data[0].attributes).to.include({
      price: 9.99,
    });
  });
});

describe('console: settings', () => {
  it('builds the form from plugin.json’s schema, shows the API’s message next to a bad value with the input kept, and saves a good one', async () => {
    const operator = await loginOperator();
    const page = await operator.agent.get(`${CONSOLE}/settings`);
    expect(page.text)
      .to.contain('data-test="setting-offerDefaultValidityDays"')
      .and.to.contain('Validity of a new offer.')
      .and.to.contain('Default: 30.');
    expect(page.text).to.contain('type="checkbox" id="passwordlessLoginEnabled"');
    const current = (await apiGet('/_action/plugin-config/suite-b2b')).body as Record<string, unknown>;
    const form = (overrides: Record<string, string>) => ({
      approvalRefreshMinIntervalSeconds: String(current.approvalRefreshMinIntervalSeconds),
      approvalReminderIntervalSeconds: String(current.approvalReminderIntervalSeconds),
      offerDefaultValidityDays: String(current.offerDefaultValidityDays),
      offerExpiryReminderDays: String(current.offerExpiryReminderDays),
      eventRegistrationStatuses: (current.eventRegistrationStatuses as string[]).join('\n'),
      eventLanguages: (current.eventLanguages as string[]).join('\n'),
      eventReminderHoursBefore: String(current.eventReminderHoursBefore),
      customerProductNumberImportMaxRows: String(current.customerProductNumberImportMaxRows),
      recurringOrderMissedOccurrences: String(current.recurringOrderMissedOccurrences),
      ...(current.passwordlessLoginEnabled ? { passwordlessLoginEnabled: 'on' } : {}),
      ...overrides,
    });
    const bad = await operator.post('/settings', form({ offerDefaultValidityDays: '0', eventLanguages: 'de\nfr' }));
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('data-test="field-error-offerDefaultValidityDays">Enter 1 or more.<');
    expect(bad.text).to.contain('value="0"').and.to.contain('de\nfr');
    expect((await apiGet('/_action/plugin-config/suite-b2b')).body.offerDefaultValidityDays).to.equal(
      current.offerDefaultValidityDays,
    );

    const saved = await operator.post('/settings', form({ offerDefaultValidityDays: '45' }));
    expect(saved.status).to.equal(303);
    expect((await operator.agent.get(`${CONSOLE}/settings`)).text).to.contain('The settings are saved.');
    expect((await apiGet('/_action/plugin-config/suite-b2b')).body.offerDefaultValidityDays).to.equal(45);
    await (
      await http()
    )
      .patch('/api/_action/plugin-config/suite-b2b')
      .set('authorization', `Bearer ${await adminToken()}`)
      .send({ offerDefaultValidityDays: current.offerDefaultValidityDays });
  });
});

describe('console: partial assortments', () => {
  it('flags an assignment whose rule was deleted since: the product is hidden from everyone until it is removed', async () => {
    const product = await insertProduct({ name: `Orphaned rule drill ${Date.now()}` });
    const rule = await createRule({ type: 'customerNumber', operator: '=', value: 'gone-soon' });
    await assign(PRODUCT_KIND, product.id, rule);
    const operator = await loginOperator();
    /** The product's row on whichever page of the product assignments it is (other tests add theirs). */
    const rowOfProduct = async () => {
      for (let page = 1; page <= 100; page++) {
        const html = (await operator.agent.get(`${CONSOLE}/partial-assortments?kind=product&page=${page}`)).text;
        const rows = html.split('<tr data-test="assignment-row">').slice(1);
        const row = rows.find((r) => r.includes(product.name));
        if (row || rows.length === 0) return row ?? '';
      }
      return '';
    };
    const before = await rowOfProduct();
    expect(before).to.contain(product.name).and.not.contain('data-test="rule-gone"');
    await (await getShop()).db('rules').where({ id: rule }).delete();
    expect(await rowOfProduct())
      .to.contain('data-test="rule-gone"')
      .and.contain('hidden from everyone');
  });

  it('rules a category out for one customer: that customer no longer sees it, another still does; removing the rule shows it again', async () => {
    const operator = await loginOperator();
    const categoryName = `Console Category ${Date.now()}`;
    const category = await createCategory(null, categoryName);
    const hidden = await createTestCustomer({ company: 'Hidden From AG' });
    const other = await createTestCustomer({ company: 'Sees All AG' });
    const sees = async (email: string, password: string) =>
      (
        await (
          await http()
        )
          .get(`/store-api/category/${category.id}`)
          .set('suite-context-token', await login(email, password))
      ).status;
    expect(await sees(hidden.email, hidden.password)).to.equal(200);

    const missing = await operator.post('/partial-assortments', {
      kind: 'category',
      categoryId: category.id,
      audience: 'except',
      customerNumber: 'NOBODY',
    });
    expect(missing.status).to.equal(400);
    expect(missing.text).to.contain('data-test="field-error-customerNumber"').and.to.contain('value="NOBODY"');

    const saved = await operator.post('/partial-assortments', {
      kind: 'category',
      categoryId: category.id,
      audience: 'except',
      customerNumber: hidden.customer.customerNumber,
    });
    expect(saved.status, saved.text).to.equal(303);
    const list = await operator.agent.get(saved.headers.location as string);
    expect(list.text)
      .to.contain(`The category is now visible to everyone but customer ${hidden.customer.customerNumber}.`)
      .and.to.contain('Console Category');
    expect(await sees(hidden.email, hidden.password)).to.equal(404);
    expect(await sees(other.email, other.password)).to.equal(200);

    // "See the shop as this customer": the preview names the category for one customer only.
    const preview = async (customerNumber: string) =>
      operator.agent.get(`${CONSOLE}/partial-assortments/preview`).query({ customerNumber });
    const asHidden = await preview(hidden.customer.customerNumber);
    expect(asHidden.status).to.equal(200);
    const hiddenList = /<ul data-test="hidden-categories">([\s\S]*?)<\/ul>/.exec(asHidden.text)?.[1] ?? '';
    expect(hiddenList).to.contain(categoryName);
    const asOther = await preview(other.customer.customerNumber);
    expect(asOther.status).to.equal(200);
    expect(/<ul data-test="hidden-categories">([\s\S]*?)<\/ul>/.exec(asOther.text)?.[1] ?? '').not.to.contain(
      categoryName,
    );
    const unknown = await preview('NOBODY');
    expect(unknown.status).to.equal(404);
    expect(unknown.text).to.contain('data-test="field-error-customerNumber"').and.to.contain('value="NOBODY"');

    const row = [...list.text.matchAll(/<tr data-test="assignment-row">([\s\S]*?)<\/tr>/g)].find((match) =>
      match[1]!.includes('Console Category'),
    )![1]!;
    const remove = /action="([^"]+\/delete)"/.exec(row)![1]!;
    expect((await operator.post(remove.slice(CONSOLE.length))).status).to.equal(303);
    expect(await sees(hidden.email, hidden.password)).to.equal(200);
  });

  it('"everyone but this customer" on a product hides it from that customer only: guests and other customers still see it', async () => {
    const operator = await loginOperator();
    const product = await insertProduct({ name: `Everyone else sees it ${Date.now()}` });
    const hidden = await createTestCustomer({ company: 'Ruled Out AG' });
    const other = await createTestCustomer({ company: 'Other Buyer AG' });
    const saved = await operator.post('/partial-assortments', {
      kind: 'product',
      productNumber: product.number,
      audience: 'except',
      customerNumber: hidden.customer.customerNumber,
    });
    expect(saved.status, saved.text).to.equal(303);
    const agent = await http();
    const status = async (token: string | null) => {
      const req = agent.get(`/store-api/product/${product.id}`);
      return (token ? req.set('suite-context-token', token) : req).then((res) => res.status);
    };
    expect(await status(await login(hidden.email, hidden.password)), 'the customer ruled out').to.equal(404);
    expect(await status(await login(other.email, other.password)), 'another customer').to.equal(200);
    expect(await status(null), 'a guest (no customer number)').to.equal(200);
    const listed = await agent.post('/store-api/product').send({ ids: [product.id] });
    expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
    expect(
      listed.body.elements.map((p: { id: string }) => p.id),
      'a guest finds it in the listing',
    ).to.deep.equal([product.id]);
  });
});
