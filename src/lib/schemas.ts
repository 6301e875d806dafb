import { ID_PATTERN } from './ids.js';

/** Schema building blocks every module shares. */
export const idParam = { type: 'string', pattern: ID_PATTERN } as const;

/**
 * A closed object schema. The `const` type parameters keep the literal types of what is passed, so
 * `FromSchema` (json-schema-to-ts) reads the same object ajv compiles and OpenAPI publishes.
 */
export function objectSchema<
  const P extends Record<string, unknown>,
  const R extends readonly string[] = [],
  const E extends Record<string, unknown> = {}, // eslint-disable-line @typescript-eslint/no-empty-object-type
>(
  properties: P,
  required?: R,
  extra?: E,
): { type: 'object'; additionalProperties: false; properties: P; required: R } & E {
  return {
    type: 'object',
    additionalProperties: false,
    properties,
    required: required ?? ([] as unknown as R),
    ...(extra ?? ({} as E)),
  };
}

export function pathParams<const N extends readonly string[]>(
  ...names: N
): { type: 'object'; additionalProperties: false; properties: { [K in N[number]]: typeof idParam }; required: N } {
  return objectSchema(
    Object.fromEntries(names.map((n) => [n, idParam])) as { [K in N[number]]: typeof idParam },
    names,
  );
}

/** A body that carries nothing (POST routes the spec lists with input "none"). */
export const emptyBody = { type: 'object', additionalProperties: false, properties: {} } as const;

/** Any JSON object; for responses whose records the spec does not show in full. */
export const looseObject = { type: 'object', additionalProperties: true } as const;

export const successResponse = objectSchema({ success: { type: 'boolean', const: true } }, ['success']);

export const nullable = <const S extends Record<string, unknown>>(schema: S): { anyOf: [S, { type: 'null' }] } => ({
  anyOf: [schema, { type: 'null' }],
});
