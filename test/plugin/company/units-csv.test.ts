import { expect } from 'chai';
import { expectError } from '../../helpers/shop.js';
import { as, createEmployee, employeeWith, newCustomer } from '../sales-representative/helpers.js';

describe('organisation units: CSV import and export', () => {
  it('imports unit paths and memberships, exports them, and the export re-imports unchanged', async () => {
    const admin = await newCustomer();
    const client = await as(admin.token);
    const lead = await createEmployee(admin.token, { permissions: ['orders.create'] });
    const buyer = await createEmployee(admin.token, { permissions: ['orders.create'] });

    const units = await client.csv(
      '/b2b/organisation-unit-import',
      'path\r\nSales > North\r\nSales > North > Field team\r\nFinance\r\n',
    );
    expect(units.status, JSON.stringify(units.body)).to.equal(200);
    expect(units.body).to.deep.equal({ success: true, created: 4, unchanged: 0 });
    const tree = (await client.get('/b2b/organisation-unit/tree')).body.elements;
    expect(tree.map((u: { path: string[] }) => u.path.join('/'))).to.deep.equal([
      'Finance',
      'Sales',
      'Sales/North',
      'Sales/North/Field team',
    ]);

    const members = await client.csv(
      '/b2b/organisation-unit-member-import',
      `email;unit_path;manager\r\n${lead.email};Sales > North;yes\r\n${buyer.email};sales > north > field team;\r\n`,
    );
    expect(members.status, JSON.stringify(members.body)).to.equal(200);
    expect(members.body).to.deep.include({ created: 2 });
    const field = (await client.get('/b2b/organisation-unit/tree')).body.elements[3];
    expect(field).to.deep.include({ managerIds: [lead.id] });
    expect(field.members.map((m: { employeeId: string }) => m.employeeId)).to.deep.equal([buyer.id]);

    const unitExport = await client.post('/b2b/organisation-unit-export', {});
    expect(unitExport.status).to.equal(200);
    expect(unitExport.headers['content-type']).to.contain('text/csv');
    expect(unitExport.text).to.equal('path\r\nFinance\r\nSales\r\nSales > North\r\nSales > North > Field team\r\n');
    const memberExport = await client.post('/b2b/organisation-unit-member-export', {});
    expect(memberExport.text).to.equal(
      `email,unit_path,manager\r\n${lead.email},Sales > North,true\r\n${buyer.email},Sales > North > Field team,false\r\n`,
    );

    expect((await client.csv('/b2b/organisation-unit-import', unitExport.text)).body).to.deep.equal({
      success: true,
      created: 0,
      unchanged: 4,
    });
    expect((await client.csv('/b2b/organisation-unit-member-import', memberExport.text)).body).to.deep.equal({
      success: true,
      created: 0,
      unchanged: 2,
    });
  });

  it('reports every bad row with its line and writes nothing; guards permissions', async () => {
    const admin = await newCustomer();
    const client = await as(admin.token);
    const bad = await client.csv('/b2b/organisation-unit-import', 'path\r\nGood\r\nSales >  > North\r\n');
    const error = expectError(bad, 400, 'SUITE__CSV_INVALID_ROWS');
    expect(error.source?.pointer).to.equal('/line/3/path');
    expect((await client.get('/b2b/organisation-unit/tree')).body.elements, 'all or nothing').to.deep.equal([]);
    expectError(await client.csv('/b2b/organisation-unit-import', 'name\r\nX\r\n'), 400, 'SUITE__CSV_INVALID_HEADER');
    const members = await client.csv(
      '/b2b/organisation-unit-member-import',
      'email,unit_path,manager\r\nnobody@example.test,Nowhere,maybe\r\n',
    );
    const problems = (members.body.errors as Array<{ source: { pointer: string } }>).map((e) => e.source.pointer);
    expect(problems).to.deep.equal(['/line/2/email', '/line/2/unit_path', '/line/2/manager']);

    const reader = await as((await employeeWith(['organisation-unit.read'], admin)).token);
    expect((await reader.post('/b2b/organisation-unit-export', {})).status).to.equal(200);
    expectError(await reader.csv('/b2b/organisation-unit-import', 'path\r\nX\r\n'), 403);
    expectError(await (await as(null)).post('/b2b/organisation-unit-export', {}), 401);
  });
});
