import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { expectError } from '../../helpers/shop.js';
import { as, createEmployee, employeeWith, newCustomer } from '../sales-representative/helpers.js';
import { createUnit } from './helpers.js';

describe('organisation units', () => {
  it('builds a tree: create, rename, move, answer it depth first with paths, members and managers', async () => {
    const admin = await newCustomer();
    const client = await as(admin.token);
    const sales = await createUnit(client, 'Sales');
    const north = await createUnit(client, 'North', sales);
    const field = await createUnit(client, 'Field team', north);
    const finance = await createUnit(client, 'Finance');
    const lead = await createEmployee(admin.token, { permissions: ['orders.create'] });
    const rep = await createEmployee(admin.token, { permissions: ['orders.create'] });
    expect(
      (await client.put(`/b2b/organisation-unit/${north}/member/${lead.id}`, { isManager: true })).status,
    ).to.equal(200);
    const added = await client.put(`/b2b/organisation-unit/${field}/member/${rep.id}`, {});
    expect(added.body).to.deep.equal({ success: true, employeeId: rep.id, unitIds: [field] });

    const tree = await client.get('/b2b/organisation-unit/tree');
    expect(tree.status).to.equal(200);
    expect(tree.body.elements.map((u: { name: string; depth: number }) => `${u.depth}:${u.name}`)).to.deep.equal([
      '0:Finance',
      '0:Sales',
      '1:North',
      '2:Field team',
    ]);
    const fieldView = tree.body.elements[3];
    expect(fieldView).to.deep.include({
      id: field,
      parentId: north,
      path: ['Sales', 'North', 'Field team'],
      managerIds: [lead.id],
    });
    expect(fieldView.members).to.deep.equal([
      { employeeId: rep.id, name: 'Erin Employee', email: rep.email, isManager: false },
    ]);

    const renamed = await client.patch(`/b2b/organisation-unit/${north}`, { name: 'North & East' });
    expect(renamed.body.unit).to.deep.include({ name: 'North & East', childIds: [field] });
    const moved = await client.patch(`/b2b/organisation-unit/${north}`, { parentId: finance });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    expect((await client.get(`/b2b/organisation-unit/${field}`)).body.path).to.deep.equal([
      'Finance',
      'North & East',
      'Field team',
    ]);
    expect((await client.patch(`/b2b/organisation-unit/${north}`, { parentId: null })).body.unit.depth).to.equal(0);

    const searched = await client.post('/b2b/organisation-unit/list', {
      filter: [{ type: 'equals', field: 'parentId', value: north }],
    });
    expect(searched.body.elements.map((u: { id: string }) => u.id)).to.deep.equal([field]);
  });

  it('refuses to move a unit under itself or its own descendant, and names taken among siblings', async () => {
    const client = await as((await newCustomer()).token);
    const top = await createUnit(client, 'Top');
    const middle = await createUnit(client, 'Middle', top);
    const bottom = await createUnit(client, 'Bottom', middle);
    expectError(await client.patch(`/b2b/organisation-unit/${top}`, { parentId: bottom }), 400, 'SUITE__UNIT_CYCLE');
    expectError(await client.patch(`/b2b/organisation-unit/${top}`, { parentId: middle }), 400, 'SUITE__UNIT_CYCLE');
    expectError(await client.patch(`/b2b/organisation-unit/${middle}`, { parentId: middle }), 400, 'SUITE__UNIT_CYCLE');
    expect((await client.get(`/b2b/organisation-unit/${bottom}`)).body.path, 'nothing moved').to.deep.equal([
      'Top',
      'Middle',
      'Bottom',
    ]);
    // Moving down a level elsewhere is fine.
    const other = await createUnit(client, 'Other');
    expect((await client.patch(`/b2b/organisation-unit/${middle}`, { parentId: other })).status).to.equal(200);
    expectError(
      await client.post('/b2b/organisation-unit', { name: ' middle ', parentId: other }),
      400,
      'SUITE__UNIT_NAME_TAKEN',
    );
    expectError(await client.post('/b2b/organisation-unit', { name: 'A > B' }), 400, 'SUITE__INVALID_INPUT');
  });

  it('refuses to delete a unit with sub-units or members unless told where they move', async () => {
    const admin = await newCustomer();
    const client = await as(admin.token);
    const old = await createUnit(client, 'Old');
    const child = await createUnit(client, 'Child', old);
    const target = await createUnit(client, 'Target');
    const person = await createEmployee(admin.token, { permissions: ['orders.create'] });
    await client.put(`/b2b/organisation-unit/${old}/member/${person.id}`, { isManager: true });
    const refused = expectError(await client.delete(`/b2b/organisation-unit/${old}`), 400, 'SUITE__UNIT_NOT_EMPTY');
    expect(refused.detail).to.contain('1 sub-units').and.contain('1 members');
    expectError(await client.delete(`/b2b/organisation-unit/${old}?moveTo=${child}`), 400, 'SUITE__UNIT_CYCLE');
    expect((await client.delete(`/b2b/organisation-unit/${old}?moveTo=${target}`)).status).to.equal(200);
    const moved = (await client.get(`/b2b/organisation-unit/${target}`)).body;
    expect(moved).to.deep.include({ childIds: [child], managerIds: [person.id] });
    expectError(await client.get(`/b2b/organisation-unit/${old}`), 404, 'SUITE__NOT_FOUND');
    // An empty unit goes without more ado.
    expect((await client.delete(`/b2b/organisation-unit/${child}`)).status).to.equal(200);
  });

  it('moves an employee between units in one step', async () => {
    const admin = await newCustomer();
    const client = await as(admin.token);
    const a = await createUnit(client, 'A');
    const b = await createUnit(client, 'B');
    const person = await createEmployee(admin.token, { permissions: ['orders.create'] });
    expect(
      (
        await client.post('/b2b/organisation-unit/move-employee', {
          employeeId: person.id,
          fromUnitId: null,
          toUnitId: a,
        })
      ).body.unitIds,
    ).to.deep.equal([a]);
    expectError(
      await client.post('/b2b/organisation-unit/move-employee', { employeeId: person.id, fromUnitId: b, toUnitId: a }),
      400,
      'SUITE__NOT_A_MEMBER',
    );
    const moved = await client.post('/b2b/organisation-unit/move-employee', {
      employeeId: person.id,
      fromUnitId: a,
      toUnitId: b,
    });
    expect(moved.body.unitIds).to.deep.equal([b]);
    const removed = await client.delete(`/b2b/organisation-unit/${b}/member/${person.id}`);
    expect(removed.body.unitIds).to.deep.equal([]);
    expectError(await client.delete(`/b2b/organisation-unit/${b}/member/${person.id}`), 404);
  });

  it('answers bad input 400, guests 401, missing permissions 403 and another company’s units and employees 404', async () => {
    const admin = await newCustomer();
    const client = await as(admin.token);
    const mine = await createUnit(client, 'Mine');
    const stranger = await newCustomer();
    const theirs = await createUnit(await as(stranger.token), 'Theirs');
    const theirEmployee = await createEmployee(stranger.token, { permissions: ['orders.create'] });

    expectError(await client.post('/b2b/organisation-unit', {}), 400, 'SUITE__INVALID_INPUT');
    expectError(
      await client.post('/b2b/organisation-unit', { name: 'X', parentId: 'nope' }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(await client.patch(`/b2b/organisation-unit/${mine}`, {}), 400, 'SUITE__INVALID_INPUT');
    expectError(
      await client.post('/b2b/organisation-unit/list', { filter: [{ type: 'equals', field: 'secret', value: 1 }] }),
      400,
    );
    expectError(await client.delete(`/b2b/organisation-unit/${mine}?moveTo=x`), 400, 'SUITE__INVALID_INPUT');

    const guest = await as(null);
    expectError(await guest.get('/b2b/organisation-unit/tree'), 401);
    expectError(await guest.post('/b2b/organisation-unit', { name: 'X' }), 401);

    const reader = await as((await employeeWith(['organisation-unit.read'], admin)).token);
    expect((await reader.get('/b2b/organisation-unit/tree')).status).to.equal(200);
    expectError(await reader.post('/b2b/organisation-unit', { name: 'X' }), 403);
    expectError(await reader.patch(`/b2b/organisation-unit/${mine}`, { name: 'Y' }), 403);
    const buyer = await as((await employeeWith(['orders.create'], admin)).token);
    expectError(await buyer.get('/b2b/organisation-unit/tree'), 403);

    expectError(await client.get(`/b2b/organisation-unit/${theirs}`), 404);
    expectError(await client.patch(`/b2b/organisation-unit/${theirs}`, { name: 'Mine now' }), 404);
    expectError(await client.patch(`/b2b/organisation-unit/${mine}`, { parentId: theirs }), 404);
    expectError(await client.post('/b2b/organisation-unit', { name: 'Under theirs', parentId: theirs }), 404);
    expectError(await client.delete(`/b2b/organisation-unit/${theirs}`), 404);
    expectError(await client.delete(`/b2b/organisation-unit/${mine}?moveTo=${theirs}`), 404);
    expectError(await client.put(`/b2b/organisation-unit/${mine}/member/${theirEmployee.id}`, {}), 404);
    expectError(await client.put(`/b2b/organisation-unit/${theirs}/member/${theirEmployee.id}`, {}), 404);
    expectError(
      await client.post('/b2b/organisation-unit/move-employee', {
        employeeId: newId(),
        fromUnitId: null,
        toUnitId: mine,
      }),
      404,
    );
    expect(
      (await (await as(stranger.token)).get(`/b2b/organisation-unit/${theirs}`)).body.name,
      'theirs unchanged',
    ).to.equal('Theirs');
  });
});
