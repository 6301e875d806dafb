import { expect } from 'chai';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { graphqlSdl } from '../../src/adapters/vendure/graphql.js';
import { projectPath } from '../../src/host-kit/paths.js';
import { DEMO_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { graphqlFieldNames } from '../../src/lib/graphql-schema.js';
import { DEMO_PURCHASER } from '../../src/plugin/employee/demo.js';
import { bearer, bootShop, type ShopClient } from './helpers/shop.js';

/**
 * The plugin's routes as fields of Vendure's GraphQL APIs (src/adapters/vendure/graphql.ts): one
 * field per Store API route in the Shop API and per Admin API route in the Admin API, answered by the
 * same pipeline as the REST routes — the same data, the same refusals (as GraphQL errors with the
 * plugin's code).
 */
const GRAPHQL_FILE_HEADER =
  "# Generated from the route declarations by src/lib/graphql-schema.ts: the plugin's fields of Vendure's API.\n# Do not edit; test/vendure/graphql-fields.test.ts checks it (RECORD_GRAPHQL_SCHEMA=1 rewrites it).\n\n";

describe('Vendure: every plugin route is a field of the Shop API or the Admin API', function () {
  this.timeout(60_000);
  let t: ShopClient;
  let admin: Record<string, string>;

  before(async function () {
    this.timeout(240_000);
    t = await bootShop({ label: 'vendure_graphql', runJobs: false });
    admin = bearer(await t.vendureLogin('admin-api', 'superadmin', 'superadmin'));
  });

  after(async function () {
    this.timeout(60_000);
    await t?.close();
  });

  /** The root fields of an API's Query and Mutation types. */
  async function rootFields(api: 'shop-api' | 'admin-api', headers: Record<string, string>): Promise<Set<string>> {
    const answer = await t.gql(
      api,
      '{ __schema { queryType { fields { name } } mutationType { fields { name } } } }',
      {},
      headers,
    );
    expect(answer.errors, JSON.stringify(answer.errors)).to.equal(undefined);
    const schema = (answer.data as { __schema: Record<string, { fields: Array<{ name: string }> }> }).__schema;
    return new Set([...schema.queryType!.fields, ...schema.mutationType!.fields].map((field) => field.name));
  }

  it('the Shop API has a field for each Store API route and the Admin API one for each Admin API route, named after its operation', async () => {
    /** The operations of an API's OpenAPI document, in declaration order, as `GET /path operationId`. */
    const operations = async (path: string, headers: Record<string, string>) => {
      const doc = await t.rest('GET', path, headers);
      const paths = doc.body.paths as Record<string, Record<string, { operationId: string }>>;
      return Object.entries(paths).flatMap(([route, methods]) =>
        Object.entries(methods).map(([method, op]) => ({
          route: `${method.toUpperCase()} ${route}`,
          id: op.operationId,
        })),
      );
    };
    const missing = (ops: Array<{ route: string; id: string }>, fields: Set<string>) => {
      const names = graphqlFieldNames(ops.map((op) => op.id));
      return ops.filter((op, i) => names[i] !== null && !fields.has(names[i]!)).map((op) => op.route);
    };
    const storeOps = await operations('/store-api/_info/openapi3.json', {});
    const adminOps = await operations('/b2b-admin-api/_info/openapi3.json', admin);
    const shopFields = await rootFields('shop-api', {});
    const adminFields = await rootFields('admin-api', admin);
    expect(storeOps.length).to.be.greaterThan(100);
    expect(adminOps.length).to.be.greaterThan(50);
    expect(missing(storeOps, shopFields)).to.deep.equal([]);
    expect(missing(adminOps, adminFields)).to.deep.equal([]);
    // And no plugin field without a route.
    const orphans = (ops: Array<{ id: string }>, fields: Set<string>) => {
      const names = new Set(graphqlFieldNames(ops.map((op) => op.id)));
      return [...fields].filter((field) => /^b2b|B2b/.test(field) && !names.has(field));
    };
    expect(orphans(storeOps, shopFields)).to.deep.equal([]);
    expect(orphans(adminOps, adminFields)).to.deep.equal([]);
    expect(shopFields.has('b2bEmployeeRoles')).to.equal(true);
    expect(adminFields.has('b2bEmployeeRoles')).to.equal(false);
  });

  /** A selection of every field of an API's type, as deep as the type goes (the generated types are trees). */
  async function selectionOf(api: 'shop-api' | 'admin-api', field: string, headers: Record<string, string>) {
    const ref = 'name kind ofType { name kind ofType { name kind ofType { name kind ofType { name kind } } } }';
    const answer = await t.gql(
      api,
      `{ __schema { queryType { name } types { name kind fields { name type { ${ref} } } } } }`,
      {},
      headers,
    );
    type TypeRef = { name: string | null; kind: string; ofType?: TypeRef | null };
    const schema = (
      answer.data as {
        __schema: { types: Array<{ name: string; fields: Array<{ name: string; type: TypeRef }> | null }> };
      }
    ).__schema;
    const types = new Map(schema.types.map((type) => [type.name, type]));
    const named = (ref: TypeRef): TypeRef => (ref.ofType ? named(ref.ofType) : ref);
    const select = (typeName: string): string => {
      const type = types.get(typeName)!;
      return `{ ${type.fields!.map((f) => (named(f.type).kind === 'OBJECT' ? `${f.name} ${select(named(f.type).name!)}` : f.name)).join(' ')} }`;
    };
    const root =
      types.get('Query')!.fields!.find((f) => f.name === field) ??
      types.get('Mutation')!.fields!.find((f) => f.name === field);
    const result = named(root!.type);
    return result.kind === 'OBJECT' ? select(result.name!) : '';
  }

  /** `value` with only what `template` (the GraphQL answer) has: REST bodies may carry properties no schema names. */
  const projected = (value: unknown, template: unknown): unknown =>
    Array.isArray(template) && Array.isArray(value)
      ? value.map((item, i) => projected(item, template[i]))
      : template && typeof template === 'object' && value && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(template).map((key) => [
              key,
              projected((value as Record<string, unknown>)[key] ?? null, (template as Record<string, unknown>)[key]),
            ]),
          )
        : value;

  it('the generated schemas are the ones checked in (docs/graphql/*.graphql; RECORD_GRAPHQL_SCHEMA=1 writes them)', () => {
    for (const api of ['shop', 'admin'] as const) {
      const file = projectPath('docs', 'graphql', `${api}-api.graphql`);
      const generated = `${GRAPHQL_FILE_HEADER}${graphqlSdl(api)}`;
      if (process.env.RECORD_GRAPHQL_SCHEMA === '1') writeFileSync(file, generated);
      expect(existsSync(file) ? readFileSync(file, 'utf8') : '', `${file} is out of date`).to.equal(generated);
    }
  });

  it('a field answers what its REST route answers, for the same caller: the company login (a Vendure session) and an employee', async () => {
    const company = bearer(await t.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    const rest = await t.rest('POST', '/store-api/b2b/employee-roles', company, {});
    expect(rest.status, JSON.stringify(rest.body)).to.equal(200);
    expect(rest.body.total).to.be.greaterThan(0);
    const selection = await selectionOf('shop-api', 'b2bEmployeeRoles', company);
    const answer = await t.gql('shop-api', `{ b2bEmployeeRoles(input: {}) ${selection} }`, {}, company);
    expect(answer.errors, JSON.stringify(answer.errors)).to.equal(undefined);
    const data = (answer.data as { b2bEmployeeRoles: unknown }).b2bEmployeeRoles;
    expect(data).to.deep.equal(projected(rest.body, data));

    const employee = await t.employeeHeaders(DEMO_PURCHASER.email, DEMO_PURCHASER.password);
    const refused = await t.gql('shop-api', `{ b2bEmployeeRoles(input: {}) { total } }`, {}, employee);
    expect((refused.errors?.[0] as { extensions?: unknown } | undefined)?.extensions).to.deep.include({
      code: 'SUITE__PERMISSION_DENIED',
      status: 403,
    });
  });

  it('a refusal is a GraphQL error with the plugin code and status: a guest on a login-only field, bad input', async () => {
    const guest = await t.gql('shop-api', '{ b2bEmployeeRoles(input: {}) { total } }', {}, {});
    expect((guest.errors?.[0] as { extensions?: unknown } | undefined)?.extensions).to.deep.include({
      code: 'SUITE__UNAUTHORIZED',
      status: 401,
    });
    const company = bearer(await t.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    const bad = await t.gql('shop-api', '{ b2bEmployeeRoles(input: { limit: -5 }) { total } }', {}, company);
    expect((bad.errors?.[0] as { extensions?: { status?: number } } | undefined)?.extensions?.status).to.equal(400);
  });

  it('a mutation changes what the REST route reads: a role created in GraphQL is listed by /store-api', async () => {
    const company = bearer(await t.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    const name = `GraphQL role ${Date.now()}`;
    const created = await t.gql(
      'shop-api',
      `mutation { createB2bEmployeeRole(input: { name: ${JSON.stringify(name)}, permissions: ["orders.read"] }) { success role { id name } } }`,
      {},
      company,
    );
    expect(created.errors, JSON.stringify(created.errors)).to.equal(undefined);
    const listed = await t.rest('POST', '/store-api/b2b/employee-roles', company, {});
    expect((listed.body.elements as Array<{ name: string }>).map((role) => role.name)).to.include(name);
  });
});
