import { expect } from 'chai';
import { fixedRead, type Executor } from '../../src/lib/db.js';
import { getShop } from '../helpers/shop.js';

/** Fixed reads are built once and then run by their SQL text: each call must still read with its own values. */
describe('lib: fixedRead', () => {
  const countersInRange = fixedRead((executor: Executor, from: string, to: string) =>
    executor('catalog_counters')
      .where('name', '>=', from)
      .where('name', '<', to)
      .whereNot('name', 'fixed-read-test-never')
      .orderBy('name')
      .select('name', 'value'),
  );
  const built = (executor: Executor, from: string, to: string) =>
    executor('catalog_counters')
      .where('name', '>=', from)
      .where('name', '<', to)
      .whereNot('name', 'fixed-read-test-never')
      .orderBy('name')
      .select('name', 'value');

  before(async () => {
    const { db } = await getShop();
    await db('catalog_counters')
      .where('name', '>=', 'fixed-read-test-')
      .where('name', '<', 'fixed-read-test-~')
      .delete();
    await db('catalog_counters').insert(
      ['a', 'b', 'c', 'd', 'never'].map((suffix, i) => ({ name: `fixed-read-test-${suffix}`, value: i + 1 })),
    );
  });

  it('answers what the builder answers, with the values of each call and the constants of the first', async () => {
    const { db } = await getShop();
    const ranges = [
      ['fixed-read-test-a', 'fixed-read-test-c'],
      ['fixed-read-test-b', 'fixed-read-test-e'],
      ['fixed-read-test-', 'fixed-read-test-~'],
      ['zzzz', 'zzzzz'],
    ] as const;
    for (const [from, to] of ranges)
      expect(await countersInRange(db, from, to)).to.deep.equal(await built(db, from, to));
    expect(
      (await countersInRange<{ name: string }>(db, 'fixed-read-test-', 'fixed-read-test-~')).map((row) => row.name),
    ).to.deep.equal(['fixed-read-test-a', 'fixed-read-test-b', 'fixed-read-test-c', 'fixed-read-test-d']);
  });

  it('reads inside a transaction too, and refuses an argument that shapes the SQL instead of being a value', async () => {
    const { db } = await getShop();
    await db.transaction(async (trx) => {
      await trx('catalog_counters').where('name', 'fixed-read-test-a').update({ value: 41 });
      expect(await countersInRange(trx, 'fixed-read-test-a', 'fixed-read-test-b')).to.deep.equal([
        { name: 'fixed-read-test-a', value: 41 },
      ]);
    });
    const shaped = fixedRead((executor: Executor, column: string) => executor('catalog_counters').select(column));
    let refused: unknown = null;
    await shaped(db, 'name').catch((error: unknown) => (refused = error));
    expect(String(refused)).to.match(/not bound as a value/);
  });
});
