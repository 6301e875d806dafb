import type { HostRuntime } from '../../contract/index.js';
import { inTransaction, isForeignKeyError } from '../../lib/db.js';
import { AppError, statusTitle, type ErrorObject } from '../../lib/errors.js';
import type { AssignmentKind } from './kinds.js';
import {
  assignmentExists,
  countAssignments,
  deleteAssignment,
  insertAssignmentIgnoringDuplicate,
  listAssignments,
  type AssignmentRow,
} from './repository.js';

export const ENTITY_NOT_FOUND = 'SUITE__PARTIAL_ASSORTMENT_ENTITY_NOT_FOUND';
export const RULE_NOT_FOUND = 'SUITE__PARTIAL_ASSORTMENT_RULE_NOT_FOUND';

export function invalidReferences(problems: ErrorObject[]): AppError {
  return new AppError(400, problems[0]!.code, problems[0]!.detail ?? '', { details: problems });
}

export function problem(code: string, detail: string, pointer: string): ErrorObject {
  return { status: '400', code, title: statusTitle(400), detail, source: { pointer } };
}

export function createPartialAssortmentService(host: HostRuntime) {
  const entityMissing = (kind: AssignmentKind, entityId: string) =>
    problem(ENTITY_NOT_FOUND, `There is no ${kind.label} with id "${entityId}".`, `/${kind.idField}`);

  return {
    async list(kind: AssignmentKind, limit: number, page: number): Promise<{ total: number; rows: AssignmentRow[] }> {
      const [total, rows] = await Promise.all([
        countAssignments(host.db, kind),
        listAssignments(host.db, kind, limit, (page - 1) * limit),
      ]);
      return { total, rows };
    },

    /** Assigns a rule; an existing pair is left as it is. Unknown entity or rule: a 400 naming each. */
    async assign(kind: AssignmentKind, entityId: string, ruleId: string): Promise<void> {
      try {
        await inTransaction(host.db, async (trx) => {
          const versionId = await host.catalog.entityVersionId(trx, kind.entity, entityId);
          const ruleExists = await host.rules.exists(trx, ruleId);
          const problems: ErrorObject[] = [];
          if (!versionId) problems.push(entityMissing(kind, entityId));
          if (!ruleExists) problems.push(problem(RULE_NOT_FOUND, `There is no rule with id "${ruleId}".`, '/ruleId'));
          if (problems.length > 0) throw invalidReferences(problems);
          if (await assignmentExists(trx, kind, entityId, ruleId)) return;
          await insertAssignmentIgnoringDuplicate(trx, kind, { entityId, versionId: versionId!, ruleId });
          await host.catalog.visibilityChanged(trx);
        });
      } catch (error) {
        // The entity was deleted between the check and the insert.
        if (isForeignKeyError(error)) throw invalidReferences([entityMissing(kind, entityId)]);
        throw error;
      }
    },

    /** Removes a pair; removing an absent pair is not an error. */
    async unassign(kind: AssignmentKind, entityId: string, ruleId: string): Promise<void> {
      await inTransaction(host.db, async (trx) => {
        if ((await deleteAssignment(trx, kind, entityId, ruleId)) > 0) await host.catalog.visibilityChanged(trx);
      });
    },
  };
}

export type PartialAssortmentService = ReturnType<typeof createPartialAssortmentService>;
