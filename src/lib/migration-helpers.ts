import type { Knex } from 'knex';
import { dialectOf } from './db.js';

/** Column helpers (host and plugin migrations) so every migration builds the same types on SQLite and MySQL/MariaDB. */
export function idColumn(t: Knex.CreateTableBuilder, name = 'id'): Knex.ColumnBuilder {
  return t.string(name, 32);
}

export function timestamps(t: Knex.CreateTableBuilder): void {
  t.specificType('created_at', 'DATETIME(3)').notNullable();
  t.specificType('updated_at', 'DATETIME(3)').nullable();
}

export function dateTime(t: Knex.CreateTableBuilder, name: string): Knex.ColumnBuilder {
  return t.specificType(name, 'DATETIME(3)');
}

/** JSON stored as text on both databases; read it with readJson from lib/db. */
export function jsonText(t: Knex.CreateTableBuilder, name: string): Knex.ColumnBuilder {
  return t.text(name, 'longtext');
}

/** Money in minor units. */
export function money(t: Knex.CreateTableBuilder, name: string): Knex.ColumnBuilder {
  return t.bigInteger(name);
}

export function binary(knex: Knex, t: Knex.CreateTableBuilder, name: string): Knex.ColumnBuilder {
  return dialectOf(knex) === 'sqlite' ? t.binary(name) : t.specificType(name, 'LONGBLOB');
}
