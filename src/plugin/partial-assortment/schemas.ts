import { idSchema } from '../../lib/ids.js';
import { objectSchema } from '../../lib/schemas.js';
import type { AssignmentKind } from './kinds.js';

export const LIST_DEFAULT_LIMIT = 25;
export const LIST_MAX_LIMIT = 500;
export const LIST_MAX_PAGE = 1_000_000;

export const listQuerySchema = objectSchema({
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: LIST_MAX_LIMIT,
    default: LIST_DEFAULT_LIMIT,
    description: `Assignments per page: 1 to ${LIST_MAX_LIMIT}, default ${LIST_DEFAULT_LIMIT}. Out of range is a 400.`,
  },
  page: {
    type: 'integer',
    minimum: 1,
    maximum: LIST_MAX_PAGE,
    default: 1,
    description: `Page to return, from 1 (default 1) to ${LIST_MAX_PAGE}. Out of range is a 400; a page past the last answers an empty data array.`,
  },
});

export function assignmentBodySchema(kind: AssignmentKind): Record<string, unknown> {
  return objectSchema(
    {
      [kind.idField]: { ...idSchema, description: `Id of the ${kind.label}.` },
      ruleId: { ...idSchema, description: 'Id of the rule a context must match to see it.' },
    },
    [kind.idField, 'ruleId'],
    {
      title: kind.bodyName,
      description: `Assigns a rule to a ${kind.label}: the ${kind.label} is then visible only to contexts matching at least one of its rules.`,
    },
  );
}

export function assignmentSchema(kind: AssignmentKind): Record<string, unknown> {
  return objectSchema(
    {
      id: { type: 'string', pattern: '^[0-9a-f]{64}$', description: `The ${kind.label} id and the rule id concatenated.` },
      type: { type: 'string', const: kind.type },
      attributes: objectSchema(
        { [kind.idField]: idSchema, [kind.versionField]: idSchema, ruleId: idSchema },
        [kind.idField, kind.versionField, 'ruleId'],
      ),
    },
    ['id', 'type', 'attributes'],
  );
}

const link = { type: 'string' };

export function assignmentListSchema(kind: AssignmentKind): Record<string, unknown> {
  return objectSchema(
    {
      data: { type: 'array', items: assignmentSchema(kind) },
      meta: objectSchema({ total: { type: 'integer', minimum: 0 } }, ['total']),
      links: objectSchema({ first: link, last: link, self: link, prev: link, next: link }, ['first', 'last', 'self']),
    },
    ['data', 'meta', 'links'],
  );
}
