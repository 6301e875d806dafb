import { idSchema } from '../../lib/ids.js';
import { jsonApiListSchema, jsonApiPageQuery } from '../../lib/json-api.js';
import type { TypedSchema } from '../../lib/routes.js';
import { idParam, objectSchema, pathParams } from '../../lib/schemas.js';
import type { AssignmentKind } from './kinds.js';

/** The entity's id under the kind's field name (`categoryId`, `landingPageId`, `productId`), and the rule id. */
export type AssignmentInput<IdField extends string> = Record<IdField | 'ruleId', string>;

export const listQuerySchema = objectSchema(jsonApiPageQuery);

/** The field name is the kind's, which `FromSchema` cannot read from a computed key: the admitted type is stated here. */
export function assignmentBodySchema<IdField extends string>(
  kind: AssignmentKind<IdField>,
): TypedSchema<AssignmentInput<IdField>> {
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
  ) as unknown as TypedSchema<AssignmentInput<IdField>>;
}

/** The DELETE path: `/{<idField>}/{ruleId}`. */
export function assignmentParamsSchema<IdField extends string>(
  kind: AssignmentKind<IdField>,
): TypedSchema<AssignmentInput<IdField>> {
  return pathParams(kind.idField, 'ruleId') as unknown as TypedSchema<AssignmentInput<IdField>>;
}

/** A listed assignment: its attributes under the kind's field names (the version field's name is the kind's too). */
export interface AssignmentResource<IdField extends string> {
  id: string;
  type: string;
  attributes: AssignmentInput<IdField> & Record<string, string>;
}

export function assignmentSchema<IdField extends string>(
  kind: AssignmentKind<IdField>,
): TypedSchema<AssignmentResource<IdField>> {
  const schema = objectSchema(
    {
      id: {
        type: 'string',
        pattern: '^[0-9a-f]{64}$',
        description: `The ${kind.label} id and the rule id concatenated.`,
      },
      type: { type: 'string', const: kind.type },
      attributes: objectSchema({ [kind.idField]: idSchema, [kind.versionField]: idSchema, ruleId: idSchema }, [
        kind.idField,
        kind.versionField,
        'ruleId',
      ]),
    },
    ['id', 'type', 'attributes'],
  );
  return schema as unknown as TypedSchema<AssignmentResource<IdField>>;
}

export function assignmentListSchema<IdField extends string>(kind: AssignmentKind<IdField>) {
  return jsonApiListSchema(assignmentSchema(kind));
}

export const previewBodySchema = objectSchema(
  {
    customerNumber: { type: 'string', minLength: 1, maxLength: 100 },
    employeeId: { ...idSchema, description: 'See the shop as this employee of the customer (its role and units).' },
  },
  ['customerNumber'],
);

const hiddenIds = objectSchema(
  {
    ids: { type: 'array', items: idSchema, description: 'At most 500.' },
    more: { type: 'boolean', description: 'More entities are restricted than were looked at.' },
  },
  ['ids', 'more'],
);

export const previewResponseSchema = objectSchema(
  {
    data: objectSchema(
      {
        customer: objectSchema(
          {
            id: idSchema,
            customerNumber: { type: ['string', 'null'] },
            company: { type: ['string', 'null'] },
          },
          ['id', 'customerNumber', 'company'],
        ),
        ruleIds: { type: 'array', items: idSchema, description: 'The rules the customer matches.' },
        hidden: objectSchema({ category: hiddenIds, landingPage: hiddenIds, product: hiddenIds }, [
          'category',
          'landingPage',
          'product',
        ]),
        products: {
          type: 'array',
          description: 'The first 100 hidden products.',
          items: objectSchema({ id: idSchema, productNumber: { type: 'string' }, name: { type: 'string' } }, [
            'id',
            'productNumber',
            'name',
          ]),
        },
      },
      ['customer', 'ruleIds', 'hidden', 'products'],
    ),
  },
  ['data'],
);

export const unitRulesParams = pathParams('unitId');

export const unitRulesBody = objectSchema(
  { ruleIds: { type: 'array', items: idParam, maxItems: 100, uniqueItems: true } },
  ['ruleIds'],
);

export const unitRulesResponse = objectSchema(
  {
    data: objectSchema(
      {
        id: { type: 'string' },
        type: { const: 'b2b_unit_partial_assortment_rules' },
        attributes: objectSchema(
          { customerId: { type: 'string' }, ruleIds: { type: 'array', items: { type: 'string' } } },
          ['customerId', 'ruleIds'],
        ),
      },
      ['id', 'type', 'attributes'],
    ),
  },
  ['data'],
);
