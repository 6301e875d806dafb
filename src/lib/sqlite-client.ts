import BetterSqlite3Client from 'knex/lib/dialects/better-sqlite3/index.js';
import makeKnex from 'knex/lib/knex-builder/make-knex.js';
import { existsSync } from 'node:fs';

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
    /** What every SqliteTransaction's transactor inherits its knex methods from (made on first use). */
    [TRANSACTOR_TEMPLATE]: TransactorTemplate | null = null;

    /**
     * A top-level transaction with a function to run is a SqliteTransaction; nested ones
     * (savepoints), transactions on a given connection and those with SQLite options stay knex's.
     */
    transaction(container?: unknown, config?: TransactionConfig, outerTx?: unknown): unknown {
      const client = this as unknown as RootClient & { transacting?: boolean };
      const plain = !config || (!config.connection && config.enforceForeignCheck == null && !config.isolationLevel && !config.readOnly);
      if (typeof container !== 'function' || outerTx || client.transacting || !plain) return base.transaction.call(this, container, config, outerTx);
      this[TRANSACTOR_TEMPLATE] ??= transactorTemplate(client);
      return runInSqliteTransaction(client, this[TRANSACTOR_TEMPLATE], container as (trx: unknown) => unknown, config ?? {});
    }

    async acquireRawConnection(): Promise<unknown> {
      if (openedOnce && file !== ':memory:' && !existsSync(file)) throw new FileNotFoundError(`The database file ${file} is missing.`);
      const connection = await base.acquireRawConnection.call(this);
      openedOnce = true;
      this[POOLED_CONNECTION] = connection as SqliteConnection;
      return connection;
    }

    /** knex's runner, which runs a statement at once when the connection is idle or its SqliteTransaction's (runDirectly). */
    runner(builder: KnexBuilder): KnexRunner {
      const runner = base.runner.call(this, builder);
      const client = this as unknown as KnexClient & Parameters<typeof idleSqliteConnection>[0];
      const run = runner.run.bind(runner);
      runner.run = () => {
        const transaction = (client as { [IN_TRANSACTION]?: SqliteTransaction })[IN_TRANSACTION];
        if (transaction?.completed) return Promise.reject(completedError());
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
 * the connection of the SqliteTransaction it belongs to, as knex's runner would run it — same SQL, same response processing, the same query events for
 * whoever listens (statement counts in tests, the plugin query guard) — but without its pool
 * round trip and promise chain, which cost more than a short statement (a tenth of a light
 * route's CPU). Anything else (a schema builder's statement list, a timeout, a builder bound to a
 * connection) is left to knex: null.
 */
function runDirectly(client: KnexClient, connection: SqliteConnection, builder: KnexBuilder, runner: KnexRunner): { result: unknown } | null {
  if (builder._connection) return null;
  const compiled = builder.toSQL();
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

function runPrepared(client: object, connection: SqliteConnection, obj: SqliteQuery): SqliteQuery {
  if (!obj.sql) throw new Error('The query is empty');
  if (!connection) throw new Error('No connection provided');
  const prepared = preparedStatement(connection, obj.sql);
  const bindings = (client as { _formatBindings(bindings: unknown[] | undefined): unknown[] })._formatBindings(obj.bindings);
  const { statement } = prepared;
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

const TRANSACTOR_TEMPLATE = Symbol('SQLite transactor template');
const IN_TRANSACTION = Symbol('SQLite transaction');

interface TransactionConfig {
  userParams?: Record<string, unknown>;
  doNotRejectOnRollback?: boolean;
  connection?: unknown;
  enforceForeignCheck?: boolean | null;
  isolationLevel?: string;
  readOnly?: boolean;
}

/** The root client as the transaction sees it (a knex Client with its pool). */
interface RootClient extends KnexClient {
  acquireConnection(): Promise<SqliteConnection>;
  releaseConnection(connection: SqliteConnection): Promise<unknown>;
  query(connection: SqliteConnection, obj: unknown): Promise<unknown>;
}

/** A knex instance (a function with knex's methods and a `context`) that transactors inherit from. */
type TransactorTemplate = ((...args: unknown[]) => unknown) & { context: object };

interface Settled {
  promise: Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { value: unknown } | { error: unknown };

function settled(): Settled {
  let resolve!: (value: unknown) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Nobody need wait for it: a rollback must not become an unhandled rejection.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

function completedError(): Error {
  return new Error('Transaction query already complete, run with DEBUG=knex:tx for more info');
}

let transactionIds = 0;

/**
 * A top-level SQLite transaction without knex's Transaction machinery. knex builds a full knex
 * instance and a client with four event forwarders per transaction and sends each statement
 * through a promise chain per step: about 60 µs per transaction and 15 µs per statement, a tenth
 * of a cart add's CPU, where BEGIN and COMMIT take 10 µs. Here the transaction holds the pool's
 * connection, its statements run on it directly (runDirectly), and its transactor is a function
 * inheriting knex's methods from one template per client.
 *
 * What callers see is knex's: `trx(table)`, `trx.raw`, `isTransaction`, `isCompleted()`,
 * `commit()`/`rollback()`, `executionPromise`, and `trx.transaction()` opening a knex savepoint on
 * the same connection; the same query events reach the root knex (statement counts, the plugin
 * query guard); a statement after the end is refused as knex refuses it. A container that returns
 * no promise ends the transaction itself with commit() or rollback(), as with knex.
 */
class SqliteTransaction {
  completed = false;
  readonly id = `light-trx${++transactionIds}`;
  readonly client: RootClient;
  readonly transactor: TransactorTemplate;
  /** knex's nested transactions (savepoints) queue on their outer transaction's last child. */
  _lastChild: Promise<unknown> = Promise.resolve();
  private ended: Settled | null = null;
  private outcome: Outcome | null = null;

  constructor(
    root: RootClient,
    template: TransactorTemplate,
    readonly connection: SqliteConnection,
    userParams: Record<string, unknown>,
    private readonly doNotRejectOnRollback: boolean,
  ) {
    this.client = transactionClient(root, this);
    this.transactor = transactorOf(template, this, userParams);
  }

  isCompleted(): boolean {
    return this.completed;
  }

  /** Settles with the transaction: the committed value, or the rollback's error (knex's `executionPromise`). */
  get execution(): Promise<unknown> {
    if (!this.ended) {
      this.ended = settled();
      if (this.outcome) this.settle(this.outcome);
    }
    return this.ended.promise;
  }

  begin(): void {
    this.control('BEGIN;');
  }

  /** COMMIT; a failed COMMIT rolls back and throws. */
  commit(value: unknown): void {
    if (this.completed) return;
    this.completed = true;
    try {
      this.control('COMMIT;');
    } catch (error) {
      this.abandon();
      this.settle({ error });
      throw error;
    }
    this.settle({ value });
  }

  /** ROLLBACK, when SQLite has not rolled back already (some errors end the transaction themselves). */
  rollback(error: unknown): void {
    if (this.completed) return;
    this.completed = true;
    this.abandon();
    if (error === undefined && this.doNotRejectOnRollback) this.settle({ value: undefined });
    else this.settle({ error: error ?? new Error('Transaction rejected with non-error: undefined') });
  }

  private settle(outcome: Outcome): void {
    this.outcome = outcome;
    if (!this.ended) return;
    if ('error' in outcome) this.ended.reject(outcome.error);
    else this.ended.resolve(outcome.value);
  }

  /** The outcome of a container that ends the transaction itself (returns no promise). */
  async endedByContainer(): Promise<unknown> {
    return this.execution;
  }

  private abandon(): void {
    if (!this.connection.inTransaction) return;
    try {
      this.control('ROLLBACK');
    } catch {
      // A connection still inside a transaction is never lent again: closed, the pool replaces it.
      if (this.connection.inTransaction) this.connection.close();
    }
  }

  private control(sql: string): void {
    if (this.client.listenerCount('query') > 0) this.client.emit('query', { sql, bindings: [], __knexTxId: this.id });
    runPrepared(this.client, this.connection, { sql });
  }
}

async function runInSqliteTransaction(root: RootClient, template: TransactorTemplate, container: (trx: unknown) => unknown, config: TransactionConfig): Promise<unknown> {
  const connection = await root.acquireConnection();
  try {
    const transaction = new SqliteTransaction(root, template, connection, config.userParams ?? {}, config.doNotRejectOnRollback ?? true);
    transaction.begin();
    let result: unknown;
    try {
      result = container(transaction.transactor);
      if (!isThenable(result)) return await transaction.endedByContainer();
      result = await result;
    } catch (error) {
      if (transaction.completed) throw error;
      transaction.rollback(error);
      throw error;
    }
    // An explicit commit() or rollback() in the container decided already.
    if (transaction.completed) return await transaction.execution;
    transaction.commit(result);
    return result;
  } finally {
    await root.releaseConnection(connection);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * The transaction's client: the root client with the transaction's connection. It inherits the
 * root's event listeners, so the transaction's query events reach the root knex as knex's
 * forwarders would send them.
 */
function transactionClient(root: RootClient, transaction: SqliteTransaction): RootClient {
  const client = Object.create(root) as RootClient & { transacting: boolean; [IN_TRANSACTION]: SqliteTransaction };
  const connection = transaction.connection;
  client.transacting = true;
  client[IN_TRANSACTION] = transaction;
  client.acquireConnection = () => Promise.resolve(connection);
  client.releaseConnection = () => Promise.resolve();
  // knex's path (statement lists of schema builders, statements with a timeout, nested savepoints).
  client.query = (conn, obj) => {
    if (transaction.completed) return Promise.reject(completedError());
    if (conn !== connection) return Promise.reject(new Error('Invalid connection for transaction query.'));
    return root.query.call(client, conn, obj);
  };
  return client;
}

/**
 * A knex instance for transactors to inherit from: its query methods and accessors read
 * `this.context`, which each transactor has of its own (its client, user params, savepoints).
 */
function transactorTemplate(root: RootClient): TransactorTemplate {
  // A client of its own for the template's event wiring (makeKnex adds listeners to it), never for statements.
  const wiring = Object.create(root, { _events: { value: Object.create(null) as object, writable: true }, _eventsCount: { value: 0, writable: true } }) as object;
  const template = makeKnex(wiring) as TransactorTemplate;
  const own = (trx: unknown) => (trx as { [IN_TRANSACTION]: SqliteTransaction })[IN_TRANSACTION];
  Object.defineProperties(template, {
    isTransaction: { value: true },
    commit: {
      value(this: unknown, value?: unknown) {
        own(this).commit(value);
        return Promise.resolve(value);
      },
    },
    rollback: {
      value(this: unknown, error?: unknown) {
        own(this).rollback(error);
        return Promise.resolve();
      },
    },
    savepoint: {
      value(this: { transaction(container: unknown, options: unknown): unknown }, container: unknown, options?: unknown) {
        return this.transaction(container, options);
      },
    },
    isCompleted: {
      value(this: unknown) {
        return own(this).completed;
      },
    },
    executionPromise: {
      get(this: unknown) {
        return own(this).execution;
      },
    },
  });
  const context = template.context as Record<string, unknown>;
  context.withUserParams = () => {
    throw new Error('Cannot set user params on a transaction - it can only inherit params from main knex instance');
  };
  return template;
}

function transactorOf(template: TransactorTemplate, transaction: SqliteTransaction, userParams: Record<string, unknown>): TransactorTemplate {
  const context = Object.create(template.context) as {
    client: RootClient;
    userParams: Record<string, unknown>;
    queryBuilder(): { table(name: string, options?: unknown): unknown };
    transaction(container: unknown, options?: { doNotRejectOnRollback?: boolean }): unknown;
    _transaction(container: unknown, options: unknown, outerTx: unknown): unknown;
  };
  context.client = transaction.client;
  context.userParams = userParams;
  // knex's savepoint, on this transaction's client and connection, queued after its earlier ones.
  context.transaction = function (container, options = {}) {
    return this._transaction(container, { ...options, doNotRejectOnRollback: options.doNotRejectOnRollback ?? true }, transaction);
  };
  const transactor = function (tableName?: string, options?: unknown) {
    const builder = context.queryBuilder();
    return tableName ? builder.table(tableName, options) : builder;
  } as unknown as TransactorTemplate & { [IN_TRANSACTION]: SqliteTransaction; _events: unknown; _eventsCount: number };
  Object.setPrototypeOf(transactor, template);
  transactor.context = context;
  transactor[IN_TRANSACTION] = transaction;
  // Listeners on a transactor are its own, not the template's.
  transactor._events = undefined;
  transactor._eventsCount = 0;
  return transactor;
}
