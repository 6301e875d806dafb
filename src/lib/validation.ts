import { Ajv2020, type ErrorObject as AjvError, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { AppError, statusTitle, type ErrorObject } from './errors.js';

export type JsonSchema = Record<string, unknown>;

// ajv-formats ships CommonJS; under NodeNext its default export is the module object.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

function makeAjv(coerceTypes: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    useDefaults: true,
    coerceTypes: coerceTypes ? 'array' : false,
    strict: false,
    removeAdditional: false,
  });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  return ajv;
}

/** Bodies are JSON and keep their types; path and query values are strings and get coerced. */
const bodyAjv = makeAjv(false);
const paramAjv = makeAjv(true);

const cache = new WeakMap<object, ValidateFunction>();

export type ValidationTarget = 'body' | 'query' | 'params' | 'response';

export function compileSchema(schema: JsonSchema, target: ValidationTarget): ValidateFunction {
  const cached = cache.get(schema);
  if (cached) return cached;
  const ajv = target === 'body' || target === 'response' ? bodyAjv : paramAjv;
  const validate = ajv.compile(schema);
  cache.set(schema, validate);
  return validate;
}

function pointerOf(error: AjvError): string {
  const base = error.instancePath;
  if (error.keyword === 'required') return `${base}/${(error.params as { missingProperty: string }).missingProperty}`;
  if (error.keyword === 'additionalProperties')
    return `${base}/${(error.params as { additionalProperty: string }).additionalProperty}`;
  return base || '/';
}

function messageOf(error: AjvError): string {
  if (error.keyword === 'additionalProperties')
    return `Unknown field "${(error.params as { additionalProperty: string }).additionalProperty}".`;
  if (error.keyword === 'required')
    return `The field "${(error.params as { missingProperty: string }).missingProperty}" is required.`;
  return `${error.instancePath || 'The value'} ${error.message ?? 'is invalid'}.`;
}

/** Validates (and, for params and query, coerces and defaults) in place; throws a 400 listing every problem. */
export function validateOrThrow<T>(
  schema: JsonSchema,
  data: unknown,
  target: Exclude<ValidationTarget, 'response'>,
): T {
  const validate = compileSchema(schema, target);
  let valid: boolean;
  try {
    valid = validate(data);
  } catch (error) {
    // Recursive schemas (criteria filters, rule conditions) recurse with the input: absurd nesting overflows the stack.
    if (error instanceof RangeError)
      throw new AppError(400, 'SUITE__INPUT_TOO_DEEP', `The ${target} is nested too deeply.`);
    throw error;
  }
  if (valid) return data as T;
  const details: ErrorObject[] = (validate.errors ?? [])
    .filter((e) => e.keyword !== 'if')
    .slice(0, 20)
    .map((e) => {
      const pointer = pointerOf(e);
      return {
        status: '400',
        code: 'SUITE__INVALID_INPUT',
        title: statusTitle(400),
        detail: messageOf(e),
        // The rule and its parameters, so a form can say it as a sentence (src/lib/validation-sentences.ts).
        meta: { rule: e.keyword, ...(e.params as Record<string, unknown>) },
        source: target === 'body' ? { pointer } : { parameter: pointer.replace(/^\//, '').split('/')[0] || target },
      };
    });
  throw new AppError(400, 'SUITE__INVALID_INPUT', details[0]?.detail ?? 'Invalid input.', { details });
}

/** Used in tests (and optionally in production) to hold handlers to their declared responses. */
export function responseProblems(schema: JsonSchema, data: unknown): string | null {
  const validate = compileSchema(schema, 'response');
  if (validate(data)) return null;
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
}
