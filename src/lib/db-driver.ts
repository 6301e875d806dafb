import type { Knex } from 'knex';

/**
 * What the database layer (db.ts) asks of each database, and the pieces the three drivers share.
 * Every driver is written against knex's public API (its configuration: client name, connection,
 * pool and its `afterCreate`/`validate` hooks) and its driver's own API (better-sqlite3, mysql2, pg):
 * no import of knex's internals, no patched prototype, no generated code.
 */

export type Dialect = 'sqlite' | 'mysql' | 'postgres';

export interface DatabaseTarget {
  dialect: Dialect;
  /** sqlite: file path or ':memory:'; mysql, postgres: the database name */
  database: string;
  url: string;
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
export const NO_ANSWER_GRACE_MS = 1000;

/** A statement the server did not answer in time; its connection was dropped. */
export class DatabaseNoAnswerError extends Error {
  readonly code = 'SUITE_DB_NO_ANSWER';
  constructor(ms: number) {
    super(`The database did not answer within ${ms} ms.`);
    this.name = 'DatabaseNoAnswerError';
  }
}

export interface CreateDbOptions {
  poolMax?: number;
  timeouts?: Partial<DbTimeouts>;
}

/**
 * A read answered by the driver itself, without knex's runner, where that is measurably cheaper
 * (SQLite: better-sqlite3 answers synchronously, so a pool round trip and a promise chain cost
 * more than a short statement). Drivers without one go through knex.
 */
export interface DirectReads {
  /** The rows of `sql`, or null when the read must go through knex (the connection is busy, closed or another transaction's). */
  rows(executor: Knex | Knex.Transaction, sql: string, bindings: readonly unknown[]): unknown[] | null;
  /**
   * A stamp that changes whenever the database may have changed (a write of this process, a commit
   * of another connection), or null when none can be given now (inside a transaction, connection busy).
   */
  changeStamp(executor: Knex | Knex.Transaction): string | null;
}

/**
 * The driver connection an open transaction of one database holds (a host that runs its own
 * statements in the plugin's transaction needs it): the pool's `afterCreate` hands every connection
 * to the driver, which finds the transaction's by the server's connection id (SQLite: its one connection).
 */
export interface HeldConnections {
  of(trx: Knex.Transaction): Promise<object>;
}

/** One database: how knex is configured for it, how its raw answers read, and its direct reads if it has any. */
export interface DialectDriver {
  open(
    target: DatabaseTarget,
    timeouts: DbTimeouts,
    options: CreateDbOptions,
  ): { config: Knex.Config; direct?: DirectReads; held: HeldConnections };
  /** The rows of a raw statement's answer (rows from better-sqlite3, `[rows, fields]` from mysql2, a Result from pg). */
  rawRows(result: unknown): unknown[];
  /**
   * A view of a foreign driver connection (another library's, already inside a transaction) on which a
   * knex transaction opened with `{ connection }` is a savepoint: the driver's own statement method
   * (`query`, better-sqlite3's `prepare`) is wrapped so knex's BEGIN / COMMIT / ROLLBACK of that
   * transaction become SAVEPOINT / RELEASE / ROLLBACK TO of one savepoint; nested savepoints pass as they are.
   */
  asSavepoint(connection: object, name: string): object;
}

/** The statement knex's outermost transaction statement stands for, on a connection already inside a transaction. */
export function savepointStatement(sql: string, name: string): string {
  const statement = sql.trim();
  if (/^BEGIN;?$/i.test(statement)) return `SAVEPOINT ${name}`;
  if (/^COMMIT;?$/i.test(statement)) return `RELEASE SAVEPOINT ${name}`;
  if (/^ROLLBACK;?$/i.test(statement)) return `ROLLBACK TO SAVEPOINT ${name}`;
  return sql;
}

/**
 * `connection` with its statement method `method` replaced by `replacement` (which receives the
 * original, bound): a Proxy, so the driver's connection itself is left untouched for its owner.
 */
export function withStatementMethod<C extends object>(
  connection: C,
  method: string,
  replacement: (original: (...args: unknown[]) => unknown, ...args: unknown[]) => unknown,
): C {
  return new Proxy(connection, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === method && typeof value === 'function') {
        const original = (value as (...args: unknown[]) => unknown).bind(target);
        return (...args: unknown[]) => replacement(original, ...args);
      }
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The connections a pool created, by the server's id of each (MySQL `CONNECTION_ID()`, PostgreSQL
 * `pg_backend_pid()`), held weakly: a connection the pool dropped is not kept alive here.
 */
export class ConnectionsById implements HeldConnections {
  private readonly byId = new Map<number, WeakRef<object>>();

  constructor(
    private readonly idSql: string,
    private readonly rows: (result: unknown) => unknown[],
  ) {}

  add(id: number, connection: object): void {
    for (const [key, ref] of this.byId) if (ref.deref() === undefined) this.byId.delete(key);
    this.byId.set(id, new WeakRef(connection));
  }

  /** The connection `trx` holds: asked of the server inside the transaction. */
  async of(trx: Knex.Transaction): Promise<object> {
    const [row] = this.rows(await trx.raw(this.idSql)) as Array<{ id: number | string }>;
    const connection = row ? this.byId.get(Number(row.id))?.deref() : undefined;
    if (!connection) throw new Error('The connection of this transaction was not created by this database’s pool.');
    return connection;
  }
}
