import type { Knex } from 'knex';
import {
  ConnectionsById,
  DatabaseNoAnswerError,
  NO_ANSWER_GRACE_MS,
  savepointStatement,
  withStatementMethod,
  type DbTimeouts,
  type DialectDriver,
} from './db-driver.js';

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

type QueryCallback = (error: Error | null, rows?: unknown, fields?: unknown) => void;
type QueryOptions = string | { sql: string; [option: string]: unknown };

/** The part of mysql2's callback Connection this driver uses. */
interface MysqlConnection {
  query(options: QueryOptions, values?: unknown, callback?: QueryCallback): unknown;
  query(options: QueryOptions, callback: QueryCallback): unknown;
  destroy(): void;
  /** The server's id of the connection (`CONNECTION_ID()`). */
  threadId: number;
}

/** SQL text for a plain read that the server stops after statementMs (MariaDB's SET STATEMENT, MySQL's optimizer hint). */
function boundedRead(sql: string, statementMs: number, mariaDb: boolean): string {
  if (!PLAIN_SELECT.test(sql) || LOCKING_READ.test(sql)) return sql;
  return mariaDb
    ? `SET STATEMENT max_statement_time=${statementMs / 1000} FOR ${sql}`
    : sql.replace(PLAIN_SELECT, (select) => `${select} /*+ MAX_EXECUTION_TIME(${statementMs}) */`);
}

/**
 * Bounds every statement sent on `connection` (mysql2's own `query`, which knex calls for every
 * statement): plain reads carry the server-side time limit, and every statement but DDL and
 * migration backfills (migrations may legitimately run long) is abandoned when the server stays
 * silent — the connection is destroyed (the pool then drops it: mysql2 marks it closing) — so a
 * frozen database answers 503 rather than hanging. Installed on each new connection from the pool's
 * `afterCreate`, the one place knex hands the driver's connection to the application.
 */
function boundStatements(connection: MysqlConnection, timeouts: DbTimeouts, mariaDb: boolean): void {
  const noAnswerMs = timeouts.statementMs + NO_ANSWER_GRACE_MS;
  const original: MysqlConnection['query'] = connection.query.bind(connection);
  const send = (options: QueryOptions, values: unknown, callback?: QueryCallback): unknown =>
    original(options, values, callback);
  connection.query = function boundedQuery(options: QueryOptions, values?: unknown, callback?: QueryCallback): unknown {
    if (typeof values === 'function') return boundedQuery(options, undefined, values as QueryCallback);
    const sql = typeof options === 'string' ? options : options.sql;
    if (typeof callback !== 'function' || typeof sql !== 'string' || DDL.test(sql) || BACKFILL.test(sql))
      return send(options, values, callback);
    const bounded = boundedRead(sql, timeouts.statementMs, mariaDb);
    let abandoned = false;
    const timer = setTimeout(() => {
      // The connection may still deliver a late answer to this statement: never reuse it.
      abandoned = true;
      connection.destroy();
      callback(new DatabaseNoAnswerError(noAnswerMs));
    }, noAnswerMs);
    return send(typeof options === 'string' ? bounded : { ...options, sql: bounded }, values, (error, rows, fields) => {
      if (abandoned) return;
      clearTimeout(timer);
      callback(error, rows, fields);
    });
  };
}

function run(connection: MysqlConnection, sql: string): Promise<unknown> {
  return new Promise((resolve, reject) =>
    connection.query(sql, (error: Error | null, rows?: unknown) => (error ? reject(error) : resolve(rows))),
  );
}

/** A new connection's session: UTC, READ COMMITTED, lock waits bounded, then its statements bounded (boundStatements). */
async function prepareSession(connection: MysqlConnection, timeouts: DbTimeouts): Promise<void> {
  const [server] = (await run(connection, 'SELECT VERSION() AS version')) as Array<{ version: string }>;
  // READ COMMITTED: fewer gap locks, so fewer deadlocks; invariants rely on row locks and conditional writes.
  // A lock wait ends on the server (ER_LOCK_WAIT_TIMEOUT, retried by inTransaction, then 409) before
  // the client's no-answer limit would take it for a frozen server.
  const lockWait =
    timeouts.statementMs > 0 ? `, innodb_lock_wait_timeout = ${Math.ceil(timeouts.statementMs / 1000)}` : '';
  await run(connection, `SET time_zone = '+00:00'${lockWait}`);
  await run(connection, 'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
  if (timeouts.statementMs > 0) boundStatements(connection, timeouts, /mariadb/i.test(server?.version ?? ''));
}

const rawRows = (result: unknown): unknown[] => (result as [unknown[], unknown])[0];

/** MySQL/MariaDB through knex's `mysql2` client; dates as the stored strings, times in UTC. */
export const MYSQL: DialectDriver = {
  open(target, timeouts, options) {
    const parsed = new URL(target.url.replace(/^mariadb:/, 'mysql:'));
    const held = new ConnectionsById('SELECT CONNECTION_ID() AS id', rawRows);
    const config: Knex.Config = {
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
        connectTimeout: timeouts.connectMs,
      },
      acquireConnectionTimeout: timeouts.acquireMs,
      pool: {
        min: 0,
        max: options.poolMax ?? 10,
        afterCreate(connection: MysqlConnection, done: (error: unknown, connection: unknown) => void) {
          held.add(connection.threadId, connection);
          prepareSession(connection, timeouts).then(
            () => done(null, connection),
            (error: unknown) => done(error, connection),
          );
        },
      },
    };
    return { config, held };
  },
  rawRows,
  asSavepoint: (connection, name) =>
    withStatementMethod(connection, 'query', (query, options, ...rest) =>
      query(
        typeof options === 'string'
          ? savepointStatement(options, name)
          : { ...(options as { sql: string }), sql: savepointStatement((options as { sql: string }).sql, name) },
        ...rest,
      ),
    ),
};
