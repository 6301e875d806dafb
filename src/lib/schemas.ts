import { ID_PATTERN } from './ids.js';

/** Schema building blocks every module shares. */
export const idParam = { type: 'string', pattern: ID_PATTERN } as const;

export function objectSchema(
  properties: Record<string, unknown>,
  required: string[] = [],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { type: 'object', additionalProperties: false, properties, required, ...extra };
}

export function pathParams(...names: string[]): Record<string, unknown> {
  return objectSchema(Object.fromEntries(names.map((n) => [n, idParam])), names);
}

/** A body that carries nothing (POST routes the spec lists with input "none"). */
export const emptyBody = { type: 'object', additionalProperties: false, properties: {} } as const;

/** Any JSON object; for responses whose records the spec does not show in full. */
export const looseObject = { type: 'object', additionalProperties: true } as const;

export const successResponse = objectSchema({ success: { type: 'boolean', const: true } }, ['success']);

export const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });
