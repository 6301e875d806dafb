import { expect } from 'chai';
import { isServerDb } from '../../helpers/shop.js';
import { KINDS, admin, createRule, routeOf, rowsOf } from './fixtures.js';

describe('partial assortment: concurrent assignments (MariaDB)', () => {
  it('20 concurrent POSTs of the same pair all answer 204 and leave exactly one row', async function () {
    // SQLite has a single connection: requests run one after another, so there is no race to test.
    if (!isServerDb()) this.skip();
    const api = await admin();
    for (const kind of KINDS) {
      const entity = await kind.create();
      const ruleId = await createRule();
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => api.post(routeOf(kind), { [kind.idField]: entity.id, ruleId })),
      );
      expect(responses.map((r) => r.status)).to.deep.equal(Array(20).fill(204));
      expect(await rowsOf(kind, entity.id)).to.have.length(1);
      const listed = await api.get(`${routeOf(kind)}?limit=500`);
      expect(listed.body.data.filter((item: any) => item.id === `${entity.id}${ruleId}`)).to.have.length(1);
    }
  });

  it('20 concurrent POSTs of different rules for one entity keep all 20, and concurrent DELETEs remove them', async function () {
    // SQLite has a single connection: requests run one after another, so there is no race to test.
    if (!isServerDb()) this.skip();
    const api = await admin();
    const kind = KINDS[2];
    const entity = await kind.create();
    const rules = await Promise.all(Array.from({ length: 20 }, () => createRule()));
    const posted = await Promise.all(
      rules.map((ruleId) => api.post(routeOf(kind), { [kind.idField]: entity.id, ruleId })),
    );
    expect(posted.map((r) => r.status)).to.deep.equal(Array(20).fill(204));
    expect((await rowsOf(kind, entity.id)).map((r) => r.rule_id).sort()).to.deep.equal([...rules].sort());
    const deleted = await Promise.all(rules.map((ruleId) => api.delete(`${routeOf(kind)}/${entity.id}/${ruleId}`)));
    expect(deleted.map((r) => r.status)).to.deep.equal(Array(20).fill(204));
    expect(await rowsOf(kind, entity.id)).to.have.length(0);
  });
});
