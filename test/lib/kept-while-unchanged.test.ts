import { expect } from 'chai';
import { createDb, dialectOf, keptWhileUnchanged, selectRows, type Db, type Executor } from '../../src/lib/db.js';
import { prepareScratchDatabase, cleanupTestDatabase } from '../helpers/database.js';
import { statementsDuring } from '../helpers/statements.js';

/**
 * The one read every Store API request makes before its caches (the context versions) is kept on
 * SQLite while the database is unchanged: PRAGMA data_version for other connections' commits,
 * total_changes() for this connection's own writes. A kept answer that outlived a write
 * would show every request a stale session, visibility or price.
 */
describe('lib: a read kept while the database is unchanged', () => {
  let url: string;
  let db: Db;
  let reads: number;
  const counters = keptWhileUnchanged(async (executor: Executor) => {
    reads++;
    const rows = await selectRows<{ name: string; value: number }>(
      executor('kept_counters').orderBy('name').select('name', 'value'),
    );
    return { values: rows.map((row) => `${row.name}=${Number(row.value)}`) };
  });

  before(async () => {
    url = await prepareScratchDatabase('kept-while-unchanged');
    db = createDb(url);
    await db.schema.createTable('kept_counters', (table) => {
      table.string('name').primary();
      table.integer('value');
    });
    await db.schema.createTable('kept_other', (table) => {
      table.string('id').primary();
    });
    await db('kept_counters').insert({ name: 'a', value: 1 });
  });

  beforeEach(() => {
    reads = 0;
  });

  after(async () => {
    await db.destroy();
    await cleanupTestDatabase(url);
  });

  it('on SQLite answers from what it kept, without a statement, until this process writes - to any table', async function () {
    if (dialectOf(db) !== 'sqlite') this.skip(); // MySQL/MariaDB: see the last test
    expect(await counters(db)).to.deep.equal({ values: ['a=1'] });
    const warm = await statementsDuring(db, /./, () => counters(db));
    expect(warm.result).to.deep.equal({ values: ['a=1'] });
    expect(warm.statements).to.deep.equal([]);
    expect(reads).to.equal(1);

    await db('kept_counters').where({ name: 'a' }).update({ value: 2 });
    expect(await counters(db)).to.deep.equal({ values: ['a=2'] });
    expect((await statementsDuring(db, /./, () => counters(db))).statements).to.deep.equal([]);
    // A write elsewhere cannot be told apart from one that matters: read again, same answer.
    const before = reads;
    await db('kept_other').insert({ id: 'x' });
    expect(await counters(db)).to.deep.equal({ values: ['a=2'] });
    expect(reads - before).to.equal(1);
    // A raw statement counts too, and so does a write inside a transaction once it commits.
    await db.raw('update kept_counters set value = 3');
    expect(await counters(db)).to.deep.equal({ values: ['a=3'] });
    await db.transaction((trx) => trx('kept_counters').where({ name: 'a' }).update({ value: 4 }));
    expect(await counters(db)).to.deep.equal({ values: ['a=4'] });
    // A statement that fails changes nothing: the kept answer stays right.
    const beforeFailed = reads;
    await db('kept_other')
      .insert({ id: 'x' })
      .catch(() => undefined);
    expect(await counters(db)).to.deep.equal({ values: ['a=4'] });
    expect(reads - beforeFailed).to.equal(0);
  });

  it('on SQLite sees at once what another connection to the same file committed (another process, a CLI import)', async function () {
    if (dialectOf(db) !== 'sqlite') this.skip();
    const other = createDb(url);
    try {
      await counters(db);
      await counters(db);
      const start = reads;
      await other('kept_counters').where({ name: 'a' }).update({ value: 40 });
      expect(await counters(db)).to.deep.equal({ values: ['a=40'] });
      await other('kept_counters').insert({ name: 'b', value: 1 });
      expect(await counters(db)).to.deep.equal({ values: ['a=40', 'b=1'] });
      // Kept again: the next read asks for the data version, finds it unchanged and runs nothing.
      expect(reads - start).to.equal(2);
      await counters(db);
      expect(reads - start).to.equal(2);
    } finally {
      await other('kept_counters').where({ name: 'b' }).delete();
      await other.destroy();
    }
  });

  it("reads inside a transaction every time and keeps nothing from it (the transaction's own writes show, a rollback leaves no trace)", async () => {
    const before = await counters(db);
    await db
      .transaction(async (trx) => {
        await trx('kept_counters').insert({ name: 'c', value: 1 });
        expect((await counters(trx)).values).to.include('c=1');
        expect((await counters(trx)).values).to.include('c=1');
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).to.equal('roll back'));
    expect(await counters(db)).to.deep.equal(before);
  });

  it('answers a frozen value: a caller cannot change what the next one gets', async () => {
    const answer = await counters(db);
    expect(Object.isFrozen(answer) && Object.isFrozen(answer.values)).to.equal(true);
    expect(() => (answer.values as string[]).push('z=0')).to.throw(TypeError);
  });

  it("on MySQL/MariaDB reads every time (no cheap signal of another process's commit there)", async function () {
    if (dialectOf(db) !== 'mysql') this.skip(); // SQLite: the tests above
    await counters(db);
    const again = await statementsDuring(db, /kept_counters/, () => counters(db));
    expect(again.statements).to.have.length(1);
    expect(reads).to.equal(2);
  });
});
