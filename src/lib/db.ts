import knexFactory, { type Knex } from 'knex';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export type Db = Knex;
export type Trx = Knex.Transaction;
/** Anything queries can run on: the root knex outside a transaction, the transaction inside one. */
export type Executor = Knex | Knex.Transaction;
export type Dialect = 'sqlite' | 'mysql';

export const DEFAULT_DATABASE_URL = 'sqlite:./var/suite.sqlite';

export interface DatabaseTarget {
  dialect: Dialect;
  /** sqlite: file path or ':memory:'; mysql: the database name */
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
  throw new Error(`DATABASE_URL must start with sqlite: or mysql:// (got "${url.split(':')[0]}:")`);
}

export function createDb(url: string, options: { poolMax?: number } = {}): Db {
  const target = parseDatabaseUrl(url);
  if (target.dialect === 'sqlite') {
    if (target.database !== ':memory:') mkdirSync(dirname(resolve(target.database)), { recursive: true });
    return knexFactory({
      client: 'better-sqlite3',
      connection: { filename: target.database },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate(connection: { pragma(sql: string): unknown }, done: (err: Error | null, c: unknown) => void) {
          connection.pragma('foreign_keys = ON');
          connection.pragma('journal_mode = WAL');
          connection.pragma('busy_timeout = 5000');
          connection.pragma('synchronous = NORMAL');
          done(null, connection);
        },
      },
    });
  }
  const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
  return knexFactory({
    client: 'mysql2',
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
    },
    pool: {
      min: 0,
      max: options.poolMax ?? 10,
      afterCreate(connection: { query(sql: string, cb: (err: Error | null) => void): void }, done: (err: Error | null, c: unknown) => void) {
        // READ COMMITTED: fewer gap locks, so fewer deadlocks; invariants rely on row locks and conditional writes.
        connection.query("SET time_zone = '+00:00'", (err) => {
          if (err) return done(err, connection);
          connection.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED', (err2) => done(err2, connection));
        });
      },
    },
  });
}

export function dialectOf(db: Executor): Dialect {
  const client = (db as unknown as { client: { config: { client: string } } }).client.config.client;
  return client === 'mysql2' || client === 'mysql' ? 'mysql' : 'sqlite';
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
 * A row lock for the rest of the transaction. On SQLite the whole database is locked by the
 * writing transaction already (BEGIN IMMEDIATE), so the clause is dropped rather than emitted.
 */
export function forUpdate<T extends Knex.QueryBuilder>(query: T, executor: Executor): T {
  return dialectOf(executor) === 'mysql' ? (query.forUpdate() as T) : query;
}

/** Job claiming: SKIP LOCKED on MySQL/MariaDB; SQLite has one worker process so none is needed. */
export function forUpdateSkipLocked<T extends Knex.QueryBuilder>(query: T, executor: Executor): T {
  return dialectOf(executor) === 'mysql' ? (query.forUpdate().skipLocked() as T) : query;
}

const RETRYABLE_MYSQL = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);

export function isRetryableDbError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return (code !== undefined && RETRYABLE_MYSQL.has(code)) || code === 'SQLITE_BUSY';
}

export function isDuplicateKeyError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** A row referenced by a foreign key is missing (e.g. deleted between a check and an insert). */
export function isForeignKeyError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'ER_NO_REFERENCED_ROW_2' || code === 'ER_NO_REFERENCED_ROW' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * One state-changing request = one transaction. Deadlocks and lock-wait timeouts retry the whole
 * unit of work (bounded), so `work` must be safe to run again: it re-reads what it needs.
 */
export async function inTransaction<T>(db: Db, work: (trx: Trx) => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (attempt >= attempts || !isRetryableDbError(error)) throw error;
      await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 20));
    }
  }
}
