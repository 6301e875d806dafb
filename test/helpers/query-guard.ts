import type { Db } from '../../src/lib/db.js';
import { currentZone, enablePluginZones } from '../../src/host/plugins/zones.js';
import { hostTableNames } from './host-tables.js';

/**
 * Host tables plugin code may still read or write itself. Empty since the last two moved
 * behind the contract (rate limits are declared on routes and counted by the host's pipeline; the
 * contract test plugin reads its order through `orders.get`). It stays empty: never add a table.
 */
export const HOST_TABLES_STILL_USED_BY_PLUGIN: readonly string[] = [];

export interface PluginQueryViolation {
  sql: string;
  tables: string[];
  /** Plugin (and test plugin) frames of the async stack, to find the query. */
  where: string[];
}

/** Tables a statement reads or writes: the names after FROM, JOIN, UPDATE, INTO (string literals removed first). */
export function tablesNamedIn(sql: string): string[] {
  const withoutLiterals = sql.replace(/'(?:[^'\\]|\\.|'')*'/g, "''");
  return [...withoutLiterals.matchAll(/\b(?:from|join|update|into)\s+[`"]?(\w+)[`"]?/gi)].map((m) => m[1]!);
}

let hostTables: ReadonlySet<string> | null = null;
let allowed: ReadonlySet<string> = new Set(HOST_TABLES_STILL_USED_BY_PLUGIN);
const violations: PluginQueryViolation[] = [];
const watched = new WeakSet<Db>();

function onQuery(query: { sql?: string }): void {
  if (!hostTables || currentZone() !== 'plugin' || typeof query.sql !== 'string') return;
  const tables = [...new Set(tablesNamedIn(query.sql).filter((t) => hostTables!.has(t) && !allowed.has(t)))];
  if (!tables.length) return;
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = stackTraceLimit;
  const where = stack
    .split('\n')
    .filter((line) => line.includes('/src/plugin/') || line.includes('/fixtures/'))
    .map((line) => line.trim().replace(`${process.cwd()}/`, ''))
    .slice(0, 5);
  violations.push({ sql: query.sql, tables, where });
}

/**
 * Turns plugin zones on and listens to every query of every app the tests create: a query issued
 * in zone 'plugin' that names a host table (outside the allow-list) is recorded, and the root
 * hook in test/setup.ts fails the test that caused it.
 */
export async function installQueryGuard(options: { allowList?: readonly string[] } = {}): Promise<void> {
  if (options.allowList) allowed = new Set(options.allowList);
  // Once per process: zones turned on again would orphan the functions apps already wrapped (a
  // test process of `npm test` runs many files, each a mocha run of its own, with one shared app).
  if (hostTables) return;
  hostTables = await hostTableNames();
  enablePluginZones((db) => {
    if (watched.has(db)) return;
    watched.add(db);
    db.on('query', onQuery);
  });
}

/** The violations recorded since the last call. */
export function takeViolations(): PluginQueryViolation[] {
  return violations.splice(0, violations.length);
}

/** For the guard's own test: run `work` with another allow-list. */
export async function withAllowList<T>(tables: readonly string[], work: () => Promise<T>): Promise<T> {
  const before = allowed;
  allowed = new Set(tables);
  try {
    return await work();
  } finally {
    allowed = before;
  }
}

export function describeViolations(list: PluginQueryViolation[]): string {
  const distinct = [...new Map(list.map((v) => [v.sql, v])).values()];
  return distinct
    .map(
      (v) =>
        `plugin code named host table(s) ${v.tables.join(', ')}: ${v.sql.slice(0, 300)}${v.where.length ? `\n      ${v.where.join('\n      ')}` : ''}`,
    )
    .join('\n    ');
}
