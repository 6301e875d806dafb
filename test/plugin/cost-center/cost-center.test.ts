import { expect } from 'chai';
import type supertest from 'supertest';
import { newId } from '../../../src/lib/ids.js';
import { insertProduct } from '../../helpers/checkout.js';
import { pdfTexts } from '../../helpers/pdf.js';
import { adminToken, expectError, getShop, http } from '../../helpers/shop.js';
import { as, employeeWith, newCustomer, type Customer } from '../employee/helpers.js';

async function createCostCenter(
  token: string,
  body: Record<string, unknown>,
): Promise<{ id: string; number: string; name: string }> {
  const res = await (await as(token)).post('/cost-center', body);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.costCenter;
}

const uniqueNumber = () => `CC-${newId().slice(0, 6)}`;

async function order(token: string): Promise<supertest.Response> {
  const client = await as(token);
  const product = await insertProduct({ name: 'Cost center widget' });
  const added = await client.post('/checkout/cart/line-item', { items: [{ productId: product.id, quantity: 1 }] });
  expect(added.status, JSON.stringify(added.body)).to.be.oneOf([200, 201]);
  return client.post('/checkout/order', {});
}

async function invoiceTexts(token: string, placed: Record<string, any>): Promise<string[]> {
  const res = await (
    await as(token)
  ).agent
    .get(`/store-api/document/download/${placed.documents[0].id}`)
    .set('suite-context-token', token)
    .buffer(true);
  expect(res.status).to.equal(200);
  return pdfTexts(res.body as Buffer);
}

describe('cost centers: CRUD', () => {
  it('the company admin creates, lists, changes and deletes cost centers; numbers are unique per company', async () => {
    const admin = await newCustomer();
    const client = await as(admin.token);
    const number = uniqueNumber();
    const created = await client.post('/cost-center', { number, name: ' Marketing ', description: 'Fairs and print' });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body.costCenter).to.deep.include({
      number,
      name: 'Marketing',
      description: 'Fairs and print',
      active: true,
      isDefault: false,
    });
    const id = created.body.costCenter.id;
    expect(created.body.costCenter.costCenterId).to.equal(id);
    expectError(
      await client.post('/cost-center', { number, name: 'Again' }),
      400,
      'SUITE__DUPLICATE_COST_CENTER_NUMBER',
    );
    const other = await createCostCenter(admin.token, { number: uniqueNumber(), name: 'Research', active: false });

    // Another company may use the same number.
    await createCostCenter((await newCustomer()).token, { number, name: 'Theirs' });

    const list = await client.post('/cost-center/list', {});
    expect(list.status).to.equal(200);
    expect(list.body).to.include({ total: 2, apiAlias: 'dal_entity_search_result' });
    expect(list.body.elements.map((c: { id: string }) => c.id)).to.have.members([id, other.id]);
    const searched = await client.post('/cost-center/list', {
      term: 'market',
      filter: [{ type: 'equals', field: 'active', value: true }],
    });
    expect(searched.body.elements.map((c: { id: string }) => c.id)).to.deep.equal([id]);

    const changed = await client.patch(`/cost-center/${id}`, { name: 'Marketing & Sales', active: false });
    expect(changed.status).to.equal(200);
    expect(changed.body.costCenter).to.deep.include({ name: 'Marketing & Sales', active: false, number });
    expectError(
      await client.patch(`/cost-center/${id}`, {
        number: (await client.post('/cost-center/list', { ids: [other.id] })).body.elements[0].number,
      }),
      400,
      'SUITE__DUPLICATE_COST_CENTER_NUMBER',
    );

    expect((await client.delete(`/cost-center/${id}`)).status).to.equal(204);
    expectError(await client.delete(`/cost-center/${id}`), 404, 'SUITE__NOT_FOUND');
    expect((await client.post('/cost-center/list', {})).body.total).to.equal(1);
  });

  it("answers another company's cost center 404, bad input 400, guests 401, missing permissions 403", async () => {
    const admin = await newCustomer();
    const theirs = await createCostCenter((await newCustomer()).token, { number: uniqueNumber(), name: 'Theirs' });
    const client = await as(admin.token);
    expectError(await client.patch(`/cost-center/${theirs.id}`, { name: 'Mine now' }), 404, 'SUITE__NOT_FOUND');
    expectError(await client.delete(`/cost-center/${theirs.id}`), 404, 'SUITE__NOT_FOUND');
    expectError(await client.patch('/cost-center/default', { costCenterId: theirs.id }), 404, 'SUITE__NOT_FOUND');
    expectError(await client.patch('/cost-center/checkout', { costCenterId: theirs.id }), 404, 'SUITE__NOT_FOUND');
    expect((await client.post('/cost-center/list', { ids: [theirs.id] })).body.total).to.equal(0);

    expectError(await client.post('/cost-center', { name: 'No number' }), 400, 'SUITE__INVALID_INPUT');
    expectError(await client.post('/cost-center', { number: '  ', name: 'Blank' }), 400, 'SUITE__INVALID_INPUT');
    expectError(
      await client.post('/cost-center', { number: 'X', name: 'Y', owner: 'me' }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(await client.patch(`/cost-center/${theirs.id}`, {}), 400, 'SUITE__INVALID_INPUT');
    expectError(await client.patch('/cost-center/nope', { name: 'x' }), 400, 'SUITE__INVALID_INPUT');
    expectError(
      await client.post('/cost-center/list', { filter: [{ type: 'equals', field: 'customerId', value: 'x' }] }),
      400,
    );
    expectError(await client.patch('/cost-center/default', {}), 400, 'SUITE__INVALID_INPUT');

    const guest = await as(null);
    expectError(await guest.post('/cost-center/list', {}), 401);
    expectError(await guest.post('/cost-center', { number: 'X', name: 'Y' }), 401);
    expectError(await guest.get('/cost-center/checkout'), 401);

    const mine = await createCostCenter(admin.token, { number: uniqueNumber(), name: 'Mine' });
    const buyer = await as((await employeeWith(['orders.read'], admin)).token);
    expectError(await buyer.post('/cost-center', { number: 'X', name: 'Y' }), 403);
    expectError(await buyer.patch(`/cost-center/${mine.id}`, { name: 'Y' }), 403);
    expectError(await buyer.delete(`/cost-center/${mine.id}`), 403);
    expectError(await buyer.get('/cost-center/checkout'), 403);
    expectError(await buyer.patch('/cost-center/checkout', { costCenterId: mine.id }), 403);
    const manager = await as((await employeeWith(['cost-center.manage'], admin)).token);
    expect((await manager.patch(`/cost-center/${mine.id}`, { description: 'by the manager' })).status).to.equal(200);
  });

  it('lists only active cost centers to logins without cost-center.read', async () => {
    const admin = await newCustomer();
    const active = await createCostCenter(admin.token, { number: uniqueNumber(), name: 'Active' });
    const inactive = await createCostCenter(admin.token, { number: uniqueNumber(), name: 'Inactive', active: false });
    const buyer = await as((await employeeWith(['orders.create'], admin)).token);
    expect((await buyer.post('/cost-center/list', {})).body.elements.map((c: { id: string }) => c.id)).to.deep.equal([
      active.id,
    ]);
    const reader = await as((await employeeWith(['cost-center.read'], admin)).token);
    expect((await reader.post('/cost-center/list', {})).body.elements.map((c: { id: string }) => c.id)).to.have.members(
      [active.id, inactive.id],
    );
  });
});

describe('cost centers: defaults and orders', () => {
  let admin: Customer;
  beforeEach(async () => {
    admin = await newCustomer();
  });

  it('an order carries the chosen cost center (else the default) on the order, in the order lists and on the invoice', async () => {
    const marketing = await createCostCenter(admin.token, { number: uniqueNumber(), name: 'Marketing' });
    const research = await createCostCenter(admin.token, { number: uniqueNumber(), name: 'Research' });
    const { employee, token } = await employeeWith(['orders.create', 'orders.read'], admin);
    const buyer = await as(token);

    const defaulted = await (
      await as(admin.token)
    ).patch('/cost-center/default', { employeeId: employee.id, costCenterId: marketing.id });
    expect(defaulted.status, JSON.stringify(defaulted.body)).to.equal(200);
    expect(defaulted.body).to.deep.equal({
      actorType: 'employee',
      actorId: employee.id,
      costCenter: { id: marketing.id, number: marketing.number, name: 'Marketing' },
    });
    expect((await buyer.get('/cost-center/checkout')).body).to.deep.equal({
      costCenter: { id: marketing.id, number: marketing.number, name: 'Marketing' },
      chosen: false,
    });
    const listed = await buyer.post('/cost-center/list', {});
    expect(listed.body.elements.find((c: { id: string }) => c.id === marketing.id).isDefault).to.equal(true);

    const chosen = await buyer.patch('/cost-center/checkout', { costCenterId: research.id });
    expect(chosen.body).to.deep.equal({
      costCenter: { id: research.id, number: research.number, name: 'Research' },
      chosen: true,
    });
    const first = await order(token);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body.customFields.costCenter).to.deep.equal({
      id: research.id,
      number: research.number,
      name: 'Research',
    });
    expect(await invoiceTexts(token, first.body)).to.include(`Cost center: ${research.number} (Research)`);

    // The choice is used up: the next order takes the default.
    expect((await buyer.get('/cost-center/checkout')).body).to.include({ chosen: false });
    const second = await order(token);
    expect(second.body.customFields.costCenter).to.include({ id: marketing.id });

    // Renamed later: the orders keep what they were placed with.
    await (await as(admin.token)).patch(`/cost-center/${research.id}`, { name: 'R&D' });
    const mine = await buyer.post('/order', {});
    expect(mine.status).to.equal(200);
    const byId = new Map(
      mine.body.orders.elements.map((o: { id: string; customFields: Record<string, any> }) => [
        o.id,
        o.customFields.costCenter,
      ]),
    );
    expect(byId.get(first.body.id)).to.deep.include({ name: 'Research' });
    expect(byId.get(second.body.id)).to.deep.include({ name: 'Marketing' });
    const employeeOrders = await (await as(admin.token)).post('/b2b/employee-orders', {});
    expect(employeeOrders.status).to.equal(200);
    const listedOrder = employeeOrders.body.orders.elements.find((o: { id: string }) => o.id === first.body.id);
    expect(listedOrder.customFields.costCenter).to.deep.include({ id: research.id, name: 'Research' });

    // No default and no choice: no cost center.
    await buyer.patch('/cost-center/default', { costCenterId: null });
    const third = await order(token);
    expect(third.body.customFields).to.not.have.property('costCenter');
    expect((await invoiceTexts(token, third.body)).some((text) => text.startsWith('Cost center:'))).to.equal(false);
  });

  it('refuses an order whose chosen cost center became inactive (the choice stays); an inactive default is left out', async () => {
    const chosen = await createCostCenter(admin.token, { number: uniqueNumber(), name: 'Chosen' });
    const fallback = await createCostCenter(admin.token, { number: uniqueNumber(), name: 'Fallback' });
    const { token } = await employeeWith(['orders.create'], admin);
    const buyer = await as(token);
    await buyer.patch('/cost-center/default', { costCenterId: fallback.id });
    await buyer.patch('/cost-center/checkout', { costCenterId: chosen.id });
    await (await as(admin.token)).patch(`/cost-center/${chosen.id}`, { active: false });
    expectError(await order(token), 400, 'SUITE__COST_CENTER_INACTIVE');
    expect((await buyer.get('/cost-center/checkout')).body).to.deep.include({ chosen: true });
    expectError(
      await buyer.patch('/cost-center/checkout', { costCenterId: chosen.id }),
      400,
      'SUITE__COST_CENTER_INACTIVE',
    );
    expectError(
      await buyer.patch('/cost-center/default', { costCenterId: chosen.id }),
      400,
      'SUITE__COST_CENTER_INACTIVE',
    );

    await buyer.patch('/cost-center/checkout', { costCenterId: null });
    await (await as(admin.token)).patch(`/cost-center/${fallback.id}`, { active: false });
    expect((await buyer.get('/cost-center/checkout')).body).to.deep.equal({ costCenter: null, chosen: false });
    const placed = await buyer.post('/checkout/order', {});
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    expect(placed.body.customFields).to.not.have.property('costCenter');
  });

  it("sets another employee's default only with cost-center.manage, and only for the company's employees", async () => {
    const center = await createCostCenter(admin.token, { number: uniqueNumber(), name: 'Ops' });
    const colleague = await employeeWith(['orders.create'], admin);
    const plain = await as((await employeeWith(['orders.create'], admin)).token);
    expectError(
      await plain.patch('/cost-center/default', { employeeId: colleague.employee.id, costCenterId: center.id }),
      403,
    );
    const own = await as(colleague.token);
    expect(
      (await own.patch('/cost-center/default', { employeeId: colleague.employee.id, costCenterId: center.id })).status,
    ).to.equal(200);
    const manager = await as((await employeeWith(['cost-center.manage'], admin)).token);
    expect(
      (await manager.patch('/cost-center/default', { employeeId: colleague.employee.id, costCenterId: null })).body,
    ).to.deep.include({ costCenter: null });
    const stranger = await employeeWith(['orders.create']);
    expectError(
      await manager.patch('/cost-center/default', { employeeId: stranger.employee.id, costCenterId: center.id }),
      404,
      'SUITE__NOT_FOUND',
    );
    expectError(
      await manager.patch('/cost-center/default', { employeeId: newId(), costCenterId: center.id }),
      404,
      'SUITE__NOT_FOUND',
    );
    // Deleting the cost center removes it as a default.
    await own.patch('/cost-center/default', { costCenterId: center.id });
    await (await as(admin.token)).delete(`/cost-center/${center.id}`);
    expect((await own.get('/cost-center/checkout')).body).to.deep.equal({ costCenter: null, chosen: false });
  });

  it('goes with its customer (customer.deleted): cost centers, defaults and choices', async () => {
    const center = await createCostCenter(admin.token, { number: uniqueNumber(), name: 'Gone soon' });
    await (await as(admin.token)).patch('/cost-center/default', { costCenterId: center.id });
    await (await as(admin.token)).patch('/cost-center/checkout', { costCenterId: center.id });
    const kept = await createCostCenter((await newCustomer()).token, { number: uniqueNumber(), name: 'Stays' });
    const deleted = await (
      await http()
    )
      .delete(`/api/customer/${admin.customer.id}`)
      .set('authorization', `Bearer ${await adminToken()}`);
    expect(deleted.status, JSON.stringify(deleted.body)).to.equal(204);
    const db = (await getShop()).db;
    for (const table of ['suite_cost_centers', 'suite_cost_center_defaults', 'suite_cost_center_selections'])
      expect(await db(table).where({ customer_id: admin.customer.id }), table).to.have.length(0);
    expect(await db('suite_cost_centers').where({ id: kept.id })).to.have.length(1);
  });
});
