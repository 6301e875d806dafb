import { VISIBILITY_ID_MARKER, type VisibilityConstraint } from '../../contract/index.js';
import { dialectOf, readInt, selectRows, type Executor } from '../../lib/db.js';
import { nowDb } from '../../lib/time.js';
import type { AssignmentKind } from './kinds.js';

export interface AssignmentRow {
  entityId: string;
  versionId: string;
  ruleId: string;
}

export async function countAssignments(executor: Executor, kind: AssignmentKind): Promise<number> {
  const [row] = await selectRows<{ count: unknown }>(executor(kind.table).count({ count: '*' }));
  return readInt(row?.count);
}

/** One page in primary-key order, so pages are stable and the query walks the key. */
export function listAssignments(
  executor: Executor,
  kind: AssignmentKind,
  limit: number,
  offset: number,
): Promise<AssignmentRow[]> {
  return selectRows<AssignmentRow>(
    executor(kind.table)
      .select({ entityId: kind.entityColumn, versionId: kind.versionColumn, ruleId: 'rule_id' })
      .orderBy([kind.entityColumn, 'rule_id'])
      .limit(limit)
      .offset(offset),
  );
}

export async function assignmentExists(
  executor: Executor,
  kind: AssignmentKind,
  entityId: string,
  ruleId: string,
): Promise<boolean> {
  return (
    (await executor(kind.table)
      .where({ [kind.entityColumn]: entityId, rule_id: ruleId })
      .first(kind.entityColumn)) !== undefined
  );
}

/** Inserts the pair unless it exists; the primary key makes concurrent inserts of one pair collapse to one row. */
export async function insertAssignmentIgnoringDuplicate(
  executor: Executor,
  kind: AssignmentKind,
  row: AssignmentRow,
): Promise<void> {
  await executor(kind.table)
    .insert({
      [kind.entityColumn]: row.entityId,
      [kind.versionColumn]: row.versionId,
      rule_id: row.ruleId,
      created_at: nowDb(),
    })
    .onConflict([kind.entityColumn, 'rule_id'])
    .ignore();
}

export async function deleteAssignment(
  executor: Executor,
  kind: AssignmentKind,
  entityId: string,
  ruleId: string,
): Promise<number> {
  return executor(kind.table)
    .where({ [kind.entityColumn]: entityId, rule_id: ruleId })
    .del();
}

/** Entities with at least one assignment, at most `max` + 1 of them (so the caller can tell "more than max"). */
export async function restrictedEntities(executor: Executor, kind: AssignmentKind, max: number): Promise<string[]> {
  const rows = await selectRows<Record<string, string>>(
    executor(kind.table)
      .distinct(kind.entityColumn)
      .orderBy(kind.entityColumn)
      .limit(max + 1),
  );
  return rows.map((r) => r[kind.entityColumn]!);
}

/** Entities any of the rules unlocks, at most `max` + 1 of them. */
export async function entitiesUnlockedBy(
  executor: Executor,
  kind: AssignmentKind,
  ruleIds: string[],
  max: number,
): Promise<string[]> {
  const rows = await selectRows<Record<string, string>>(
    executor(kind.table)
      .distinct(kind.entityColumn)
      .whereIn('rule_id', ruleIds)
      .limit(max + 1),
  );
  return rows.map((r) => r[kind.entityColumn]!);
}

/** The entities were deleted by the host (contract event): their assignments go with them. */
export async function deleteAssignmentsOfEntities(
  executor: Executor,
  kind: AssignmentKind,
  entityIds: string[],
): Promise<void> {
  await executor(kind.table).whereIn(kind.entityColumn, entityIds).delete();
}

/**
 * `(no assignment for the entity) OR (an assignment with one of the context's rules)` as
 * correlated probes of the assignment table's primary key (entity, rule): a listing page walks its
 * sort index and probes only the rows it looks at (totals are kept by the host's listing cache, so
 * a full count runs rarely). On MySQL/MariaDB written as scalar counts, not EXISTS: MariaDB turns
 * EXISTS into a materialized semi-join that copies the whole assignment table on every statement.
 * `unlocked`, when known, replaces the second probe by a list. Compiled by the plugin's knex for
 * the dialect; VISIBILITY_ID_MARKER stands for the host's id column.
 */
export function restrictBySubqueries(
  executor: Executor,
  kind: AssignmentKind,
  ruleIds: string[],
  unlocked: string[] | null,
): VisibilityConstraint {
  const entityColumn = `${kind.table}.${kind.entityColumn}`;
  const id = VISIBILITY_ID_MARKER;
  const list = (values: string[]) => values.map(() => '?').join(', ');
  // SQLite stops an EXISTS at the first row; a count reads every assignment of the entity (3× slower per listing page).
  const sqlite = dialectOf(executor) === 'sqlite';
  let sql = sqlite
    ? `not exists (select 1 from ?? where ?? = ${id})`
    : `(select count(*) from ?? where ?? = ${id}) = 0`;
  const bindings: string[] = [kind.table, entityColumn];
  if (ruleIds.length > 0 && unlocked && unlocked.length > 0) {
    sql += ` or ${id} in (${list(unlocked)})`;
    bindings.push(...unlocked);
  } else if (ruleIds.length > 0 && !unlocked) {
    sql += sqlite
      ? ` or exists (select 1 from ?? where ?? = ${id} and ?? in (${list(ruleIds)}))`
      : ` or (select count(*) from ?? where ?? = ${id} and ?? in (${list(ruleIds)})) > 0`;
    bindings.push(kind.table, entityColumn, `${kind.table}.rule_id`, ...ruleIds);
  }
  const compiled = executor.raw(sql, bindings).toSQL();
  return { kind: 'sql', sql: compiled.sql, bindings: [...compiled.bindings] };
}
