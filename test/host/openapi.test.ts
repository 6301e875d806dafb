import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { getShop, http } from '../helpers/shop.js';
import { projectPath } from '../../src/host-kit/paths.js';
import { assertRouteDeclared } from '../../src/lib/routes.js';

function specRoutes(): Array<{ method: string; path: string }> {
  // A copy of the specification's route list (shared/spec/routes.tsv), so the test runs anywhere.
  return readFileSync(projectPath('test', 'fixtures', 'spec-routes.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [method, path] = line.split('\t');
      return { method: method!, path: path! };
    });
}

describe('host: OpenAPI documents', () => {
  it('shows who may call each operation: x-suite-actors, x-suite-needs-customer and a sentence in the description', async () => {
    const agent = await http();
    const store = (await agent.get('/store-api/_info/openapi3.json')).body;
    const admin = (await agent.get('/api/_info/openapi3.json')).body;
    const op = (
      doc: { paths: Record<string, Record<string, Record<string, unknown>>> },
      method: string,
      path: string,
    ) => doc.paths[path]![method]!;
    for (const doc of [store, admin])
      for (const [path, methods] of Object.entries(
        doc.paths as Record<string, Record<string, Record<string, unknown>>>,
      ))
        for (const [method, operation] of Object.entries(methods)) {
          expect(operation['x-suite-actors'], `${method} ${path}`).to.be.an('array').that.is.not.empty;
          expect(operation.description, `${method} ${path}`).to.match(/Callable by .+\.$/);
        }
    expect(op(store, 'post', '/sales-representative/customers')['x-suite-actors']).to.deep.equal([
      'salesRepresentative',
    ]);
    expect(op(store, 'post', '/sales-representative/customers').description).to.contain(
      'Callable by sales representatives.',
    );
    expect(op(store, 'post', '/b2b/employee-customer/switch')['x-suite-actors']).to.deep.equal(['employee']);
    expect(op(store, 'post', '/offer/{id}/request-validity-extension')['x-suite-actors']).to.deep.equal([
      'customer',
      'employee',
    ]);
    const budgets = op(store, 'post', '/budget');
    expect(budgets['x-suite-actors']).to.deep.equal(['customer', 'employee', 'salesRepresentative']);
    expect(budgets['x-suite-needs-customer']).to.equal(true);
    expect(budgets.description).to.contain(
      'Callable by the customer login, employees and sales representatives, acting for a customer.',
    );
    expect(op(store, 'post', '/account/login')['x-suite-actors']).to.deep.equal([
      'guest',
      'customer',
      'employee',
      'salesRepresentative',
    ]);
    const adminActors = Object.values(admin.paths as Record<string, Record<string, Record<string, unknown>>>).flatMap(
      (methods) => Object.values(methods).map((o) => JSON.stringify(o['x-suite-actors'])),
    );
    expect([...new Set(adminActors)].sort()).to.deep.equal(['["admin"]', '["guest","admin"]']);
  });

  it('serves an OpenAPI 3.1 document for each API with every declared route', async () => {
    const shop = await getShop();
    const agent = await http();
    for (const [prefix, api] of [
      ['/store-api', shop.internals.storeApi],
      ['/api', shop.internals.adminApi],
    ] as const) {
      const res = await agent.get(`${prefix}/_info/openapi3.json`);
      expect(res.status).to.equal(200);
      expect(res.body.openapi).to.equal('3.1.0');
      for (const route of api.routes) {
        const operation = res.body.paths[route.path]?.[route.method.toLowerCase()];
        expect(operation, `${route.method} ${route.path}`).to.be.an('object');
        expect(Object.keys(operation.responses)).to.not.be.empty;
        for (const [status, response] of Object.entries(
          operation.responses as Record<string, { description: string }>,
        )) {
          // A success is described as one (OK, Created, No Content or the route's own words), never as an error.
          if (status.startsWith('2'))
            expect(response.description, `${route.method} ${route.path} ${status}`)
              .to.not.equal('Error')
              .and.not.equal('');
        }
        const ok = operation.responses['200'] as { description: string; content?: Record<string, unknown> } | undefined;
        if (ok?.content?.['application/json']) expect(ok.description, `${route.method} ${route.path}`).to.equal('OK');
      }
      const html = await agent.get(`${prefix}/_info/swagger.html`);
      expect(html.status).to.equal(200);
      expect(html.text).to.contain('openapi3.json');
      // The operation index: every operation is listed once, linked to its section, which exists and links back.
      const index = /<nav id="operations"[\s\S]*?<\/nav>/.exec(html.text)?.[0] ?? '';
      const links = [...index.matchAll(/<li><a href="#([^"]+)"><code>/g)].map((match) => match[1]!);
      expect(links, `${prefix} index`).to.have.length(api.routes.length);
      expect(new Set(links).size).to.equal(links.length);
      for (const route of api.routes)
        expect(links, route.operationId).to.include(route.operationId.replace(/[^A-Za-z0-9_-]+/g, '-'));
      for (const id of links) expect(html.text, id).to.contain(`<section id="${id}">`);
      expect(html.text.match(/href="#operations">Back to the index/g)).to.have.length(api.routes.length);
      expect(index).to.match(/<a href="#tag-[^"]+">[^<]+<\/a> \(\d+\)/);
    }
  });

  it('refuses a route declaration without response or body schemas', () => {
    const base = {
      method: 'POST',
      path: '/x/{id}',
      operationId: 'x',
      summary: 'x',
      tags: [],
      auth: 'login',
      permission: null,
      handler: async () => ({}),
    } as const;
    expect(() => assertRouteDeclared({ ...base, schemas: { responses: {} } } as never)).to.throw(/response schema/);
    expect(() => assertRouteDeclared({ ...base, schemas: { responses: { 200: {} } } } as never)).to.throw(
      /body schema/,
    );
    expect(() => assertRouteDeclared({ ...base, schemas: { body: {}, responses: { 200: {} } } } as never)).to.throw(
      /path parameter "id"/,
    );
    expect(() =>
      assertRouteDeclared({
        ...base,
        permission: undefined,
        schemas: { body: {}, params: { properties: { id: {} } }, responses: { 200: {} } },
      } as never),
    ).to.throw(/permission/);
  });

  it('declares all 129 routes of the specification, each under the right API', async () => {
    const shop = await getShop();
    const store = new Set(shop.internals.storeApi.routes.map((r) => `${r.method} ${r.path}`));
    const admin = new Set(shop.internals.adminApi.routes.map((r) => `${r.method} ${r.path}`));
    const spec = specRoutes();
    expect(spec).to.have.length(129);
    // Partial assortments are Admin API routes, everything else Store API.
    const misplaced = spec
      .map((route) => ({
        key: `${route.method} ${route.path}`,
        admin: route.path.startsWith('/suite-partial-assortment'),
      }))
      .filter((route) => !(route.admin ? admin : store).has(route.key))
      .map((route) => route.key);
    expect(misplaced).to.deep.equal([]);
  });
});
