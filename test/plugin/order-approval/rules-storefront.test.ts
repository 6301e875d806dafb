import { expect } from 'chai';
import { loggedInVisitor } from '../../helpers/storefront.js';
import { APPROVER_PERMISSIONS, as, employee, newCustomer, product, requestApproval, startShop } from './helpers.js';

type Rule = { id: string; name: string; priority: number; levels: Array<Record<string, unknown>> } & Record<
  string,
  any
>;

async function rulesOf(token: string): Promise<Rule[]> {
  const res = await (await as(token)).post('/approval-rule/list', {});
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.elements;
}

const listedIds = (html: string) => [...html.matchAll(/data-test="rule" data-id="([0-9a-f]{32})"/g)].map((m) => m[1]);

describe('order approval rules: storefront pages', () => {
  before(startShop);

  it('the company admin creates a rule through the form (a refusal keeps the input and names the field), edits, reorders and deletes it', async () => {
    const admin = await newCustomer();
    const finance = [await employee(admin, APPROVER_PERMISSIONS), await employee(admin, APPROVER_PERMISSIONS)];
    const visitor = await loggedInVisitor(admin.email, admin.password);
    expect((await visitor.get('/account')).text).to.contain('href="/account/approval-rules"');

    // The three rules every company starts with are listed by priority.
    const start = await visitor.get('/account/approval-rules');
    expect(start.status).to.equal(200);
    const defaults = await rulesOf(admin.token);
    expect(defaults.map((r) => r.priority)).to.deep.equal([10, 20, 30]);
    expect(listedIds(start.text)).to.deep.equal(defaults.map((r) => r.id));

    const blank = await visitor.get('/account/approval-rules/new');
    expect(blank.status).to.equal(200);
    expect(blank.text).to.contain('name="priority" type="text" inputmode="numeric" required value="40"');
    const form = {
      levelSlots: '2',
      name: 'Large orders',
      priority: '5',
      active: 'true',
      appliesTo: 'orders',
      currency: 'EUR',
      above: '10000',
      below: '',
      'level-0-type': 'unit-managers',
      'level-0-name': 'Unit manager',
      'level-0-required': '1',
      'level-1-type': 'employees',
      'level-1-name': 'Finance',
      'level-1-employeeIds': finance.map((f) => f.id),
      'level-1-required': '3',
    };
    const refused = await visitor.post('/account/approval-rules/new', form);
    expect(refused.status).to.equal(400);
    expect(refused.text).to.match(
      /data-test="field-error-level-1-required">The level names 2 employees; 3 of them cannot approve\./,
    );
    expect(refused.text).to.contain('value="Large orders"').and.contain('value="10000"');
    for (const f of finance) expect(refused.text).to.contain(`value="${f.id}" checked`);
    expect(await rulesOf(admin.token)).to.have.length(3);

    // A limit that is no amount: the schema's 400 beside the field, as typed.
    const badAmount = await visitor.post('/account/approval-rules/new', { ...form, above: 'lots' });
    expect(badAmount.status).to.equal(400);
    expect(badAmount.text).to.contain('data-test="field-error-above"').and.contain('value="lots"');

    // Another company's unit: the route's reference check, beside the units, the id kept (checked, shown by id).
    const otherUnit = (await (await as((await newCustomer()).token)).post('/b2b/organisation-unit', { name: 'Theirs' }))
      .body.unit.id as string;
    const foreign = await visitor.post('/account/approval-rules/new', { ...form, unitIds: [otherUnit] });
    expect(foreign.status).to.equal(400);
    expect(foreign.text).to.match(
      /data-test="field-error-unitIds">The organisation unit does not belong to your company\./,
    );
    expect(foreign.text).to.contain(`value="${otherUnit}" checked`);

    expect((await visitor.post('/account/approval-rules/new', { ...form, 'level-1-required': '2' })).status).to.equal(
      303,
    );
    const created = (await rulesOf(admin.token))[0]!;
    expect(created).to.deep.include({
      name: 'Large orders',
      priority: 5,
      active: true,
      conditions: { orderTotal: { currency: 'EUR', above: 10000 } },
      levels: [
        { name: 'Unit manager', type: 'unit-managers', required: 1 },
        { name: 'Finance', type: 'employees', employeeIds: finance.map((f) => f.id), required: 2 },
      ],
    });

    // The edit form shows the rule; saving it changes it (a level left empty is dropped).
    const edit = await visitor.get(`/account/approval-rules/${created.id}`);
    expect(edit.status).to.equal(200);
    expect(edit.text).to.contain('value="Large orders"').and.contain('<option value="unit-managers" selected>');
    const saved = await visitor.post(`/account/approval-rules/${created.id}`, {
      ...form,
      'level-1-required': '2',
      levelSlots: '3',
      below: '50000',
      firstOrder: 'true',
      'level-0-type': '',
    });
    expect(saved.status, saved.text).to.equal(303);
    const changed = (await (await as(admin.token)).get(`/approval-rule/${created.id}`)).body.rule as Rule;
    expect(changed.conditions).to.deep.equal({
      orderTotal: { currency: 'EUR', above: 10000, below: 50000 },
      firstOrder: true,
    });
    expect(changed.levels.map((l) => l.name)).to.deep.equal(['Finance']);

    // Moving down swaps it with the next rule; priorities are renumbered in steps of 10.
    expect((await visitor.post(`/account/approval-rules/${created.id}/move`, { direction: 'down' })).status).to.equal(
      303,
    );
    const moved = await rulesOf(admin.token);
    expect(moved.map((r) => [r.id, r.priority])).to.deep.equal([
      [defaults[0]!.id, 10],
      [created.id, 20],
      [defaults[1]!.id, 30],
      [defaults[2]!.id, 40],
    ]);
    const list = await visitor.get('/account/approval-rules?done=moved');
    expect(list.text).to.contain('The order of the rules was changed.');
    expect(listedIds(list.text)).to.deep.equal(moved.map((r) => r.id));

    expect((await visitor.post(`/account/approval-rules/${created.id}/delete`)).status).to.equal(303);
    expect((await rulesOf(admin.token)).map((r) => r.id)).to.deep.equal(defaults.map((r) => r.id));
    expect((await visitor.get(`/account/approval-rules/${created.id}`)).status).to.equal(404);
  });

  it('is open to employees holding order-approval.manage-rules only; the approval page shows the level and who decided', async () => {
    const admin = await newCustomer();
    const keeper = await employee(admin, ['order-approval.manage-rules']);
    const page = await (await loggedInVisitor(keeper.email, keeper.password)).get('/account/approval-rules/new');
    expect(page.status).to.equal(200);
    // Without employee.read and role.read the form offers no employees or roles to pick.
    expect(page.text).to.contain('(You may not see the employees.)');
    const buyer = await employee(admin, ['orders.create', 'order-approval.request']);
    const visitor = await loggedInVisitor(buyer.email, buyer.password);
    expect((await visitor.get('/account')).text).not.to.contain('/account/approval-rules');
    expect((await visitor.get('/account/approval-rules')).status).to.equal(403);

    const approverA = await employee(admin, APPROVER_PERMISSIONS);
    const approverB = await employee(admin, APPROVER_PERMISSIONS);
    const rule = await (
      await as(admin.token)
    ).post('/approval-rule', {
      name: 'Two steps',
      priority: 1,
      appliesTo: 'requests',
      levels: [
        { name: 'First look', type: 'employees', employeeIds: [approverA.id] },
        { name: 'Second look', type: 'employees', employeeIds: [approverB.id] },
      ],
    });
    expect(rule.status, JSON.stringify(rule.body)).to.equal(200);
    const id = await requestApproval(buyer.token, [{ productId: (await product()).id, quantity: 1 }]);
    expect(
      (await (await as(approverA.token)).post(`/b2b/order-approval/${id}/approve`, { comment: 'fine' })).status,
    ).to.equal(200);
    const detail = await visitor.get(`/account/order-approval/${id}`);
    expect(detail.status).to.equal(200);
    expect(detail.text).to.contain('Rule: Two steps.').and.contain('At level 2 of 2');
    expect(detail.text).to.match(
      /data-level="1" data-status="approved"[\s\S]*?data-test="level-decision">[^<]*approved on/,
    );
    expect(detail.text).to.contain('“fine”');
    expect(detail.text).to.contain('data-level="2" data-status="pending"');
  });
});
