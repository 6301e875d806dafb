import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { JsonSchema } from './validation.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A non-JSON response (CSV, PDF, HTML): documented by content type. */
export interface ContentResponse {
  contentType: string;
  description?: string;
}

export interface RouteSchemas {
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  /** Publishes the body under components.requestBodies with this name. */
  bodyName?: string;
  /** For a non-JSON request body (e.g. 'text/csv'); the raw text arrives as `body`. */
  bodyContentType?: string;
  /** status → JSON Schema, a content type, or null for "no content". */
  responses: Record<number, JsonSchema | ContentResponse | null>;
}

export interface RateLimitRule {
  /** Counter name; counters are kept per key in the database, so they hold across processes. */
  name: string;
  limit: number;
  windowSeconds: number;
  /** What a key is made of: the client address, and/or a body field (e.g. 'email'). */
  /** `ip`, `body.<field>`, or `body.<a>|<b>` for one identity sent under either field name. */
  by: Array<'ip' | `body.${string}`>;
}

/**
 * Who may call a route. Store API callers are `guest`, `customer` (the company login), `employee`
 * and `salesRepresentative`; every Admin API principal (integration or user) is `admin`.
 */
export type ActorName = 'guest' | 'customer' | 'employee' | 'salesRepresentative' | 'admin';
export type StoreActorName = Exclude<ActorName, 'admin'>;

/** Response headers a handler may set or remove (the HTTP adapter writes them; in-process calls drop them). */
export interface ResponseHeaders {
  setHeader(name: string, value: string): void;
  removeHeader(name: string): void;
}

/** What a handler receives: the caller's context and its validated input, nothing of the transport. */
export interface RouteInput<C, B, Q, P> {
  ctx: C;
  body: B;
  query: Q;
  params: P;
  headers: ResponseHeaders;
}

/** What a handler may return instead of a plain JSON body. */
export interface Reply {
  readonly kind: 'reply';
  status: number;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export function reply(
  status: number,
  body?: unknown,
  options: { contentType?: string; headers?: Record<string, string> } = {},
): Reply {
  return { kind: 'reply', status, body, ...options };
}

export const noContent = (): Reply => reply(204);

export function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && (value as Reply).kind === 'reply';
}

/**
 * Who may call: the part of a declaration the pipeline checks before any input is read
 * (`src/lib/pipeline.ts`). Routes and storefront pages share it.
 */
export interface RouteGate {
  /** Interpreted by the API it is mounted on (Store API: 'public' | 'login'; Admin API: 'admin' | 'public'). */
  auth: string;
  /**
   * The actors that may call; absent = every actor `auth` lets in (Store API 'login': customer,
   * employee, sales representative; 'public': guests too; Admin API: admin). A guest on a route
   * without 'guest' answers 401, another actor 403 (`actorRefusal` names the code).
   */
  actors?: ActorName[];
  /**
   * The caller must act for a customer (`ctx.customer` set): a sales representative who has not
   * chosen one answers 403 SUITE__NO_CUSTOMER_CONTEXT. Customers and employees always act for one.
   */
  needsCustomer?: boolean;
  /** A permission key, or null when any caller the actors admit may call it. Must be stated. */
  permission: string | null;
  /** Checked before authentication; several rules = several counters (e.g. per address and per e-mail). */
  rateLimit?: RateLimitRule | RateLimitRule[];
}

/**
 * A route is declared once: this object validates, authorizes and documents it. The input types
 * B, Q and P are what `schemas.body`, `.query` and `.params` admit: a generic `defineRoute` can infer
 * them from those three schemas (they are plain properties of one object, nothing else shapes them).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the defaults are for lists of routes of different inputs (handler parameters are contravariant); a declared route gets its B, Q, P from its schemas (defineStoreRoute / defineAdminRoute)
export interface RouteDefinition<C = unknown, B = any, Q = any, P = any> extends RouteGate {
  method: HttpMethod;
  /** OpenAPI-style path relative to the API root, e.g. '/b2b/employee/{id}'. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  schemas: RouteSchemas;
  /** Create-like POSTs: an Idempotency-Key header replays the first response. */
  idempotent?: boolean;
  /** Set by `routeAlias`: the operationId of the route this one answers like (OpenAPI `x-suite-alias-of`). */
  aliasOf?: string;
  handler: (input: RouteInput<C, B, Q, P>) => Promise<unknown>;
}

/** TypedSchema's phantom key (it exists only in types): exported so a declaration file can name an inferred type that carries it. */
export declare const validatedAs: unique symbol;

/**
 * A schema that states the type of what it admits, for schemas `FromSchema` cannot read (the
 * criteria body's recursive `$defs`): the type is a phantom, the object stays the plain schema.
 */
export type TypedSchema<T> = JsonSchema & { readonly [validatedAs]: T };

/**
 * What a schema admits once validated: the stated type of a `TypedSchema`, else `FromSchema` of
 * the literal schema (json-schema-to-ts). A schema typed only as `Record<string, unknown>` admits
 * `unknown`: the handler narrows it or the schema gets `as const` / the `const` helpers.
 */
export type SchemaInput<S> = S extends { readonly [validatedAs]: infer T }
  ? T
  : S extends JSONSchema
    ? FromSchema<S>
    : unknown;

/** The handler's input types of a route with the schemas S: no body schema, no body; no params/query schema, nothing to read. */
export type BodyOf<S extends RouteSchemas> = S extends { body: infer B }
  ? S extends { bodyContentType: string }
    ? string
    : SchemaInput<B>
  : undefined;
export type QueryOf<S extends RouteSchemas> = S extends { query: infer Q } ? SchemaInput<Q> : Record<never, never>;
export type ParamsOf<S extends RouteSchemas> = S extends { params: infer P } ? SchemaInput<P> : Record<never, never>;

/** A route whose handler's body, query and params are inferred from its `schemas` (see `defineStoreRoute`). */
export type TypedRoute<C, S extends RouteSchemas> = Omit<RouteDefinition<C>, 'schemas' | 'handler'> & {
  schemas: S;
  handler: (input: RouteInput<C, BodyOf<S>, QueryOf<S>, ParamsOf<S>>) => Promise<unknown>;
};

/**
 * What a route answers to an in-process call: the type of its success response (200, 201 or 202:
 * what the schema admits; a content type: the Reply; 204: nothing).
 */
type SuccessStatus = 200 | 201 | 202 | 204;
type AnswerOfResponse<R> = R extends null
  ? void
  : R extends { readonly [validatedAs]: infer T }
    ? T
    : R extends ContentResponse
      ? Reply
      : SchemaInput<R>;
export type ResponseOf<S extends RouteSchemas> = number extends keyof S['responses'] ? unknown : SuccessOf<S>;
type SuccessOf<S extends RouteSchemas> = {
  [K in Extract<keyof S['responses'], SuccessStatus>]: AnswerOfResponse<S['responses'][K]>;
}[Extract<keyof S['responses'], SuccessStatus>];

/** One part of a call's input: absent when the route declares none, optional when `{}` would do. */
type InputPart<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: never }
  : Record<never, never> extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

/** What a caller may send for a schema: as it admits it, where a property with a `default` may be left out (ajv fills it in). */
type SchemaArgument<S> = S extends { readonly [validatedAs]: infer T }
  ? T
  : S extends JSONSchema
    ? FromSchema<S, { keepDefaultedPropertiesOptional: true }>
    : unknown;

/** The input an in-process call of a route with the schemas S passes: its params, query and body as the schemas admit them. */
export type CallInputOf<S extends RouteSchemas> = InputPart<
  'params',
  S extends { params: infer P } ? SchemaArgument<P> : undefined
> &
  InputPart<'query', S extends { query: infer Q } ? SchemaArgument<Q> : undefined> &
  InputPart<
    'body',
    S extends { body: infer B } ? (S extends { bodyContentType: string } ? string : SchemaArgument<B>) : undefined
  >;

declare const callTypes: unique symbol;

/**
 * A route a caller addresses without its declaration: the operationId and the types of its input and
 * answer (the host's own Admin API routes a console page calls, `HOST_ADMIN_ROUTES` of the contract).
 */
export interface RouteRef<I, A> {
  readonly operationId: string;
  readonly [callTypes]: { input: I; answer: A };
}

export function routeRef<I, A>(operationId: string): RouteRef<I, A> {
  return { operationId } as RouteRef<I, A>;
}

/** A route as a value an in-process call takes: a declaration (its schemas type the call) or a RouteRef. */
export type CallableRoute =
  { readonly operationId: string; readonly schemas: RouteSchemas } | RouteRef<unknown, unknown>;

export type InputOf<R> =
  R extends RouteRef<infer I, unknown>
    ? I
    : R extends { schemas: infer S extends RouteSchemas }
      ? CallInputOf<S>
      : never;
export type AnswerOf<R> =
  R extends RouteRef<unknown, infer A>
    ? A
    : R extends { schemas: infer S extends RouteSchemas }
      ? ResponseOf<S>
      : never;

/** A call's input argument: optional when the route needs nothing. */
export type CallArgs<R, Extra = unknown> =
  Record<never, never> extends InputOf<R> ? [input?: InputOf<R> & Extra] : [input: InputOf<R> & Extra];

/** A declared route that keeps its operationId and schemas as types (what `defineStoreRoute` returns). */
export type Declared<Base, O extends string, S extends RouteSchemas> = Omit<Base, 'operationId' | 'schemas'> & {
  operationId: O;
  schemas: S;
};

/** A list of declared routes by operationId; a route whose operationId is only `string` is not addressable. */
export type RoutesByName<R extends { operationId: string }> = {
  readonly [X in R as string extends X['operationId'] ? never : X['operationId']]: X;
};

/** Makes a route factory's routes addressable by name: `routesByName(fastOrderRoutes(host)).addProductsToCart`. */
export function routesByName<R extends { operationId: string }>(routes: readonly R[]): RoutesByName<R> {
  const byName: Record<string, R> = {};
  for (const route of routes) {
    if (route.operationId in byName) throw new Error(`two routes with operationId "${route.operationId}"`);
    byName[route.operationId] = route;
  }
  return byName as RoutesByName<R>;
}

/** Routes by name as references: each a RouteRef typed from its declaration. */
export type RouteRefsOf<R extends { operationId: string }> = {
  readonly [K in keyof RoutesByName<R>]: RouteRef<InputOf<RoutesByName<R>[K]>, AnswerOf<RoutesByName<R>[K]>>;
};

/**
 * References to routes another part of the plugin declares and the host serves, for a caller that
 * runs the host's copy (a console page): `routeRefs<QuantityRuleAdminRoute>().listSuiteQuantityRules`.
 * Only the declared names compile, and a name is its route's operationId (RoutesByName keys on it).
 */
export function routeRefs<R extends { operationId: string }>(): RouteRefsOf<R> {
  return new Proxy({} as RouteRefsOf<R>, {
    get: (_, name) => (typeof name === 'string' ? routeRef(name) : undefined),
  });
}

export function rateLimitRules(gate: Pick<RouteGate, 'rateLimit'>): RateLimitRule[] {
  return gate.rateLimit === undefined ? [] : Array.isArray(gate.rateLimit) ? gate.rateLimit : [gate.rateLimit];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any route, whatever its context and input types: handler parameters are contravariant, so `unknown` would refuse them
export type AnyRoute = RouteDefinition<any, any, any, any>;

export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!);
}

/** '/b2b/address/switch-{type}/{addressId}' → '/b2b/address/switch-:type/:addressId' */
export function toExpressPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

/** Refuses declarations that could not validate or document themselves. */
export function assertRouteDeclared(route: AnyRoute): void {
  const where = `${route.method} ${route.path}`;
  if (!route.schemas?.responses || Object.keys(route.schemas.responses).length === 0)
    throw new Error(`route ${where} declares no response schema`);
  if (route.permission === undefined)
    throw new Error(`route ${where} does not declare its permission (use null for none)`);
  if (route.actors !== undefined && route.actors.length === 0)
    throw new Error(`route ${where} declares no actor (leave actors out for every actor its auth admits)`);
  if (['POST', 'PUT', 'PATCH'].includes(route.method) && !route.schemas.body)
    throw new Error(`route ${where} declares no body schema`);
  const names = pathParamNames(route.path);
  if (names.length > 0) {
    const declared = Object.keys((route.schemas.params?.properties as object | undefined) ?? {});
    for (const name of names)
      if (!declared.includes(name)) throw new Error(`route ${where} does not declare path parameter "${name}"`);
  }
}

/**
 * The same route under another path: where a platform's client calls it (the real product's paths
 * next to the specification's, decision 0048). One declaration still: the alias keeps the route's
 * gate, schemas and handler, so validation, checks and the OpenAPI document are the same; it gets its
 * own operationId and says whose alias it is (`x-suite-alias-of`). `changes` may give other schemas
 * or handler where the client's body or answer differs (the route's inputs then are the alias's).
 */
export function routeAlias<R extends AnyRoute, const O extends string, S extends RouteSchemas = R['schemas']>(
  route: R,
  alias: { path: string; operationId: O; method?: HttpMethod; schemas?: S } & Partial<
    Pick<AnyRoute, 'summary' | 'description' | 'handler'>
  >,
): Declared<R, O, S> {
  return {
    ...route,
    ...alias,
    method: alias.method ?? route.method,
    summary:
      alias.summary ?? `${route.summary} (As ${route.method} ${route.path}, where the platform's clients call it.)`,
    aliasOf: route.operationId,
  };
}
