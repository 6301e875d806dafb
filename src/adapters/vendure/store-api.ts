/**
 * The plugin's Store API and Admin API inside Vendure: the one file that touches the request
 * pipeline (lib/api-router's ApiRouter and ApiDefinition), so a change of the pipeline lands here.
 * - Store API (default /store-api): the caller's Vendure session (bearer `Authorization` or
 *   Vendure's session cookie) is a customer login; a plugin-issued `suite-context-token`
 *   (employees, sales representatives, from POST /store-api/account/login) takes precedence.
 * - Admin API (default /b2b-admin-api): a Vendure administrator session (bearer or cookie) whose
 *   user holds the `SuiteB2BAdmin` permission (SuperAdmin holds every permission).
 */
import express, { type Request, type Router } from 'express';
import { randomUUID } from 'node:crypto';
import {
  defineStoreRoute,
  type Actor,
  type AdminContext,
  type StoreContext,
  type StoreRoute,
} from '../../contract/index.js';
import { burnPasswordTime } from '../../host-kit/passwords.js';
import { databaseRateLimiter } from '../../host-kit/rate-limit-store.js';
import { ApiRouter, errorMiddleware, type ApiDefinition } from '../../lib/api-router.js';
import { inTransaction } from '../../lib/db.js';
import { ADMIN_API_BASE } from '../../lib/json-api.js';
import { buildOpenApi, renderOpenApiHtml } from '../../lib/openapi.js';
import { AppError, Errors } from '../../lib/errors.js';
import { LOGGED_IN_STORE_ACTORS, STORE_ACTORS, type RouteRequest } from '../../lib/pipeline.js';
import { emptyBody, looseObject, objectSchema, successResponse } from '../../lib/schemas.js';
import { findLivePluginSession, revokePluginSession } from './sessions.js';
import type { AdapterState } from './state.js';
import { vendureServices } from './state.js';
import { customerIdOfUser } from './vendure-tables.js';

export const CONTEXT_TOKEN_HEADER = 'suite-context-token';
/** The Vendure permission that opens the plugin's Admin API. */
export const ADMIN_PERMISSION = 'SuiteB2BAdmin';

const GUEST: Actor = { type: 'guest', id: null, name: 'Guest', email: null };

/** The Vendure session token of a request: bearer header, else Vendure's session cookie. */
export function vendureTokenOf(req: Request): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
  if (match) return match[1]!;
  const token = (req as Request & { session?: { token?: unknown } }).session?.token;
  return typeof token === 'string' && token !== '' ? token : null;
}

/** The bearer token of a pipeline request (the mount turns Vendure's session cookie into one, see `createApis`). */
function bearerOf(request: Pick<RouteRequest, 'header'>): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(request.header('authorization') ?? '');
  return match ? match[1]! : null;
}

async function vendureUserOf(state: AdapterState, req: Pick<RouteRequest, 'header'>) {
  const token = bearerOf(req);
  if (!token) return null;
  const session = await vendureServices(state).sessionFromToken(token);
  return session?.user ?? null;
}

type ContextParts = Omit<StoreContext, 'can' | 'ruleIds'>;

function makeContext(state: AdapterState, parts: ContextParts): StoreContext {
  let ruleIds: Promise<string[]> | null = null;
  const ctx: StoreContext = {
    ...parts,
    can: (permission) => ctx.permissions === 'all' || ctx.permissions.has(permission),
    ruleIds: () => (ruleIds ??= state.runtime.rules.matchingRuleIds(state.db, ctx)),
  };
  return ctx;
}

/**
 * The StoreContext of a request, as the reference host builds it (src/host/auth/store-context.ts):
 * a plugin session, else the Vendure session's customer (the company admin: all permissions),
 * else a guest. `vendureUserId` skips the session lookup when Vendure resolved it already.
 */
export async function buildStoreContext(
  state: AdapterState,
  req: Pick<RouteRequest, 'header' | 'ip' | 'requestId'>,
  requireLogin: boolean,
  vendureUserId?: string | null,
): Promise<StoreContext> {
  const salesChannel = await state.salesChannel();
  const base = {
    requestId: req.requestId || randomUUID(),
    ip: req.ip,
    salesChannel,
    employee: null,
    salesRepresentative: null,
  };
  const pluginToken = req.header(CONTEXT_TOKEN_HEADER);
  let ctx: StoreContext;
  if (pluginToken) {
    const session = await findLivePluginSession(state.db, pluginToken);
    if (!session || session.salesChannelId !== salesChannel.id)
      throw Errors.unauthorized('The context token is not valid or has expired.', 'SUITE__INVALID_CONTEXT_TOKEN');
    const customer = session.customerId ? await state.runtime.customers.get(state.db, session.customerId) : null;
    if (session.customerId && (!customer || !customer.active))
      throw Errors.unauthorized('The account is not active.', 'SUITE__INVALID_CONTEXT_TOKEN');
    // On Vendure's Shop API the Vendure session must be the one of the customer the token acts for.
    if (
      vendureUserId != null &&
      (await customerIdOfUser(state.ids, state.db, String(vendureUserId))) !== session.customerId
    )
      throw Errors.unauthorized(
        "The context token does not belong to the Vendure session's customer.",
        'SUITE__INVALID_CONTEXT_TOKEN',
      );
    const actor: Actor = {
      type: session.actorType,
      id: session.actorId,
      name: typeof session.attributes.actorName === 'string' ? session.attributes.actorName : '',
      email: (session.attributes.actorEmail as string | undefined) ?? null,
    };
    ctx = makeContext(state, {
      ...base,
      token: pluginToken,
      sessionId: session.id,
      customer,
      actor,
      attributes: session.attributes,
      permissions: session.actorType === 'customer' ? 'all' : new Set<string>(),
    });
  } else {
    const userId = vendureUserId !== undefined ? vendureUserId : ((await vendureUserOf(state, req))?.id ?? null);
    const customerId = userId == null ? null : await customerIdOfUser(state.ids, state.db, String(userId));
    const customer = customerId ? await state.runtime.customers.get(state.db, customerId) : null;
    if (customer) {
      const actor: Actor = {
        type: 'customer',
        id: customer.id,
        name: `${customer.firstName} ${customer.lastName}`.trim(),
        email: customer.email,
      };
      ctx = makeContext(state, {
        ...base,
        token: null,
        sessionId: null,
        customer,
        actor,
        attributes: {},
        permissions: 'all',
      });
    } else {
      if (requireLogin) throw Errors.unauthorized();
      return makeContext(state, {
        ...base,
        token: null,
        sessionId: null,
        customer: null,
        actor: GUEST,
        attributes: {},
        permissions: new Set(),
      });
    }
  }
  for (const enrich of state.registries.contextEnrichers) await enrich(state.db, ctx);
  await ctx.ruleIds();
  if (requireLogin && !ctx.customer && ctx.actor.type === 'guest') throw Errors.unauthorized();
  return ctx;
}

/**
 * The StoreContext of an actor of a customer without a request (an order Vendure places or cancels
 * outside the Shop API: the Admin API, a payment settled later): the employee or sales
 * representative named, as their enrichers find them today, else (none named, or no longer active)
 * the customer as company admin. null when the customer is unknown.
 */
export async function storeContextForActor(
  state: AdapterState,
  customerId: string,
  actor: { type: string; id: string | null } | null,
): Promise<StoreContext | null> {
  const customer = await state.runtime.customers.get(state.db, customerId);
  if (!customer) return null;
  const salesChannel = await state.salesChannel();
  const base = {
    requestId: randomUUID(),
    ip: '',
    salesChannel,
    employee: null,
    salesRepresentative: null,
    token: null,
    sessionId: null,
    customer,
    attributes: {},
  };
  const asCustomer = async () => {
    const ctx = makeContext(state, {
      ...base,
      actor: {
        type: 'customer',
        id: customer.id,
        name: `${customer.firstName} ${customer.lastName}`.trim(),
        email: customer.email,
      },
      permissions: 'all',
    });
    for (const enrich of state.registries.contextEnrichers) await enrich(state.db, ctx);
    return ctx;
  };
  if (!actor?.id || (actor.type !== 'employee' && actor.type !== 'salesRepresentative')) return asCustomer();
  const ctx = makeContext(state, {
    ...base,
    actor: { type: actor.type, id: actor.id, name: '', email: null },
    permissions: new Set<string>(),
  });
  try {
    for (const enrich of state.registries.contextEnrichers) await enrich(state.db, ctx);
  } catch (error) {
    if (error instanceof AppError && error.status === 401) return asCustomer();
    throw error;
  }
  const person = ctx.employee
    ? { name: `${ctx.employee.firstName} ${ctx.employee.lastName}`.trim(), email: ctx.employee.email }
    : ctx.salesRepresentative;
  if (person) ctx.actor = { ...ctx.actor, name: person.name, email: person.email };
  return ctx;
}

function storeApiDefinition(state: AdapterState): ApiDefinition<StoreContext> {
  return {
    name: 'store-api',
    actorsByAuth: { public: STORE_ACTORS, login: LOGGED_IN_STORE_ACTORS },
    authenticate: (request, route) => buildStoreContext(state, request, route.auth === 'login'),
    principal: (ctx) => ({
      actor: ctx.actor.type,
      customerId: ctx.customer?.id ?? null,
      can: (permission) => ctx.can(permission),
      key: `${ctx.actor.type}:${ctx.actor.id ?? ctx.sessionId ?? 'guest'}:${ctx.customer?.id ?? ''}`,
    }),
    responseHeaders: (ctx): Record<string, string> =>
      ctx.sessionId && ctx.token ? { [CONTEXT_TOKEN_HEADER]: ctx.token } : {},
  };
}

export function adminApiDefinition(state: AdapterState): ApiDefinition<AdminContext> {
  return {
    name: 'admin-api',
    actorsByAuth: { admin: ['admin'], public: ['guest', 'admin'] },
    async authenticate(request, route): Promise<AdminContext> {
      const requestId = request.requestId || randomUUID();
      if (route.auth === 'public') return { requestId, ip: request.ip, principalType: 'integration', principalId: '' };
      const user = await vendureUserOf(state, request);
      if (!user)
        throw Errors.unauthorized(
          'A Vendure administrator session is required (Authorization: Bearer <vendure-auth-token>).',
        );
      const permitted = user.channelPermissions.some(
        ({ permissions }: { permissions: string[] }) =>
          permissions.includes(ADMIN_PERMISSION) || permissions.includes('SuperAdmin'),
      );
      if (!permitted)
        throw Errors.forbidden(`The Vendure permission "${ADMIN_PERMISSION}" is required.`, 'SUITE__PERMISSION_DENIED');
      return { requestId, ip: request.ip, principalType: 'user', principalId: String(user.id) };
    },
    principal: (ctx) => ({
      actor: ctx.principalId ? 'admin' : 'guest',
      customerId: null,
      can: () => true,
      key: `${ctx.principalType}:${ctx.principalId}`,
    }),
  };
}

/** The adapter's own Store API routes: what the reference host's account routes do for logins Vendure does not know. */
function adapterStoreRoutes(state: AdapterState): StoreRoute[] {
  const loginName = { type: 'string', minLength: 3, maxLength: 255 } as const;
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/account/login',
      operationId: 'login',
      summary:
        "Logs in an employee or sales representative (the plugin's logins); customers log in through Vendure's Shop API.",
      tags: ['Account'],
      auth: 'public',
      permission: null,
      rateLimit: { name: 'login', limit: 10, windowSeconds: 60, by: ['ip', 'body.email|username'] },
      schemas: {
        body: objectSchema(
          { email: loginName, username: loginName, password: { type: 'string', minLength: 1, maxLength: 1024 } },
          ['password'],
          { oneOf: [{ required: ['email'] }, { required: ['username'] }] },
        ),
        responses: { 200: objectSchema({ contextToken: { type: 'string' } }, ['contextToken']) },
      },
      async handler({ ctx, body, headers }) {
        const email = String(body.email ?? body.username)
          .trim()
          .toLowerCase();
        const token = await inTransaction(state.db, async (trx) => {
          for (const provider of state.registries.loginProviders) {
            const identity = await provider(trx, email, String(body.password), ctx.salesChannel);
            if (identity === 'wrong-password') return null;
            if (identity)
              return (await state.runtime.auth.createSession(trx, { ...identity, salesChannelId: ctx.salesChannel.id }))
                .token;
          }
          await burnPasswordTime(String(body.password));
          return null;
        });
        if (!token) throw Errors.unauthorized('The e-mail address or password is wrong.', 'SUITE__INVALID_CREDENTIALS');
        headers.setHeader(CONTEXT_TOKEN_HEADER, token);
        return { contextToken: token };
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/account/logout',
      operationId: 'logout',
      summary: 'Ends a plugin-issued session (customers log out through Vendure).',
      tags: ['Account'],
      auth: 'login',
      permission: null,
      schemas: { body: emptyBody, responses: { 200: successResponse } },
      async handler({ ctx, headers }) {
        if (ctx.sessionId) await revokePluginSession(state.db, ctx.sessionId);
        headers.removeHeader(CONTEXT_TOKEN_HEADER);
        return { success: true };
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/context',
      operationId: 'readContext',
      summary: 'The caller: sales channel, customer, actor, employee, sales representative and permissions.',
      tags: ['Account'],
      auth: 'public',
      permission: null,
      schemas: { responses: { 200: looseObject } },
      handler: ({ ctx }) =>
        Promise.resolve({
          salesChannel: ctx.salesChannel,
          customer: ctx.customer,
          actor: ctx.actor,
          employee: ctx.employee,
          salesRepresentative: ctx.salesRepresentative,
          permissions: ctx.permissions === 'all' ? 'all' : [...ctx.permissions].sort(),
        }),
    }),
  ];
}

/** What the OpenAPI document of one of the two APIs says besides its routes. */
interface ApiDocs {
  path: string;
  title: string;
  securitySchemes: Record<string, Record<string, unknown>>;
}

export interface AdapterApis {
  storeApi: ApiRouter<StoreContext>;
  adminApi: ApiRouter<AdminContext>;
  addAdapterRoutes(): void;
  /** Express routers to mount at the two paths (JSON body parsing, 404 and the one error body included). */
  storeRouter: Router;
  adminRouter: Router;
}

export function createApis(state: AdapterState): AdapterApis {
  const validateResponses = state.options.validateResponses;
  // Rate limits count in the adapter's own `rate_limit_counters` (migrations/vendure), so they hold across Vendure server processes.
  const rateLimiter = databaseRateLimiter(state.db);
  const storeApi = new ApiRouter<StoreContext>(storeApiDefinition(state), {
    db: state.db,
    rateLimiter,
    validateResponses,
  });
  const adminApiPath = state.options.adminApiPath;
  const adminApi = new ApiRouter<AdminContext>(adminApiDefinition(state), {
    db: state.db,
    rateLimiter,
    validateResponses,
    adminApiBase: adminApiPath === ADMIN_API_BASE ? undefined : adminApiPath,
  });
  const errors = errorMiddleware(state.log);
  const vendureSession = {
    type: 'http',
    scheme: 'bearer',
    description: "A Vendure session token (Vendure's `vendure-auth-token`, or its session cookie).",
  };
  const mount = (api: ApiRouter<unknown>, docs: ApiDocs) => {
    const router = express.Router();
    // The OpenAPI document of the routes as declared, as the reference host serves it (lib/openapi.ts); built on first request (plugins register late).
    let document: Record<string, unknown> | null = null;
    const build = () =>
      (document ??= buildOpenApi(api.routes, {
        title: docs.title,
        version: state.manifest.version,
        description: `${docs.title} inside Vendure, generated from the route declarations.`,
        serverUrl: docs.path,
        securitySchemes: docs.securitySchemes,
        securityFor: (route) =>
          route.auth === 'public' ? null : Object.keys(docs.securitySchemes).map((name) => ({ [name]: [] })),
        actorsByAuth: api.api.actorsByAuth,
      }));
    router.get('/_info/openapi3.json', (_req, res) => {
      res.json(build());
    });
    router.get('/_info/swagger.html', (_req, res) => {
      res.type('html').send(renderOpenApiHtml(build()));
    });
    router.use((req, _res, next) => {
      // The request id of the error bodies and of the context (Vendure's requests carry none).
      (req as Request & { id?: string }).id ??= randomUUID();
      // The pipeline reads headers only: Vendure's session cookie becomes the bearer token it stands for.
      const cookieToken = vendureTokenOf(req);
      if (cookieToken && !req.get('authorization')) req.headers.authorization = `Bearer ${cookieToken}`;
      next();
    });
    router.use(express.json({ limit: '1mb', type: ['application/json', 'application/*+json'] }));
    router.use(express.urlencoded({ extended: false, limit: '64kb' }));
    router.use(api.router);
    router.use((req, _res, next) =>
      next(new AppError(404, 'SUITE__ROUTE_NOT_FOUND', `No route ${req.method} ${req.originalUrl.split('?')[0]}.`)),
    );
    router.use(errors);
    return router;
  };
  return {
    storeApi,
    adminApi,
    addAdapterRoutes: () => adapterStoreRoutes(state).forEach((route) => storeApi.add(route)),
    storeRouter: mount(storeApi, {
      path: state.options.storeApiPath,
      title: 'Suite B2B Store API',
      securitySchemes: {
        contextToken: {
          type: 'apiKey',
          in: 'header',
          name: CONTEXT_TOKEN_HEADER,
          description: 'An employee or sales representative login (POST /account/login).',
        },
        vendureSession,
      },
    }),
    adminRouter: mount(adminApi, {
      path: adminApiPath,
      title: 'Suite B2B Admin API',
      securitySchemes: { vendureSession },
    }),
  };
}
