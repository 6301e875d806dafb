import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { dialectOf } from './db.js';
import { Errors } from './errors.js';

/**
 * Keyset paging ("cursor") beside page numbers. A page number makes the database skip every row
 * before the page, so page 1,000 of 100,000 products costs twenty times page 1; a cursor names the
 * last row a client has seen (the values of every sort key, ending with the unique id), and the
 * next page starts after it through the sort's index — the same cost at any depth.
 *
 * NULL sorts as the smallest value on every database (SQLite's and MySQL's own order; PostgreSQL is
 * told NULLS FIRST / NULLS LAST), so the predicate below and the order agree.
 */
export interface KeysetKey {
  column: string;
  order: 'asc' | 'desc';
}

export type KeyValue = string | number | boolean | null;

/** The select alias of key `i` (stripped from the rows before they leave the search). */
export const keyAlias = (i: number) => `__keyset_${i}`;

/** The schema of the criteria's `cursor`: lists that page by keyset add it to their criteria schema. */
export const CURSOR_PROPERTY = {
  type: 'string',
  maxLength: 4096,
  description:
    'Keyset paging: "" for the first page, then the `nextCursor` of the page before. With a cursor, `page` is left out; ' +
    'the answer carries `nextCursor` (null on the last page), and each page costs the same at any depth.',
} as const;

/** The sort as keys: the requested ones, then the default sort, cut after the id column (which is unique), the id added if missing. */
export function keysetKeys(requested: KeysetKey[], defaultSort: KeysetKey[], idColumn: string): KeysetKey[] {
  const keys: KeysetKey[] = [];
  for (const key of [...requested, ...defaultSort, { column: idColumn, order: 'asc' as const }]) {
    if (keys.some((k) => k.column === key.column)) continue;
    keys.push(key);
    if (key.column === idColumn) break;
  }
  return keys;
}

/** Which sort a cursor belongs to: a cursor from one sort is refused by another. */
function signatureOf(keys: KeysetKey[]): string {
  return createHash('sha256')
    .update(keys.map((k) => `${k.column} ${k.order}`).join(','))
    .digest('base64url')
    .slice(0, 12);
}

/**
 * A cursor: the sort's signature, the last row's key values and, when the first page counted it, the
 * list's total — so the pages after the first answer that total without counting again.
 */
export function encodeCursor(keys: KeysetKey[], values: KeyValue[], total?: number): string {
  const parts: unknown[] = [signatureOf(keys), values];
  if (total !== undefined) parts.push(total);
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

/** What a cursor carries: the key values to start after, and the total the first page counted (if it did). */
export interface DecodedCursor {
  values: KeyValue[];
  total?: number;
}

function invalidCursor() {
  return Errors.badRequest(
    'SUITE__INVALID_CURSOR',
    'The cursor is not one this list gave for this sort: start again with "".',
    { pointer: '/cursor' },
  );
}

/** What a cursor carries, or null for "" (the first page); a 400 for anything not made by `encodeCursor` for these keys. */
export function decodeCursor(keys: KeysetKey[], cursor: string): DecodedCursor | null {
  if (cursor === '') return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(decoded) || decoded.length < 2 || decoded.length > 3 || decoded[0] !== signatureOf(keys))
    throw invalidCursor();
  const values: unknown = decoded[1];
  if (!Array.isArray(values) || values.length !== keys.length) throw invalidCursor();
  for (const value of values as unknown[])
    if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) throw invalidCursor();
  const total: unknown = decoded[2];
  if (total === undefined) return { values: values as KeyValue[] };
  if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 0) throw invalidCursor();
  return { values: values as KeyValue[], total };
}

/** A value as read from a row, as the cursor keeps it (Dates as the UTC text the databases store). */
export function keyValueOf(value: unknown): KeyValue {
  if (value instanceof Date) return value.toISOString().replace('T', ' ').replace('Z', '');
  if (typeof value === 'bigint') return value.toString();
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/** Orders `query` by the keys, NULL first in ascending order on every database. */
export function orderByKeys(query: Knex.QueryBuilder, keys: KeysetKey[]): void {
  const postgres = dialectOf(query) === 'postgres';
  for (const key of keys)
    if (postgres) query.orderBy(key.column, key.order, key.order === 'asc' ? 'first' : 'last');
    else query.orderBy(key.column, key.order);
}

/** Narrows `query` to the rows after the one whose key values are `values`, in the keys' order. */
export function whereAfter(query: Knex.QueryBuilder, keys: KeysetKey[], values: KeyValue[]): void {
  const postgres = dialectOf(query) === 'postgres';
  // better-sqlite3 and mysql2 bind no booleans: the columns hold 0/1 there.
  const bound = values.map((value) => (typeof value === 'boolean' && !postgres ? Number(value) : value));
  // The first key's bound, ANDed before the OR of the ties: a range every database's planner scans
  // the sort's index by (an OR alone makes SQLite walk the index from its start, row by row).
  const [first] = keys;
  const firstValue = bound[0] ?? null;
  if (first && firstValue !== null) {
    if (first.order === 'asc') query.where(first.column, '>=', firstValue);
    else
      query.where((below) => {
        below.where(first.column, '<=', firstValue).orWhereNull(first.column);
      });
  }
  query.where((any) => {
    keys.forEach((key, i) => {
      any.orWhere((all) => {
        keys.slice(0, i).forEach((earlier, j) => {
          const value = bound[j] ?? null;
          if (value === null) all.whereNull(earlier.column);
          else all.where(earlier.column, value);
        });
        const value = bound[i] ?? null;
        if (key.order === 'asc') {
          if (value === null) all.whereNotNull(key.column);
          else all.where(key.column, '>', value);
        } else if (value === null) all.whereRaw('1 = 0');
        else
          all.where((below) => {
            below.where(key.column, '<', value).orWhereNull(key.column);
          });
      });
    });
  });
}
