import { expect } from 'chai';
import { DEMO_APPROVER, DEMO_PURCHASER, seedEmployeeDemo } from '../../../src/plugin/employee/demo.js';
import { getShop } from '../../helpers/shop.js';
import { as, loginAs, newCustomer } from './helpers.js';

describe('employees: demo data', () => {
  it('adds a purchaser whose orders need approval and an approver, and names their logins', async () => {
    const shop = await getShop();
    const owner = await newCustomer();
    const demo = {
      salesChannelId: owner.customer.salesChannelId,
      customerId: owner.customer.id,
      customerEmail: owner.email,
      productIds: [],
      categoryIds: [],
    };
    const lines = await seedEmployeeDemo(shop.runtime, demo);
    expect(lines.join('\n'))
      .to.contain(`${DEMO_PURCHASER.email} / ${DEMO_PURCHASER.password}`)
      .and.to.contain(DEMO_APPROVER.email);
    expect(await seedEmployeeDemo(shop.runtime, demo)).to.deep.equal(lines);
    const purchaser = await (await as(await loginAs(DEMO_PURCHASER.email, DEMO_PURCHASER.password))).get('/context');
    expect(purchaser.body.employee.roleName).to.equal('Purchaser');
    const role = await shop
      .db('b2b_employee_roles')
      .where({ id: purchaser.body.employee.roleId })
      .first('requires_approval');
    expect(Boolean(Number(role.requires_approval))).to.equal(true);
    const approver = await (await as(await loginAs(DEMO_APPROVER.email, DEMO_APPROVER.password))).get('/context');
    expect(approver.body.permissions).to.include('order-approval.approve');
  });
});
