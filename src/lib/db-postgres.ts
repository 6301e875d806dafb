import { createRequire } from 'node:module';
import type pg from 'pg';
import type { Knex } from 'knex';
import {
  ConnectionsById,
  NO_ANSWER_GRACE_MS,
  savepointStatement,
  withStatementMethod,
  type DialectDriver,
} from './db-driver.js';

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

/**
 * The pg driver, loaded when a PostgreSQL database is opened: it is an optional peer dependency (a shop on
 * SQLite or MariaDB installs none), which knex itself also loads only for its `pg` client.
 */
function pgDriver(): typeof pg {
  return createRequire(import.meta.url)('pg') as typeof pg;
}

/** PostgreSQL through knex's `pg` client and the pg driver's own options (docs/decisions/0015-postgresql.md). */
let parsers: { getTypeParser(oid: number, format?: string): unknown } | null = null;
function typeParsers() {
  if (!parsers) {
    const driver = pgDriver();
    parsers = {
      getTypeParser: (oid: number, format?: string): unknown =>
        PG_TYPE_PARSERS[oid] ?? (driver.types.getTypeParser(oid, format as 'text') as unknown),
    };
  }
  return parsers;
}

const rawRows = (result: unknown): unknown[] => (result as { rows: unknown[] }).rows;

export const POSTGRES: DialectDriver = {
  open(target, timeouts, options) {
    const parsed = new URL(target.url);
    const statementMs = timeouts.statementMs;
    const held = new ConnectionsById('SELECT pg_backend_pid() AS id', rawRows);
    const config: Knex.Config = {
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
          ? {
              lock_timeout: statementMs,
              statement_timeout: statementMs + NO_ANSWER_GRACE_MS / 2,
              query_timeout: statementMs + NO_ANSWER_GRACE_MS,
            }
          : {}),
        options: '-c TimeZone=UTC',
        types: typeParsers(),
      },
      acquireConnectionTimeout: timeouts.acquireMs,
      pool: {
        min: 0,
        max: options.poolMax ?? 10,
        afterCreate(
          connection: pg.Client & { processID?: number },
          done: (error: unknown, connection: unknown) => void,
        ) {
          held.add(connection.processID!, connection);
          done(null, connection);
        },
      },
    };
    return { config, held };
  },
  rawRows,
  // The statements on a foreign connection (another library's pg client, with pg's default parsers) read as
  // this driver's own connections answer (PG_TYPE_PARSERS), passed per query.
  asSavepoint: (connection, name) =>
    withStatementMethod(connection, 'query', (query, config, ...rest) =>
      query(
        typeof config === 'string'
          ? { text: savepointStatement(config, name), types: typeParsers() }
          : {
              types: typeParsers(),
              ...(config as { text: string }),
              text: savepointStatement((config as { text: string }).text, name),
            },
        ...rest,
      ),
    ),
};
