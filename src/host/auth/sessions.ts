import { newId } from '../../lib/ids.js';
import { deepFreeze } from '../../lib/deep-freeze.js';
import { LRUCache } from 'lru-cache';
import {
  fixedRead,
  keptWhileUnchanged,
  readBool,
  readInt,
  readJson,
  selectRow,
  writeJson,
  type Executor,
} from '../../lib/db.js';
import { addSeconds, fromDbTime, now as currentTime, nowDb, toDbTime } from '../../lib/time.js';
import type { Knex } from 'knex';
import type {
  ActorType,
  ContextVersionSource,
  CustomerRef,
  LoginIdentity,
  SalesChannel,
} from '../../contract/index.js';
import {
  CUSTOMER_REF_COLUMNS,
  SALES_CHANNEL_COLUMNS,
  toCustomerRef,
  toSalesChannel,
  type CustomerRefRow,
  type SalesChannelRefRow,
} from '../customer/customer-repository.js';
import { PRODUCTS_VERSION, VISIBILITY } from '../catalog/catalog-version.js';
import { signToken, STORE_AUDIENCE } from './tokens.js';

/** A row of sessions (migrations/host/001) as the drivers return it. */
interface SessionDbRow {
  id: string;
  sales_channel_id: string;
  customer_id: string | null;
  actor_type: ActorType;
  actor_id: string | null;
  attributes: string | null;
  cart_token: string | null;
  created_at: string | Date;
  expires_at: string | Date;
  revoked_at: string | Date | null;
}

export interface SessionRow {
  id: string;
  salesChannelId: string;
  customerId: string | null;
  actorType: ActorType;
  actorId: string | null;
  attributes: Record<string, unknown>;
  cartToken: string | null;
}

export async function createSession(
  executor: Executor,
  secret: string,
  ttlSeconds: number,
  identity: LoginIdentity & { salesChannelId: string },
): Promise<{ token: string; sessionId: string }> {
  const sessionId = newId();
  const now = currentTime();
  await executor('sessions').insert({
    id: sessionId,
    sales_channel_id: identity.salesChannelId,
    customer_id: identity.customerId,
    actor_type: identity.actor.type,
    actor_id: identity.actor.id,
    attributes: writeJson(identity.attributes),
    cart_token: null,
    created_at: toDbTime(now),
    expires_at: toDbTime(addSeconds(now, ttlSeconds)),
    revoked_at: null,
  });
  const token = signToken(
    secret,
    STORE_AUDIENCE,
    { sub: identity.actor.id ?? identity.customerId ?? sessionId, jti: sessionId },
    ttlSeconds,
  );
  return { token, sessionId };
}

function toSessionRow(
  row: Pick<
    SessionDbRow,
    'id' | 'sales_channel_id' | 'customer_id' | 'actor_type' | 'actor_id' | 'attributes' | 'cart_token'
  >,
): SessionRow {
  return {
    id: row.id,
    salesChannelId: row.sales_channel_id,
    customerId: row.customer_id,
    actorType: row.actor_type,
    actorId: row.actor_id,
    attributes: readJson<Record<string, unknown>>(row.attributes, {}),
    cartToken: row.cart_token,
  };
}

/** The joined row of loadLiveSession: the session's columns, its customer's as c_*, its channel's as sc_* (null without one). */
type LiveSessionDbRow = Pick<
  SessionDbRow,
  'id' | 'sales_channel_id' | 'customer_id' | 'actor_type' | 'actor_id' | 'attributes' | 'cart_token'
> & {
  [K in keyof CustomerRefRow as `c_${K}`]: CustomerRefRow[K] | null;
} & {
  [K in keyof SalesChannelRefRow as `sc_${K}`]: SalesChannelRefRow[K] | null;
} & { sc_is_default: number | string; expires_at: string | Date };

/** The c_* / sc_* columns of a joined row as the table's row, or null when the join found none. */
function joined<Row extends { id: string }>(
  row: Record<string, unknown>,
  prefix: string,
  names: readonly (keyof Row & string)[],
): Row | null {
  if (row[`${prefix}id`] === null || row[`${prefix}id`] === undefined) return null;
  return Object.fromEntries(names.map((column) => [column, row[`${prefix}${column}`]])) as Row;
}

export interface LiveSession {
  session: SessionRow;
  customer: CustomerRef | null;
  /** The session's sales channel, with what tells whether a request may use it without another read. */
  salesChannel: { channel: SalesChannel; accessKey: string; active: boolean; isDefault: boolean } | null;
  visibilityVersion: number;
}

/** The counter in catalog_counters that moves whenever a live session's row, its customer or any sales channel changes (triggers: migrations/host/011). */
export const SESSIONS_VERSION = 'sessions';

interface CachedSession {
  /** The session version read before the session was. */
  version: number;
  expiresAt: number;
  live: Omit<LiveSession, 'visibilityVersion'>;
}

/** Per database (its knex client), the live sessions this process has read, by session id. */
const cachedSessions = new WeakMap<object, LRUCache<string, CachedSession>>();

function sessionCache(executor: Executor): LRUCache<string, CachedSession> | null {
  if (executor.isTransaction) return null;
  let cache = cachedSessions.get(executor.client as object);
  if (!cache) cachedSessions.set(executor.client as object, (cache = new LRUCache({ max: 20000 })));
  return cache;
}

/** Per database, the sales channels looked up by access key ('' for the default channel), at a session version (any channel write moves it). */
const cachedChannels = new WeakMap<object, Map<string, { version: number; channel: SalesChannel }>>();

/**
 * The active sales channel a request names by its access key (or the default one: the first active
 * by creation), answered from memory while the session version stays; null when there is none.
 */
export async function activeSalesChannel(
  executor: Executor,
  accessKey: string | undefined,
  sessionsVersion: number,
): Promise<SalesChannel | null> {
  let cache = cachedChannels.get(executor.client as object);
  if (!cache)
    cachedChannels.set(
      executor.client as object,
      (cache = new Map<string, { version: number; channel: SalesChannel }>()),
    );
  const key = accessKey ?? '';
  const cached = cache.get(key);
  if (cached && cached.version === sessionsVersion) return cached.channel;
  const query = executor<SalesChannelRefRow>('sales_channels').where({ active: true });
  if (accessKey) query.where({ access_key: accessKey });
  else query.orderBy('created_at').orderBy('id');
  const row = await selectRow<SalesChannelRefRow>(query.first(...SALES_CHANNEL_COLUMNS));
  if (!row) return null;
  const channel = deepFreeze(toSalesChannel(row));
  // Access keys are few (one per channel and client); a cache that somehow grew is simply emptied.
  if (cache.size > 1000) cache.clear();
  cache.set(key, { version: sessionsVersion, channel });
  return channel;
}

export interface ContextVersions {
  readonly visibility: number;
  readonly sessions: number;
  /** The products version (migrations/host/012): what the product reads kept per process are checked against. */
  readonly products: number;
  /** The plugins' counters (`auth.addContextVersion`), in the order of the sources read. */
  readonly plugins: readonly number[];
}

type VersionRow = { source: number | string; name: string; value: number | string };

/** The host's own versions (source 0) and each plugin counter (source i + 1), as one statement. */
function versionsStatement(sources: readonly ContextVersionSource[]) {
  return fixedRead((executor: Executor) => {
    const own = executor('catalog_counters')
      .whereIn('name', [VISIBILITY, SESSIONS_VERSION, PRODUCTS_VERSION])
      .select(executor.raw('0 as source'), 'name', 'value');
    return sources.length === 0
      ? own
      : own.unionAll(
          sources.map(
            (source, i) => (union: Knex.QueryBuilder) =>
              union
                .from(source.table)
                .where('name', source.name)
                .select(executor.raw(`${i + 1} as source`), 'name', 'value'),
          ),
        );
  });
}

/** The versions as one read of one statement, kept while the database is unchanged (on SQLite: `keptWhileUnchanged`). */
function versionsReader(sources: readonly ContextVersionSource[]) {
  const statement = versionsStatement(sources);
  return keptWhileUnchanged(async (executor: Executor): Promise<ContextVersions> => {
    const rows = await statement<VersionRow>(executor);
    const host = { visibility: 0, sessions: 0, products: 0 };
    const plugins = new Array<number>(sources.length).fill(0);
    for (const row of rows) {
      const source = readInt(row.source);
      if (source > 0) plugins[source - 1] = readInt(row.value);
      else if (row.name === VISIBILITY) host.visibility = readInt(row.value);
      else if (row.name === SESSIONS_VERSION) host.sessions = readInt(row.value);
      else if (row.name === PRODUCTS_VERSION) host.products = readInt(row.value);
    }
    return { ...host, plugins };
  });
}

/** One reader per list of plugin counters (a host has one list; it grows only while plugins load). */
const versionReaders = new WeakMap<
  readonly ContextVersionSource[],
  { count: number; read: ReturnType<typeof versionsReader> }
>();

/**
 * The visibility, session and products versions and the plugins' counters, in one read: what a
 * request's caches are checked against. The answer is frozen (on SQLite it is shared by the
 * requests that find the database unchanged).
 */
export async function readContextVersions(
  executor: Executor,
  sources: readonly ContextVersionSource[] = [],
): Promise<ContextVersions> {
  let reader = versionReaders.get(sources);
  if (!reader || reader.count !== sources.length)
    versionReaders.set(sources, (reader = { count: sources.length, read: versionsReader([...sources]) }));
  return reader.read(executor);
}

/**
 * What a request's context needs of its session: the session if it is live (not revoked, not
 * expired), its customer, its sales channel (and whether that is the default one: the first active
 * by creation), and the catalog's visibility version (rule ids are cached per version).
 *
 * One small read per request: the versions. A session read before at the same session version is
 * answered from this process's memory (until it expires); any change to a session, a customer or a
 * sales channel moves the version (database triggers, so every writer counts), and the next request
 * on every process reads its session again — a logout or a deactivation counts at once everywhere.
 */
export async function loadLiveSession(
  executor: Executor,
  sessionId: string,
  known?: ContextVersions,
): Promise<LiveSession | null> {
  const versions = known ?? (await readContextVersions(executor));
  const cache = sessionCache(executor);
  const cached = cache?.get(sessionId);
  if (cached && cached.version === versions.sessions && cached.expiresAt > Date.now())
    return { ...cached.live, visibilityVersion: versions.visibility };
  const read = await readLiveSession(executor, sessionId);
  if (!read) {
    cache?.delete(sessionId);
    return null;
  }
  cache?.set(sessionId, { version: versions.sessions, expiresAt: read.expiresAt, live: read.live });
  return { ...read.live, visibilityVersion: versions.visibility };
}

async function readLiveSession(
  executor: Executor,
  sessionId: string,
): Promise<{ live: Omit<LiveSession, 'visibilityVersion'>; expiresAt: number } | null> {
  const row = await selectRow<LiveSessionDbRow>(
    executor('sessions as s')
      .leftJoin('customers as c', 'c.id', 's.customer_id')
      .leftJoin('sales_channels as sc', 'sc.id', 's.sales_channel_id')
      .where('s.id', sessionId)
      .whereNull('s.revoked_at')
      .where('s.expires_at', '>', nowDb())
      .first(
        's.id',
        's.sales_channel_id',
        's.customer_id',
        's.actor_type',
        's.actor_id',
        's.attributes',
        's.cart_token',
        's.expires_at',
        ...CUSTOMER_REF_COLUMNS.map((column) => `c.${column} as c_${column}`),
        ...SALES_CHANNEL_COLUMNS.map((column) => `sc.${column} as sc_${column}`),
        executor.raw(
          'case when exists (select 1 from sales_channels o where o.active = ? and (o.created_at < sc.created_at or (o.created_at = sc.created_at and o.id < sc.id))) then 0 else 1 end as sc_is_default',
          [true],
        ),
      ),
  );
  if (!row) return null;
  const customerRow = joined<CustomerRefRow>(row, 'c_', CUSTOMER_REF_COLUMNS);
  const channelRow = joined<SalesChannelRefRow>(row, 'sc_', SALES_CHANNEL_COLUMNS);
  // Shared by every request of the session from now on: frozen, so no caller can change another's.
  const live = deepFreeze({
    session: toSessionRow(row),
    customer: customerRow ? toCustomerRef(customerRow) : null,
    salesChannel: channelRow
      ? {
          channel: toSalesChannel(channelRow),
          accessKey: channelRow.access_key,
          active: readBool(channelRow.active),
          isDefault: readInt(row.sc_is_default) === 1,
        }
      : null,
  });
  return { live, expiresAt: Date.parse(`${fromDbTime(row.expires_at)!}`) };
}

export async function revokeSession(executor: Executor, sessionId: string): Promise<void> {
  await executor('sessions').where({ id: sessionId }).whereNull('revoked_at').update({ revoked_at: nowDb() });
}

export async function revokeActorSessions(executor: Executor, actorType: ActorType, actorId: string): Promise<number> {
  return executor('sessions')
    .where({ actor_type: actorType, actor_id: actorId })
    .whereNull('revoked_at')
    .update({ revoked_at: nowDb() });
}
