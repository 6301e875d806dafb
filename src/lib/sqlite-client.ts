import BetterSqlite3Client from 'knex/lib/dialects/better-sqlite3/index.js';
import { existsSync } from 'node:fs';
import { completedTransactionError, isLeanTransaction, leanTransactionOf, runLeanTransaction, type LeanTransactionDialect, type RootClient, type TransactionConfig } from './lean-transaction.js';

class FileNotFoundError extends Error {
  readonly code = 'SQLITE_CANTOPEN';
}

/**
 * better-sqlite3 that never re-creates a database file that went away (it would open an empty one
 * and answer with missing tables): once opened, a vanished file is an outage until it is back.
 */
export function guardedSqliteClient(file: string) {
  let openedOnce = false;
  const base = BetterSqlite3Client.prototype as unknown as {
    acquireRawConnection(): Promise<unknown>;
    runner(builder: KnexBuilder): KnexRunner;
    transaction(container: unknown, config: unknown, outerTx: unknown): unknown;
  };
  return class GuardedBetterSqlite3Client extends BetterSqlite3Client {
    /** The pool's one connection (max 1), for `idleSqliteConnection`. */
    [POOLED_CONNECTION]: SqliteConnection | null = null;

    /** Top-level transactions are lean ones (src/lib/lean-transaction.ts), their statements run directly. */
    transaction(container?: unknown, config?: TransactionConfig, outerTx?: unknown): unknown {
      const root = this as unknown as RootClient<SqliteConnection>;
      if (!isLeanTransaction(root, container, config, outerTx)) return base.transaction.call(this, container, config, outerTx);
      return runLeanTransaction(root, SQLITE_TRANSACTIONS, container as (trx: unknown) => unknown, config);
    }

    async acquireRawConnection(): Promise<unknown> {
      if (openedOnce && file !== ':memory:' && !existsSync(file)) throw new FileNotFoundError(`The database file ${file} is missing.`);
      const connection = await base.acquireRawConnection.call(this);
      openedOnce = true;
      this[POOLED_CONNECTION] = connection as SqliteConnection;
      return connection;
    }

    /** knex's runner, which runs a statement at once when the connection is idle or its lean transaction's (runDirectly). */
    runner(builder: KnexBuilder): KnexRunner {
      const runner = base.runner.call(this, builder);
      const client = this as unknown as KnexClient & Parameters<typeof idleSqliteConnection>[0];
      const run = runner.run.bind(runner);
      runner.run = () => {
        const transaction = leanTransactionOf<SqliteConnection>(client);
        if (transaction?.completed) return Promise.reject(completedTransactionError());
        const connection = transaction ? transaction.connection : idleSqliteConnection(client);
        if (!connection) return run();
        try {
          const direct = runDirectly(client, connection, builder, runner);
          return direct ? Promise.resolve(direct.result) : run();
        } catch (error) {
          return Promise.reject(error);
        }
      };
      return runner;
    }

    /**
     * knex prepares every statement anew (a tenth of a hot route's CPU in the profiles); the same SQL
     * text is prepared once per connection instead. SQLite re-prepares a cached statement itself when
     * the schema changed since. (better-sqlite3 answers synchronously; knex awaits a promise.)
     */
    _query(connection: SqliteConnection, obj: SqliteQuery): Promise<SqliteQuery> {
      try {
        return Promise.resolve(runPrepared(this, connection, obj));
      } catch (error) {
        return Promise.reject(error);
      }
    }
  };
}

const POOLED_CONNECTION = Symbol('pooled SQLite connection');

interface Tarn {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

/**
 * The SQLite connection when nothing holds it: no transaction, no statement, no one waiting for
 * it. better-sqlite3 answers synchronously, so a statement run on it right now cannot interleave
 * with anything. Null in a transaction, when the connection is lent out, closed or not yet opened.
 */
function idleSqliteConnection(client: { transacting?: boolean; [POOLED_CONNECTION]?: SqliteConnection | null; pool?: Tarn | null }): SqliteConnection | null {
  if (client.transacting) return null;
  const connection = client[POOLED_CONNECTION];
  const pool = client.pool;
  if (!connection || !connection.open || !pool) return null;
  if (pool.numFree() !== 1 || pool.numUsed() !== 0 || pool.numPendingAcquires() !== 0 || pool.numPendingCreates() !== 0) return null;
  return connection;
}

/** Per connection: the statements that may write this process has run on it (runPrepared counts them). */
const writesOn = new WeakMap<SqliteConnection, number>();

/** This process's writing statements on the SQLite connection, read without asking SQLite anything (sqliteWriteCount). */
export interface SqliteWriteCount {
  readonly connection: object;
  readonly writes: number;
}

/**
 * For reads kept while the SQLite database is unchanged: the number of statements that may write
 * this process ran on its connection. Null when the client is not our SQLite client or its
 * connection is not idle (in a transaction a read must see the transaction's own writes as they
 * happen, so nothing is kept or answered from what was kept).
 */
export function sqliteWriteCount(client: object): SqliteWriteCount | null {
  if (!(POOLED_CONNECTION in client)) return null;
  const connection = idleSqliteConnection(client as Parameters<typeof idleSqliteConnection>[0]);
  return connection ? { connection, writes: writesOn.get(connection) ?? 0 } : null;
}

/**
 * SQLite's `PRAGMA data_version` on the counted connection: it moves when any other connection, in
 * any process, commits. It opens a read of its own (about as dear as a one-row SELECT), so it is
 * asked only when a kept answer could be used.
 */
export function sqliteDataVersion(count: SqliteWriteCount): number {
  const [row] = preparedStatement(count.connection as SqliteConnection, 'PRAGMA data_version').statement.all([]) as unknown[][];
  return Number(row![0]);
}

interface KnexRunner {
  run(): Promise<unknown>;
}
interface KnexBuilder {
  _connection?: unknown;
  toSQL(): (SqliteQuery & { method?: string; timeout?: number }) | unknown[];
  queryContext(): unknown;
  emit(event: string, ...args: unknown[]): boolean;
}
interface KnexClient {
  listenerCount(event: string): number;
  emit(event: string, ...args: unknown[]): boolean;
  processResponse(obj: SqliteQuery, runner: KnexRunner): unknown;
  postProcessResponse(response: unknown, queryContext: unknown): unknown;
}

let directStatements = 0;

/**
 * A statement of a builder or raw, run on the idle SQLite connection (idleSqliteConnection) or on
 * the connection of the lean transaction it belongs to, as knex's runner would run it — same SQL, same response processing, the same query events for
 * whoever listens (statement counts in tests, the plugin query guard) — but without its pool
 * round trip and promise chain, which cost more than a short statement (a tenth of a light
 * route's CPU). Anything else (a schema builder's statement list, a timeout, a builder bound to a
 * connection) is left to knex: null.
 */
function runDirectly(client: KnexClient, connection: SqliteConnection, builder: KnexBuilder, runner: KnexRunner): { result: unknown } | null {
  if (builder._connection) return null;
  const compiled: ReturnType<KnexBuilder['toSQL']> = plainRaw(builder) ?? builder.toSQL();
  if (Array.isArray(compiled) || compiled.timeout || !compiled.sql) return null;
  if (client.listenerCount('start') > 0) client.emit('start', builder);
  const watched = client.listenerCount('query') + client.listenerCount('query-response') + client.listenerCount('query-error') > 0;
  const obj = compiled as SqliteQuery & { __knexQueryUid?: string };
  if (watched) {
    obj.__knexQueryUid = `direct-${++directStatements}`;
    client.emit('query', { ...obj });
  }
  try {
    runPrepared(client, connection, obj);
  } catch (error) {
    if (error instanceof Error) error.message = `${obj.sql} - ${error.message}`;
    if (watched) client.emit('query-error', error, { ...obj });
    throw error;
  }
  const result = client.postProcessResponse(client.processResponse(obj, runner), builder.queryContext());
  if (watched) client.emit('query-response', result, { ...obj }, builder);
  return { result };
}

interface KnexRaw {
  isRawInstance?: boolean;
  sql: string;
  bindings: unknown;
  _wrappedBefore?: string;
  _wrappedAfter?: string;
  _timeout?: number;
  _options?: unknown[];
}

/**
 * A raw statement as knex's Raw.toSQL compiles it when its text needs no rewriting: `?` with plain
 * values (no `??` identifiers, no nested builders, nothing wrapped), so the text and values stay as
 * given — without knex's pass over the text, which costs more than a short statement on SQLite (the
 * hot reads are raw: `selectRaw`, `fixedRead`). Anything else is left to knex: null.
 */
function plainRaw(builder: KnexBuilder): (SqliteQuery & { method: string; options: object }) | null {
  const raw = builder as unknown as KnexRaw;
  if (!raw.isRawInstance || raw._wrappedBefore || raw._wrappedAfter || raw._timeout || raw._options?.length || !Array.isArray(raw.bindings)) return null;
  if (raw.sql.includes('??') || raw.sql.includes('\\?')) return null;
  const bindings = raw.bindings as unknown[];
  for (const value of bindings) {
    if (value === undefined || typeof value === 'function' || (typeof value === 'object' && value !== null && !(value instanceof Date) && !Buffer.isBuffer(value))) return null;
  }
  return { method: 'raw', sql: raw.sql, bindings: [...bindings], options: {} };
}

function runPrepared(client: object, connection: SqliteConnection, obj: SqliteQuery): SqliteQuery {
  if (!obj.sql) throw new Error('The query is empty');
  if (!connection) throw new Error('No connection provided');
  const prepared = preparedStatement(connection, obj.sql);
  const bindings = (client as { _formatBindings(bindings: unknown[] | undefined): unknown[] })._formatBindings(obj.bindings);
  const { statement } = prepared;
  // Counted before it runs: a write that fails halfway still counts (a stamp may move needlessly, never stay put wrongly).
  if (!statement.readonly) writesOn.set(connection, (writesOn.get(connection) ?? 0) + 1);
  if (statement.reader) {
    const rows = statement.all(bindings) as unknown[][];
    // SQLite re-prepares a statement whose tables changed (a `select *` after a migration may answer more columns).
    if (rows.length > 0 && rows[0]!.length !== prepared.width) Object.assign(prepared, rowBuilder(statement));
    obj.response = prepared.build(rows);
    return obj;
  }
  if (SCHEMA_CHANGE.test(obj.sql)) preparedStatements.delete(connection);
  const response = statement.run(bindings);
  obj.response = response;
  obj.context = { lastID: response.lastInsertRowid, changes: response.changes };
  return obj;
}

interface SqliteStatement {
  reader: boolean;
  /** false for a statement that may write (BEGIN, COMMIT and ROLLBACK count as read-only: they change nothing that another read would not already have seen) */
  readonly: boolean;
  all(bindings: unknown[]): unknown[];
  run(bindings: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  raw(toggle: boolean): SqliteStatement;
  columns(): Array<{ name: string }>;
}
interface SqliteConnection {
  readonly open: boolean;
  readonly inTransaction: boolean;
  prepare(sql: string): SqliteStatement;
  close(): void;
}
interface SqliteQuery {
  sql: string;
  bindings?: unknown[];
  response?: unknown;
  context?: { lastID: number | bigint; changes: number };
}

interface PreparedStatement {
  statement: SqliteStatement;
  /** a reader's number of result columns, and what turns its array rows into the objects knex expects */
  width: number;
  build(rows: unknown[][]): unknown[];
}

const SCHEMA_CHANGE = /^\s*(create|alter|drop)\s/i;

/**
 * A reader answers arrays (`raw`), turned into objects here by a constructor compiled per column
 * list: better-sqlite3 builds each row object key by key in C++, which took about half of a wide
 * page statement's time (approval list page, 25 rows × 27 columns: ~540 → ~240 µs). The objects are
 * the same: one property per column in column order, a repeated name holding its last value.
 */
function rowBuilder(statement: SqliteStatement): Pick<PreparedStatement, 'width' | 'build'> {
  const names = statement.columns().map((column) => column.name);
  if (names.includes('__proto__')) {
    return {
      width: names.length,
      build: (rows) => rows.map((row) => Object.fromEntries(names.map((name, i) => [name, row[i]]))),
    };
  }
  // Generated once per statement text and connection: plain assignments give every row one hidden class.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const Row = new Function('row', names.map((name, i) => `this[${JSON.stringify(name)}] = row[${i}];`).join('\n')) as new (row: unknown[]) => object;
  return {
    width: names.length,
    build(rows) {
      const objects = new Array<object>(rows.length);
      for (let i = 0; i < rows.length; i++) objects[i] = new Row(rows[i]!);
      return objects;
    },
  };
}

/** Most routes' statements differ only in their bindings; the rest (e.g. `in (?, ?, …)` of any length) would grow the cache without end, so it is emptied when full. */
const STATEMENTS_PER_CONNECTION = 2000;
const preparedStatements = new WeakMap<SqliteConnection, Map<string, PreparedStatement>>();

function preparedStatement(connection: SqliteConnection, sql: string): PreparedStatement {
  let cache = preparedStatements.get(connection);
  if (!cache) preparedStatements.set(connection, (cache = new Map<string, PreparedStatement>()));
  let prepared = cache.get(sql);
  if (!prepared) {
    const statement = connection.prepare(sql);
    prepared = statement.reader ? { statement: statement.raw(true), ...rowBuilder(statement) } : { statement, width: 0, build: () => [] };
    if (cache.size >= STATEMENTS_PER_CONNECTION) cache.clear();
    cache.set(sql, prepared);
  }
  return prepared;
}

/** BEGIN, COMMIT and ROLLBACK run on the connection at once, with knex's query event. */
const SQLITE_TRANSACTIONS: LeanTransactionDialect<SqliteConnection> = {
  control(client, connection, sql) {
    if (client.listenerCount('query') > 0) client.emit('query', { sql, bindings: [], __knexTxId: leanTransactionOf(client)?.id });
    runPrepared(client, connection, { sql });
  },
  mayBeInTransaction: (connection) => connection.inTransaction,
  // Closed, the pool replaces it (its validate checks `open`).
  discard: (connection) => connection.close(),
};
