import knexFactory, { type Knex } from 'knex';
import { deepFreeze } from './deep-freeze.js';
import {
  DEFAULT_DB_TIMEOUTS,
  type CreateDbOptions as DriverOptions,
  type DatabaseTarget,
  type Dialect,
  type DialectDriver,
  type DirectReads,
  type HeldConnections,
} from './db-driver.js';
import { MYSQL } from './db-mysql.js';
import { POSTGRES } from './db-postgres.js';
import { SQLITE } from './db-sqlite.js';
import { AppError, Errors } from './errors.js';

export {
  DEFAULT_DB_TIMEOUTS,
  DatabaseNoAnswerError,
  type DatabaseTarget,
  type DbTimeouts,
  type Dialect,
} from './db-driver.js';
export { MIGRATION_BACKFILL } from './db-mysql.js';

export type Db = Knex;
export type Trx = Knex.Transaction;
/** Anything queries can run on: the root knex outside a transaction, the transaction inside one. */
export type Executor = Knex | Knex.Transaction;

/** The executor as a transaction when it is one, else null (a root `Db`). */
export function transactionOf(executor: Executor): Trx | null {
  return executor.isTransaction ? (executor as Trx) : null;
}

export const DEFAULT_DATABASE_URL = 'sqlite:./var/suite.sqlite';

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

/** What a 503 tells clients to wait before retrying. */
export const DB_RETRY_AFTER_SECONDS = 5;

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
      /^Acquire connection error/.test(String(message))
        ? sink.debug({ knex: firstLine(message) }, 'database driver')
        : sink.warn({ knex: firstLine(message) }, 'database driver'),
    error: (message: unknown) => sink.warn({ knex: firstLine(message) }, 'database driver'),
    deprecate: () => undefined,
    debug: () => undefined,
  };
}

export interface CreateDbOptions extends DriverOptions {
  log?: DbLogSink;
}

/** Each database's driver (src/lib/db-sqlite.ts, db-mysql.ts, db-postgres.ts), all on knex's public API. */
const DRIVERS: Record<Dialect, DialectDriver> = { sqlite: SQLITE, mysql: MYSQL, postgres: POSTGRES };

/** A knex built by createDb: its driver, its direct reads if the driver has them, and the root knex (whose listeners hear every statement). */
interface OpenedDb {
  driver: DialectDriver;
  direct?: DirectReads;
  held: HeldConnections;
  root: Knex;
}

/** Keyed by knex's client configuration, which a transaction's client shares with its root's. */
const openedDbs = new WeakMap<object, OpenedDb>();

function openedDbOf(executor: Executor): OpenedDb | undefined {
  return openedDbs.get((executor.client as Knex.Client).config);
}

export function createDb(url: string, options: CreateDbOptions = {}): Db {
  const target = parseDatabaseUrl(url);
  const timeouts = { ...DEFAULT_DB_TIMEOUTS, ...options.timeouts };
  const driver = DRIVERS[target.dialect];
  const { config, direct, held } = driver.open(target, timeouts, options);
  const db = knexFactory({ ...config, log: knexLog(options.log ?? STDERR_SINK) });
  openedDbs.set((db.client as Knex.Client).config, { driver, direct, held, root: db });
  return db;
}

function openedOrThrow(executor: Executor): OpenedDb {
  const opened = openedDbOf(executor);
  if (!opened) throw new Error('This knex was not opened by createDb.');
  return opened;
}

/**
 * The driver connection (better-sqlite3 Database, mysql2 Connection, pg Client) the open transaction
 * `trx` holds, for another library that must run its statements inside that transaction (the Vendure
 * adapter's shared transaction). Found through the pool's `afterCreate` (knex's public API).
 */
export function connectionHeldBy(trx: Trx): Promise<object> {
  return openedOrThrow(trx).held.of(trx);
}

let savepoints = 0;

/**
 * Runs `work` in a knex transaction on a foreign driver connection that is already inside a
 * transaction (another library's, e.g. Vendure's TypeORM query runner's), as a savepoint of it: what
 * `work` writes commits or rolls back with the owner's transaction; `work` throwing rolls back to the
 * savepoint and rejects. `db` names the database (its dialect and, on PostgreSQL, its type parsers).
 */
export function inSavepointOf<T>(db: Db, connection: object, work: (trx: Trx) => Promise<T>): Promise<T> {
  const { driver } = openedOrThrow(db);
  const view = driver.asSavepoint(connection, `suite_b2b_${++savepoints}`);
  return db.transaction(work, { connection: view });
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
 * was kept while the database's change stamp (db-sqlite.ts: the rows this connection changed,
 * `total_changes()`, and `data_version`, which moves when any other connection, in any process,
 * commits) is the one taken before that answer was read — one step of a prepared statement instead
 * of the read. Inside a transaction it is read every time; on MySQL/MariaDB and PostgreSQL, which
 * have no such cheap signal, too. For the one small read every request makes before its caches
 * (the context versions), not for pages: what is kept is one answer per read, frozen, shared by
 * every caller.
 */
export function keptWhileUnchanged<T extends object>(
  read: (executor: Executor) => Promise<T>,
): (executor: Executor) => Promise<Readonly<T>> {
  let kept: { stamp: string; value: Readonly<T> } | null = null;
  return async (executor) => {
    // Taken before the read: a write in between moves the stamp past what is kept.
    const stamp = openedDbOf(executor)?.direct?.changeStamp(executor) ?? null;
    if (stamp === null) return deepFreeze(await read(executor));
    if (kept?.stamp === stamp) return kept.value;
    const value = deepFreeze(await read(executor));
    kept = { stamp, value };
    return value;
  };
}

let directStatements = 0;

/**
 * A read the driver answers itself (DirectReads), heard by the root knex's query listeners as
 * knex's own statements are (statement counts in tests, the plugin query guard); null when knex
 * must run it.
 */
function directRows(
  opened: OpenedDb & { direct: DirectReads },
  executor: Executor,
  sql: string,
  bindings: readonly unknown[],
): unknown[] | null {
  const { root, direct } = opened;
  if (root.listenerCount('query') + root.listenerCount('query-response') + root.listenerCount('query-error') === 0)
    return direct.rows(executor, sql, bindings);
  const query = () => ({ method: 'raw', sql, bindings: [...bindings], __knexQueryUid: `direct-${++directStatements}` });
  let rows: unknown[] | null;
  try {
    rows = direct.rows(executor, sql, bindings);
  } catch (error) {
    if (error instanceof Error) error.message = `${sql} - ${error.message}`;
    const failed = query();
    root.emit('query', failed);
    root.emit('query-error', error, failed);
    throw error;
  }
  if (rows === null) return null;
  const answered = query();
  root.emit('query', answered);
  root.emit('query-response', rows, answered);
  return rows;
}

/**
 * The rows of a SELECT written as SQL text: for hot statements whose shape varies too much for
 * `fixedRead` (id lists, visibility conditions) where building them with knex costs more CPU than
 * the database spends running them. On SQLite the driver answers it directly where it may
 * (db-sqlite.ts); otherwise knex runs it and answers in the driver's form (rows from better-sqlite3,
 * `[rows, fields]` from mysql2, a Result from pg), read here as rows.
 */
export async function selectRaw<Row>(
  executor: Executor,
  sql: string,
  bindings: readonly Knex.RawBinding[],
): Promise<Row[]> {
  const opened = openedDbOf(executor);
  if (opened?.direct) {
    const rows = directRows(opened as OpenedDb & { direct: DirectReads }, executor, sql, bindings);
    if (rows) return rows as Row[];
  }
  const result: unknown = await executor.raw(sql, bindings);
  return (opened?.driver ?? DRIVERS[dialectOf(executor)]).rawRows(result) as Row[];
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
  return dialect === 'mysql'
    ? `concat(${parts.join(', ')})`
    : parts.map((part) => (dialect === 'postgres' ? `(${part})::text` : part)).join(' || ');
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
export async function bumpCounter(
  executor: Executor,
  table: string,
  key: Record<string, string>,
  column: string,
  delta = 1,
): Promise<void> {
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
  return (
    code === 'ER_DUP_ENTRY' ||
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** PostgreSQL has one code (23503) for both foreign key violations; its message tells a delete of a referenced row apart. */
function isPgRowReferenced(error: unknown): boolean {
  return /update or delete on table/.test(String((error as { message?: unknown } | null)?.message));
}

/** A row referenced by a foreign key is missing (e.g. deleted between a check and an insert). */
export function isForeignKeyError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return (
    code === 'ER_NO_REFERENCED_ROW_2' ||
    code === 'ER_NO_REFERENCED_ROW' ||
    (code === '23503' && !isPgRowReferenced(error)) ||
    code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
  );
}

/** A row is still referenced by a foreign key (its delete, or a change of its key, was refused). SQLite does not tell the two cases apart. */
export function isRowReferencedError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return (
    code === 'ER_ROW_IS_REFERENCED_2' ||
    code === 'ER_ROW_IS_REFERENCED' ||
    (code === '23503' && isPgRowReferenced(error)) ||
    code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
  );
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
  for (
    let current = error, depth = 0;
    current && typeof current === 'object' && depth < 3;
    current = (current as { cause?: unknown }).cause, depth++
  ) {
    const { code, fatal, name, message } = current as {
      code?: unknown;
      fatal?: unknown;
      name?: unknown;
      message?: unknown;
    };
    if (typeof code === 'string') {
      if (
        RETRYABLE_CODES.has(code) ||
        code === 'SQLITE_BUSY' ||
        code.startsWith('SQLITE_BUSY_') ||
        code === 'SQLITE_LOCKED'
      )
        return 'contention';
      if (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_CODE_PREFIXES.some((prefix) => code.startsWith(prefix)))
        return 'unavailable';
    }
    // mysql2 marks errors that broke the connection itself as fatal.
    if (fatal === true) return 'unavailable';
    if (name === 'KnexTimeoutError') return 'unavailable';
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message)))
      return 'unavailable';
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
