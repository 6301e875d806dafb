import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { expectError, http } from '../../helpers/shop.js';
import { KINDS, admin, createProduct, createRule, routeOf, rowsOf, type Kind } from './fixtures.js';

const ENTITY_NOT_FOUND = 'SUITE__PARTIAL_ASSORTMENT_ENTITY_NOT_FOUND';
const RULE_NOT_FOUND = 'SUITE__PARTIAL_ASSORTMENT_RULE_NOT_FOUND';

async function listAll(kind: Kind): Promise<any[]> {
  const api = await admin();
  const items: any[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get(`${routeOf(kind)}?limit=500&page=${page}`);
    expect(res.status).to.equal(200);
    items.push(...res.body.data);
    if (!res.body.links.next) return items;
  }
}

for (const kind of KINDS) {
  describe(`partial assortment: ${kind.segment} rule routes (Admin API)`, () => {
    it('assigns a rule (204) and lists it as the spec shows: id = entity id + rule id, type, attributes with the live version id', async () => {
      const entity = await kind.create();
      const ruleId = await createRule();
      const api = await admin();
      const res = await api.post(routeOf(kind), { [kind.idField]: entity.id, ruleId });
      expect(res.status).to.equal(204);
      expect(res.text).to.equal('');
      const listed = (await listAll(kind)).find((item) => item.id === `${entity.id}${ruleId}`);
      expect(listed).to.deep.equal({
        id: `${entity.id}${ruleId}`,
        type: kind.type,
        attributes: { [kind.idField]: entity.id, [kind.versionField]: entity.versionId, ruleId },
      });
    });

    it('answers 204 again for a pair that exists and keeps exactly one row', async () => {
      const entity = await kind.create();
      const ruleId = await createRule();
      const api = await admin();
      for (let i = 0; i < 3; i++)
        expect((await api.post(routeOf(kind), { [kind.idField]: entity.id, ruleId })).status).to.equal(204);
      expect(await rowsOf(kind, entity.id)).to.have.length(1);
      expect((await listAll(kind)).filter((item) => item.id === `${entity.id}${ruleId}`)).to.have.length(1);
    });

    it('keeps several rules of one entity apart', async () => {
      const entity = await kind.create();
      const rules = [await createRule(), await createRule()];
      for (const ruleId of rules)
        expect((await (await admin()).post(routeOf(kind), { [kind.idField]: entity.id, ruleId })).status).to.equal(204);
      const listed = (await listAll(kind))
        .filter((item) => item.attributes[kind.idField] === entity.id)
        .map((item) => item.attributes.ruleId);
      expect(listed.sort()).to.deep.equal([...rules].sort());
    });

    it('refuses an invalid body with 400 and the error body', async () => {
      const entity = await kind.create();
      const ruleId = await createRule();
      const api = await admin();
      const other = KINDS.find((k) => k !== kind)!;
      const cases: Array<[unknown, string]> = [
        [{ ruleId }, `/${kind.idField}`],
        [{ [kind.idField]: entity.id }, '/ruleId'],
        [{ [kind.idField]: entity.id, ruleId, extra: 1 }, '/extra'],
        [{ [other.idField]: entity.id, ruleId }, `/${kind.idField}`],
        [{ [kind.idField]: entity.id.toUpperCase(), ruleId }, `/${kind.idField}`],
        [
          {
            [kind.idField]: `${entity.id.slice(0, 8)}-${entity.id.slice(8, 12)}-${entity.id.slice(12, 16)}-${entity.id.slice(16, 20)}-${entity.id.slice(20)}`,
            ruleId,
          },
          `/${kind.idField}`,
        ],
        [{ [kind.idField]: entity.id, ruleId: 42 }, '/ruleId'],
        [{ [kind.idField]: null, ruleId }, `/${kind.idField}`],
      ];
      for (const [body, pointer] of cases) {
        const res = await api.post(routeOf(kind), body);
        expectError(res, 400, 'SUITE__INVALID_INPUT');
        expect(
          res.body.errors.map((e: any) => e.source?.pointer),
          JSON.stringify(body),
        ).to.include(pointer);
      }
      expectError(await api.post(routeOf(kind), []), 400);
      expectError(await api.postRaw(routeOf(kind), '"x"'), 400);
      expectError(await api.postRaw(routeOf(kind), '{"ruleId":'), 400, 'SUITE__MALFORMED_JSON');
      expect(await rowsOf(kind, entity.id)).to.have.length(0);
    });

    it(`answers 400 for an unknown ${kind.segment} or rule, naming the field`, async () => {
      const entity = await kind.create();
      const ruleId = await createRule();
      const api = await admin();
      const unknownEntity = expectError(
        await api.post(routeOf(kind), { [kind.idField]: newId(), ruleId }),
        400,
        ENTITY_NOT_FOUND,
      );
      expect(unknownEntity.source?.pointer).to.equal(`/${kind.idField}`);
      const unknownRule = expectError(
        await api.post(routeOf(kind), { [kind.idField]: entity.id, ruleId: newId() }),
        400,
        RULE_NOT_FOUND,
      );
      expect(unknownRule.source?.pointer).to.equal('/ruleId');
      const both = await api.post(routeOf(kind), { [kind.idField]: newId(), ruleId: newId() });
      expectError(both, 400);
      expect(both.body.errors.map((e: any) => e.code)).to.deep.equal([ENTITY_NOT_FOUND, RULE_NOT_FOUND]);
      // An id of another kind of entity is not one of this kind.
      const product = await createProduct();
      if (kind.segment !== 'product')
        expectError(await api.post(routeOf(kind), { [kind.idField]: product.id, ruleId }), 400, ENTITY_NOT_FOUND);
      expect(await rowsOf(kind, entity.id)).to.have.length(0);
    });

    it('removes a pair with DELETE (204), and answers 204 again when it is gone or never existed', async () => {
      const entity = await kind.create();
      const [kept, removed] = [await createRule(), await createRule()];
      const api = await admin();
      for (const ruleId of [kept, removed]) await api.post(routeOf(kind), { [kind.idField]: entity.id, ruleId });
      const res = await api.delete(`${routeOf(kind)}/${entity.id}/${removed}`);
      expect(res.status).to.equal(204);
      expect(res.text).to.equal('');
      expect((await rowsOf(kind, entity.id)).map((r) => r.rule_id)).to.deep.equal([kept]);
      expect((await listAll(kind)).some((item) => item.id === `${entity.id}${removed}`)).to.equal(false);
      expect((await api.delete(`${routeOf(kind)}/${entity.id}/${removed}`)).status).to.equal(204);
      expect((await api.delete(`${routeOf(kind)}/${newId()}/${newId()}`)).status).to.equal(204);
      expect((await rowsOf(kind, entity.id)).map((r) => r.rule_id)).to.deep.equal([kept]);
    });

    it('answers 400 for invalid UUIDs in the DELETE path', async () => {
      const api = await admin();
      const id = newId();
      for (const [entityId, ruleId, parameter] of [
        ['not-a-uuid', id, kind.idField],
        [id, 'not-a-uuid', 'ruleId'],
        [id.toUpperCase(), id, kind.idField],
        [`${id}0`, id, kind.idField],
        [id, '1', 'ruleId'],
      ]) {
        const res = await api.delete(`${routeOf(kind)}/${entityId}/${ruleId}`);
        expectError(res, 400, 'SUITE__INVALID_INPUT');
        expect(res.body.errors[0].source.parameter).to.equal(parameter);
      }
    });

    it('pages with limit and page: default 25, stable order, links, meta.total', async () => {
      const api = await admin();
      const entity = await kind.create();
      for (let i = 0; i < 4; i++)
        await api.post(routeOf(kind), { [kind.idField]: entity.id, ruleId: await createRule() });
      const everything = await listAll(kind);
      const total = everything.length;
      expect(total).to.be.at.least(4);

      const first = await api.get(routeOf(kind));
      expect(first.status).to.equal(200);
      expect(first.body.meta.total).to.equal(total);
      expect(first.body.data).to.deep.equal(everything.slice(0, 25));
      expect(first.body.links.self).to.equal(`${routeOf(kind)}?limit=25&page=1`);
      expect(first.body.links.first).to.equal(`${routeOf(kind)}?limit=25&page=1`);
      expect(first.body.links.last).to.equal(`${routeOf(kind)}?limit=25&page=${Math.max(1, Math.ceil(total / 25))}`);
      expect(first.body.links).not.to.have.property('prev');

      const walked: any[] = [];
      let path: string | undefined = `${routeOf(kind)}?limit=2&page=1`;
      let pages = 0;
      while (path) {
        const res = await api.get(path);
        expect(res.status).to.equal(200);
        expect(res.body.meta.total).to.equal(total);
        expect(res.body.data.length).to.be.at.most(2);
        walked.push(...res.body.data);
        path = res.body.links.next;
        pages++;
      }
      expect(pages).to.equal(Math.ceil(total / 2));
      expect(walked).to.deep.equal(everything);
      expect(new Set(walked.map((item) => item.id)).size).to.equal(total);

      const second = await api.get(`${routeOf(kind)}?limit=2&page=2`);
      expect(second.body.links.prev).to.equal(`${routeOf(kind)}?limit=2&page=1`);
      const beyond = await api.get(`${routeOf(kind)}?limit=500&page=1000`);
      expect(beyond.status).to.equal(200);
      expect(beyond.body.data).to.deep.equal([]);
      expect(beyond.body.meta.total).to.equal(total);
      expect(beyond.body.links).not.to.have.property('next');
    });

    it('answers 400 for limit or page out of range or not integers', async () => {
      const api = await admin();
      for (const query of [
        'limit=0',
        'limit=501',
        'limit=-1',
        'limit=abc',
        'limit=2.5',
        'page=0',
        'page=-3',
        'page=x',
        'page=1000001',
        'page=1e30',
        'sort=name',
      ]) {
        expectError(await api.get(`${routeOf(kind)}?${query}`), 400, 'SUITE__INVALID_INPUT');
      }
      expect((await api.get(`${routeOf(kind)}?limit=500&page=1000000`)).status).to.equal(200);
      expect((await api.get(`${routeOf(kind)}?limit=1`)).body.data.length).to.be.at.most(1);
    });

    it('answers 401 without a bearer token, with a Store API token or a bad one, and changes nothing', async () => {
      const entity = await kind.create();
      const ruleId = await createRule();
      const agent = await http();
      for (const authorization of [undefined, 'Bearer garbage', 'Basic dGVzdDp0ZXN0']) {
        const withAuth = <T extends { set(name: string, value: string): T }>(req: T) =>
          authorization ? req.set('authorization', authorization) : req;
        expectError(await withAuth(agent.get(routeOf(kind))), 401);
        expectError(await withAuth(agent.post(routeOf(kind))).send({ [kind.idField]: entity.id, ruleId }), 401);
        expectError(await withAuth(agent.delete(`${routeOf(kind)}/${entity.id}/${ruleId}`)), 401);
      }
      expect(await rowsOf(kind, entity.id)).to.have.length(0);
    });
  });
}

describe('partial assortment: Admin API documentation', () => {
  it('documents the named request bodies and the pagination defaults and limits', async () => {
    const doc = (await (await http()).get('/api/_info/openapi3.json')).body;
    for (const kind of KINDS) {
      const body = doc.components.requestBodies[kind.bodyName];
      expect(body, kind.bodyName).to.exist;
      const schema = body.content['application/json'].schema;
      expect(schema.required).to.deep.equal([kind.idField, 'ruleId']);
      const path = routeOf(kind).replace(/^\/api/, '');
      expect(doc.paths[path].post.requestBody.$ref).to.equal(`#/components/requestBodies/${kind.bodyName}`);
      expect(doc.paths[path].post.responses['204']).to.exist;
      const parameters = Object.fromEntries(doc.paths[path].get.parameters.map((p: any) => [p.name, p.schema]));
      expect(parameters.limit).to.include({ default: 25, maximum: 500, minimum: 1 });
      expect(parameters.page).to.include({ default: 1, minimum: 1 });
      expect(doc.paths[`${path}/{${kind.idField}}/{ruleId}`].delete.responses['204']).to.exist;
    }
  });
});
