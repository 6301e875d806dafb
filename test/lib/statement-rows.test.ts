import { expect } from 'chai';
import { createDb, dialectOf, selectRaw, type Db } from '../../src/lib/db.js';
import { prepareScratchDatabase, cleanupTestDatabase } from '../helpers/database.js';

/**
 * On SQLite the hot raw reads (selectRaw) are prepared once per connection and their rows come back as
 * arrays, turned into objects by the database layer (src/lib/db-sqlite.ts): the objects must be what the
 * driver gives, and a statement whose table changed since it was prepared must answer the table as it is now.
 */
/** The rows of a raw statement's answer: rows (SQLite), [rows, fields] (mysql2), a Result with rows (pg). */
function rowsOf(result: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(result)) return (Array.isArray(result[0]) ? result[0] : result) as Array<Record<string, unknown>>;
  return (result as { rows: Array<Record<string, unknown>> }).rows;
}

describe('lib: statement rows', () => {
  let url: string;
  let db: Db;

  before(async () => {
    url = await prepareScratchDatabase('statement_rows');
    db = createDb(url);
    await db.schema.createTable('rows_test', (table) => {
      table.string('id').primary();
      table.string('name');
      table.integer('amount');
    });
    await db('rows_test').insert([
      { id: 'a', name: 'first', amount: 1 },
      { id: 'b', name: null, amount: 2 },
    ]);
  });

  after(async () => {
    await db.destroy();
    await cleanupTestDatabase(url);
  });

  it('answers one property per column in column order, a repeated name holding its last value', async () => {
    const rows = await db('rows_test').orderBy('id').select('id', 'name', 'amount');
    expect(rows).to.deep.equal([
      { id: 'a', name: 'first', amount: 1 },
      { id: 'b', name: null, amount: 2 },
    ]);
    expect(Object.keys(rows[0] as object)).to.deep.equal(['id', 'name', 'amount']);
    const repeated = (await db.raw('select id as v, name as v, amount from rows_test where id = ?', ['a'])) as unknown;
    const row = rowsOf(repeated)[0];
    expect(row).to.deep.equal({ v: 'first', amount: 1 });
    expect(await db('rows_test').where('id', 'none').select('id')).to.deep.equal([]);
  });

  it('answers the columns a table has now after it changed, on the same statement text', async () => {
    const read = () => db.raw('select * from rows_test where id = ?', ['a']).then(rowsOf);
    expect(await read()).to.deep.equal([{ id: 'a', name: 'first', amount: 1 }]);
    await db.schema.alterTable('rows_test', (table) => table.string('note').nullable());
    await db('rows_test').where('id', 'a').update({ note: 'added' });
    expect(await read()).to.deep.equal([{ id: 'a', name: 'first', amount: 1, note: 'added' }]);
    await db.schema.alterTable('rows_test', (table) => table.renameColumn('note', 'remark'));
    expect(await read()).to.deep.equal([{ id: 'a', name: 'first', amount: 1, remark: 'added' }]);
  });
  it('runs a statement text again after it failed, in and out of transactions (SQLite keeps the statements knex prepares)', async () => {
    const insert = (executor: Db | Parameters<Parameters<Db['transaction']>[0]>[0], id: string, amount: number) =>
      executor('rows_test').insert({ id, name: 'again', amount });
    await insert(db, 'k1', 10);
    let duplicate: unknown;
    await insert(db, 'k1', 11).catch((error: unknown) => (duplicate = error));
    expect(duplicate, 'the second insert of k1 fails').to.be.instanceOf(Error);
    await db.transaction(async (trx) => {
      await insert(trx, 'k2', 12);
      expect(await trx('rows_test').whereIn('id', ['k1', 'k2']).orderBy('id').pluck('amount')).to.deep.equal([10, 12]);
    });
    await db
      .transaction(async (trx) => {
        await insert(trx, 'k3', 13);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await db('rows_test').whereIn('id', ['k1', 'k2', 'k3']).orderBy('id').pluck('amount')).to.deep.equal([
      10, 12,
    ]);
    await db('rows_test').whereIn('id', ['k1', 'k2']).delete();
  });

  it('answers raw statements with identifiers (??), nested builders, dates and missing values as knex compiles them', async () => {
    expect(rowsOf(await db.raw('select ?? as picked from rows_test where id = ?', ['name', 'a']))).to.deep.equal([
      { picked: 'first' },
    ]);
    const nested = db('rows_test').where({ id: 'b' }).select('amount');
    // PostgreSQL takes no parameter after IS: `is not distinct from` is its null-safe comparison.
    const isNull = dialectOf(db) === 'postgres' ? 'is not distinct from' : 'is';
    expect(
      rowsOf(await db.raw(`select id from rows_test where amount = (?) and name ${isNull} ?`, [nested, null])),
    ).to.deep.equal([{ id: 'b' }]);
    expect(
      rowsOf(
        await db.raw('select count(*) as n from rows_test where ? > ?', [
          new Date('2020-01-02'),
          new Date('2020-01-01'),
        ]),
      )[0],
    ).to.deep.equal({ n: 2 });
    const missing = await Promise.resolve(
      db.raw('select id from rows_test where id = ?', [undefined as unknown as string]),
    ).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(missing).to.match(/Undefined binding/);
  });

  it('answers every kind of statement as knex does, with its query events, and never runs a statement inside a transaction that is not its own', async () => {
    const seen: string[] = [];
    const responses: unknown[] = [];
    const onQuery = (query: { sql: string }) => seen.push(query.sql);
    const onResponse = (response: unknown) => responses.push(response);
    db.on('query', onQuery).on('query-response', onResponse);
    try {
      // knex answers an insert without `returning` with the driver's result: a one-element array, on PostgreSQL pg's Result.
      const inserted = await db('rows_test').insert({ id: 'c', name: 'third', amount: 3 });
      if (dialectOf(db) === 'postgres') expect(inserted).to.include({ rowCount: 1 });
      else expect(inserted).to.have.length(1);
      expect(await db('rows_test').where({ id: 'c' }).update({ amount: 30 })).to.equal(1);
      expect(await db('rows_test').where({ id: 'c' }).first('amount')).to.deep.equal({ amount: 30 });
      expect(await db('rows_test').orderBy('id').pluck('id')).to.deep.equal(['a', 'b', 'c']);
      expect(await db('rows_test').where({ id: 'c' }).delete()).to.equal(1);
      expect(await db('rows_test').where({ id: 'c' }).first()).to.equal(undefined);
    } finally {
      db.removeListener('query', onQuery).removeListener('query-response', onResponse);
    }
    expect(seen).to.have.length(6);
    expect(seen[0]).to.match(/^insert into [`"]rows_test[`"]/);
    expect(responses[2]).to.deep.equal({ amount: 30 });
    const failed = await db.raw('select id from no_such_table').then(
      () => null,
      (error: Error) => error,
    );
    expect(failed?.message).to.match(/no such table|doesn't exist|does not exist/);

    // A read started while another transaction holds the connection waits for it, and so never sees
    // (on SQLite, where there is one connection: never runs inside) what that transaction rolls back.
    const trx = await db.transaction();
    await trx('rows_test').insert({ id: 'd', name: 'rolled back', amount: 4 });
    const outside = Promise.resolve(db('rows_test').where({ id: 'd' }).first('id'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await trx.rollback();
    expect(await outside).to.equal(undefined);
  });

  it('answers selectRaw (on SQLite by the driver directly) with the same objects, the table as it is now, and the query events', async () => {
    const seen: string[] = [];
    const onQuery = (query: { sql: string }) => seen.push(query.sql);
    db.on('query', onQuery);
    try {
      expect(await selectRaw(db, 'select id as v, name as v, amount from rows_test where id = ?', ['a'])).to.deep.equal(
        [{ v: 'first', amount: 1 }],
      );
      expect(
        await selectRaw(db, 'select amount from rows_test where id = ? and ? > ?', [
          'b',
          new Date('2020-01-02'),
          new Date('2020-01-01'),
        ]),
      ).to.deep.equal([{ amount: 2 }]);
    } finally {
      db.removeListener('query', onQuery);
    }
    expect(seen).to.have.length(2);
    const read = () => selectRaw<Record<string, unknown>>(db, 'select * from rows_test where id = ?', ['a']);
    const columnsBefore = Object.keys((await read())[0]!);
    await db.schema.alterTable('rows_test', (table) => table.string('extra_column').nullable());
    expect(Object.keys((await read())[0]!)).to.deep.equal([...columnsBefore, 'extra_column']);

    // Inside a transaction it sees the transaction's own writes; outside, it waits for the transaction and never sees what it rolled back.
    const trx = await db.transaction();
    await trx('rows_test').insert({ id: 'e', name: 'uncommitted', amount: 5 });
    expect(await selectRaw(trx, 'select id from rows_test where id = ?', ['e'])).to.deep.equal([{ id: 'e' }]);
    const outside = selectRaw(db, 'select id from rows_test where id = ?', ['e']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await trx.rollback();
    expect(await outside).to.deep.equal([]);
    const ended = await selectRaw(trx, 'select id from rows_test', []).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(ended).to.match(/Transaction query already complete/);
  });
});
