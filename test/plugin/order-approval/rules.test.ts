import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { nowDb } from '../../../src/lib/time.js';
import { placeOrder } from '../../helpers/checkout.js';
import { expectError, getShop } from '../../helpers/shop.js';
import { loggedInVisitor } from '../../helpers/storefront.js';
import {
  APPROVER_PERMISSIONS,
  REQUESTER_PERMISSIONS,
  approval,
  as,
  employee,
  fillCart,
  newCustomer,
  outbox,
  product,
  requestApproval,
  startShop,
  type Customer,
} from './helpers.js';

const OTHER_ID = 'ffffffffffffffffffffffffffffffff';

/** A unit of the company with its members (rows, as the units add-on writes them). */
async function unit(
  customer: Customer,
  members: Array<{ id: string; manager?: boolean }>,
  parentId: string | null = null,
): Promise<string> {
  const db = (await getShop()).db;
  const id = newId();
  await db('b2b_organisation_units').insert({
    id,
    customer_id: customer.customer.id,
    parent_id: parentId,
    name: `Unit ${id.slice(0, 6)}`,
    created_at: nowDb(),
  });
  for (const m of members)
    await db('b2b_organisation_unit_members').insert({
      unit_id: id,
      employee_id: m.id,
      customer_id: customer.customer.id,
      is_manager: m.manager ?? false,
      created_at: nowDb(),
    });
  return id;
}

async function createRule(token: string, body: Record<string, unknown>) {
  const res = await (await as(token)).post('/approval-rule', body);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.rule as Record<string, any>;
}

async function levels(token: string, id: string) {
  const res = await (await as(token)).get(`/b2b/order-approval/${id}/levels`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body as Record<string, any>;
}

/**
 * A company whose buyer sits in a unit with a manager, three finance employees, and the rule:
 * orders above 10,000 EUR net need the unit manager, then two of the three finance employees.
 */
async function twoLevelCompany() {
  const customer = await newCustomer();
  const buyer = await employee(customer, REQUESTER_PERMISSIONS);
  const manager = await employee(customer, APPROVER_PERMISSIONS);
  const finance = [
    await employee(customer, APPROVER_PERMISSIONS),
    await employee(customer, APPROVER_PERMISSIONS),
    await employee(customer, APPROVER_PERMISSIONS),
  ];
  const parent = await unit(customer, [{ id: manager.id, manager: true }]);
  await unit(customer, [{ id: buyer.id }], parent);
  const rule = await createRule(customer.token, {
    name: 'Large orders',
    priority: 5,
    conditions: { orderTotal: { currency: 'EUR', above: 10000 } },
    levels: [
      { name: 'Unit manager', type: 'unit-managers' },
      { name: 'Finance', type: 'employees', employeeIds: finance.map((f) => f.id), required: 2 },
    ],
  });
  return { customer, buyer, manager, finance, rule };
}

describe('order approval rules with levels', () => {
  before(startShop);

  it('a two-level chain approves an order over 10,000 (unit manager, then two of three finance employees); one under it is placed without approval', async () => {
    const { customer, buyer, manager, finance, rule } = await twoLevelCompany();
    expect(rule).to.deep.include({
      priority: 5,
      appliesTo: 'orders',
      origin: null,
      conditions: { orderTotal: { currency: 'EUR', above: 10000 } },
    });

    const small = await product({ priceNet: 900000 });
    await fillCart(buyer.token, [{ productId: small.id, quantity: 1 }]);
    expect((await placeOrder(buyer.token)).status).to.equal(200);

    const large = await product({ priceNet: 1100000 });
    await fillCart(buyer.token, [{ productId: large.id, quantity: 1 }]);
    const refusal = expectError(await placeOrder(buyer.token), 400, 'SUITE__ORDER_APPROVAL_REQUIRED') as {
      meta?: Record<string, any>;
    };
    expect(refusal.meta).to.include({ reason: 'rule', ruleId: rule.id, ruleName: 'Large orders' });
    expect((await (await as(buyer.token)).delete('/checkout/cart')).status).to.equal(204);

    const id = await requestApproval(buyer.token, [{ productId: large.id, quantity: 1 }]);
    expect((await approval(buyer.token, id)).reasons).to.deep.equal(['rule']);
    let chain = await levels(buyer.token, id);
    expect(chain).to.include({ ruleId: rule.id, ruleName: 'Large orders', currentLevel: 1 });
    expect(chain.levels.map((l: any) => [l.name, l.status, l.approverEmployeeIds])).to.deep.equal([
      ['Unit manager', 'pending', [manager.id]],
      ['Finance', 'waiting', finance.map((f) => f.id).sort()],
    ]);
    expect(await outbox('order-approval-requested', manager.email)).to.have.length(1);
    expect(await outbox('order-approval-requested', finance[0]!.email)).to.have.length(0);

    // Finance cannot decide level 1; the manager can, once.
    expectError(await (await as(finance[0]!.token)).post(`/b2b/order-approval/${id}/approve`, {}), 403);
    expect(
      (await (await as(manager.token)).post(`/b2b/order-approval/${id}/approve`, { level: 1, comment: 'ok' })).status,
    ).to.equal(200);
    expectError(
      await (await as(manager.token)).post(`/b2b/order-approval/${id}/approve`, { level: 1 }),
      400,
      'SUITE__ORDER_APPROVAL_LEVEL_DECIDED',
    );
    chain = await levels(buyer.token, id);
    expect(chain.currentLevel).to.equal(2);
    expect(chain.levels[0]).to.include({ status: 'approved' });
    expect(chain.levels[0].approvedAt).to.be.a('string');
    expect(chain.levels[0].decisions).to.have.length(1);
    expect(chain.levels[0].decisions[0]).to.include({ approverId: manager.id, decision: 'approved', comment: 'ok' });
    expect(chain.levels[0].decisions[0].decidedAt).to.match(/^\d{4}-\d\d-\d\dT/);
    expect(chain.levels[1].status).to.equal('pending');
    for (const f of finance) expect(await outbox('order-approval-requested', f.email)).to.have.length(1);

    // Two of three finance employees: one is not enough.
    expect((await (await as(finance[0]!.token)).post(`/b2b/order-approval/${id}/approve`, {})).status).to.equal(200);
    expect((await approval(buyer.token, id)).status).to.equal('pending');
    expect(
      (await (await as(finance[2]!.token)).post(`/b2b/order-approval/${id}/approve`, { level: 2 })).status,
    ).to.equal(200);
    expect((await approval(buyer.token, id)).status).to.equal('approved');
    chain = await levels(buyer.token, id);
    expect(chain.levels[1].decisions.map((d: any) => d.approverId)).to.deep.equal([finance[0]!.id, finance[2]!.id]);
    expect(await outbox('order-approval-approved', buyer.email)).to.have.length(1);

    const executed = await (await as(buyer.token)).post(`/b2b/order-approval/${id}/execute`, {});
    expect(executed.status, JSON.stringify(executed.body)).to.equal(200);
    expect(executed.body.executionResult.success).to.equal(true);
    const activity = (await (await as(customer.token)).get(`/b2b/order-approval/${id}/activity`)).body.activities.map(
      (a: any) => a.action,
    );
    expect(activity).to.include.members(['created', 'approved', 'level-approved']);
  });

  it('an approver of level 1 still sees the approval, read-only, once it has passed to level 2 (API and storefront list)', async () => {
    const { buyer, manager, finance } = await twoLevelCompany();
    const large = await product({ priceNet: 1100000 });
    const id = await requestApproval(buyer.token, [{ productId: large.id, quantity: 1 }]);
    expect((await (await as(manager.token)).post(`/b2b/order-approval/${id}/approve`, { level: 1 })).status).to.equal(
      200,
    );

    const decided = await (await as(manager.token)).post('/order-approval/list', { decidedByMe: true });
    expect(decided.status, JSON.stringify(decided.body)).to.equal(200);
    expect(decided.body.data.map((a: any) => a.id)).to.deep.equal([id]);
    expect(decided.body.total).to.equal(1);
    // Finance has decided nothing yet.
    const none = await (await as(finance[0]!.token)).post('/order-approval/list', { decidedByMe: true });
    expect(none.body.data).to.deep.equal([]);
    expectError(await (await as(manager.token)).post('/order-approval/list', { decidedByMe: 'yes' }), 400);

    const visitor = await loggedInVisitor(manager.email, manager.password);
    const list = await visitor.get('/account/order-approvals');
    expect(list.status).to.equal(200);
    expect(list.text).to.contain(`data-test="approval-decided" data-id="${id}"`);
    expect(list.text).not.to.contain(`data-test="approval-to-decide" data-id="${id}"`);
    const detail = await visitor.get(`/account/order-approval/${id}`);
    expect(detail.status).to.equal(200);
    expect(detail.text).not.to.contain('data-test="approve-form"');
  });

  it('a decline at any level declines; a price rise starts the chain again at level 1', async () => {
    const { buyer, manager, finance } = await twoLevelCompany();
    const large = await product({ priceNet: 1100000 });
    const declined = await requestApproval(buyer.token, [{ productId: large.id, quantity: 1 }]);
    expect((await (await as(manager.token)).post(`/b2b/order-approval/${declined}/approve`, {})).status).to.equal(200);
    expect(
      (await (await as(finance[1]!.token)).post(`/b2b/order-approval/${declined}/decline`, { comment: 'Too much' }))
        .status,
    ).to.equal(200);
    const chain = await levels(buyer.token, declined);
    expect(chain.levels.map((l: any) => l.status)).to.deep.equal(['approved', 'declined']);

    const id = await requestApproval(buyer.token, [{ productId: large.id, quantity: 1 }]);
    expect((await (await as(manager.token)).post(`/b2b/order-approval/${id}/approve`, {})).status).to.equal(200);
    expect((await levels(buyer.token, id)).currentLevel).to.equal(2);
    await (await getShop()).db('products').where({ id: large.id }).update({ price_net: 1200000 });
    const refreshed = await (await as(buyer.token)).post(`/b2b/order-approval/${id}/refresh`, { force: true });
    expect(refreshed.status, JSON.stringify(refreshed.body)).to.equal(200);
    expect(refreshed.body.refreshResult.requiresReapproval).to.equal(true);
    const again = await levels(buyer.token, id);
    expect(again.currentLevel).to.equal(1);
    expect(again.levels.map((l: any) => [l.status, l.decisions.length])).to.deep.equal([
      ['pending', 0],
      ['waiting', 0],
    ]);
  });

  it('every company starts with the migrated triggers as rules; switching one off changes the answer', async () => {
    const customer = await newCustomer();
    const list = await (await as(customer.token)).post('/approval-rule/list', {});
    expect(list.status, JSON.stringify(list.body)).to.equal(200);
    expect(list.body.apiAlias).to.equal('dal_entity_search_result');
    expect(
      list.body.elements.map((r: any) => [r.origin, r.priority, r.appliesTo, r.conditions, r.levels]),
    ).to.deep.equal([
      [
        'budget',
        10,
        'orders',
        { budgetExceeded: true },
        [{ name: 'Approvers', type: 'approver-settings', required: 1 }],
      ],
      [
        'role',
        20,
        'orders',
        { roleRequiresApproval: true },
        [{ name: 'Approvers', type: 'approver-settings', required: 1 }],
      ],
      ['request', 30, 'requests', {}, [{ name: 'Approvers', type: 'approver-settings', required: 1 }]],
    ]);
    const byOrigin = Object.fromEntries(list.body.elements.map((r: any) => [r.origin, r]));

    const flagged = await employee(customer, REQUESTER_PERMISSIONS, { requiresApproval: true });
    const free = await employee(customer, REQUESTER_PERMISSIONS);
    const p = await product();
    await fillCart(flagged.token, [{ productId: p.id, quantity: 1 }]);
    expectError(await placeOrder(flagged.token), 400, 'SUITE__ORDER_APPROVAL_REQUIRED');
    const off = await (await as(customer.token)).patch(`/approval-rule/${byOrigin.role.id}`, { active: false });
    expect(off.status, JSON.stringify(off.body)).to.equal(200);
    expect(off.body.rule).to.include({ active: false, origin: 'role' });
    expect((await placeOrder(flagged.token)).status).to.equal(200);

    // Without the request rule a buyer no rule stops cannot ask for approval.
    await requestApproval(free.token, [{ productId: p.id, quantity: 1 }]);
    expect((await (await as(customer.token)).delete(`/approval-rule/${byOrigin.request.id}`)).status).to.equal(204);
    const cartToken = await fillCart(free.token, [{ productId: p.id, quantity: 1 }]);
    expectError(
      await (await as(free.token)).post('/order-approval/create', { cartToken }),
      400,
      'SUITE__ORDER_APPROVAL_NOT_REQUIRED',
    );
  });

  it("rule routes: 400 for invalid rules, 401 without login, 403 without the permission, 404 for another company's rule", async () => {
    const { customer, rule, finance } = await twoLevelCompany();
    const client = await as(customer.token);
    const level = { type: 'company-admins' };
    expectError(
      await client.post('/approval-rule', { name: 'x', priority: 1, levels: [] }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(
      await client.post('/approval-rule', { name: 'x', priority: 1, levels: [level], conditions: { color: 'red' } }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(
      await client.post('/approval-rule', {
        name: 'x',
        priority: 1,
        levels: [level],
        conditions: { orderTotal: { currency: 'EUR', above: 10, below: 5 } },
      }),
      400,
      'SUITE__APPROVAL_RULE_INVALID',
    );
    // As for every amount (decision 0046): an amount with more decimals than the currency has is refused, not rounded.
    expect(
      expectError(
        await client.post('/approval-rule', {
          name: 'x',
          priority: 1,
          levels: [level],
          conditions: { orderTotal: { currency: 'EUR', above: 10.555 } },
        }),
        400,
        'SUITE__INVALID_AMOUNT',
      ).source,
    ).to.deep.equal({ pointer: '/conditions/orderTotal/above' });
    expectError(
      await client.post('/approval-rule', {
        name: 'x',
        priority: 1,
        levels: [{ type: 'employees', employeeIds: [finance[0]!.id], required: 2 }],
      }),
      400,
      'SUITE__APPROVAL_RULE_INVALID',
    );
    expectError(
      await client.post('/approval-rule', { name: 'x', priority: 1, levels: [{ type: 'role' }] }),
      400,
      'SUITE__APPROVAL_RULE_INVALID',
    );
    const stranger = await newCustomer();
    const strangerEmployee = await employee(stranger, APPROVER_PERMISSIONS);
    const foreign = expectError(
      await client.post('/approval-rule', {
        name: 'x',
        priority: 1,
        levels: [{ type: 'employees', employeeIds: [strangerEmployee.id] }],
      }),
      400,
      'SUITE__APPROVAL_RULE_UNKNOWN_REFERENCE',
    ) as { source?: { pointer?: string } };
    expect(foreign.source?.pointer).to.equal('/levels/0/employeeIds/0');
    expectError(await client.patch(`/approval-rule/${rule.id}`, {}), 400, 'SUITE__INVALID_INPUT');
    expectError(await client.get('/approval-rule/not-an-id'), 400, 'SUITE__INVALID_INPUT');

    expectError(await (await as(null)).post('/approval-rule/list', {}), 401);
    expectError(await (await as(null)).post('/approval-rule', { name: 'x', priority: 1, levels: [level] }), 401);
    expectError(await (await as(finance[0]!.token)).post('/approval-rule/list', {}), 403);
    expectError(await (await as(finance[0]!.token)).patch(`/approval-rule/${rule.id}`, { active: false }), 403);
    const manager = await employee(customer, ['order-approval.manage-rules']);
    expect((await (await as(manager.token)).get(`/approval-rule/${rule.id}`)).body.rule.name).to.equal('Large orders');

    const other = await as(stranger.token);
    expectError(await other.get(`/approval-rule/${rule.id}`), 404);
    expectError(await other.patch(`/approval-rule/${rule.id}`, { active: false }), 404);
    expectError(await other.delete(`/approval-rule/${rule.id}`), 404);
    expectError(await client.get(`/approval-rule/${OTHER_ID}`), 404);
    expect((await other.post('/approval-rule/list', {})).body.elements.map((r: any) => r.id)).not.to.include(rule.id);

    const changed = await client.patch(`/approval-rule/${rule.id}`, {
      priority: 7,
      conditions: { orderTotal: { currency: 'EUR', above: 5000.5 }, firstOrder: true },
    });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body.rule).to.deep.include({
      priority: 7,
      conditions: { orderTotal: { currency: 'EUR', above: 5000.5 }, firstOrder: true },
    });
    expect(changed.body.rule.levels).to.have.length(2);
    expect((await client.delete(`/approval-rule/${rule.id}`)).status).to.equal(204);
    expectError(await client.get(`/approval-rule/${rule.id}`), 404);
  });

  it('a level waiting longer than escalateAfterHours goes to the company admins once; one admin approval passes it', async () => {
    const customer = await newCustomer();
    const buyer = await employee(customer, REQUESTER_PERMISSIONS);
    const [first, second] = [
      await employee(customer, APPROVER_PERMISSIONS),
      await employee(customer, APPROVER_PERMISSIONS),
    ];
    await createRule(customer.token, {
      name: 'Escalating',
      priority: 1,
      escalateAfterHours: 24,
      levels: [
        { name: 'First', type: 'employees', employeeIds: [first.id] },
        { name: 'Second', type: 'employees', employeeIds: [second.id] },
      ],
    });
    const p = await product();
    const id = await requestApproval(buyer.token, [{ productId: p.id, quantity: 1 }]);
    const shop = await getShop();
    const job = () => shop.jobs.runHandler('order-approval.remind-overdue', {});
    await job();
    expect((await levels(buyer.token, id)).levels[0].escalatedAt).to.equal(null);

    await shop
      .db('suite_order_approval_levels')
      .where({ approval_id: id, level: 1 })
      .update({ started_at: '2020-01-01 00:00:00.000' });
    await job();
    await job();
    const chain = await levels(buyer.token, id);
    expect((await approval(buyer.token, id)).mode).to.equal('only-admins');
    expect(chain.levels[0].escalatedAt).to.be.a('string');
    expect(await outbox('order-approval-requested', customer.email)).to.have.length(1);
    const activity = (
      await (await as(customer.token)).get(`/b2b/order-approval/${id}/activity`)
    ).body.activities.filter((a: any) => a.action === 'escalated');
    expect(activity).to.have.length(1);
    expectError(await (await as(first.token)).post(`/b2b/order-approval/${id}/approve`, {}), 403);
    expect((await (await as(customer.token)).post(`/b2b/order-approval/${id}/approve`, { level: 1 })).status).to.equal(
      200,
    );
    expect((await levels(buyer.token, id)).currentLevel).to.equal(2);
    expect((await (await as(second.token)).post(`/b2b/order-approval/${id}/approve`, { level: 2 })).status).to.equal(
      200,
    );
    expect((await approval(buyer.token, id)).status).to.equal('approved');
  });

  it('the OpenAPI document carries the rule routes and the chain route', async () => {
    const doc = (await (await as(null)).get('/_info/openapi3.json')).body;
    expect(Object.keys(doc.paths)).to.include.members([
      '/approval-rule/list',
      '/approval-rule',
      '/approval-rule/{id}',
      '/b2b/order-approval/{orderApprovalId}/levels',
    ]);
    expect(Object.keys(doc.paths['/approval-rule/{id}'])).to.include.members(['get', 'patch', 'delete']);
  });
});
