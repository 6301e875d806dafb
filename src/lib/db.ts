import knexFactory, { type Knex } from 'knex';
import Mysql2Client from 'knex/lib/dialects/mysql2/index.js';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { deepFreeze } from './deep-freeze.js';
import { AppError, Errors } from './errors.js';
import { isLeanTransaction, runLeanTransaction, type LeanTransactionDialect, type RootClient, type TransactionConfig } from './lean-transaction.js';
import { guardedSqliteClient, sqliteDataVersion, sqliteWriteCount, type SqliteWriteCount } from './sqlite-client.js';

export type Db = Knex;
export type Trx = Knex.Transaction;
/** Anything queries can run on: the root knex outside a transaction, the transaction inside one. */
export type Executor = Knex | Knex.Transaction;
export type Dialect = 'sqlite' | 'mysql' | 'postgres';

export const DEFAULT_DATABASE_URL = 'sqlite:./var/suite.sqlite';

export interface DatabaseTarget {
  dialect: Dialect;
  /** sqlite: file path or ':memory:'; mysql, postgres: the database name */
  database: string;
  url: string;
}

export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    return { dialect: 'sqlite', database: file || ':memory:', url };
  }
  if (url.startsWith('mysql://') || url.startsWith('mariadb://')) {
    const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
    return { dialect: 'mysql', database: parsed.pathname.replace(/^\//, ''), url };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const parsed = new URL(url);
    return { dialect: 'postgres', database: decodeURIComponent(parsed.pathname.replace(/^\//, '')), url };
  }
  throw new Error(`DATABASE_URL must start with sqlite:, mysql:// or postgres:// (got "${url.split(':')[0]}:")`);
}

/** How long the app waits for the database before it answers 503 instead of hanging (milliseconds). */
export interface DbTimeouts {
  /** Opening a connection (TCP + handshake) on MySQL/MariaDB. */
  connectMs: number;
  /** Waiting for a free connection from the pool. */
  acquireMs: number;
  /**
   * Plain reads are stopped by the server after this long (MariaDB `max_statement_time`, MySQL
   * `max_execution_time`) and InnoDB lock waits end after it (rounded up to seconds); on SQLite it is
   * the busy timeout. A statement that gets no answer at all (a frozen server) is abandoned, and its
   * connection dropped, one second later. 0 turns these limits off (SQLite then waits for locks not at all).
   */
  statementMs: number;
}

export const DEFAULT_DB_TIMEOUTS: DbTimeouts = { connectMs: 2000, acquireMs: 5000, statementMs: 3000 };
/** Beyond the server-side limit: a statement still unanswered this much later means the server is not answering at all. */
const NO_ANSWER_GRACE_MS = 1000;
/** What a 503 tells clients to wait before retrying. */
export const DB_RETRY_AFTER_SECONDS = 5;

/** A statement the server did not answer in time; its connection was dropped. */
export class DatabaseNoAnswerError extends Error {
  readonly code = 'SUITE_DB_NO_ANSWER';
  constructor(ms: number) {
    super(`The database did not answer within ${ms} ms.`);
    this.name = 'DatabaseNoAnswerError';
  }
}

const DDL = /^\s*(create|alter|drop|rename|truncate|optimize|analyze)\b/i;
/**
 * A migration's backfill (DML over a whole table, e.g. filling a new counter column) starts with
 * this comment: like DDL it runs without the statement bounds, since on a large database it may
 * legitimately take longer than a request's statement.
 */
export const MIGRATION_BACKFILL = '/* migration backfill */';
const BACKFILL = /^\s*\/\* migration backfill \*\//;
const PLAIN_SELECT = /^\s*select\b/i;
const LOCKING_READ = /\bfor\s+update\b|\bfor\s+share\b|\block\s+in\s+share\s+mode\b/i;

interface MysqlConnection {
  _isMariaDB?: boolean;
  __knex__disposed?: unknown;
  destroy(): void;
}

const knexClientPrototype = Mysql2Client.prototype as unknown as { query(connection: MysqlConnection, sql: string): Promise<unknown> };

/** BEGIN, COMMIT and ROLLBACK as knex's statements (bounded like every statement, with their query events). */
const MYSQL_TRANSACTIONS: LeanTransactionDialect<MysqlConnection> = {
  control: (client, connection, sql) => knexClientPrototype.query.call(client, connection, sql),
  // A connection dropped for not answering (DatabaseNoAnswerError) is not asked to roll back: the server ends its transaction.
  mayBeInTransaction: (connection) => !connection.__knex__disposed,
  // The pool drops a disposed connection instead of lending it again.
  discard: (connection, error) => void (connection.__knex__disposed = error),
};
interface QueryObject {
  sql?: string;
  [key: string]: unknown;
}

/**
 * mysql2 with bounded statements: plain reads carry the server-side time limit, and every statement
 * but DDL and migration backfills (migrations may legitimately run long) is abandoned when the server stays silent, so a
 * frozen database answers 503 rather than hanging. A subclass, because knex builds each
 * transaction's client from the class prototype.
 */
function boundedMysqlClient(timeouts: DbTimeouts) {
  const noAnswerMs = timeouts.statementMs + NO_ANSWER_GRACE_MS;
  const base = Mysql2Client.prototype as unknown as {
    _query(connection: MysqlConnection, obj: QueryObject | string): Promise<unknown>;
    transaction(container: unknown, config: unknown, outerTx: unknown): unknown;
  };
  return class BoundedMysql2Client extends Mysql2Client {
    /** Top-level transactions are lean ones (src/lib/lean-transaction.ts); their statements take knex's runner. */
    transaction(container?: unknown, config?: TransactionConfig, outerTx?: unknown): unknown {
      const root = this as unknown as RootClient<MysqlConnection>;
      if (!isLeanTransaction(root, container, config, outerTx)) return base.transaction.call(this, container, config, outerTx);
      return runLeanTransaction(root, MYSQL_TRANSACTIONS, container as (trx: unknown) => unknown, config);
    }

    _query(connection: MysqlConnection, input: QueryObject | string): Promise<unknown> {
      const obj: QueryObject = typeof input === 'string' ? { sql: input } : input;
      const sql = obj?.sql ?? '';
      if (timeouts.statementMs <= 0 || DDL.test(sql) || BACKFILL.test(sql)) return base._query.call(this, connection, obj);
      let bounded = sql;
      if (PLAIN_SELECT.test(sql) && !LOCKING_READ.test(sql)) {
        bounded = connection._isMariaDB
          ? `SET STATEMENT max_statement_time=${timeouts.statementMs / 1000} FOR ${sql}`
          : sql.replace(PLAIN_SELECT, (select) => `${select} /*+ MAX_EXECUTION_TIME(${timeouts.statementMs}) */`);
      }
      return new Promise((resolveQuery, reject) => {
        const timer = setTimeout(() => {
          // The connection may still deliver a late answer to this statement: never reuse it.
          connection.__knex__disposed = new DatabaseNoAnswerError(noAnswerMs);
          connection.destroy();
          reject(new DatabaseNoAnswerError(noAnswerMs));
        }, noAnswerMs);
        base._query.call(this, connection, { ...obj, sql: bounded }).then(
          (result) => {
            clearTimeout(timer);
            resolveQuery(result);
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(error);
          },
        );
      });
    }
  };
}

/** Where knex's own warnings go: one line each, without the driver's stack. */
export interface DbLogSink {
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

const STDERR_SINK: DbLogSink = {
  warn: (obj, msg) => process.stderr.write(`${msg}: ${JSON.stringify(obj)}\n`),
  debug: () => undefined,
};

function knexLog(sink: DbLogSink) {
  const firstLine = (message: unknown) => String(message).split('\n')[0]!.slice(0, 500);
  return {
    // A failed acquire reaches the caller as an error (a 503); knex's own report of it is only detail.
    warn: (message: unknown) =>
      /^Acquire connection error/.test(String(message)) ? sink.debug({ knex: firstLine(message) }, 'database driver') : sink.warn({ knex: firstLine(message) }, 'database driver'),
    error: (message: unknown) => sink.warn({ knex: firstLine(message) }, 'database driver'),
    deprecate: () => undefined,
    debug: () => undefined,
  };
}

export interface CreateDbOptions {
  poolMax?: number;
  timeouts?: Partial<DbTimeouts>;
  log?: DbLogSink;
}

/**
 * What one database needs from knex and gives back differently, written with knex's public API
 * only: the configuration knex is built from (client name, connection, pool) and the rows of a raw
 * statement's answer. PostgreSQL is built this way; SQLite and MySQL/MariaDB still use the clients
 * above until they move onto the same shape.
 */
interface DialectDriver {
  knexConfig(target: DatabaseTarget, timeouts: DbTimeouts, options: CreateDbOptions): Knex.Config;
  rawRows(result: unknown): unknown[];
}

/** The stored time as toDbTime writes it ('YYYY-MM-DD HH:MM:SS.mmm'); PostgreSQL drops trailing zeros of the fraction. */
function pgTimestamp(text: string): string {
  const dot = text.indexOf('.');
  if (dot === -1) return `${text}.000`;
  return (text + '00').slice(0, dot + 4);
}

/** pg answers bigint (COUNT, money in minor units) and numeric (SUM) as strings; the code reads numbers, as on the other databases. */
const PG_TYPE_PARSERS: Record<number, (text: string) => unknown> = {
  20: Number, // int8
  1700: Number, // numeric
  1114: pgTimestamp, // timestamp without time zone: stored UTC, read as the stored string
};

const POSTGRES: DialectDriver = {
  knexConfig(target, timeouts, options) {
    const parsed = new URL(target.url);
    const statementMs = timeouts.statementMs;
    return {
      client: 'pg',
      connection: {
        host: parsed.hostname,
        port: Number(parsed.port || 5432),
        user: decodeURIComponent(parsed.username),
        password: decodeURIComponent(parsed.password),
        database: target.database,
        connectionTimeoutMillis: timeouts.connectMs,
        // The server ends a lock wait after statementMs (55P03: the transaction is retried, then 409, as InnoDB's
        // lock wait timeout on MariaDB) and any statement half a grace later (57014: 503), so that a statement
        // queued on a row lock ends as contention, not as an outage; migrations lift both for their own
        // transaction (SET LOCAL in the migrator). A statement that gets no answer at all (a frozen server) is
        // abandoned NO_ANSWER_GRACE_MS after statementMs.
        ...(statementMs > 0
          ? { lock_timeout: statementMs, statement_timeout: statementMs + NO_ANSWER_GRACE_MS / 2, query_timeout: statementMs + NO_ANSWER_GRACE_MS }
          : {}),
        options: '-c TimeZone=UTC',
        types: { getTypeParser: (oid: number, format?: string): unknown => PG_TYPE_PARSERS[oid] ?? (pg.types.getTypeParser(oid, format as 'text') as unknown) },
      },
      acquireConnectionTimeout: timeouts.acquireMs,
      pool: { min: 0, max: options.poolMax ?? 10 },
    } as Knex.Config;
  },
  rawRows: (result) => (result as { rows: unknown[] }).rows,
};

export function createDb(url: string, options: CreateDbOptions = {}): Db {
  const target = parseDatabaseUrl(url);
  const timeouts = { ...DEFAULT_DB_TIMEOUTS, ...options.timeouts };
  const log = knexLog(options.log ?? STDERR_SINK);
  if (target.dialect === 'postgres') return knexFactory({ ...POSTGRES.knexConfig(target, timeouts, options), log });
  if (target.dialect === 'sqlite') {
    if (target.database !== ':memory:') mkdirSync(dirname(resolve(target.database)), { recursive: true });
    return knexFactory({
      client: guardedSqliteClient(target.database) as unknown as typeof knexFactory.Client,
      connection: { filename: target.database },
      useNullAsDefault: true,
      log,
      acquireConnectionTimeout: timeouts.acquireMs,
      pool: {
        min: 1,
        max: 1,
        // A closed handle (the file went away, an I/O error closed it) is replaced, not reused forever.
        validate: (connection: { open: boolean }) => connection.open,
        afterCreate(connection: { pragma(sql: string): unknown }, done: (err: Error | null, c: unknown) => void) {
          connection.pragma('foreign_keys = ON');
          connection.pragma('journal_mode = WAL');
          connection.pragma(`busy_timeout = ${Math.round(timeouts.statementMs)}`);
          connection.pragma('synchronous = NORMAL');
          done(null, connection);
        },
      },
    });
  }
  const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
  return knexFactory({
    client: boundedMysqlClient(timeouts) as unknown as typeof knexFactory.Client,
    connection: {
      host: parsed.hostname,
      port: Number(parsed.port || 3306),
      user: decodeURIComponent(parsed.username),
      password: decodeURIComponent(parsed.password),
      database: target.database,
      timezone: 'Z',
      dateStrings: true,
      charset: 'utf8mb4',
      supportBigNumbers: true,
      bigNumberStrings: false,
      connectTimeout: timeouts.connectMs,
    },
    acquireConnectionTimeout: timeouts.acquireMs,
    log,
    pool: {
      min: 0,
      max: options.poolMax ?? 10,
      afterCreate(connection: { query(sql: string, cb: (err: Error | null) => void): void }, done: (err: Error | null, c: unknown) => void) {
        // READ COMMITTED: fewer gap locks, so fewer deadlocks; invariants rely on row locks and conditional writes.
        // A lock wait ends on the server (ER_LOCK_WAIT_TIMEOUT, retried by inTransaction, then 409) before
        // the client's no-answer limit would take it for a frozen server.
        const lockWait = timeouts.statementMs > 0 ? `, innodb_lock_wait_timeout = ${Math.ceil(timeouts.statementMs / 1000)}` : '';
        connection.query(`SET time_zone = '+00:00'${lockWait}`, (err) => {
          if (err) return done(err, connection);
          connection.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED', (err2) => done(err2, connection));
        });
      },
    },
  });
}

/**
 * The rows a query returns, in the shape the caller declares (the columns it selects). knex types
 * queries on the untyped executor as `any`; these give them a row type at one place per query.
 */
export async function selectRows<Row>(query: PromiseLike<unknown>): Promise<Row[]> {
  const rows = await query;
  return rows as Row[];
}

type FixedValue = string | number | boolean | null;
type CompiledStatement = { sql: string; bindings: Array<{ arg: number } | { value: unknown }> };

/**
 * A read whose SQL text never changes, only its values: built once per dialect with the query
 * builder, then run by its text. On a hot route knex's building costs more than the statement
 * itself (a request's fixed reads, e.g. the context versions every Store API request reads). The
 * arguments must only be values the builder binds as they are (where-clause values), never
 * something that shapes the SQL (lists of any length, limits, column names).
 */
export function fixedRead<Args extends FixedValue[]>(build: (executor: Executor, ...args: Args) => Knex.QueryBuilder) {
  const compiled = new Map<Dialect, CompiledStatement>();
  const compile = (executor: Executor, arity: number): CompiledStatement => {
    const markers = Array.from({ length: arity }, (_, i) => `\u0000fixed-read-argument-${i}\u0000`);
    const { sql, bindings } = build(executor, ...(markers as Args)).toSQL();
    const used = new Set<number>();
    const template = (bindings as unknown[]).map((value) => {
      const arg = typeof value === 'string' ? markers.indexOf(value) : -1;
      if (arg === -1) return { value };
      used.add(arg);
      return { arg };
    });
    if (used.size !== arity) throw new Error(`fixedRead: an argument is not bound as a value in ${sql}`);
    return { sql, bindings: template };
  };
  return async function read<Row>(executor: Executor, ...args: Args): Promise<Row[]> {
    const dialect = dialectOf(executor);
    let statement = compiled.get(dialect);
    if (!statement) compiled.set(dialect, (statement = compile(executor, args.length)));
    const bindings = statement.bindings.map((binding) => ('arg' in binding ? args[binding.arg] : binding.value));
    return selectRaw<Row>(executor, statement.sql, bindings as Knex.RawBinding[]);
  };
}

/**
 * A read whose answer is kept while the database is unchanged. On SQLite it is answered from what
 * was kept when neither this process ran a statement that may write (`sqliteWriteCount`) nor
 * another connection committed (`sqliteDataVersion`) since it was read; right after a write of this
 * process it is read without asking for the data version or keeping anything (a write is often
 * followed by more: a cart being filled), and kept again from the next read that finds no write
 * in between. Inside a transaction it is read every time; on MySQL/MariaDB, which has no such
 * cheap signal, too. For the one small read every request makes before its caches (the context
 * versions), not for pages: what is kept is one answer per read, frozen, shared by every caller.
 */
export function keptWhileUnchanged<T extends object>(read: (executor: Executor) => Promise<T>): (executor: Executor) => Promise<Readonly<T>> {
  let kept: { count: SqliteWriteCount; dataVersion: number; value: Readonly<T> } | null = null;
  let lastRead: SqliteWriteCount | null = null;
  const sameWrites = (a: SqliteWriteCount | null, b: SqliteWriteCount) => a !== null && a.connection === b.connection && a.writes === b.writes;
  return async (executor) => {
    const count = sqliteWriteCount((executor as unknown as { client: object }).client);
    if (!count) return deepFreeze(await read(executor));
    const quiet = sameWrites(kept?.count ?? null, count) || sameWrites(lastRead, count);
    lastRead = count;
    if (!quiet) return deepFreeze(await read(executor));
    // The data version is taken before the read: a commit in between moves it past what is kept.
    const dataVersion = sqliteDataVersion(count);
    if (kept && sameWrites(kept.count, count) && kept.dataVersion === dataVersion) return kept.value;
    const value = deepFreeze(await read(executor));
    kept = { count, dataVersion, value };
    return value;
  };
}

/**
 * The rows of a SELECT written as SQL text: for hot statements whose shape varies too much for
 * `fixedRead` (id lists, visibility conditions) where building them with knex costs more CPU than
 * the database spends running them. knex answers a raw statement in the driver's form (rows from
 * better-sqlite3, `[rows, fields]` from mysql2); this answers rows.
 */
export async function selectRaw<Row>(executor: Executor, sql: string, bindings: readonly Knex.RawBinding[]): Promise<Row[]> {
  const result: unknown = await executor.raw(sql, bindings);
  const dialect = dialectOf(executor);
  if (dialect === 'postgres') return POSTGRES.rawRows(result) as Row[];
  return (dialect === 'mysql' ? (result as [Row[], unknown])[0] : result) as Row[];
}

/** `n` placeholders for SQL text, comma-separated: `in (${marks(ids.length)})`. */
export function marks(n: number): string {
  return n === 1 ? '?' : new Array<string>(n).fill('?').join(', ');
}

/** The one row of a `.first(…)` query, in the declared shape, or undefined. */
export async function selectRow<Row>(query: PromiseLike<unknown>): Promise<Row | undefined> {
  const row = await query;
  return row as Row | undefined;
}

export function dialectOf(db: Executor | Knex.QueryBuilder): Dialect {
  const driver = (db as unknown as { client: { driverName: string } }).client.driverName;
  if (driver === 'pg') return 'postgres';
  return driver === 'mysql2' || driver === 'mysql' ? 'mysql' : 'sqlite';
}

/**
 * SQL text for `column LIKE pattern` (identifier `??`, pattern `?`, '!' as the escape: criteria's
 * escapeLike), case-insensitive on every database: MySQL/MariaDB's collation and SQLite's LIKE ignore
 * case, PostgreSQL's LIKE does not, so there it is ILIKE, over the column as text (a contains filter
 * may name a date or a number).
 */
export function likeSql(on: Executor | Knex.QueryBuilder): string {
  return dialectOf(on) === 'postgres' ? `CAST(?? AS TEXT) ILIKE ? ESCAPE '!'` : `?? LIKE ? ESCAPE '!'`;
}

/** SQL text joining `expression` over the rows of a group with commas: group_concat on SQLite and MySQL/MariaDB, string_agg on PostgreSQL. */
export function groupConcatSql(dialect: Dialect, expression: string): string {
  return dialect === 'postgres' ? `string_agg((${expression})::text, ',')` : `group_concat(${expression})`;
}

/** SQL text concatenating `parts` as text: concat() on MySQL/MariaDB (whose || is OR), || elsewhere. */
export function concatSql(dialect: Dialect, parts: string[]): string {
  return dialect === 'mysql' ? `concat(${parts.join(', ')})` : parts.map((part) => (dialect === 'postgres' ? `(${part})::text` : part)).join(' || ');
}

/** A database server (MySQL/MariaDB, PostgreSQL): row locks, many connections, SKIP LOCKED; SQLite locks the whole file. */
export function isServerDialect(dialect: Dialect): boolean {
  return dialect !== 'sqlite';
}

/** Booleans come back as 0/1 (and sometimes '0'/'1'). */
export function readBool(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** JSON columns come back as strings from SQLite and MariaDB, as objects from MySQL 8. */
export function readJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined || value === '') return fallback;
  if (typeof value === 'string') {
    try {
      return JSON.parse(value) as T;
    } catch {
      return fallback;
    }
  }
  return value as T;
}

export function writeJson(value: unknown): string {
  return JSON.stringify(value ?? null);
}

/** COUNT and SUM come back as numbers, strings (DECIMAL sums on MySQL) or null. */
export function readInt(value: unknown): number {
  if (value === null || value === undefined) return 0;
  return Number(value);
}

/**
 * A row lock for the rest of the transaction (`of`: only the rows of that table or alias, for a
 * query with an outer join; MySQL/MariaDB lock every joined row found). On SQLite the whole database is locked by the
 * writing transaction already (BEGIN IMMEDIATE), so the clause is dropped rather than emitted.
 */
export function forUpdate<T extends Knex.QueryBuilder>(query: T, executor: Executor, of?: string): T {
  const dialect = dialectOf(executor);
  if (!isServerDialect(dialect)) return query;
  // PostgreSQL cannot lock the nullable side of an outer join: `of` names the table (or alias) whose rows are locked.
  return (dialect === 'postgres' && of ? query.forUpdate(of) : query.forUpdate()) as T;
}

/**
 * A read of the rows a limit is checked against (budget usage, taken seats), made after taking the
 * limit's row lock: on MySQL/MariaDB a locking read (`LOCK IN SHARE MODE`), which answers the latest
 * committed rows whatever the transaction's isolation level. A plain read answers the transaction's
 * snapshot under REPEATABLE READ — the level of a host's own transactions the plugin may run in
 * (Vendure's on MariaDB) — and would miss the order a concurrent checkout committed meanwhile.
 * SQLite: the writing transaction holds the database already; the clause is dropped.
 */
export function lockingRead<T extends Knex.QueryBuilder>(query: T, executor: Executor): T {
  return dialectOf(executor) === 'mysql' ? (query.forShare() as T) : query;
}

/**
 * Adds `delta` to a maintained counter row (`key` names it; a missing row starts at `delta`), in
 * the caller's transaction: one atomic upsert on both databases (SQLite `ON CONFLICT … DO UPDATE`,
 * MySQL/MariaDB `ON DUPLICATE KEY UPDATE`), so concurrent writers never lose a count. The row stays
 * locked until the transaction ends, so writers of the same key queue there.
 */
export async function bumpCounter(executor: Executor, table: string, key: Record<string, string>, column: string, delta = 1): Promise<void> {
  await executor(table)
    .insert({ ...key, [column]: delta })
    .onConflict(Object.keys(key))
    .merge({ [column]: executor.raw('?? + ?', [`${table}.${column}`, delta]) });
}

/** Job claiming: SKIP LOCKED on MySQL/MariaDB and PostgreSQL; SQLite has one worker process so none is needed. */
export function forUpdateSkipLocked<T extends Knex.QueryBuilder>(query: T, executor: Executor): T {
  return isServerDialect(dialectOf(executor)) ? (query.forUpdate().skipLocked() as T) : query;
}

/**
 * Deadlocks and lock waits that ran out, retried as a whole transaction: MySQL/MariaDB's codes and
 * PostgreSQL's SQLSTATEs (40001 serialization_failure, 40P01 deadlock_detected, 55P03 lock_not_available).
 */
const RETRYABLE_CODES = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT', '40001', '40P01', '55P03']);

/**
 * Whether running the whole transaction again may succeed: deadlocks and lock wait timeouts, and on
 * SQLite a busy database — also `SQLITE_BUSY_SNAPSHOT`, which a transaction that read first gets at
 * once (no busy wait) when another connection wrote since its read began: a second writer on the
 * file (Vendure's own connection beside the plugin's, its job queue writing after an order) makes that
 * common. Run again, the transaction reads a fresh snapshot.
 */
export function isRetryableDbError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return (code !== undefined && RETRYABLE_CODES.has(code)) || code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT';
}

export function isDuplicateKeyError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'ER_DUP_ENTRY' || code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** PostgreSQL has one code (23503) for both foreign key violations; its message tells a delete of a referenced row apart. */
function isPgRowReferenced(error: unknown): boolean {
  return /update or delete on table/.test(String((error as { message?: unknown } | null)?.message));
}

/** A row referenced by a foreign key is missing (e.g. deleted between a check and an insert). */
export function isForeignKeyError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'ER_NO_REFERENCED_ROW_2' || code === 'ER_NO_REFERENCED_ROW' || (code === '23503' && !isPgRowReferenced(error)) || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** A row is still referenced by a foreign key (its delete, or a change of its key, was refused). SQLite does not tell the two cases apart. */
export function isRowReferencedError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'ER_ROW_IS_REFERENCED_2' || code === 'ER_ROW_IS_REFERENCED' || (code === '23503' && isPgRowReferenced(error)) || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * Runs `work` so that a failure of it leaves the surrounding transaction usable: inside a
 * transaction a savepoint (knex's nested transaction), since after an error PostgreSQL refuses
 * every further statement of the transaction until it is rolled back. For code that catches an
 * expected error (a duplicate key) and carries on in the same transaction.
 */
export async function recoverable<T>(executor: Executor, work: (executor: Executor) => Promise<T>): Promise<T> {
  if (!executor.isTransaction || dialectOf(executor) !== 'postgres') return work(executor);
  return executor.transaction((savepoint) => work(savepoint));
}

/** Driver codes that mean the database cannot be reached or does not answer: retry later, not a bug. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_STATEMENT_TIMEOUT',
  'ER_QUERY_TIMEOUT',
  'SUITE_DB_NO_ANSWER',
  // PostgreSQL: statement_timeout (57014), server shutting down or starting (57P01–57P03), too many connections (53300).
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  'SQLITE_CANTOPEN',
  'SQLITE_NOTADB',
  'SQLITE_FULL',
  'SQLITE_CORRUPT',
]);
/** PostgreSQL's class 08 (connection exception) among them. */
const UNAVAILABLE_CODE_PREFIXES = ['SQLITE_IOERR', 'SQLITE_READONLY', 'SQLITE_CANTOPEN', '08'];
/** Errors without a code: a closed better-sqlite3 handle, a mysql2 connection already closed, pg's client-side timeouts and lost connections. */
const UNAVAILABLE_MESSAGES = [
  /database connection is not open/i,
  /connection is in closed state/i,
  /Timeout acquiring a connection/i,
  /Query read timeout/i,
  /Connection terminated/i,
  /Client has encountered a connection error/i,
  /timeout expired/i,
];

/**
 * What a driver error means for the caller, decided here once for every path (API, storefront,
 * jobs): 'unavailable' (the database is unreachable, silent or overloaded: 503, retry later),
 * 'contention' (a deadlock or lock wait that outlived its retries: 409, retry), or null (a bug: 500).
 */
export function classifyDbError(error: unknown): 'unavailable' | 'contention' | null {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 3; current = (current as { cause?: unknown }).cause, depth++) {
    const { code, fatal, name, message } = current as { code?: unknown; fatal?: unknown; name?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (RETRYABLE_CODES.has(code) || code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED') return 'contention';
      if (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_CODE_PREFIXES.some((prefix) => code.startsWith(prefix))) return 'unavailable';
    }
    // mysql2 marks errors that broke the connection itself as fatal.
    if (fatal === true) return 'unavailable';
    if (name === 'KnexTimeoutError') return 'unavailable';
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return 'unavailable';
  }
  return null;
}

/** The client-facing error for a classified driver error, or null when it is a bug. */
export function dbErrorAsAppError(error: unknown): AppError | null {
  const kind = classifyDbError(error);
  if (kind === 'unavailable') return Errors.serviceUnavailable(DB_RETRY_AFTER_SECONDS);
  if (kind === 'contention') return Errors.conflict('The data is busy with concurrent changes; retry.');
  return null;
}

/**
 * One state-changing request = one transaction. Deadlocks and lock-wait timeouts retry the whole
 * unit of work (bounded), so `work` must be safe to run again: it re-reads what it needs.
 */
export async function inTransaction<T>(db: Db, work: (trx: Trx) => Promise<T>, attempts = 4): Promise<T> {
  return retryOnContention(() => db.transaction(work), attempts);
}

/**
 * Runs `transaction` (one whole transaction) again while it fails with a deadlock or lock wait
 * timeout, at most `attempts` times with a short random pause, then throws the last error: the
 * retry of `inTransaction`, and of hosts' own transactions (the Vendure adapter's).
 */
export async function retryOnContention<T>(transaction: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isRetryableDbError(error)) throw error;
      await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 20));
    }
  }
}
