import { idSchema } from '../../lib/ids.js';
import { jsonApiListSchema, jsonApiPageQuery } from '../../lib/json-api.js';
import { objectSchema } from '../../lib/schemas.js';
import type { AssignmentKind } from './kinds.js';

export const listQuerySchema = objectSchema(jsonApiPageQuery);

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

export function assignmentListSchema(kind: AssignmentKind): Record<string, unknown> {
  return jsonApiListSchema(assignmentSchema(kind));
}
