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

export type RowEvent = 'insert' | 'update' | 'delete';

/** A trigger that moves a data version (a counter row) on every row an `event` writes to `table`. */
export interface VersionTrigger {
  name: string;
  table: string;
  event: RowEvent;
}

/** Insert, update and delete triggers on each of `tables`, named `<table>_version_<event>` unless told. */
export function versionTriggersOn(tables: string[], name = (table: string, event: RowEvent) => `${table}_version_${event}`): VersionTrigger[] {
  return tables.flatMap((table) => (['insert', 'update', 'delete'] as const).map((event) => ({ name: name(table, event), table, event })));
}

/**
 * (Re)creates `triggers`, each running `bump` (the update that moves the counter; per event when
 * it names the row, e.g. NEW or OLD) for every row written. Dropped first: MySQL/MariaDB commit each
 * DDL statement, so a migration that stopped half-way is run again from the top. `mysqlBefore`: on
 * MySQL/MariaDB the trigger runs before the row is written (SQLite always after), so a bump of a
 * parent row locks it before the row's foreign key check takes a shared lock on it.
 */
export async function createVersionTriggers(knex: Knex, triggers: VersionTrigger[], bump: string | ((event: RowEvent) => string), options: { mysqlBefore?: boolean } = {}): Promise<void> {
  const sqlite = dialectOf(knex) === 'sqlite';
  for (const { name, table, event } of triggers) {
    const statement = typeof bump === 'string' ? bump : bump(event);
    await knex.raw(`drop trigger if exists ${name}`);
    await knex.raw(
      sqlite
        ? `create trigger ${name} after ${event} on ${table} for each row begin ${statement}; end`
        : `create trigger ${name} ${options.mysqlBefore ? 'before' : 'after'} ${event} on ${table} for each row ${statement}`,
    );
  }
}

export async function dropVersionTriggers(knex: Knex, triggers: VersionTrigger[]): Promise<void> {
  for (const trigger of triggers) await knex.raw(`drop trigger if exists ${trigger.name}`);
}

/**
 * A trigger that moves `table`.version (a bigint column) on every update of a row that did not
 * move it itself, whoever writes. MySQL/MariaDB set it before the row is written; SQLite cannot
 * assign NEW, so it moves it after the fact (recursive triggers are off: that update fires nothing).
 */
export async function createRowVersionTrigger(knex: Knex, table: string, name: string): Promise<void> {
  await knex.raw(`drop trigger if exists ${name}`);
  await knex.raw(
    dialectOf(knex) === 'sqlite'
      ? `create trigger ${name} after update on ${table} for each row when NEW.version = OLD.version begin update ${table} set version = OLD.version + 1 where id = NEW.id; end`
      : `create trigger ${name} before update on ${table} for each row set NEW.version = OLD.version + 1`,
  );
}
