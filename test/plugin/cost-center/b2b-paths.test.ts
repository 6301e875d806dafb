import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { expectError } from '../../helpers/shop.js';
import { employeeWith, newCustomer } from '../employee/helpers.js';
import { as } from '../sales-representative/helpers.js';

/**
 * The real product's cost center paths (`/b2b/cost-center…`), sent the way its public client sends
 * them: Store API under /store-api with the suite-context-token header.
 */
const uniqueNumber = () => `B2B-${newId().slice(0, 6)}`;

describe('cost centers: the real product’s /b2b/cost-center paths', () => {
  it('creates, lists (POST criteria and GET), reads, replaces, changes and deletes a cost center', async () => {
    const admin = await newCustomer();
    const client = await as(admin.token);
    const number = uniqueNumber();
    const created = await client.post('/b2b/cost-center', { number, name: 'Fleet', description: 'Cars and vans' });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const id = created.body.id;
    expect(id, 'the created id at the top level, where the client reads it')
      .to.be.a('string')
      .and.equal(created.body.costCenter.id);
    expect(created.body.costCenter).to.deep.include({
      number,
      name: 'Fleet',
      description: 'Cars and vans',
      active: true,
    });

    const searched = await client.post('/b2b/cost-center/list', { term: 'flee' });
    expect(searched.status).to.equal(200);
    expect(searched.body).to.include({ total: 1, apiAlias: 'dal_entity_search_result' });
    expect(searched.body.elements.map((c: { id: string }) => c.id)).to.deep.equal([id]);
    const listed = await client.get('/b2b/cost-center/list?limit=5');
    expect(listed.status).to.equal(200);
    expect(listed.body).to.include({ total: 1, page: 1, limit: 5 });
    expect(listed.body.elements[0]).to.deep.include({ id, costCenterId: id, number });
    // The existing path answers the same list.
    expect((await client.post('/cost-center/list', {})).body.elements).to.deep.equal(listed.body.elements);

    const read = await client.get(`/b2b/cost-center/${id}`);
    expect(read.status).to.equal(200);
    expect(read.body).to.deep.equal(created.body.costCenter);

    const replaced = await client.put(`/b2b/cost-center/${id}`, { number, name: 'Fleet & logistics' });
    expect(replaced.status, JSON.stringify(replaced.body)).to.equal(200);
    expect(replaced.body.costCenter, 'PUT: a field left out takes its default').to.deep.include({
      name: 'Fleet & logistics',
      description: null,
      active: true,
    });
    const patched = await client.patch(`/b2b/cost-center/${id}`, { active: false });
    expect(patched.status).to.equal(200);
    expect(patched.body.costCenter).to.deep.include({ name: 'Fleet & logistics', active: false });

    const deleted = await client.delete(`/b2b/cost-center/${id}`);
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.deep.equal({ success: true });
    expectError(await client.get(`/b2b/cost-center/${id}`), 404, 'SUITE__NOT_FOUND');
    expectError(await client.delete(`/b2b/cost-center/${id}`), 404, 'SUITE__NOT_FOUND');
  });

  it('answers bad input 400, guests 401, missing permissions 403 and another company’s cost center 404', async () => {
    const admin = await newCustomer();
    const client = await as(admin.token);
    const mine = (await client.post('/b2b/cost-center', { number: uniqueNumber(), name: 'Mine' })).body.costCenter;
    const inactive = (await client.post('/b2b/cost-center', { number: uniqueNumber(), name: 'Retired', active: false }))
      .body.costCenter;
    const theirs = (
      await (await as((await newCustomer()).token)).post('/b2b/cost-center', { number: uniqueNumber(), name: 'Theirs' })
    ).body.costCenter;

    expectError(await client.post('/b2b/cost-center', { name: 'No number' }), 400, 'SUITE__INVALID_INPUT');
    expectError(await client.post('/b2b/cost-center/list', { limit: 0 }), 400, 'SUITE__INVALID_INPUT');
    expectError(await client.get('/b2b/cost-center/list?limit=501'), 400, 'SUITE__INVALID_INPUT');
    expectError(await client.get('/b2b/cost-center/nope'), 400, 'SUITE__INVALID_INPUT');
    expectError(await client.put(`/b2b/cost-center/${mine.id}`, { name: 'No number' }), 400, 'SUITE__INVALID_INPUT');
    expectError(await client.patch(`/b2b/cost-center/${mine.id}`, {}), 400, 'SUITE__INVALID_INPUT');

    const guest = await as(null);
    expectError(await guest.post('/b2b/cost-center/list', {}), 401);
    expectError(await guest.get('/b2b/cost-center/list'), 401);
    expectError(await guest.post('/b2b/cost-center', { number: 'X', name: 'Y' }), 401);
    expectError(await guest.get(`/b2b/cost-center/${mine.id}`), 401);
    expectError(await guest.put(`/b2b/cost-center/${mine.id}`, { number: 'X', name: 'Y' }), 401);
    expectError(await guest.patch(`/b2b/cost-center/${mine.id}`, { name: 'Y' }), 401);
    expectError(await guest.delete(`/b2b/cost-center/${mine.id}`), 401);

    // An employee without cost-center.manage may list and read what it may choose, not write.
    const buyer = await as((await employeeWith(['orders.create'], admin)).token);
    expectError(await buyer.post('/b2b/cost-center', { number: 'X', name: 'Y' }), 403);
    expectError(await buyer.put(`/b2b/cost-center/${mine.id}`, { number: 'X', name: 'Y' }), 403);
    expectError(await buyer.patch(`/b2b/cost-center/${mine.id}`, { name: 'Y' }), 403);
    expectError(await buyer.delete(`/b2b/cost-center/${mine.id}`), 403);
    expect((await buyer.get(`/b2b/cost-center/${mine.id}`)).status).to.equal(200);
    expect((await buyer.get('/b2b/cost-center/list')).body.elements.map((c: { id: string }) => c.id)).to.deep.equal([
      mine.id,
    ]);
    // An inactive one is missing from its list, so reading it is a 404 too; with cost-center.read it is there.
    expectError(await buyer.get(`/b2b/cost-center/${inactive.id}`), 404, 'SUITE__NOT_FOUND');
    const reader = await as((await employeeWith(['cost-center.read'], admin)).token);
    expect((await reader.get(`/b2b/cost-center/${inactive.id}`)).body).to.deep.include({
      id: inactive.id,
      active: false,
    });

    for (const res of [
      await client.get(`/b2b/cost-center/${theirs.id}`),
      await client.put(`/b2b/cost-center/${theirs.id}`, { number: 'X', name: 'Y' }),
      await client.patch(`/b2b/cost-center/${theirs.id}`, { name: 'Y' }),
      await client.delete(`/b2b/cost-center/${theirs.id}`),
    ])
      expectError(res, 404, 'SUITE__NOT_FOUND');
    expect((await client.post('/b2b/cost-center/list', { ids: [theirs.id] })).body.total).to.equal(0);
  });
});
