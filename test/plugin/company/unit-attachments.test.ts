import { expect } from 'chai';
import { placeOrder } from '../../helpers/checkout.js';
import { expectError } from '../../helpers/shop.js';
import {
  as as storeClient,
  createBudget,
  employee,
  fillCart,
  newCustomer,
  product,
} from '../order-approval/helpers.js';
import { as } from '../sales-representative/helpers.js';
import { createUnit } from './helpers.js';

const BUYER = ['orders.create', 'orders.read', 'budget.read'];

async function buy(token: string, productId: string, quantity: number) {
  await (await storeClient(token)).delete('/checkout/cart');
  await fillCart(token, [{ productId, quantity }]);
  return placeOrder(token);
}

describe('organisation units: budgets and orders of a subtree', () => {
  it('a unit budget applies to the buyers of its sub-units, not to those elsewhere', async () => {
    const customer = await newCustomer();
    const client = await as(customer.token);
    const purchasing = await createUnit(client, 'Purchasing');
    const team = await createUnit(client, 'Team A', purchasing);
    const elsewhere = await createUnit(client, 'Marketing');
    const teamBuyer = await employee(customer, BUYER);
    const otherBuyer = await employee(customer, BUYER);
    await client.put(`/b2b/organisation-unit/${team}/member/${teamBuyer.id}`, {});
    await client.put(`/b2b/organisation-unit/${elsewhere}/member/${otherBuyer.id}`, {});
    const budget = await createBudget(customer.token, { amount: 50, allowApproval: false, unitIds: [purchasing] });
    expect(budget.unitIds).to.deep.equal([purchasing]);
    expect(budget.employeeIds).to.deep.equal([]);

    const item = await product({ priceNet: 4000 });
    expect((await buy(teamBuyer.token, item.id, 1)).status).to.equal(200);
    const refused = expectError(await buy(teamBuyer.token, item.id, 1), 400, 'SUITE__BUDGET_EXCEEDED') as {
      meta?: Record<string, unknown>;
    };
    expect(refused.meta).to.include({ budgetId: budget.id, remaining: 10 });
    expect(
      (await buy(otherBuyer.token, item.id, 2)).status,
      'the budget of another unit does not limit Marketing',
    ).to.equal(200);
    const seen = await (await storeClient(teamBuyer.token)).get(`/budget/${budget.id}`);
    expect(seen.body).to.include({ used: 40, available: 10 });

    // Moving the buyer's team out of Purchasing takes the budget off the buyer.
    expect((await client.patch(`/b2b/organisation-unit/${team}`, { parentId: null })).status).to.equal(200);
    expect((await buy(teamBuyer.token, item.id, 1)).status).to.equal(200);
    // Deleting Purchasing is refused while the budget hangs on it.
    expectError(await client.delete(`/b2b/organisation-unit/${purchasing}`), 400, 'SUITE__UNIT_NOT_EMPTY');
  });

  it('refuses units of another company on a budget', async () => {
    const customer = await newCustomer();
    const theirs = await createUnit(await as((await newCustomer()).token), 'Theirs');
    const res = await (
      await storeClient(customer.token)
    ).post('/budget', { name: 'B', amount: 10, periodType: 'monthly', unitIds: [theirs] });
    expectError(res, 400, 'SUITE__UNKNOWN_UNIT');
  });

  it('orders.read-unit shows the orders of the unit subtree’s employees, not the others’', async () => {
    const customer = await newCustomer();
    const client = await as(customer.token);
    const region = await createUnit(client, 'Region');
    const branch = await createUnit(client, 'Branch', region);
    const other = await createUnit(client, 'Other');
    const lead = await employee(customer, ['orders.create', 'orders.read-unit']);
    const branchBuyer = await employee(customer, BUYER);
    const otherBuyer = await employee(customer, BUYER);
    await client.put(`/b2b/organisation-unit/${region}/member/${lead.id}`, { isManager: true });
    await client.put(`/b2b/organisation-unit/${branch}/member/${branchBuyer.id}`, {});
    await client.put(`/b2b/organisation-unit/${other}/member/${otherBuyer.id}`, {});
    const item = await product({ priceNet: 100 });
    const ownOrder = (await buy(lead.token, item.id, 1)).body.id;
    const branchOrder = (await buy(branchBuyer.token, item.id, 1)).body.id;
    const otherOrder = (await buy(otherBuyer.token, item.id, 1)).body.id;

    const leadClient = await storeClient(lead.token);
    const seen = await leadClient.post('/b2b/employee-orders', {});
    expect(seen.status, JSON.stringify(seen.body)).to.equal(200);
    expect(seen.body.elements.map((o: { id: string }) => o.id).sort()).to.deep.equal([ownOrder, branchOrder].sort());
    expect((await leadClient.get(`/b2b/employee-order/${branchOrder}`)).status).to.equal(200);
    expectError(await leadClient.get(`/b2b/employee-order/${otherOrder}`), 404);
    // The client cannot widen the scope with its own filter.
    const widened = await leadClient.post('/b2b/employee-orders', {
      filter: [{ type: 'equals', field: 'employeeId', value: otherBuyer.id }],
    });
    expect(widened.body.elements).to.deep.equal([]);
    // A buyer without the permission sees only their own.
    const own = await (await storeClient(branchBuyer.token)).post('/b2b/employee-orders', {});
    expect(own.body.elements.map((o: { id: string }) => o.id)).to.deep.equal([branchOrder]);
  });
});

describe('organisation units: a default cost center for the subtree', () => {
  it('an employee without a default of their own orders with the cost center of their nearest unit', async () => {
    const customer = await newCustomer();
    const client = await as(customer.token);
    const plant = await createUnit(client, 'Plant');
    const line = await createUnit(client, 'Line 1', plant);
    const buyer = await employee(customer, BUYER);
    await client.put(`/b2b/organisation-unit/${line}/member/${buyer.id}`, {});
    const costCenter = (await client.post('/cost-center', { number: `CC-${plant.slice(0, 6)}`, name: 'Plant' })).body
      .costCenter;
    const set = await client.put(`/b2b/organisation-unit/${plant}/cost-center`, { costCenterId: costCenter.id });
    expect(set.status, JSON.stringify(set.body)).to.equal(200);
    expect(set.body).to.deep.equal({
      unitId: plant,
      costCenter: { id: costCenter.id, number: costCenter.number, name: 'Plant' },
    });
    expect((await client.get(`/b2b/organisation-unit/${line}/cost-center`)).body.costCenter).to.equal(null);

    const checkout = await (await storeClient(buyer.token)).get('/cost-center/checkout');
    expect(checkout.body).to.deep.equal({
      costCenter: { id: costCenter.id, number: costCenter.number, name: 'Plant' },
      chosen: false,
    });
    const item = await product({ priceNet: 100 });
    const placed = await buy(buyer.token, item.id, 1);
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    const order = await (await storeClient(buyer.token)).get(`/b2b/employee-order/${placed.body.id}`);
    expect(order.body.customFields.costCenter).to.deep.equal({
      id: costCenter.id,
      number: costCenter.number,
      name: 'Plant',
    });

    // Not for an employee elsewhere; not on another company's unit; not without cost-center.manage.
    const outsider = await employee(customer, BUYER);
    expect((await (await storeClient(outsider.token)).get('/cost-center/checkout')).body.costCenter).to.equal(null);
    const theirUnit = await createUnit(await as((await newCustomer()).token), 'Theirs');
    expectError(await client.put(`/b2b/organisation-unit/${theirUnit}/cost-center`, { costCenterId: null }), 404);
    expectError(
      await (await as(buyer.token)).put(`/b2b/organisation-unit/${plant}/cost-center`, { costCenterId: null }),
      403,
    );
    expectError(await client.put(`/b2b/organisation-unit/${plant}/cost-center`, {}), 400, 'SUITE__INVALID_INPUT');
  });
});
