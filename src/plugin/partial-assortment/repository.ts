import { readInt, selectRows, type Executor } from '../../lib/db.js';
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
