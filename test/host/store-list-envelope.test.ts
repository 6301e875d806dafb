import { expect } from 'chai';
import { getShop, http } from '../helpers/shop.js';
import type { AnyRoute } from '../../src/lib/routes.js';

type Schema = { type?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema };

/**
 * Lists whose shape the specification names keep it (decision 0013): order approvals `{total, data}`,
 * a representative's customer orders as an array. Budget orders (`{orders, total}`) and employee
 * orders (the order route response) keep the spec's fields beside the envelope, so they are walked
 * too. Every other Store API list answers the platform's search result.
 */
const SPEC_SHAPED = new Set([
  'POST /order-approval/list',
  'GET /sales-representative/customer-orders/{customerId}',
  // Not lists: the navigation tree answers an array of root categories as the platform does.
  'GET /navigation/{rootId}',
]);

function okSchema(route: AnyRoute): Schema | undefined {
  return (route.schemas.responses[200] ?? route.schemas.responses[201]) as Schema | undefined;
}

/** A list is a response that counts (an integer `total`) or answers a top-level collection (`data`, `elements`, an array). */
function looksLikeList(schema: Schema | undefined): boolean {
  if (!schema) return false;
  if (schema.type === 'array') return true;
  const properties = schema.properties ?? {};
  return (
    properties.total?.type === 'integer' || properties.data?.type === 'array' || properties.elements?.type === 'array'
  );
}

describe('host: Store API list envelope', () => {
  it('every Store API list route declares the search result envelope (elements, page, limit, aggregations, apiAlias) unless the spec shapes it', async () => {
    const shop = await getShop();
    const lists = shop.internals.storeApi.routes.filter(
      (route) => looksLikeList(okSchema(route)) && !SPEC_SHAPED.has(`${route.method} ${route.path}`),
    );
    expect(lists.length).to.be.at.least(40);
    const missing: string[] = [];
    for (const route of lists) {
      const schema = okSchema(route)!;
      const where = `${route.method} ${route.path}`;
      expect(schema.required, where).to.include.members([
        'total',
        'page',
        'limit',
        'elements',
        'aggregations',
        'apiAlias',
      ]);
      expect(schema.properties!.elements!.type, where).to.equal('array');
      expect(schema.properties, where).not.to.have.property('data');
      // Each element carries its entity's id.
      if (!(schema.properties!.elements!.items!.required ?? []).includes('id')) missing.push(where);
    }
    expect(missing, 'lists whose elements carry no id').to.deep.equal([]);
    // The sales-statistics answer has a `total` figure but is no list: it must not be mistaken for one.
    expect(lists.map((route) => route.path)).not.to.include('/sales-representative/sales-statistics');
  });

  it('the OpenAPI document shows the envelope', async () => {
    const res = await (await http()).get('/store-api/_info/openapi3.json');
    const schema = res.body.paths['/b2b/employees'].post.responses['200'].content['application/json'].schema;
    expect(schema.required).to.include.members(['total', 'page', 'limit', 'elements', 'aggregations', 'apiAlias']);
    expect(schema.properties.elements.items.required).to.include.members(['id', 'employeeId']);
  });

  it('a list answers the envelope with the criteria’s page and limit', async () => {
    const res = await (await http()).post('/store-api/category').send({ page: 2, limit: 3 });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ page: 2, limit: 3, apiAlias: 'dal_entity_search_result' });
    expect(res.body.elements).to.be.an('array');
    expect(res.body.aggregations).to.deep.equal({});
    const listing = await (await http()).post('/store-api/search').send({ search: 'x' });
    expect(listing.body).to.include({ apiAlias: 'product_listing', page: 1, limit: 25 });
  });
});
