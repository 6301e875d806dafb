import type { Knex } from 'knex';
import { dialectOf } from './db.js';

/** Column helpers (host and plugin migrations) so every migration builds the same types on SQLite, MySQL/MariaDB and PostgreSQL. */
export function idColumn(t: Knex.CreateTableBuilder, name = 'id'): Knex.ColumnBuilder {
  return t.string(name, 32);
}

export function timestamps(t: Knex.CreateTableBuilder): void {
  dateTime(t, 'created_at').notNullable();
  dateTime(t, 'updated_at').nullable();
}

/**
 * A UTC time to the millisecond, written and read as 'YYYY-MM-DD HH:MM:SS.mmm' (src/lib/time.ts):
 * DATETIME(3) on MySQL/MariaDB, timestamp(3) without time zone on PostgreSQL, datetime on SQLite.
 */
export function dateTime(t: Knex.CreateTableBuilder, name: string): Knex.ColumnBuilder {
  return t.datetime(name, { precision: 3, useTz: false });
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
  return dialectOf(knex) === 'mysql' ? t.specificType(name, 'LONGBLOB') : t.binary(name);
}

export type RowEvent = 'insert' | 'update' | 'delete';

/** A trigger that moves a data version (a counter row) on every row an `event` writes to `table`. */
export interface VersionTrigger {
  name: string;
  table: string;
  event: RowEvent;
}

/** Insert, update and delete triggers on each of `tables`, named `<table>_version_<event>` unless told. */
export function versionTriggersOn(
  tables: string[],
  name = (table: string, event: RowEvent) => `${table}_version_${event}`,
): VersionTrigger[] {
  return tables.flatMap((table) =>
    (['insert', 'update', 'delete'] as const).map((event) => ({ name: name(table, event), table, event })),
  );
}

/** A row trigger as each database writes it; `body` is the statement it runs (NEW and OLD name the row). */
export interface RowTrigger {
  name: string;
  table: string;
  event: RowEvent;
  timing: 'before' | 'after';
  /** Runs only for rows where this condition holds (SQL over NEW/OLD, `is not` spelled per database by the caller). */
  when?: string;
  /** A statement over other rows, or, for a before trigger, an assignment `NEW.column = …`. */
  body: string;
}

/**
 * The statements that (re)create `trigger`. SQLite: `begin …; end` (always after: SQLite cannot assign NEW, so
 * a before-assignment becomes an update of the row afterwards, see createRowVersionTrigger). MySQL/MariaDB: the
 * statement itself, a condition as `if … then … end if`. PostgreSQL: a trigger function in PL/pgSQL, the
 * condition in the trigger's WHEN.
 */
export function rowTriggerStatements(knex: Knex, trigger: RowTrigger): string[] {
  const { name, table, event, timing, when, body } = trigger;
  const dialect = dialectOf(knex);
  if (dialect === 'sqlite')
    return [
      `create trigger ${name} after ${event} on ${table} for each row${when ? ` when ${when}` : ''} begin ${body}; end`,
    ];
  if (dialect === 'mysql') {
    const statement = /^NEW\.\w+\s*=/i.test(body) ? `set ${body}` : body;
    return [
      `create trigger ${name} ${timing} ${event} on ${table} for each row ${when ? `begin if ${when} then ${statement}; end if; end` : statement}`,
    ];
  }
  const assignment = /^NEW\.\w+\s*=/i.test(body);
  const functionBody = assignment
    ? `begin ${body.replace(/^(NEW\.\w+)\s*=/i, '$1 :=')}; return NEW; end`
    : `begin ${body}; return null; end`;
  return [
    `create or replace function ${name}_fn() returns trigger language plpgsql as $$ ${functionBody} $$`,
    `create trigger ${name} ${timing} ${event} on ${table} for each row${when ? ` when (${when})` : ''} execute function ${name}_fn()`,
  ];
}

/** Drops a trigger made by rowTriggerStatements (and its PostgreSQL function). */
export async function dropRowTrigger(knex: Knex, trigger: { name: string; table: string }): Promise<void> {
  if (dialectOf(knex) !== 'postgres') {
    await knex.raw(`drop trigger if exists ${trigger.name}`);
    return;
  }
  await knex.raw(`drop trigger if exists ${trigger.name} on ${trigger.table}`);
  await knex.raw(`drop function if exists ${trigger.name}_fn()`);
}

/**
 * (Re)creates `triggers`, each running `bump` (the update that moves the counter; per event when
 * it names the row, e.g. NEW or OLD) for every row written. Dropped first: MySQL/MariaDB commit each
 * DDL statement, so a migration that stopped half-way is run again from the top. `mysqlBefore`: on
 * MySQL/MariaDB the trigger runs before the row is written (SQLite and PostgreSQL after), so a bump of a
 * parent row locks it before the row's foreign key check takes a shared lock on it (PostgreSQL's
 * key-share lock of a foreign key check does not conflict with the bump's update).
 */
export async function createVersionTriggers(
  knex: Knex,
  triggers: VersionTrigger[],
  bump: string | ((event: RowEvent) => string),
  options: { mysqlBefore?: boolean } = {},
): Promise<void> {
  const before = options.mysqlBefore && dialectOf(knex) === 'mysql';
  for (const { name, table, event } of triggers) {
    const body = typeof bump === 'string' ? bump : bump(event);
    await dropRowTrigger(knex, { name, table });
    for (const statement of rowTriggerStatements(knex, {
      name,
      table,
      event,
      timing: before ? 'before' : 'after',
      body,
    }))
      await knex.raw(statement);
  }
}

export async function dropVersionTriggers(knex: Knex, triggers: VersionTrigger[]): Promise<void> {
  for (const trigger of triggers) await dropRowTrigger(knex, trigger);
}

/**
 * A trigger that moves `table`.version (a bigint column) on every update of a row that did not
 * move it itself, whoever writes. MySQL/MariaDB and PostgreSQL set it before the row is written; SQLite cannot
 * assign NEW, so it moves it after the fact (recursive triggers are off: that update fires nothing).
 */
export async function createRowVersionTrigger(knex: Knex, table: string, name: string): Promise<void> {
  await dropRowTrigger(knex, { name, table });
  const dialect = dialectOf(knex);
  const trigger: RowTrigger =
    dialect === 'sqlite'
      ? {
          name,
          table,
          event: 'update',
          timing: 'after',
          when: 'NEW.version = OLD.version',
          body: `update ${table} set version = OLD.version + 1 where id = NEW.id`,
        }
      : {
          name,
          table,
          event: 'update',
          timing: 'before',
          when: dialect === 'postgres' ? 'NEW.version = OLD.version' : undefined,
          body: 'NEW.version = OLD.version + 1',
        };
  for (const statement of rowTriggerStatements(knex, trigger)) await knex.raw(statement);
}
