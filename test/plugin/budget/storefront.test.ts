import { expect } from 'chai';
import { placeOrder } from '../../helpers/checkout.js';
import { getShop } from '../../helpers/shop.js';
import { loggedInVisitor, storefrontVisitor } from '../../helpers/storefront.js';
import {
  as,
  createBudget,
  employee,
  fillCart,
  newCustomer,
  product,
  requestApproval,
  startShop,
} from '../order-approval/helpers.js';

/** The text of one budget row's cell. */
function cell(html: string, budgetId: string, name: string): string {
  const row = new RegExp(`data-test="budget" data-id="${budgetId}">([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? '';
  return new RegExp(`data-test="budget-${name}">([^<]*)<`).exec(row)?.[1]?.trim() ?? '';
}

describe('budgets: storefront overview', function () {
  this.timeout(60000);
  before(startShop);

  it('sends guests to the login form', async () => {
    const res = await (await storefrontVisitor()).get('/account/budgets');
    expect(res.status).to.equal(302);
    expect(res.headers.location).to.equal('/account/login?redirect=%2Faccount%2Fbudgets');
  });

  it('shows the company admin every budget with used, reserved and available in its current period', async () => {
    const customer = await newCustomer();
    const buyer = await employee(customer, ['orders.create', 'orders.read', 'order-approval.request']);
    const budget = await createBudget(customer.token, {
      name: 'Office <supplies>',
      amount: 100,
      periodType: 'monthly',
      startDate: '2024-01-01',
      employeeIds: [buyer.id],
    });
    const perOrder = await createBudget(customer.token, {
      name: 'Per order cap',
      amount: 500,
      periodType: 'per-order',
      employeeIds: [buyer.id],
    });
    const future = await createBudget(customer.token, {
      name: 'Next century',
      amount: 50,
      periodType: 'yearly',
      startDate: '2099-01-01',
    });
    const p = await product({ priceNet: 1000 });
    await fillCart(buyer.token, [{ productId: p.id, quantity: 3 }]);
    expect((await placeOrder(buyer.token)).status).to.equal(200);
    await requestApproval(buyer.token, [{ productId: p.id, quantity: 2 }]);

    const browser = await loggedInVisitor(customer.email, customer.password);
    expect((await browser.get('/account')).text, 'the account page links the overview').to.contain(
      '<a href="/account/budgets" data-test="account-budgets">',
    );
    const res = await browser.get('/account/budgets');
    expect(res.status).to.equal(200);
    expect(res.text).to.contain('data-test="company-budgets"').and.to.contain('Office &lt;supplies&gt;');
    expect(res.text, 'the customer login is no employee').not.to.contain('data-test="own-budgets"');
    expect(cell(res.text, budget.id, 'amount')).to.equal('€100.00');
    expect(cell(res.text, budget.id, 'used')).to.equal('€30.00');
    expect(cell(res.text, budget.id, 'reserved')).to.equal('€20.00');
    expect(cell(res.text, budget.id, 'available')).to.equal('€50.00');

    const timeZone = (
      await (await getShop()).db('sales_channels').where({ id: customer.customer.salesChannelId }).first('time_zone')
    ).time_zone;
    const { periodStart } = (await (await as(customer.token)).get(`/budget/${budget.id}`)).body;
    const start = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone }).format(new Date(periodStart));
    expect(cell(res.text, budget.id, 'period')).to.match(new RegExp(`^${start} – \\d{1,2} \\w{3} \\d{4}$`));
    expect(cell(res.text, perOrder.id, 'period')).to.equal('Each order on its own');
    expect(cell(res.text, future.id, 'period')).to.equal('Starts on 1 Jan 2099');
  });

  it("shows an employee the budgets that govern them; the company's only with budget.read; never another customer's", async () => {
    const customer = await newCustomer();
    const buyer = await employee(customer, ['orders.create']);
    const reader = await employee(customer, ['orders.create', 'budget.read']);
    const mine = await createBudget(customer.token, {
      name: 'Buyer budget',
      amount: 200,
      periodType: 'yearly',
      employeeIds: [buyer.id],
    });
    const theirs = await createBudget(customer.token, {
      name: 'Reader budget',
      amount: 300,
      periodType: 'yearly',
      employeeIds: [reader.id],
    });
    const stranger = await newCustomer();
    const foreign = await createBudget(stranger.token, { name: 'Foreign budget', amount: 400, periodType: 'yearly' });

    const buyerPage = (await (await loggedInVisitor(buyer.email, buyer.password)).get('/account/budgets')).text;
    expect(buyerPage).to.contain('data-test="own-budgets"').and.to.contain(`data-id="${mine.id}"`);
    expect(buyerPage).not.to.contain('data-test="company-budgets"');
    expect(buyerPage).not.to.contain(theirs.id);
    expect(cell(buyerPage, mine.id, 'available')).to.equal('€200.00');

    const readerPage = (await (await loggedInVisitor(reader.email, reader.password)).get('/account/budgets')).text;
    expect(readerPage).to.contain('data-test="own-budgets"').and.to.contain('data-test="company-budgets"');
    expect(readerPage).to.contain(`data-id="${mine.id}"`).and.to.contain(`data-id="${theirs.id}"`);
    expect(readerPage).not.to.contain(foreign.id);

    const strangerPage = (await (await loggedInVisitor(stranger.email, stranger.password)).get('/account/budgets'))
      .text;
    expect(strangerPage).to.contain(`data-id="${foreign.id}"`);
    expect(strangerPage).not.to.contain(mine.id);
    const empty = await newCustomer();
    expect((await (await loggedInVisitor(empty.email, empty.password)).get('/account/budgets')).text).to.contain(
      'data-test="no-company-budgets"',
    );
  });
});
