import { expect } from 'chai';
import { down, up } from '../../../migrations/plugin/034_approvals_on_levels_only.js';
import { nowDb } from '../../../src/lib/time.js';
import { expectError, getShop } from '../../helpers/shop.js';
import { approval, as, company, product, requestApproval, startShop } from './helpers.js';

const APPROVALS = 'suite_order_approvals';
const LEVELS = 'suite_order_approval_levels';

async function columnsOfApprovals(): Promise<string[]> {
  const db = (await getShop()).db;
  return Object.keys(await db(APPROVALS).columnInfo());
}

async function levelRows(approvalId: string): Promise<Array<Record<string, any>>> {
  return (await getShop()).db(LEVELS).where({ approval_id: approvalId }).orderBy('level');
}

async function approve(token: string, id: string) {
  return (await as(token)).post(`/b2b/order-approval/${id}/approve`, {});
}

/**
 * Migration 034 (decision 0056): approvals written as the code before it wrote them — the approval row
 * holding mode, n and approvers (before the rules without level rows; after them beside the levels,
 * escalations on the row only) — are decided by their levels once it ran. The test takes the shared
 * database back to before 034 (its `down`), writes such rows, and runs its `up` again.
 */
describe('order approval: approvals on levels only (migration 034)', function () {
  this.timeout(60000);
  before(startShop);

  it('carries approvals of the old model over to their levels; they are approved as they were meant to be', async () => {
    const db = (await getShop()).db;
    const { customer, requester, approverA, approverB } = await company();
    const p = await product({ priceNet: 1000 });
    const beforeRules = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
    const escalated = await requestApproval(requester.token, [{ productId: p.id, quantity: 2 }]);
    expect(await columnsOfApprovals()).to.not.include.members(['mode', 'n_value', 'approver_employee_ids']);

    await down(db);
    expect(await columnsOfApprovals()).to.include.members(['mode', 'n_value', 'approver_employee_ids']);
    // The down puts the current level's values back onto the row (any-approver: the default settings).
    expect(await db(APPROVALS).where({ id: beforeRules }).first()).to.include({ mode: 'any-approver', n_value: 1 });

    // As the code before migration 021 wrote it: the row says "two of A and B", no level rows.
    await db(LEVELS).where({ approval_id: beforeRules }).delete();
    await db(APPROVALS)
      .where({ id: beforeRules })
      .update({
        mode: 'n-of',
        n_value: 2,
        approver_employee_ids: JSON.stringify([approverA.id, approverB.id]),
        rule_id: null,
        rule_name: null,
        current_level: 1,
        level_count: 1,
      });
    // As the code after 021 wrote an escalation: the level keeps "A decides", the row says the company admins.
    await db(LEVELS)
      .where({ approval_id: escalated, level: 1 })
      .update({
        mode: 'n-of',
        n_value: 1,
        approver_employee_ids: JSON.stringify([approverA.id]),
        escalated_at: nowDb(),
      });
    await db(APPROVALS)
      .where({ id: escalated })
      .update({ mode: 'only-admins', n_value: 1, approver_employee_ids: '[]' });

    await up(db);
    expect(await columnsOfApprovals()).to.not.include.members(['mode', 'n_value', 'approver_employee_ids']);
    const [written] = await levelRows(beforeRules);
    expect(await levelRows(beforeRules)).to.have.length(1);
    expect(written).to.include({ level: 1, name: 'Approvers', type: 'approver-settings', mode: 'n-of' });
    expect(Number(written!.n_value)).to.equal(2);
    expect(JSON.parse(written!.approver_employee_ids)).to.deep.equal([approverA.id, approverB.id]);
    expect(written!.started_at).to.not.equal(null);
    const [taken] = await levelRows(escalated);
    expect(taken).to.include({ mode: 'only-admins' });
    expect(JSON.parse(taken!.approver_employee_ids)).to.deep.equal([]);

    // Before the rules: two of A and B, as the row said; the answers show the level's mode and n.
    expect(await approval(requester.token, beforeRules)).to.include({ mode: 'n-of', nValue: 2, status: 'pending' });
    expectError(await approve(customer.token, beforeRules), 403);
    expect((await approve(approverA.token, beforeRules)).status).to.equal(200);
    expect(await approval(requester.token, beforeRules)).to.include({ status: 'pending' });
    expect((await approve(approverB.token, beforeRules)).status).to.equal(200);
    expect(await approval(requester.token, beforeRules)).to.include({ status: 'approved', isApproved: true });
    const chain = (await (await as(requester.token)).get(`/b2b/order-approval/${beforeRules}/levels`)).body;
    expect(chain.levels).to.have.length(1);
    expect(chain.levels[0]).to.include({ status: 'approved', mode: 'n-of', nValue: 2 });
    expect(chain.levels[0].approvedAt).to.be.a('string');
    expect(chain.levels[0].decisions.map((d: { approverId: string }) => d.approverId)).to.have.members([
      approverA.id,
      approverB.id,
    ]);
    const executed = await (await as(requester.token)).post(`/b2b/order-approval/${beforeRules}/execute`, {});
    expect(executed.status, JSON.stringify(executed.body)).to.equal(200);
    expect(executed.body.executionResult).to.include({ success: true });

    // Escalated: the company admins decide, A no longer does.
    expect(await approval(requester.token, escalated)).to.include({ mode: 'only-admins', nValue: 1 });
    expectError(await approve(approverA.token, escalated), 403);
    expect((await approve(customer.token, escalated)).status).to.equal(200);
    expect(await approval(requester.token, escalated)).to.include({ status: 'approved' });
  });

  it('runs again without harm, and an approval of a database migrated from scratch has its one level', async () => {
    const db = (await getShop()).db;
    await up(db);
    const { requester } = await company();
    const p = await product();
    const id = await requestApproval(requester.token, [{ productId: p.id, quantity: 1 }]);
    expect(await levelRows(id)).to.have.length(1);
    expect(await approval(requester.token, id)).to.include({ mode: 'any-approver', nValue: 1, status: 'pending' });
  });
});
