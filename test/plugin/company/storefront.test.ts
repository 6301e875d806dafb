import { expect } from 'chai';
import { loggedInVisitor } from '../../helpers/storefront.js';
import { as, createEmployee, employeeWith, newCustomer } from '../sales-representative/helpers.js';
import { createUnit } from './helpers.js';

const rowsOf = (html: string) =>
  [...html.matchAll(/data-test="unit" data-id="([0-9a-f]{32})" data-depth="(\d+)"/g)].map((m) => ({
    id: m[1]!,
    depth: Number(m[2]),
  }));

describe('organisation units: storefront pages', () => {
  it('the company admin builds two units, moves a unit and an employee through the page, and sees the tree', async () => {
    const admin = await newCustomer();
    const person = await createEmployee(admin.token, { permissions: ['orders.create'] });
    const visitor = await loggedInVisitor(admin.email, admin.password);
    const account = await visitor.get('/account');
    expect(account.text).to.contain('/account/organisation-units');

    expect((await visitor.get('/account/organisation-units')).text).to.contain('data-test="no-units"');
    expect((await visitor.post('/account/organisation-units', { name: 'Purchasing', parentId: '' })).status).to.equal(
      303,
    );
    const client = await as(admin.token);
    const purchasing = (await client.get('/b2b/organisation-unit/tree')).body.elements[0].id as string;
    expect(
      (await visitor.post('/account/organisation-units', { name: 'Team A', parentId: purchasing })).status,
    ).to.equal(303);
    const tree = (await client.get('/b2b/organisation-unit/tree')).body.elements as Array<{ id: string; name: string }>;
    const team = tree.find((u) => u.name === 'Team A')!.id;

    const moved = await visitor.post('/account/organisation-units/move-employee', {
      employeeId: person.id,
      fromUnitId: '',
      toUnitId: purchasing,
    });
    expect(moved.status, moved.text).to.equal(303);
    expect(
      (
        await visitor.post('/account/organisation-units/move-employee', {
          employeeId: person.id,
          fromUnitId: purchasing,
          toUnitId: team,
        })
      ).status,
    ).to.equal(303);
    const page = await visitor.get('/account/organisation-units?done=moved');
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('The employee was moved.');
    expect(rowsOf(page.text)).to.deep.equal([
      { id: purchasing, depth: 0 },
      { id: team, depth: 1 },
    ]);
    expect(page.text).to.match(new RegExp(`data-id="${team}"[\\s\\S]*?data-employee="${person.id}"`));

    // A refused move comes back as the page with the reason.
    const refused = await visitor.post('/account/organisation-units/move-unit', { unitId: purchasing, parentId: team });
    expect(refused.status).to.equal(400);
    expect(refused.text).to.contain('cannot move under itself');
    const deleted = await visitor.post('/account/organisation-units/delete', { unitId: team, moveTo: purchasing });
    expect(deleted.status).to.equal(303);
    expect(rowsOf((await visitor.get('/account/organisation-units')).text)).to.deep.equal([
      { id: purchasing, depth: 0 },
    ]);
  });

  it('a unit manager (organisation-unit.manage, no employee permission) picks employees in the move form', async () => {
    const admin = await newCustomer();
    await createUnit(await as(admin.token), 'Sales');
    const manager = await employeeWith(['organisation-unit.manage'], admin);
    const colleague = await createEmployee(admin.token, { permissions: ['orders.create'] });
    const visitor = await loggedInVisitor(manager.employee.email, manager.employee.password);
    const page = await visitor.get('/account/organisation-units');
    expect(page.status, page.text).to.equal(200);
    expect(page.text).to.contain(`<option value="${colleague.id}">`);
  });

  it('shows the tree without forms to a reader and refuses those without the permission', async () => {
    const admin = await newCustomer();
    await createUnit(await as(admin.token), 'Sales');
    const reader = await employeeWith(['organisation-unit.read'], admin);
    const visitor = await loggedInVisitor(reader.employee.email, reader.employee.password);
    const page = await visitor.get('/account/organisation-units');
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('Sales');
    expect(page.text).not.to.contain('data-test="unit-create"');
    expect((await visitor.post('/account/organisation-units', { name: 'X', parentId: '' })).status).to.equal(403);
    const buyer = await employeeWith(['orders.create'], admin);
    expect(
      (await (await loggedInVisitor(buyer.employee.email, buyer.employee.password)).get('/account/organisation-units'))
        .status,
    ).to.equal(403);
  });
});

describe('company address book: storefront page', () => {
  it('an address keeper adds an address for their unit through the page; it is listed with its unit and deleted again', async () => {
    const admin = await newCustomer();
    const client = await as(admin.token);
    const plant = await createUnit(client, 'Plant');
    const keeper = await employeeWith(['address.manage', 'organisation-unit.read'], admin);
    await client.put(`/b2b/organisation-unit/${plant}/member/${keeper.employee.id}`, {});
    const visitor = await loggedInVisitor(keeper.employee.email, keeper.employee.password);
    expect((await visitor.get('/account')).text).to.contain('/account/address-book');
    expect((await visitor.get('/account/address-book')).status).to.equal(200);
    const form = {
      company: 'Plant gate',
      firstName: 'Goods',
      lastName: 'In',
      street: 'Gate 1',
      zipcode: '12345',
      city: 'Kassel',
      countryCode: 'DE',
    };
    const refused = await visitor.post('/account/address-book', { ...form, countryCode: 'X' });
    expect(refused.status).to.equal(400);
    expect((await visitor.post('/account/address-book', { ...form, unitIds: [plant] })).status).to.equal(303);
    const page = await visitor.get('/account/address-book?done=created');
    expect(page.text).to.contain('The address was added.').and.contain('Plant gate').and.contain('Plant</td>');
    const created = (await (await as(keeper.token)).post('/b2b/address/list', { term: 'plant gate' })).body.elements[0];
    expect(created).to.deep.include({ unitIds: [plant], city: 'Kassel' });
    expect(page.text).to.contain(`data-id="${created.id}"`);
    expect((await visitor.post(`/account/address-book/${created.id}/delete`)).status).to.equal(303);
    expect((await (await as(keeper.token)).post('/b2b/address/list', { term: 'plant gate' })).body.total).to.equal(0);
  });
});
