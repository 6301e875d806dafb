import { expect } from 'chai';
import { getShop } from '../../helpers/shop.js';
import { loggedInVisitor } from '../../helpers/storefront.js';
import { createRepresentative, newCustomer, orderAs } from '../sales-representative/helpers.js';
import { companyAdmin, expectPage, expectRefused, textOf } from './helpers.js';

describe('storefront B2B: sales representative pages', function () {
  this.timeout(60000);
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  async function representative() {
    const first = await newCustomer();
    const second = await newCustomer();
    await orderAs(second.token, 3, 2000);
    const rep = await createRepresentative([first.customer.id, second.customer.id]);
    return { first, second, rep, browser: await loggedInVisitor(rep.email, rep.password) };
  }

  it('lists the assigned customers, acts for another one and stops acting', async () => {
    const { first, second, browser } = await representative();
    const page = expectPage(await browser.get('/account/sales-representative/customers'));
    expect(page)
      .to.contain(first.customer.company!)
      .and.contain(second.customer.company!)
      .and.contain('data-test="act-for"');
    expect(textOf(page))
      .to.contain('2 assigned customers')
      .and.contain(`${second.customer.company} ${second.customer.customerNumber} 1 €60.00`);
    expect(page.match(/data-test="current-customer"/g)).to.have.length(1);

    const acting = await browser.post('/account/sales-representative/act', { customerId: second.customer.id });
    expect(acting.status, textOf(acting.text)).to.equal(303);
    expect(acting.headers.location).to.equal('/account/sales-representative/customers?done=acting');
    const account = expectPage(await browser.get('/account'));
    expect(account).to.contain(`data-test="account-company">${second.customer.company}<`);
    expect(account, 'the representative section of the menu')
      .to.contain('href="/account/sales-representative/customers"')
      .and.contain('href="/account/sales-representative/statistics"');

    expect((await browser.post('/account/sales-representative/stop')).status).to.equal(303);
    const stopped = expectPage(await browser.get('/account/sales-representative/customers?done=stopped'));
    expect(stopped).to.contain('data-test="acting-for-none"').and.not.contain('data-test="current-customer"');
    const alone = expectPage(await browser.get('/account'));
    expect(alone).not.to.contain('data-test="account-company"');
    expect(alone, 'without a customer only the representative section')
      .to.contain('href="/account/sales-representative/customers"')
      .and.not.contain('href="/account/employees"')
      .and.not.contain('href="/account/orders"');
    expectRefused(await browser.get('/account/employees'), 403);
    expect((await browser.get('/cart')).status, 'no cart without a customer').to.equal(400);
    expect(
      (await browser.post('/account/sales-representative/act', { customerId: first.customer.id })).status,
    ).to.equal(303);
    expect(expectPage(await browser.get('/account'))).to.contain(
      `data-test="account-company">${first.customer.company}<`,
    );
  });

  it('logs a representative without customers in and shows an empty customer list that says why', async () => {
    const lonely = await createRepresentative([]);
    const browser = await loggedInVisitor(lonely.email, lonely.password);
    const page = expectPage(await browser.get('/account/sales-representative/customers'));
    expect(page).to.contain('data-test="acting-for-none"').and.not.contain('data-test="sales-customer"');
    expect(textOf(page)).to.contain('No customers are assigned to you yet.');
  });

  it('shows one customer with statistics and orders, records and deletes an activity, ranks the customers', async () => {
    const { second, browser } = await representative();
    const detail = textOf(
      expectPage(await browser.get(`/account/sales-representative/customers/${second.customer.id}`)),
    );
    expect(detail).to.contain('Net revenue €60.00 from 1 orders').and.contain('Latest orders');

    const activities = expectPage(
      await browser.get(`/account/sales-representative/activities?customerId=${second.customer.id}`),
    );
    const typeId = /<select id="activity-type" name="typeId" required>\s*<option value="([0-9a-f]{32})"/.exec(
      activities,
    )?.[1];
    expect(typeId, 'the default activity types').to.be.a('string');
    const recorded = await browser.post('/account/sales-representative/activities', {
      customerId: second.customer.id,
      typeId: typeId!,
      subject: 'Quarterly call',
      comment: 'Wants a quote',
      followUpDate: '2030-01-15',
    });
    expect(recorded.status, textOf(recorded.text)).to.equal(303);
    const list = expectPage(await browser.get('/account/sales-representative/activities?done=recorded'));
    expect(textOf(list))
      .to.contain('The activity was recorded.')
      .and.contain('Quarterly call')
      .and.contain('15 Jan 2030');
    const missingSubject = await browser.post('/account/sales-representative/activities', {
      customerId: second.customer.id,
      typeId: typeId!,
      subject: '',
    });
    expect(missingSubject.status).to.equal(400);
    expect(missingSubject.text).to.contain('data-test="form-error"');
    const remove = /action="(\/account\/sales-representative\/activities\/[0-9a-f]{32}\/delete)"/.exec(list)![1]!;
    expect((await browser.post(remove)).status).to.equal(303);
    expect(textOf(expectPage(await browser.get('/account/sales-representative/activities')))).not.to.contain(
      'Quarterly call',
    );

    const statistics = expectPage(await browser.get('/account/sales-representative/statistics'));
    expect(textOf(statistics)).to.match(
      new RegExp(`1 ${second.customer.company} ${second.customer.customerNumber} 1 €60.00`),
    );
    const chosen = textOf(
      expectPage(await browser.get(`/account/sales-representative/statistics?customerId=${second.customer.id}`)),
    );
    expect(chosen)
      .to.contain(`${second.customer.company}: the last 12 months`)
      .and.contain('Net revenue €60.00 from 1 orders');
  });

  it('only a representative opens them (403); a customer not assigned is a 404', async () => {
    const { browser } = await representative();
    const stranger = await newCustomer();
    expectRefused(await browser.get(`/account/sales-representative/customers/${stranger.customer.id}`), 404);
    expectRefused(
      await browser.get(`/account/sales-representative/statistics?customerId=${stranger.customer.id}`),
      404,
    );
    expectRefused(
      await browser.get(`/account/sales-representative/activities?customerId=${stranger.customer.id}`),
      404,
    );
    expectRefused(await browser.post('/account/sales-representative/act', { customerId: stranger.customer.id }), 404);

    const { browser: buyer } = await companyAdmin();
    for (const path of [
      '/account/sales-representative/customers',
      '/account/sales-representative/activities',
      '/account/sales-representative/statistics',
      `/account/sales-representative/customers/${stranger.customer.id}`,
    ])
      expectRefused(await buyer.get(path), 403);
    expectRefused(await buyer.post('/account/sales-representative/stop'), 403);
    expect(expectPage(await buyer.get('/account'))).not.to.contain('/account/sales-representative/');
  });
});
