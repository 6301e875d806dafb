import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Allow, Ctx, I18nError, LogLevel, Permission, type RequestContext } from '@vendure/core';
import type { Request, Response } from 'express';
import { parse, type DocumentNode } from 'graphql';
import { randomUUID } from 'node:crypto';
import { answerJson } from '../../lib/answer-json.js';
import type { ApiRouter } from '../../lib/api-router.js';
import { dbErrorAsAppError } from '../../lib/db.js';
import { AppError } from '../../lib/errors.js';
import { graphqlSchemaOf, type GraphqlField, type GraphqlSchema } from '../../lib/graphql-schema.js';
import type { RouteRequest } from '../../lib/pipeline.js';
import { ADMIN_PERMISSION, vendureTokenOf, type AdapterApis } from './store-api.js';

/**
 * The plugin's routes as fields of Vendure's Shop API and Admin API, generated from the same route
 * declarations as `/store-api` and `/b2b-admin-api` (lib/graphql-schema.ts) and answered by the same
 * pipeline (`ApiRouter.run`): the caller's session, actors, permissions, schemas, rate limits,
 * idempotency keys and handler, as over REST. A refusal is a GraphQL error whose `extensions.code`
 * is the plugin's code (`SUITE__…`) and `extensions.status` its HTTP status (decision 0060).
 */

interface GraphqlApi {
  schema: GraphqlSchema;
  router: ApiRouter<unknown>;
}

/** The APIs of the latest configuration in this process (Vendure builds its GraphQL module once, see plugin.ts). */
const current: { shop: GraphqlApi | null; admin: GraphqlApi | null } = { shop: null, admin: null };

class SuiteB2BShopFields {}
class SuiteB2BAdminFields {}

const installed = new Map<object, string[]>();

/**
 * A plugin refusal in Vendure's error class, so Vendure logs a caller's fault at verbose level (an
 * outage at error level) instead of as a server error with its stack; `extensions` carry the code,
 * the HTTP status and the error body's `meta`.
 */
class SuiteB2BGraphqlError extends I18nError {
  constructor(error: AppError) {
    super(error.message, {}, error.code, error.status >= 500 ? LogLevel.Error : LogLevel.Verbose);
    Object.assign(this.extensions, {
      status: error.status,
      ...(error.options.meta ? { meta: error.options.meta } : {}),
      ...(error.options.pointer ? { pointer: error.options.pointer } : {}),
      ...(error.options.parameter ? { parameter: error.options.parameter } : {}),
      // Every problem of a refused input, as the REST error body lists them.
      ...(error.options.details ? { details: error.options.details } : {}),
    });
  }
}

function toGraphqlError(error: unknown): unknown {
  const known = error instanceof AppError ? error : dbErrorAsAppError(error);
  return known ? new SuiteB2BGraphqlError(known) : error;
}

/** The pipeline's request of a field call: its arguments where the route reads them, headers from Vendure's request. */
function requestOf(field: GraphqlField, args: Record<string, unknown>, req: Request | undefined): RouteRequest {
  const params: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  let body: unknown = field.route.schemas.body ? {} : undefined;
  for (const arg of field.args) {
    const value = args[arg.name];
    if (value === undefined || value === null) continue;
    if (arg.from === 'params') params[arg.key] = value;
    else if (arg.from === 'query') query[arg.key] = value;
    // GraphQL hands input objects without a prototype: the pipeline reads plain JSON, as over HTTP.
    else body = JSON.parse(JSON.stringify(value)) as unknown;
  }
  const cookieToken = req ? vendureTokenOf(req) : null;
  return {
    params,
    query,
    body,
    header: (name) => {
      const value = req?.get(name);
      if (value !== undefined) return value;
      // Vendure's session cookie stands for its bearer token, as on the REST mounts (store-api.ts).
      return name.toLowerCase() === 'authorization' && cookieToken ? `Bearer ${cookieToken}` : undefined;
    },
    ip: req?.ip ?? 'unknown',
    requestId: randomUUID(),
  };
}

async function resolve(
  api: 'shop' | 'admin',
  field: GraphqlField,
  ctx: RequestContext,
  args: Record<string, unknown>,
): Promise<unknown> {
  const target = current[api];
  if (!target) throw new Error('Suite B2B is not configured');
  const req = ctx.req;
  try {
    const outcome = await target.router.run(field.route, requestOf(field, args, req));
    const res = (req as (Request & { res?: Response }) | undefined)?.res;
    for (const [name, value] of Object.entries(outcome.headers)) res?.setHeader(name, value);
    if (field.result === 'none' || outcome.body === undefined) return true;
    if (field.result === 'content') {
      const content = outcome.body;
      return Buffer.isBuffer(content)
        ? { contentType: outcome.contentType ?? 'application/octet-stream', base64: content.toString('base64') }
        : {
            contentType: outcome.contentType ?? 'text/plain',
            text: typeof content === 'string' ? content : answerJson(content),
          };
    }
    // The same JSON the REST route answers (dates as strings, no class instances).
    return JSON.parse(answerJson(outcome.body)) as unknown;
  } catch (error) {
    throw toGraphqlError(error);
  }
}

/** Puts one method per field on the resolver class, decorated as Vendure's own resolvers are. */
function install(target: { prototype: object }, api: 'shop' | 'admin', schema: GraphqlSchema): void {
  const proto = target.prototype as Record<string, unknown>;
  for (const name of installed.get(target) ?? []) delete proto[name];
  const permission = (api === 'admin' ? ADMIN_PERMISSION : Permission.Public) as Permission;
  for (const field of schema.fields) {
    Object.defineProperty(proto, field.name, {
      value: (ctx: RequestContext, args: Record<string, unknown>) => resolve(api, field, ctx, args ?? {}),
      configurable: true,
      writable: true,
    });
    const descriptor = Object.getOwnPropertyDescriptor(proto, field.name)!;
    Ctx()(proto, field.name, 0);
    Args()(proto, field.name, 1);
    Allow(permission)(proto, field.name, descriptor);
    (field.operation === 'Query' ? Query(field.name) : Mutation(field.name))(proto, field.name, descriptor);
  }
  installed.set(
    target,
    schema.fields.map((field) => field.name),
  );
}
Resolver()(SuiteB2BShopFields);
Resolver()(SuiteB2BAdminFields);

/** Generates both APIs' fields from the routes registered so far (call at the end of `configure`). */
export function configureGraphql(apis: AdapterApis): void {
  const shop = graphqlSchemaOf(apis.storeApi.routes, 'B2bShop');
  const admin = graphqlSchemaOf(apis.adminApi.routes, 'B2bAdmin');
  current.shop = { schema: shop, router: apis.storeApi };
  current.admin = { schema: admin, router: apis.adminApi };
  install(SuiteB2BShopFields, 'shop', shop);
  install(SuiteB2BAdminFields, 'admin', admin);
}

/** The documents as one, or undefined when none has a definition (a build that never ran `configure`). */
function joined(documents: Array<DocumentNode | undefined>): DocumentNode | undefined {
  const definitions = documents.flatMap((doc) => doc?.definitions ?? []);
  return definitions.length ? { kind: 'Document' as DocumentNode['kind'], definitions } : undefined;
}

/** The SDL of the plugin's fields of one API, as generated (docs and the checked-in schema files). */
export function graphqlSdl(api: 'shop' | 'admin'): string {
  return current[api]?.schema.sdl ?? '';
}

/** The `shopApiExtensions` / `adminApiExtensions` of the plugin: its other schema (`extra`) and the generated fields. */
export function graphqlExtension(api: 'shop' | 'admin', extra?: DocumentNode) {
  return {
    schema: () => joined([extra, current[api] ? parse(current[api].schema.sdl) : undefined]),
    resolvers: [api === 'shop' ? SuiteB2BShopFields : SuiteB2BAdminFields],
  };
}
