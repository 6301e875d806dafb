import { randomUUID } from 'node:crypto';
import { Errors } from '../../lib/errors.js';
import {
  LOGGED_IN_STORE_ACTORS,
  STORE_ACTORS,
  type ApiDefinition,
  type Principal,
  type RouteRequest,
} from '../../lib/pipeline.js';
import type { Actor, ContextVersionSource, SalesChannel, StoreContext } from '../../contract/index.js';
import type { HostInternals } from '../internals.js';
import { inZone } from '../plugins/zones.js';
import { rememberRequestCatalogVersions } from '../catalog/catalog-version.js';
import { activeSalesChannel, loadLiveSession, readContextVersions } from './sessions.js';
import { rememberSessionCartToken } from '../checkout/session-cart.js';
import { STORE_AUDIENCE, verifyTokenCached } from './tokens.js';

export const CONTEXT_TOKEN_HEADER = 'suite-context-token';
export const ACCESS_KEY_HEADER = 'suite-access-key';

const GUEST: Actor = { type: 'guest', id: null, name: 'Guest', email: null };

/** The plugins' counters read with a context (in the order of `registries.contextVersions`). */
const pluginVersionsOfRequest = new WeakMap<StoreContext, readonly number[]>();

/** A plugin counter's value read when `ctx` was built (`auth.contextVersion`); undefined when it was not read with it. */
export function requestContextVersion(
  internals: HostInternals,
  ctx: StoreContext,
  source: ContextVersionSource,
): number | undefined {
  const values = pluginVersionsOfRequest.get(ctx);
  if (!values) return undefined;
  const index = internals.registries.contextVersions.findIndex(
    (known) => known.table === source.table && known.name === source.name,
  );
  return index === -1 ? undefined : values[index];
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** `auth.addContextVersion`: a plugin counter read with every context from now on. */
export function addContextVersion(internals: HostInternals, source: ContextVersionSource): void {
  if (!IDENTIFIER.test(source.table)) throw new Error(`addContextVersion: "${source.table}" is not a plain table name`);
  if (internals.registries.contextVersions.some((known) => known.table === source.table && known.name === source.name))
    return;
  internals.registries.contextVersions.push({ table: source.table, name: source.name });
}

function makeContext(partial: Omit<StoreContext, 'can' | 'ruleIds'>, internals: HostInternals): StoreContext {
  let ruleIds: Promise<string[]> | null = null;
  const ctx: StoreContext = {
    ...partial,
    can(permission: string) {
      return ctx.permissions === 'all' || ctx.permissions.has(permission);
    },
    // Plugins call it too: host code, so it runs in the host's zone (see plugins/zones.ts).
    ruleIds: inZone('host', () => {
      ruleIds ??= internals.runtime.rules.matchingRuleIds(internals.db, ctx);
      return ruleIds;
    }),
  };
  return ctx;
}

async function resolveSalesChannel(
  internals: HostInternals,
  accessKey: string | undefined,
  sessionsVersion: number,
): Promise<SalesChannel> {
  const channel = await activeSalesChannel(internals.db, accessKey, sessionsVersion);
  if (!channel) {
    if (accessKey) throw Errors.unauthorized('The sales channel access key is not valid.', 'SUITE__INVALID_ACCESS_KEY');
    throw new Error('no active sales channel: run migrations and seed, or create one through the Admin API');
  }
  return channel;
}

/**
 * Builds the Store API context from the `suite-context-token` header (or the storefront's session
 * cookie). A token that is presented but not valid is a 401 even on public routes: a client must
 * learn that its login is gone.
 */
export async function buildStoreContext(
  internals: HostInternals,
  req: Pick<RouteRequest, 'header' | 'ip' | 'requestId'>,
  token: string | undefined,
  requireLogin: boolean,
): Promise<StoreContext> {
  const accessKey = req.header(ACCESS_KEY_HEADER) ?? undefined;
  // The signature check is kept per token; the session's liveness is read on every request (a
  // revocation on any process counts at once), with its customer, its sales channel and the
  // visibility version. When the session's channel is the one the request names (or, without an
  // access key, the default one), that read is the channel lookup too; otherwise the request's
  // channel is looked up as for a guest, so the errors and their order stay as they were.
  const claims = token ? verifyTokenCached(internals.config.appSecret, STORE_AUDIENCE, token) : null;
  const versions = await readContextVersions(internals.db, internals.registries.contextVersions);
  const live = claims?.jti ? await loadLiveSession(internals.db, claims.jti, versions) : null;
  const own = live?.salesChannel;
  const salesChannel =
    own && own.active && (accessKey === undefined ? own.isDefault : own.accessKey === accessKey)
      ? own.channel
      : await resolveSalesChannel(internals, accessKey, versions.sessions);
  const base = {
    requestId: req.requestId || randomUUID(),
    ip: req.ip,
    salesChannel,
    employee: null,
    salesRepresentative: null,
  };
  if (!token) {
    if (requireLogin) throw Errors.unauthorized();
    const guest = makeContext(
      { ...base, token: null, sessionId: null, customer: null, actor: GUEST, attributes: {}, permissions: new Set() },
      internals,
    );
    rememberRequestCatalogVersions(guest, versions);
    pluginVersionsOfRequest.set(guest, versions.plugins);
    await guest.ruleIds();
    return guest;
  }
  const session = live?.session;
  if (!live || !session || session.salesChannelId !== salesChannel.id)
    throw Errors.unauthorized('The context token is not valid or has expired.', 'SUITE__INVALID_CONTEXT_TOKEN');
  const customer = live.customer;
  if (session.customerId && (!customer || !customer.active))
    throw Errors.unauthorized('The account is not active.', 'SUITE__INVALID_CONTEXT_TOKEN');
  const actor: Actor =
    session.actorType === 'customer' && customer
      ? { type: 'customer', id: customer.id, name: `${customer.firstName} ${customer.lastName}`, email: customer.email }
      : {
          type: session.actorType,
          id: session.actorId,
          name: typeof session.attributes.actorName === 'string' ? session.attributes.actorName : '',
          email: (session.attributes.actorEmail as string | undefined) ?? null,
        };
  const ctx = makeContext(
    {
      ...base,
      token,
      sessionId: session.id,
      customer,
      actor,
      attributes: session.attributes,
      // The customer login is the company admin; plugins narrow this for employees and representatives.
      permissions: session.actorType === 'customer' ? 'all' : new Set<string>(),
    },
    internals,
  );
  rememberRequestCatalogVersions(ctx, versions);
  pluginVersionsOfRequest.set(ctx, versions.plugins);
  rememberSessionCartToken(ctx, session.cartToken);
  for (const enrich of internals.registries.contextEnrichers) await enrich(internals.db, ctx);
  // Evaluated now, outside any transaction: on SQLite a handler's open transaction holds the only
  // connection, so a lazy first evaluation inside it would wait for itself.
  await ctx.ruleIds();
  if (requireLogin && !ctx.customer && ctx.actor.type === 'guest') throw Errors.unauthorized();
  return ctx;
}

/** The Store API's sessions for the pipeline: the context token, the actor of its session, its permission keys. */
export function storeApiDefinition(internals: HostInternals): ApiDefinition<StoreContext> {
  return {
    name: 'store-api',
    actorsByAuth: { public: STORE_ACTORS, login: LOGGED_IN_STORE_ACTORS },
    async authenticate(request, route) {
      return buildStoreContext(
        internals,
        request,
        request.header(CONTEXT_TOKEN_HEADER) ?? undefined,
        route.auth === 'login',
      );
    },
    principal: storePrincipal,
    responseHeaders(ctx): Record<string, string> {
      return ctx.token ? { [CONTEXT_TOKEN_HEADER]: ctx.token } : {};
    },
  };
}

export function storePrincipal(ctx: StoreContext): Principal {
  return {
    actor: ctx.actor.type,
    customerId: ctx.customer?.id ?? null,
    can: (permission) => ctx.can(permission),
    key: `${ctx.actor.type}:${ctx.actor.id ?? ctx.sessionId ?? 'guest'}:${ctx.customer?.id ?? ''}`,
  };
}
