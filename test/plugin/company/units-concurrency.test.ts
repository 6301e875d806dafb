import { expect } from 'chai';
import { subtree, unitTree } from '../../../src/plugin/company/units/directory.js';
import { getShop } from '../../helpers/shop.js';
import { as, newCustomer } from '../sales-representative/helpers.js';
import { createUnit } from './helpers.js';

describe('organisation units under concurrency', () => {
  it('two units moved under each other at the same time: one move wins, the other is refused, no cycle', async () => {
    const admin = await newCustomer();
    const client = await as(admin.token);
    for (let round = 0; round < 8; round++) {
      const a = await createUnit(client, `A${round}`);
      const b = await createUnit(client, `B${round}`);
      const answers = await Promise.all([
        client.patch(`/b2b/organisation-unit/${a}`, { parentId: b }),
        client.patch(`/b2b/organisation-unit/${b}`, { parentId: a }),
      ]);
      expect(answers.map((res) => res.status).sort(), JSON.stringify(answers.map((res) => res.body))).to.deep.equal([
        200, 400,
      ]);
      expect(answers.find((res) => res.status === 400)!.body.errors[0].code).to.equal('SUITE__UNIT_CYCLE');
    }
    const tree = await unitTree((await getShop()).db, admin.customer.id);
    const reachable = new Set(tree.filter((unit) => unit.parentId === null).flatMap((top) => subtree(tree, top.id)));
    expect(reachable.size, 'every unit hangs below a top-level unit').to.equal(tree.length);
  });
});
