import { expect } from 'chai';
import { pageLinks } from '../../src/lib/json-api.js';
import { adminToken, getShop, http } from '../helpers/shop.js';

describe('Admin API lists: one JSON:API page format', () => {
  it('builds self, first and last always, prev from page 2 and next before the last page', () => {
    expect(
      pageLinks({ path: '/thing', page: 2, limit: 10, total: 35, filters: { term: 'a b', status: undefined } }),
    ).to.deep.equal({
      self: '/api/thing?limit=10&page=2&term=a+b',
      first: '/api/thing?limit=10&page=1&term=a+b',
      last: '/api/thing?limit=10&page=4&term=a+b',
      prev: '/api/thing?limit=10&page=1&term=a+b',
      next: '/api/thing?limit=10&page=3&term=a+b',
    });
    expect(pageLinks({ path: '/thing', page: 1, limit: 25, total: 0 }), 'an empty list has one page').to.deep.equal({
      self: '/api/thing?limit=25&page=1',
      first: '/api/thing?limit=25&page=1',
      last: '/api/thing?limit=25&page=1',
    });
    expect(
      pageLinks({ path: '/thing', page: 9, limit: 10, total: 20 }),
      'past the end, prev leads back to the last page',
    ).to.deep.equal({
      self: '/api/thing?limit=10&page=9',
      first: '/api/thing?limit=10&page=1',
      last: '/api/thing?limit=10&page=2',
      prev: '/api/thing?limit=10&page=2',
    });
  });

  it('every paged Admin list (host and plugin) answers the same links for the first page and a page past the end', async () => {
    const shop = await getShop();
    const bearer = `Bearer ${await adminToken()}`;
    const agent = await http();
    await agent.post('/api/customer-group').set('authorization', bearer).send({ name: 'Listed twice 1' });
    await agent.post('/api/customer-group').set('authorization', bearer).send({ name: 'Listed twice 2' });
    const lists = shop.internals.adminApi.routes.filter((route) => {
      const ok = route.schemas.responses[200] as { properties?: Record<string, unknown> } | null | undefined;
      return route.method === 'GET' && !route.path.includes('{') && ok?.properties?.links !== undefined;
    });
    expect(
      lists.map((route) => route.path),
      'the lists this test walks',
    ).to.include.members([
      '/customer-group',
      '/suite-customer-price',
      '/suite-sales-representative',
      '/suite-customer-activity-type',
      '/b2b-account-request',
      '/suite-event-participant-status',
      '/suite-partial-assortment-product-rule',
    ]);
    let multiPage = 0;
    for (const route of lists) {
      const at = (page: number) => `/api${route.path}?limit=1&page=${page}`;
      const first = await agent.get(at(1)).set('authorization', bearer);
      expect(first.status, `${route.path}: ${JSON.stringify(first.body)}`).to.equal(200);
      const total = first.body.meta.total as number;
      const lastPage = Math.max(1, total);
      const expected: Record<string, string> = { self: at(1), first: at(1), last: at(lastPage) };
      if (lastPage > 1) expected.next = at(2);
      expect(first.body.links, route.path).to.deep.equal(expected);
      if (lastPage > 1) multiPage++;

      const beyond = await agent.get(at(lastPage + 1)).set('authorization', bearer);
      expect(beyond.body.data, route.path).to.deep.equal([]);
      expect(beyond.body.links, route.path).to.deep.equal({
        self: at(lastPage + 1),
        first: at(1),
        last: at(lastPage),
        prev: at(lastPage),
      });
    }
    expect(multiPage, 'at least one list spans several pages').to.be.greaterThan(0);
  });

  it('answers the same links for a criteria search, naming the page and limit of its criteria', async () => {
    const bearer = `Bearer ${await adminToken()}`;
    const agent = await http();
    const res = await agent.post('/api/search/customer-group').set('authorization', bearer).send({ limit: 1, page: 1 });
    expect(res.status).to.equal(200);
    const lastPage = Math.max(1, res.body.meta.total as number);
    expect(res.body.links).to.include({
      self: '/api/search/customer-group?limit=1&page=1',
      first: '/api/search/customer-group?limit=1&page=1',
      last: `/api/search/customer-group?limit=1&page=${lastPage}`,
    });
  });
});
