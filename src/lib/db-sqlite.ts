import type Database from 'better-sqlite3';
import type { Knex } from 'knex';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  savepointStatement,
  withStatementMethod,
  type DbTimeouts,
  type DialectDriver,
  type DirectReads,
} from './db-driver.js';

type Connection = Database.Database;
type Executor = Knex | Knex.Transaction;

interface PreparedRead {
  statement: Database.Statement<unknown[], unknown[]>;
  /** the result columns' names when prepared (SQLite re-prepares a statement whose tables changed: a `select *` may then answer more) */
  names: string[];
}

/** Most hot reads differ only in their values; the rest (`in (?, ?, …)` of any length) would grow the cache without end, so it is emptied when full. */
const STATEMENTS_PER_CONNECTION = 2000;
const CHANGE_STAMP = 'select total_changes() as changes, data_version as version from pragma_data_version';

/**
 * Reads answered by better-sqlite3 directly (`selectRaw`, `fixedRead`, `keptWhileUnchanged` in db.ts).
 * better-sqlite3 answers synchronously, so a read run on the pool's one connection right now cannot
 * interleave with anything: it runs when the connection is idle (no transaction open on it) or
 * when the executor is the open transaction that holds it — otherwise knex runs it, queued on the
 * pool as any statement. Each statement text is prepared once per connection, and its rows come as
 * arrays turned into objects here: better-sqlite3 builds each row object key by key, which took
 * about half of a wide page statement's time (docs/decisions/0020-knex-public-api.md).
 */
class SqliteDirectReads implements DirectReads {
  private connection: Connection | null = null;
  private connectionNumber = 0;
  private prepared = new Map<string, PreparedRead>();

  /** The pool's one connection (the one any open transaction holds). */
  get current(): Connection | null {
    return this.connection;
  }

  /** better-sqlite3's own `prepare` of the adopted connection (its `prepare` property answers knex's statements from a cache). */
  private prepare: (sql: string) => Database.Statement<unknown[], unknown[]> = () => {
    throw new Error('no connection adopted');
  };

  /** The pool's afterCreate: the connection every direct read runs on from now. */
  adopt(connection: Connection, prepare: (sql: string) => Database.Statement<unknown[], unknown[]>): void {
    this.connection = connection;
    this.connectionNumber++;
    this.prepared = new Map();
    this.prepare = prepare;
  }

  rows(executor: Executor, sql: string, bindings: readonly unknown[]): unknown[] | null {
    const connection = this.usable(executor);
    if (!connection || sql.includes('??') || sql.includes('\\?')) return null;
    const values = driverValues(bindings);
    if (!values) return null;
    const read = this.preparedRead(connection, sql);
    if (!read) return null;
    const rows = read.statement.all(values);
    if (rows.length > 0 && rows[0]!.length !== read.names.length)
      read.names = read.statement.columns().map((column) => column.name);
    return rowObjects(read.names, rows);
  }

  changeStamp(executor: Executor): string | null {
    if (executor.isTransaction) return null;
    const connection = this.usable(executor);
    const read = connection && this.preparedRead(connection, CHANGE_STAMP);
    if (!read) return null;
    const [changes, version] = read.statement.all([])[0]!;
    return `${this.connectionNumber}:${String(changes)}:${String(version)}`;
  }

  /** The connection if a statement of `executor` may run on it at once (see the class comment). */
  private usable(executor: Executor): Connection | null {
    const connection = this.connection;
    if (!connection?.open) return null;
    if (!executor.isTransaction) return connection.inTransaction ? null : connection;
    return connection.inTransaction && !(executor as Knex.Transaction).isCompleted() ? connection : null;
  }

  private preparedRead(connection: Connection, sql: string): PreparedRead | null {
    let read = this.prepared.get(sql);
    if (!read) {
      const statement = this.prepare(sql);
      if (!statement.reader) return null;
      statement.raw(true);
      read = { statement, names: statement.columns().map((column) => column.name) };
      if (this.prepared.size >= STATEMENTS_PER_CONNECTION) this.prepared.clear();
      this.prepared.set(sql, read);
    }
    return read;
  }
}

/**
 * Keeps the statements knex prepares on `connection`: knex's better-sqlite3 client calls the
 * connection's `prepare(sql)` for every statement it runs, and preparing costs more CPU than running a
 * short statement (a listing page's SELECT, a cart's row updates). The connection's own `prepare`
 * property is replaced by one that answers a statement prepared before for the same text — an
 * instance property of this connection, better-sqlite3's documented method, as db-mysql.ts wraps
 * mysql2's `query`. knex only runs a statement with `all` or `run` (never `iterate`, which would keep
 * it busy) and sets no mode on it; calls with more arguments than the text (better-sqlite3's own) pass
 * through. SQLite re-prepares a kept statement by itself when the schema changed. Answers the original
 * `prepare`, for the direct reads, which set raw mode on their statements and keep them apart.
 */
function keepPreparedStatements(connection: Connection): (sql: string) => Database.Statement<unknown[], unknown[]> {
  const prepare = connection.prepare.bind(connection) as (sql: string) => Database.Statement<unknown[], unknown[]>;
  const kept = new Map<string, Database.Statement<unknown[], unknown[]>>();
  const keeping = (...args: unknown[]) => {
    if (args.length !== 1 || typeof args[0] !== 'string')
      return (prepare as (...a: unknown[]) => Database.Statement<unknown[], unknown[]>)(...args);
    const sql = args[0];
    let statement = kept.get(sql);
    if (!statement) {
      statement = prepare(sql);
      if (kept.size >= STATEMENTS_PER_CONNECTION) kept.clear();
      kept.set(sql, statement);
    }
    return statement;
  };
  connection.prepare = keeping as Connection['prepare'];
  return prepare;
}

/** Values as knex's better-sqlite3 client passes them (dates as epoch milliseconds, booleans as 0/1), or null for what knex must compile (lists, builders, undefined). */
function driverValues(bindings: readonly unknown[]): unknown[] | null {
  const values = new Array<unknown>(bindings.length);
  for (let i = 0; i < bindings.length; i++) {
    const value = bindings[i];
    if (value === undefined || typeof value === 'function') return null;
    if (typeof value === 'object' && value !== null) {
      if (value instanceof Date) values[i] = value.valueOf();
      else if (Buffer.isBuffer(value)) values[i] = value;
      else return null;
    } else values[i] = typeof value === 'boolean' ? Number(value) : value;
  }
  return values;
}

/** The objects better-sqlite3 would answer: one property per column in column order, a repeated name holding its last value. */
function rowObjects(names: string[], rows: unknown[][]): object[] {
  const objects = new Array<object>(rows.length);
  if (names.includes('__proto__')) {
    for (let i = 0; i < rows.length; i++)
      objects[i] = Object.fromEntries(names.map((name, column) => [name, rows[i]![column]]));
    return objects;
  }
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const object: Record<string, unknown> = {};
    for (let column = 0; column < names.length; column++) object[names[column]!] = row[column];
    objects[i] = object;
  }
  return objects;
}

class FileNotFoundError extends Error {
  readonly code = 'SQLITE_CANTOPEN';
}

/**
 * Whether `connection`, opened after an earlier one of the same database, found an empty new file:
 * the database file went away (moved, deleted) and opening it created an empty one in its place,
 * which would answer with missing tables. That is an outage until the file is back (the empty file
 * is left for the real one to be moved over; nothing is deleted).
 */
function reopenedEmpty(connection: Connection, file: string, openedBefore: boolean): boolean {
  return openedBefore && file !== ':memory:' && connection.pragma('page_count', { simple: true }) === 0;
}

/** SQLite through knex's `better-sqlite3` client: one connection (SQLite has one writer), WAL, foreign keys on. */
export const SQLITE: DialectDriver = {
  open(target, timeouts: DbTimeouts) {
    const direct = new SqliteDirectReads();
    const file = target.database;
    if (file !== ':memory:') mkdirSync(dirname(resolve(file)), { recursive: true });
    let openedBefore = false;
    const config: Knex.Config = {
      client: 'better-sqlite3',
      connection: { filename: file },
      useNullAsDefault: true,
      acquireConnectionTimeout: timeouts.acquireMs,
      pool: {
        min: 1,
        max: 1,
        // A closed handle (an I/O error closed it) is replaced, not reused forever; so is one a failed COMMIT left
        // inside its transaction (a deferred foreign key): closing it rolls that back.
        validate: (connection: Connection) => connection.open && !connection.inTransaction,
        afterCreate(connection: Connection, done: (error: unknown, connection: unknown) => void) {
          if (reopenedEmpty(connection, file, openedBefore)) {
            connection.close();
            return done(new FileNotFoundError(`The database file ${file} is missing.`), connection);
          }
          openedBefore = true;
          connection.pragma('foreign_keys = ON');
          connection.pragma('journal_mode = WAL');
          connection.pragma(`busy_timeout = ${Math.round(timeouts.statementMs)}`);
          connection.pragma('synchronous = NORMAL');
          direct.adopt(connection, keepPreparedStatements(connection));
          done(null, connection);
        },
      },
    };
    const held = {
      of: (trx: Knex.Transaction) => {
        const connection = direct.current;
        // A pool of one: an open transaction holds that connection.
        if (!connection || trx.isCompleted()) return Promise.reject(new Error('No open transaction on this database.'));
        return Promise.resolve(connection as object);
      },
    };
    return { config, direct, held };
  },
  rawRows: (result) => result as unknown[],
  asSavepoint: (connection, name) =>
    withStatementMethod(connection, 'prepare', (prepare, sql, ...rest) =>
      prepare(savepointStatement(String(sql), name), ...rest),
    ),
};
