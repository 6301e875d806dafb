import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { getShop } from '../../helpers/shop.js';
import { loggedInVisitor, storefrontVisitor } from '../../helpers/storefront.js';
import {
  APPROVER_PERMISSIONS,
  approval,
  as,
  company,
  employee,
  newCustomer,
  product,
  requestApproval,
  setSettings,
  startShop,
} from './helpers.js';
import { locationOf } from '../../helpers/headers.js';

const page = (id: string) => `/account/order-approval/${id}`;

async function activityActions(token: string, id: string): Promise<string[]> {
  const res = await (await as(token)).get(`/b2b/order-approval/${id}/activity`);
  expect(res.status).to.equal(200);
  return res.body.activities.map((a: { action: string }) => a.action);
}

describe('order approval: storefront pages', function () {
  this.timeout(60000);
  before(startShop);

  it('sends guests to the login form and back, and refuses forms without the CSRF field', async () => {
    const { requester } = await company();
    const p = await product();
    const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
    const guest = await storefrontVisitor();
    for (const path of ['/account/order-approvals', page(id)]) {
      const res = await guest.get(path);
      expect(res.status, path).to.equal(302);
      expect(res.headers.location).to.equal(`/account/login?redirect=${encodeURIComponent(path)}`);
    }
    const forged = await guest.forge(`${page(id)}/approve`);
    expect(forged.status).to.equal(403);
    await guest.get('/account/login');
    const post = await guest.post(`${page(id)}/approve`);
    expect(post.status).to.equal(303);
    expect(post.headers.location).to.equal('/account/login');
    expect((await approval(requester.token, id)).status).to.equal('pending');
  });

  it('shows the requester their request with lines, totals, approvers and activity, without decision forms', async () => {
    const { requester } = await company();
    const p = await product({ priceNet: 1250 });
    const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 3 }], 'For the <new> office');
    const browser = await loggedInVisitor(requester.email, requester.password);

    expect((await browser.get('/account')).text, 'the account page links the list').to.contain(
      '<a href="/account/order-approvals" data-test="account-order-approvals">',
    );
    const list = await browser.get('/account/order-approvals');
    expect(list.status).to.equal(200);
    expect(list.text).to.match(new RegExp(`data-test="my-approval" data-id="${id}"`));
    expect(list.text).to.contain('data-test="nothing-to-decide"');

    const detail = await browser.get(page(id));
    expect(detail.status).to.equal(200);
    expect(detail.text).to.contain(p.name).and.to.contain('For the &lt;new&gt; office');
    expect(detail.text.match(/data-test="approval-line"/g)).to.have.length(1);
    expect(detail.text).to.contain('<td data-test="approval-net-total">€37.50</td>');
    expect(detail.text).to.contain('data-test="approval-status">pending<');
    expect(detail.text).to.contain('data-test="approver" data-status="pending"');
    expect(detail.text).to.contain('data-action="created"');
    expect(detail.text).not.to.contain('data-test="approve-form"').and.not.to.contain('data-test="execute-form"');
    expect(detail.text).to.contain('data-test="refresh-form"');
  });

  it('lets the company admin approve with the form, and the requester place the order; the Store API sees both', async () => {
    const { customer, requester } = await company();
    const p = await product({ priceNet: 2000 });
    const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 2 }]);

    const admin = await loggedInVisitor(customer.email, customer.password);
    const list = await admin.get('/account/order-approvals');
    expect(list.text).to.match(new RegExp(`data-test="approval-to-decide" data-id="${id}"`));
    const detail = await admin.get(page(id));
    expect(detail.text).to.contain('data-test="approve-form"').and.to.contain('data-test="decline-form"');

    expect((await admin.forge(`${page(id)}/approve`, { comment: 'forged' })).status).to.equal(403);
    expect((await approval(requester.token, id)).status).to.equal('pending');

    const approved = await admin.post(`${page(id)}/approve`, { comment: 'Fine by me' });
    expect(approved.status, approved.text).to.equal(303);
    expect(approved.headers.location).to.equal(`${page(id)}?done=approved`);
    const stored = await approval(requester.token, id);
    expect(stored).to.include({ status: 'approved', isApproved: true });
    const after = await admin.get(locationOf(approved));
    expect(after.text).to.contain('data-test="approval-notice">You approved the order request.<');
    expect(after.text).to.contain('data-action="approved"').and.to.contain('Fine by me');
    expect(after.text).not.to.contain('data-test="approve-form"');
    expect((await admin.get('/account/order-approvals')).text).not.to.contain(
      `data-test="approval-to-decide" data-id="${id}"`,
    );

    const again = await admin.post(`${page(id)}/approve`, {});
    expect(again.status).to.equal(400);
    expect(again.text).to.contain('data-test="approval-error"');

    const requesterBrowser = await loggedInVisitor(requester.email, requester.password);
    const ready = await requesterBrowser.get(page(id));
    expect(ready.text).to.contain('data-test="execute-form"');
    const ordered = await requesterBrowser.post(`${page(id)}/execute`);
    expect(ordered.status, ordered.text).to.equal(303);
    const placed = await approval(requester.token, id);
    expect(placed).to.include({ status: 'ordered', isOrdered: true });
    const shown = await requesterBrowser.get(locationOf(ordered));
    expect(shown.text)
      .to.contain(`data-test="approval-order-number">${placed.orderNumber}<`)
      .and.to.contain('The order was placed.');
    expect(shown.text).not.to.contain('data-test="execute-form"');
    expect(
      (await requesterBrowser.post(`${page(id)}/execute`)).status,
      'placing it twice shows the same order',
    ).to.equal(303);
    const orders = await (await getShop()).db('orders').where({ id: placed.orderId }).count({ n: '*' });
    expect(Number(orders[0]!.n)).to.equal(1);
  });

  it('declines only with a reason, as the Store API would', async () => {
    const { customer, requester } = await company();
    const p = await product();
    const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
    const admin = await loggedInVisitor(customer.email, customer.password);
    await admin.get(page(id));

    const blank = await admin.post(`${page(id)}/decline`, { comment: '   ' });
    expect(blank.status).to.equal(400);
    expect(blank.text).to.contain('Please say why you decline the order request.');
    expect((await approval(requester.token, id)).status).to.equal('pending');

    const declined = await admin.post(`${page(id)}/decline`, { comment: 'Too expensive this month' });
    expect(declined.status).to.equal(303);
    expect(declined.headers.location).to.equal(`${page(id)}?done=declined`);
    expect(await approval(requester.token, id)).to.include({ status: 'declined', isDeclined: true });
    const activities = await (await as(requester.token)).get(`/b2b/order-approval/${id}/activity`);
    expect(activities.body.activities.find((a: { action: string }) => a.action === 'declined').comment).to.equal(
      'Too expensive this month',
    );
    const mine = await (await loggedInVisitor(requester.email, requester.password)).get('/account/order-approvals');
    expect(mine.text).to.match(new RegExp(`data-id="${id}"[\\s\\S]*?data-test="approval-status">declined<`));
  });

  it('in n-of mode shows the request to the listed approvers only, and counts their form approvals', async () => {
    const { customer, requester, approverA, approverB } = await company();
    const bystander = await employee(customer, APPROVER_PERMISSIONS);
    await setSettings(customer.token, { mode: 'n-of', approverEmployeeIds: [approverA.id, approverB.id], nValue: 2 });
    const p = await product();
    const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);

    const other = await loggedInVisitor(bystander.email, bystander.password);
    expect((await other.get('/account/order-approvals')).text).not.to.contain(`data-id="${id}"`);
    const bystanderDetail = await other.get(page(id));
    expect(bystanderDetail.status).to.equal(200);
    expect(bystanderDetail.text, 'sees it (holds the approve permission) but may not decide').not.to.contain(
      'data-test="approve-form"',
    );
    expect((await other.post(`${page(id)}/approve`)).status).to.equal(403);

    const a = await loggedInVisitor(approverA.email, approverA.password);
    expect((await a.get('/account/order-approvals')).text).to.contain(`data-test="approval-to-decide" data-id="${id}"`);
    await a.get(page(id));
    expect((await a.post(`${page(id)}/approve`)).status).to.equal(303);
    expect((await approval(requester.token, id)).status, 'one of two approvals').to.equal('pending');
    const b = await loggedInVisitor(approverB.email, approverB.password);
    await b.get(page(id));
    expect((await b.post(`${page(id)}/approve`)).status).to.equal(303);
    expect((await approval(requester.token, id)).status).to.equal('approved');
    const detail = await b.get(page(id));
    expect(detail.text.match(/data-test="approver" data-status="approved"/g)).to.have.length(2);
  });

  it('refreshes with the form, and shows the wait when asked again too soon', async () => {
    const { requester } = await company();
    const p = await product({ priceNet: 1000 });
    const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
    await (await getShop()).db('products').where({ id: p.id }).update({ price_net: 900 });
    const browser = await loggedInVisitor(requester.email, requester.password);
    await browser.get(page(id));
    const refreshed = await browser.post(`${page(id)}/refresh`);
    expect(refreshed.status).to.equal(303);
    expect(refreshed.headers.location).to.equal(`${page(id)}?done=refreshed`);
    expect((await approval(requester.token, id)).netPrice).to.equal(9);
    expect(await activityActions(requester.token, id)).to.include('refreshed');
    const shown = await browser.get(locationOf(refreshed));
    expect(shown.text).to.contain('<td data-test="approval-net-total">€9.00</td>');
    const tooSoon = await browser.post(`${page(id)}/refresh`);
    expect(tooSoon.status).to.equal(400);
    expect(tooSoon.text).to.contain('was refreshed recently');
  });

  it("answers 404 for another customer's approval and for ids that are no ids; 403 for a colleague who may not see it", async () => {
    const { requester, customer } = await company();
    const p = await product();
    const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
    const stranger = await newCustomer();
    const browser = await loggedInVisitor(stranger.email, stranger.password);
    for (const path of [page(id), page(newId()), page('not-an-id'), page('../../admin')]) {
      const res = await browser.get(path);
      expect(res.status, path).to.equal(404);
    }
    expect((await browser.get('/account/order-approvals')).text).not.to.contain(id);
    for (const action of ['approve', 'decline', 'execute', 'refresh']) {
      const res = await browser.post(`${page(id)}/${action}`, { comment: 'nope' });
      expect(res.status, action).to.equal(404);
    }
    expect((await approval(requester.token, id)).status).to.equal('pending');

    const colleague = await employee(customer, ['orders.create', 'order-approval.request']);
    const colleagueBrowser = await loggedInVisitor(colleague.email, colleague.password);
    expect((await colleagueBrowser.get(page(id))).status).to.equal(403);
    expect((await colleagueBrowser.get('/account/order-approvals')).status).to.equal(200);
  });
});
