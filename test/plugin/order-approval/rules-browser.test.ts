import { mkdirSync } from 'node:fs';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { newId } from '../../../src/lib/ids.js';
import { projectPath } from '../../../src/host-kit/paths.js';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { getShop } from '../../helpers/shop.js';
import { createRole, loginAs } from '../employee/helpers.js';
import {
  APPROVER_PERMISSIONS,
  REQUESTER_PERMISSIONS,
  approval,
  as,
  newCustomer,
  product,
  startShop,
  type Customer,
} from './helpers.js';

const SCREENSHOTS = projectPath('var', 'screenshots', 'approval-rules');

interface Person {
  id: string;
  email: string;
  password: string;
  token: string;
  name: string;
}

/** An employee with a name of their own (the pages list employees by name), holding `permissions`. */
async function person(admin: Customer, firstName: string, lastName: string, permissions: string[]): Promise<Person> {
  const role = await createRole(admin.token, permissions);
  const email = `${firstName.toLowerCase()}.${newId().slice(0, 8)}@example.test`;
  const password = `pw-${newId().slice(0, 12)}`;
  const res = await (
    await as(admin.token)
  ).post('/b2b/employee', { email, firstName, lastName, roleId: role.id, password });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return { id: res.body.id, email, password, token: await loginAs(email, password), name: `${firstName} ${lastName}` };
}

describe('order approval rules: a company admin sets up units and a two-level rule in a real browser', function () {
  this.timeout(180000);
  let harness: BrowserHarness;
  let browser: Browser;
  let base: string;

  before(startShop);
  before(async function () {
    harness = await startBrowser(this);
    ({ browser, base } = harness);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await harness?.close();
  });

  async function loggedIn(email: string, password: string, then: string): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/account/login?redirect=${encodeURIComponent(then)}`);
    await page.fill('#email', email);
    await page.fill('#password', password);
    await Promise.all([page.waitForURL(`${base}${then}`), page.click('[data-test=login-submit]')]);
    return page;
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });

  it('units, an employee moved, a rule "over 10,000: unit managers, then two of three finance employees"; the order passes both levels and is placed', async () => {
    const admin = await newCustomer();
    const buyer = await person(admin, 'Bea', 'Buyer', REQUESTER_PERMISSIONS);
    const manager = await person(admin, 'Max', 'Manager', APPROVER_PERMISSIONS);
    const finance = [
      await person(admin, 'Fiona', 'Finance', APPROVER_PERMISSIONS),
      await person(admin, 'Frank', 'Finance', APPROVER_PERMISSIONS),
      await person(admin, 'Fatima', 'Finance', APPROVER_PERMISSIONS),
    ];
    const large = await product({ priceNet: 1100000 });

    // The company admin builds two units and moves the buyer into Purchasing.
    const page = await loggedIn(admin.email, admin.password, '/account/organisation-units');
    for (const name of ['Purchasing', 'Finance']) {
      await page.fill('#unit-name', name);
      await Promise.all([
        page.waitForURL(`${base}/account/organisation-units?done=created`),
        page.click('[data-test=unit-create] button[type=submit]'),
      ]);
    }
    await page.selectOption('#move-employee', buyer.id);
    await page.selectOption('#move-from', '');
    await page.selectOption('#move-to', { label: 'Purchasing' });
    await Promise.all([
      page.waitForURL(`${base}/account/organisation-units?done=moved`),
      page.click('[data-test=move-employee] button[type=submit]'),
    ]);
    const units = (await (await as(admin.token)).get('/b2b/organisation-unit/tree')).body.elements as Array<{
      id: string;
      name: string;
      members: Array<{ employeeId: string }>;
    }>;
    const purchasing = units.find((u) => u.name === 'Purchasing')!;
    expect(purchasing.members.map((m) => m.employeeId)).to.deep.equal([buyer.id]);
    // Max joins Purchasing as its manager, through the same form.
    await page.selectOption('#move-employee', manager.id);
    await page.selectOption('#move-from', '');
    await page.selectOption('#move-to', { label: 'Purchasing' });
    await page.check('#move-manager');
    await Promise.all([
      page.waitForURL(`${base}/account/organisation-units?done=moved`),
      page.click('[data-test=move-employee] button[type=submit]'),
    ]);
    const members = (await (await as(admin.token)).get(`/b2b/organisation-unit/${purchasing.id}`)).body
      .members as Array<{ employeeId: string; isManager: boolean }>;
    expect(members.map((m) => [m.employeeId, m.isManager]).sort()).to.deep.equal(
      [
        [buyer.id, false],
        [manager.id, true],
      ].sort(),
    );
    await shot(page, '1-units');

    // The rule, through the menu and the form; a first try asking 3 approvals of 2 named people is refused beside the field.
    await Promise.all([
      page.waitForURL(`${base}/account/approval-rules`),
      page.click('nav.account-menu a[href="/account/approval-rules"]'),
    ]);
    expect(await page.locator('[data-test=rule]').count()).to.equal(3);
    await shot(page, '2-rules-start');
    await Promise.all([page.waitForURL(`${base}/account/approval-rules/new`), page.click('[data-test=rule-new]')]);
    await page.fill('#rule-name', 'Large orders');
    await page.fill('#rule-priority', '5');
    await page.fill('#rule-above', '10000');
    await page.selectOption('#level-0-type', 'unit-managers');
    await page.fill('#level-0-name', 'Unit manager');
    await page.selectOption('#level-1-type', 'employees');
    await page.fill('#level-1-name', 'Finance');
    for (const f of finance.slice(0, 2)) await page.check(`input[name=level-1-employeeIds][value="${f.id}"]`);
    await page.fill('#level-1-required', '3');
    await page.click('[data-test=rule-submit]');
    await page.waitForSelector('[data-test=field-error-level-1-required]');
    expect(await page.textContent('[data-test=field-error-level-1-required]')).to.equal(
      'The level names 2 employees; 3 of them cannot approve.',
    );
    expect(await page.inputValue('#rule-name')).to.equal('Large orders');
    expect(await page.inputValue('#rule-above')).to.equal('10000');
    await shot(page, '3-rule-refused');
    await page.check(`input[name=level-1-employeeIds][value="${finance[2]!.id}"]`);
    await page.fill('#level-1-required', '2');
    await Promise.all([
      page.waitForURL(/\/account\/approval-rules\?done=created/),
      page.click('[data-test=rule-submit]'),
    ]);
    expect(await page.textContent('[data-test=notice]')).to.equal('The rule was created.');
    const first = page.locator('[data-test=rule]').first();
    expect(await first.textContent()).to.contain('Large orders');
    expect(await first.locator('[data-test=rule-levels] li').allTextContents()).to.deep.equal([
      "1. Unit manager: any one of the managers of the buyer's units",
      `2. Finance: 2 of ${finance
        .map((f) => f.name)
        .sort()
        .join(', ')}`,
    ]);
    await shot(page, '4-rules-created');

    // The buyer orders for 11,000 in the storefront: the checkout asks for approval, the buyer requests it.
    const shop = await loggedIn(buyer.email, buyer.password, `/product/${large.id}`);
    await Promise.all([shop.waitForURL(`${base}/cart?done=added`), shop.click('[data-test=add-to-cart]')]);
    await Promise.all([shop.waitForURL(`${base}/checkout`), shop.click('[data-test=to-checkout]')]);
    await shop.click('[data-test=order-now]');
    await shop.waitForSelector('[data-test=checkout-refusal]');
    expect(await shop.getAttribute('[data-test=checkout-refusal]', 'data-code')).to.equal(
      'SUITE__ORDER_APPROVAL_REQUIRED',
    );
    await shot(shop, '5-checkout-needs-approval');
    await Promise.all([shop.waitForURL(`${base}/account/order-approvals`), shop.click('[data-test=request-approval]')]);
    const mine = await (
      await as(buyer.token)
    ).post('/order-approval/list', {
      filter: [{ type: 'equals', field: 'requesterId', value: buyer.id }],
    });
    expect(mine.body.total, JSON.stringify(mine.body)).to.equal(1);
    const id = mine.body.data[0].id as string;
    expect(await approval(buyer.token, id)).to.include({ status: 'pending' });

    // Level 1: the manager of the buyer's unit.
    const detail = `/account/order-approval/${id}`;
    const max = await loggedIn(manager.email, manager.password, detail);
    expect(await max.textContent('[data-test=approval-current-level]')).to.equal('At level 1 of 2');
    await shot(max, '6-manager-level-1');
    await max.fill('#approve-comment', 'Needed for the plant');
    await Promise.all([max.waitForURL(`${base}${detail}?done=approved`), max.click('[data-test=approve-submit]')]);
    expect(await max.getAttribute('[data-test=approval-level][data-level="1"]', 'data-status')).to.equal('approved');

    // Level 2: two of the three finance employees.
    for (const [i, f] of [finance[0]!, finance[2]!].entries()) {
      const approver = await loggedIn(f.email, f.password, detail);
      expect(await approver.textContent('[data-test=approval-current-level]')).to.equal('At level 2 of 2');
      expect(
        await approver.textContent('[data-test=approval-level][data-level="1"] [data-test=level-decision]'),
      ).to.contain(`${manager.name}: approved on`);
      if (i === 0) await shot(approver, '7-finance-level-2');
      await Promise.all([
        approver.waitForURL(`${base}${detail}?done=approved`),
        approver.click('[data-test=approve-submit]'),
      ]);
    }
    expect(await approval(buyer.token, id)).to.include({ status: 'approved' });

    // The buyer places the approved order.
    await shop.goto(`${base}${detail}`);
    expect(await shop.getAttribute('[data-test=approval-level][data-level="2"]', 'data-status')).to.equal('approved');
    expect(
      await shop.locator('[data-test=approval-level][data-level="2"] [data-test=level-decision]').count(),
    ).to.equal(2);
    await Promise.all([shop.waitForURL(`${base}${detail}?done=ordered`), shop.click('[data-test=execute-submit]')]);
    const placed = await approval(buyer.token, id);
    expect(placed.status).to.equal('ordered');
    expect(await shop.textContent('[data-test=approval-order-number]')).to.equal(placed.orderNumber);
    await shot(shop, '8-ordered');
    const order = await (await getShop()).db('orders').where({ id: placed.orderId }).first();
    expect(order, 'the order exists').to.not.equal(undefined);
    expect(order.order_number).to.equal(placed.orderNumber);
    const activity = (await (await as(admin.token)).get(`/b2b/order-approval/${id}/activity`)).body.activities.map(
      (a: { action: string }) => a.action,
    );
    expect(activity).to.include.members(['created', 'level-approved', 'approved', 'executed']);
  });
});
