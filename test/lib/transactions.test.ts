import { expect } from 'chai';
import { createDb, dialectOf, forUpdate, inTransaction, type Db, type Trx } from '../../src/lib/db.js';
import { prepareScratchDatabase, cleanupTestDatabase } from '../helpers/database.js';

/**
 * Transactions as every service uses them (inTransaction, db.transaction, savepoints): knex's own
 * (decision 0020), with what the database layer adds around them — on SQLite a connection a failed
 * COMMIT left inside its transaction is never lent again (the pool's validate in src/lib/db-sqlite.ts).
 */
describe('lib: transactions', () => {
  let url: string;
  let db: Db;
  const names = () => db('trx_test').orderBy('id').pluck('name');

  before(async () => {
    url = await prepareScratchDatabase('transactions');
    db = createDb(url);
    await db.schema.createTable('trx_test', (table) => {
      table.string('id').primary();
      table.string('name');
    });
  });

  beforeEach(() => db('trx_test').delete());

  after(async () => {
    await db.destroy();
    await cleanupTestDatabase(url);
  });

  it('commits what the work wrote and answers its value; a failing work leaves nothing and throws its own error', async () => {
    const value = await inTransaction(db, async (trx) => {
      expect(trx.isTransaction).to.equal(true);
      await trx('trx_test').insert({ id: 'a', name: 'kept' });
      expect(await trx('trx_test').where({ id: 'a' }).first('name')).to.deep.equal({ name: 'kept' });
      return 42;
    });
    expect(value).to.equal(42);
    const failure = new Error('work failed');
    const thrown = await inTransaction(db, async (trx) => {
      await trx('trx_test').insert({ id: 'b', name: 'rolled back' });
      await trx.raw('update trx_test set name = ? where id = ?', ['changed', 'a']);
      throw failure;
    }).catch((error: unknown) => error);
    expect(thrown).to.equal(failure);
    expect(await names()).to.deep.equal(['kept']);
  });

  it('sends BEGIN, the statements and COMMIT (or ROLLBACK) to the root knex’s query listeners', async () => {
    const seen: string[] = [];
    const onQuery = (query: { sql: string }) => seen.push(query.sql);
    db.on('query', onQuery);
    try {
      await inTransaction(db, async (trx) => {
        await trx('trx_test').insert({ id: 'a', name: 'one' });
        await trx('trx_test').where({ id: 'a' }).first('name');
      });
      await inTransaction(db, async (trx) => {
        await trx('trx_test').insert({ id: 'b', name: 'two' });
        throw new Error('no');
      }).catch(() => undefined);
    } finally {
      db.removeListener('query', onQuery);
    }
    expect(seen.map((sql) => sql.split(' ')[0]!.replace(/;$/, '').toUpperCase())).to.deep.equal([
      'BEGIN',
      'INSERT',
      'SELECT',
      'COMMIT',
      'BEGIN',
      'INSERT',
      'ROLLBACK',
    ]);
  });

  it('refuses a statement on a transaction that has ended, and never runs it inside a later one', async () => {
    let ended: Trx | undefined;
    await inTransaction(db, async (trx) => {
      ended = trx;
      await trx('trx_test').insert({ id: 'a', name: 'first' });
    });
    expect(ended!.isCompleted()).to.equal(true);
    const late = await inTransaction(db, async () => {
      const error = await Promise.resolve(ended!('trx_test').insert({ id: 'x', name: 'stray' })).then(
        () => null,
        (e: Error) => e,
      );
      throw new Error(`rolled back (${error?.message ?? 'the stray insert ran'})`);
    }).catch((error: Error) => error.message);
    expect(late).to.match(/Transaction query already complete/);
    expect(await names()).to.deep.equal(['first']);
  });

  it('runs trx.transaction as a savepoint: its failure undoes its own writes only', async () => {
    await inTransaction(db, async (trx) => {
      await trx('trx_test').insert({ id: 'a', name: 'outer' });
      await trx
        .transaction(async (inner) => {
          await inner('trx_test').insert({ id: 'b', name: 'inner, undone' });
          throw new Error('inner failed');
        })
        .catch(() => undefined);
      await trx.transaction(async (inner) => {
        await inner('trx_test').insert({ id: 'c', name: 'inner, kept' });
      });
      expect(await trx('trx_test').orderBy('id').pluck('id')).to.deep.equal(['a', 'c']);
    });
    expect(await names()).to.deep.equal(['outer', 'inner, kept']);
  });

  it('ends on an explicit commit or rollback, and its executionPromise tells which', async () => {
    const trx = await db.transaction();
    const committed = trx.executionPromise;
    await trx('trx_test').insert({ id: 'a', name: 'committed' });
    await trx.commit('done');
    expect(await committed).to.equal('done');

    const rolledBack = await db.transaction();
    const outcome = rolledBack.executionPromise.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    await rolledBack('trx_test').insert({ id: 'b', name: 'rolled back' });
    await rolledBack.rollback(new Error('changed my mind'));
    expect(await outcome).to.equal('changed my mind');
    expect(await names()).to.deep.equal(['committed']);
  });

  it('a statement outside the transaction waits for it and sees only what it committed', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writing = inTransaction(db, async (trx) => {
      await trx('trx_test').insert({ id: 'a', name: 'after commit' });
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (dialectOf(db) !== 'sqlite') {
      // MariaDB, PostgreSQL: another connection reads the committed state at once, without waiting for the
      // transaction (awaited before the release, so a slow pool cannot make it read after the commit).
      const outside = await db('trx_test').pluck('name');
      release();
      await writing;
      expect(outside).to.deep.equal([]);
      return;
    }
    // SQLite: the read queues for the one connection and sees the commit.
    const outside = Promise.resolve(db('trx_test').pluck('name'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await writing;
    expect(await outside).to.deep.equal(['after commit']);
  });

  it('20 concurrent read-then-write transactions lose no update, and reads between them see only committed counts', async () => {
    await db('trx_test').insert({ id: 'counter', name: '0' });
    const seen: string[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await inTransaction(db, async (trx) => {
          const row = (await forUpdate(trx('trx_test').where({ id: 'counter' }).first('name'), trx)) as {
            name: string;
          };
          await trx('trx_test').insert({
            id: `w${String(i).padStart(2, '0')}`,
            name: 'uncommitted until the count is',
          });
          await trx('trx_test')
            .where({ id: 'counter' })
            .update({ name: String(Number(row.name) + 1) });
        });
        // Rows first, the count after: both commit together, so a later count is never below the rows.
        const written = Number((await db('trx_test').where('id', 'like', 'w%').count({ n: '*' }))[0]!.n);
        const counted = (await db('trx_test').where({ id: 'counter' }).first('name')) as { name: string };
        seen.push(`${counted.name}/${written}`);
      }),
    );
    expect((await db('trx_test').where({ id: 'counter' }).first('name'))?.name).to.equal('20');
    // Each reader saw a count and a number of written rows from committed transactions only: never more rows than the count.
    for (const pair of seen) {
      const [count, written] = pair.split('/').map(Number);
      expect(written, pair).to.be.at.most(count!);
    }
  });

  it('SQLite: a COMMIT that fails (a deferred foreign key) rolls back and leaves the connection usable', async function () {
    // MariaDB checks foreign keys per statement; only SQLite defers them to COMMIT.
    if (dialectOf(db) !== 'sqlite') this.skip();
    await db.raw(
      'create table if not exists trx_child (id text primary key, parent_id text references trx_test(id) deferrable initially deferred)',
    );
    const failed = await inTransaction(db, async (trx) => {
      await trx('trx_test').insert({ id: 'a', name: 'parent, undone' });
      await trx.raw("insert into trx_child (id, parent_id) values ('c', 'missing')");
    }).catch((error: Error) => error.message);
    expect(failed).to.match(/FOREIGN KEY constraint failed/);
    expect(await names()).to.deep.equal([]);
    await inTransaction(db, (trx) => trx('trx_test').insert({ id: 'b', name: 'next transaction' }));
    expect(await names()).to.deep.equal(['next transaction']);
  });
});
