import { isContentResponse } from './pipeline.js';
import { pathParamNames, type AnyRoute } from './routes.js';
import type { JsonSchema } from './validation.js';

/**
 * GraphQL fields from route declarations, as lib/openapi.ts makes the OpenAPI document from them: one
 * field per route, a query for a read and a mutation for a change, its arguments and its result typed
 * from the route's JSON Schemas. What GraphQL cannot say of a schema (a union, a map, a recursive
 * criteria body, a property name GraphQL does not allow) is the `JSON` scalar, so every route has its
 * field and the pipeline's own validation still judges the input (decision 0060).
 */

export interface GraphqlArgument {
  name: string;
  /** Where the pipeline reads it: a path parameter, a query parameter, or the body (`input`). */
  from: 'params' | 'query' | 'body';
  /** The route's own name of a path or query parameter. */
  key: string;
}

export interface GraphqlField {
  route: AnyRoute;
  operation: 'Query' | 'Mutation';
  name: string;
  args: GraphqlArgument[];
  /** How the answer becomes the field's value: JSON as it is, `true` for no content, a content response as `B2bContent`. */
  result: 'json' | 'none' | 'content';
}

export interface GraphqlSchema {
  /** SDL to extend an API's schema with: `extend type Query`, `extend type Mutation` and their types. */
  sdl: string;
  fields: GraphqlField[];
}

/** The scalar a schema without a GraphQL shape becomes; Vendure's schema declares it. */
const JSON_SCALAR = 'JSON';
const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const READ_PREFIXES = ['list', 'read', 'get'];
const QUERY_POST_PREFIXES = ['search', 'list', 'read', 'check', 'preview', 'count', 'checkout'];

const pascal = (text: string): string =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

const camel = (text: string): string => {
  const name = pascal(text);
  return name[0]!.toLowerCase() + name.slice(1);
};

/** Verbs that stay in front, as in Vendure's own mutations (`createCustomer`, `transitionOrderToState`). */
const VERBS = new Set([
  'accept',
  'add',
  'apply',
  'approve',
  'assign',
  'cancel',
  'change',
  'check',
  'choose',
  'confirm',
  'count',
  'create',
  'decline',
  'delete',
  'download',
  'execute',
  'export',
  'import',
  'move',
  'order',
  'place',
  'preview',
  'put',
  'refresh',
  'reject',
  'remind',
  'remove',
  'render',
  'replace',
  'request',
  'resend',
  'reset',
  'save',
  'search',
  'send',
  'set',
  'start',
  'stop',
  'switch',
  'unassign',
  'update',
  'upsert',
  'withdraw',
]);

/** `listEmployees` → `b2bEmployees`, `createOrderApproval` → `createB2bOrderApproval`, `searchEvents` → `searchB2bEvents`. */
export function graphqlFieldName(operationId: string): string {
  const [, verb = '', rest = ''] = /^([a-z]+)(.*)$/.exec(operationId) ?? [];
  if (rest !== '' && READ_PREFIXES.includes(verb)) return `b2b${rest}`;
  if (rest !== '' && VERBS.has(verb)) return `${verb}B2b${rest}`;
  return `b2b${pascal(operationId)}`;
}

/** The field names of routes: `graphqlFieldName`, else `b2b` + the operationId where two would share one (null: a second route of the same operationId). */
export function graphqlFieldNames(operationIds: readonly string[]): Array<string | null> {
  // Whichever order the routes come in (declaration, an OpenAPI document's paths), a name two operations
  // would share goes to neither: both take their operationId's own.
  const sharers = new Map<string, Set<string>>();
  for (const operationId of operationIds) {
    const name = graphqlFieldName(operationId);
    sharers.set(name, (sharers.get(name) ?? new Set()).add(operationId));
  }
  const seen = new Set<string>();
  return operationIds.map((operationId) => {
    if (seen.has(operationId)) return null;
    seen.add(operationId);
    const name = graphqlFieldName(operationId);
    return sharers.get(name)!.size > 1 ? `b2b${pascal(operationId)}` : name;
  });
}

function isRead(route: AnyRoute): boolean {
  if (route.method === 'GET') return true;
  if (route.method !== 'POST') return false;
  const verb = /^[a-z]+/.exec(route.operationId)?.[0] ?? '';
  return QUERY_POST_PREFIXES.includes(verb);
}

type Kind = 'output' | 'input';

/** Named GraphQL types made from schemas, shared where two schemas have the same fields. */
class TypeRegistry {
  private readonly byShape = new Map<string, string>();
  private readonly taken = new Set<string>();
  readonly definitions: string[] = [];

  typeOf(schema: JsonSchema | undefined, nameHint: string, kind: Kind, required = false): string {
    const base = this.baseType(schema, nameHint, kind);
    return required && !allowsNull(schema) ? `${base}!` : base;
  }

  private baseType(schema: JsonSchema | undefined, nameHint: string, kind: Kind): string {
    if (!schema || typeof schema !== 'object') return JSON_SCALAR;
    const s = schema as Record<string, unknown>;
    const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
    // `nullable(x)` (lib/schemas.ts): x's type, and the field may be null.
    if (Array.isArray(alternatives) && !s.allOf) {
      const others = alternatives.filter((alt) => !isNullSchema(alt));
      if (others.length === 1 && others.length < alternatives.length) return this.baseType(others[0], nameHint, kind);
    }
    if (s.oneOf || s.anyOf || s.allOf || s.$ref || s.not || s.const !== undefined)
      return scalarOfEnum(s) ?? JSON_SCALAR;
    if (Array.isArray(s.enum)) return scalarOfEnum(s) ?? JSON_SCALAR;
    const type = mainType(s.type);
    switch (type) {
      case 'string':
        return 'String';
      case 'integer':
        return 'Int';
      case 'number':
        return 'Float';
      case 'boolean':
        return 'Boolean';
      case 'array': {
        const items = s.items as JsonSchema | undefined;
        if (!items || Array.isArray(items)) return JSON_SCALAR;
        return `[${this.typeOf(items, `${nameHint}Item`, kind, true)}]`;
      }
      case 'object':
        return this.objectType(s, nameHint, kind);
      default:
        return JSON_SCALAR;
    }
  }

  private objectType(s: Record<string, unknown>, nameHint: string, kind: Kind): string {
    const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
    const names = Object.keys(properties);
    // A map (additionalProperties with a schema) or an object GraphQL cannot name field by field.
    if (names.length === 0 || names.some((name) => !NAME.test(name)) || isSchema(s.additionalProperties))
      return JSON_SCALAR;
    const required = new Set((s.required as string[] | undefined) ?? []);
    const fields = names.map(
      (name) =>
        `  ${name}: ${this.typeOf(properties[name], `${nameHint}${pascal(name)}`, kind, kind === 'output' ? required.has(name) : required.has(name))}`,
    );
    const shape = `${kind}{${fields.join(',')}}`;
    const known = this.byShape.get(shape);
    if (known) return known;
    const name = this.freshName(kind === 'input' ? `${nameHint}Input` : nameHint);
    this.byShape.set(shape, name);
    this.definitions.push(`${kind === 'input' ? 'input' : 'type'} ${name} {\n${fields.join('\n')}\n}`);
    return name;
  }

  private freshName(wanted: string): string {
    let name = wanted;
    for (let n = 2; this.taken.has(name); n++) name = `${wanted}${n}`;
    this.taken.add(name);
    return name;
  }
}

function mainType(type: unknown): string | undefined {
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const kinds = type.filter((t) => t !== 'null');
    return kinds.length === 1 ? (kinds[0] as string) : undefined;
  }
  return undefined;
}

const isNullSchema = (schema: JsonSchema): boolean => (schema as { type?: unknown }).type === 'null';

function allowsNull(schema: JsonSchema | undefined): boolean {
  if (!schema || typeof schema !== 'object') return true;
  const s = schema as Record<string, unknown>;
  if (s.nullable === true || s.type === 'null') return true;
  if (Array.isArray(s.type) && s.type.includes('null')) return true;
  if (Array.isArray(s.enum) && s.enum.includes(null)) return true;
  const alternatives = (s.oneOf ?? s.anyOf) as JsonSchema[] | undefined;
  // A schema that names its types admits null only if it says so; an empty, typeless one admits it too.
  if (Array.isArray(alternatives)) return alternatives.some(allowsNull);
  return s.type === undefined && s.enum === undefined && s.const === undefined && !s.allOf && !s.$ref;
}

/** An enum or const of one scalar kind is that scalar (values are checked by the pipeline). */
function scalarOfEnum(s: Record<string, unknown>): string | null {
  const values = Array.isArray(s.enum) ? s.enum : s.const !== undefined ? [s.const] : null;
  if (!values) return null;
  const kinds = new Set(values.filter((v) => v !== null).map((v) => typeof v));
  if (kinds.size !== 1) return null;
  const [kind] = kinds;
  if (kind === 'string') return 'String';
  if (kind === 'boolean') return 'Boolean';
  if (kind === 'number') return values.every((v) => v === null || Number.isInteger(v)) ? 'Int' : 'Float';
  return null;
}

const isSchema = (value: unknown): boolean => typeof value === 'object' && value !== null;

/** The first success answer: its schema, none (204 only) or a content response. */
function successOf(route: AnyRoute): { kind: GraphqlField['result']; schema?: JsonSchema } {
  const statuses = Object.keys(route.schemas.responses)
    .map(Number)
    .filter((status) => status >= 200 && status < 300)
    .sort();
  const answers = statuses.map((status) => route.schemas.responses[status]);
  const json = answers.filter((answer): answer is JsonSchema => answer !== null && !isContentResponse(answer));
  if (json.length > 0)
    return { kind: 'json', schema: new Set(json.map((a) => JSON.stringify(a))).size === 1 ? json[0] : undefined };
  if (answers.some((answer) => isContentResponse(answer))) return { kind: 'content' };
  return { kind: 'none' };
}

function argumentsOf(
  route: AnyRoute,
  types: TypeRegistry,
  typeName: string,
): { args: GraphqlArgument[]; sdl: string[] } {
  const args: GraphqlArgument[] = [];
  const sdl: string[] = [];
  const paramProps =
    (route.schemas.params as { properties?: Record<string, JsonSchema> } | undefined)?.properties ?? {};
  for (const key of pathParamNames(route.path)) {
    const name = camel(key);
    args.push({ name, from: 'params', key });
    sdl.push(`${name}: ${types.typeOf(paramProps[key], `${typeName}${pascal(key)}`, 'input', true)}`);
  }
  const query = route.schemas.query as { properties?: Record<string, JsonSchema>; required?: string[] } | undefined;
  for (const [key, schema] of Object.entries(query?.properties ?? {})) {
    const name = NAME.test(key) ? key : camel(key);
    if (args.some((arg) => arg.name === name)) continue;
    args.push({ name, from: 'query', key });
    sdl.push(`${name}: ${types.typeOf(schema, `${typeName}${pascal(key)}`, 'input', query?.required?.includes(key))}`);
  }
  if (route.schemas.body) {
    const raw = Boolean(route.schemas.bodyContentType && route.schemas.bodyContentType !== 'application/json');
    const body = raw ? 'String' : types.typeOf(route.schemas.body, typeName, 'input');
    args.push({ name: 'input', from: 'body', key: 'input' });
    sdl.push(`input: ${body}`);
  }
  return { args, sdl };
}

/**
 * The GraphQL schema extension of one API's routes. `prefix` starts the type names (`B2bShop`,
 * `B2bAdmin`) so that the two APIs' types never meet; field names follow `graphqlFieldName` and take
 * the operationId's own name where two routes would share one.
 */
export function graphqlSchemaOf(routes: readonly AnyRoute[], prefix: string): GraphqlSchema {
  const types = new TypeRegistry();
  const fields: GraphqlField[] = [];
  const lines: Record<GraphqlField['operation'], string[]> = { Query: [], Mutation: [] };
  const names = graphqlFieldNames(routes.map((route) => route.operationId));
  const taken = new Set<string>();
  for (const [index, route] of routes.entries()) {
    const name = names[index];
    if (!name || taken.has(name)) continue;
    taken.add(name);
    const typeName = `${prefix}${pascal(route.operationId)}`;
    const operation = isRead(route) ? 'Query' : 'Mutation';
    const success = successOf(route);
    const { args, sdl } = argumentsOf(route, types, typeName);
    const result =
      success.kind === 'none'
        ? 'Boolean'
        : success.kind === 'content'
          ? 'B2bContent'
          : types.typeOf(success.schema, `${typeName}Result`, 'output');
    const description = JSON.stringify(`${route.summary} (${route.method} ${route.path})`);
    lines[operation].push(`  ${description}\n  ${name}${sdl.length ? `(${sdl.join(', ')})` : ''}: ${result}`);
    fields.push({ route, operation, name, args, result: success.kind });
  }
  const parts = [
    '"A file or text the route answers (a PDF document, a CSV export): its content type and the content, as text or base64."',
    'type B2bContent {\n  contentType: String!\n  text: String\n  base64: String\n}',
    ...types.definitions,
  ];
  for (const operation of ['Query', 'Mutation'] as const)
    if (lines[operation].length) parts.push(`extend type ${operation} {\n${lines[operation].join('\n')}\n}`);
  return { sdl: `${parts.join('\n\n')}\n`, fields };
}
