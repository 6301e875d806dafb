import { newId } from '../../lib/ids.js';
import { readBool, readInt, readJson, selectRow, writeJson, type Executor } from '../../lib/db.js';
import { addSeconds, nowDb, toDbTime } from '../../lib/time.js';
import type { ActorType, CustomerRef, LoginIdentity, SalesChannel } from '../contract.js';
import {
  CUSTOMER_REF_COLUMNS,
  SALES_CHANNEL_COLUMNS,
  toCustomerRef,
  toSalesChannel,
  type CustomerRefRow,
  type SalesChannelRefRow,
} from '../customer/customer-repository.js';
import { VISIBILITY } from '../catalog/catalog-version.js';
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
  const now = new Date();
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
  const token = signToken(secret, STORE_AUDIENCE, { sub: identity.actor.id ?? identity.customerId ?? sessionId, jti: sessionId }, ttlSeconds);
  return { token, sessionId };
}

function toSessionRow(row: Pick<SessionDbRow, 'id' | 'sales_channel_id' | 'customer_id' | 'actor_type' | 'actor_id' | 'attributes' | 'cart_token'>): SessionRow {
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
type LiveSessionDbRow = Pick<SessionDbRow, 'id' | 'sales_channel_id' | 'customer_id' | 'actor_type' | 'actor_id' | 'attributes' | 'cart_token'> & {
  [K in keyof CustomerRefRow as `c_${K}`]: CustomerRefRow[K] | null;
} & {
  [K in keyof SalesChannelRefRow as `sc_${K}`]: SalesChannelRefRow[K] | null;
} & { sc_is_default: number | string; visibility_version: number | string | null };

/** The c_* / sc_* columns of a joined row as the table's row, or null when the join found none. */
function joined<Row extends { id: string }>(row: Record<string, unknown>, prefix: string, names: readonly (keyof Row & string)[]): Row | null {
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

/**
 * What a request's context needs of its session, in one read: the session if it is live (not
 * revoked, not expired — read on every request, so a logout or revocation on any process is
 * refused at once everywhere), its customer, its sales channel (and whether that is the default
 * one: the first active by creation), and the catalog's visibility version (rule ids are cached
 * per version).
 */
export async function loadLiveSession(executor: Executor, sessionId: string): Promise<LiveSession | null> {
  const row = await selectRow<LiveSessionDbRow>(executor('sessions as s')
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
      ...CUSTOMER_REF_COLUMNS.map((column) => `c.${column} as c_${column}`),
      ...SALES_CHANNEL_COLUMNS.map((column) => `sc.${column} as sc_${column}`),
      executor.raw(
        'case when exists (select 1 from sales_channels o where o.active = ? and (o.created_at < sc.created_at or (o.created_at = sc.created_at and o.id < sc.id))) then 0 else 1 end as sc_is_default',
        [true],
      ),
      executor('catalog_counters').where({ name: VISIBILITY }).select('value').as('visibility_version'),
    ));
  if (!row) return null;
  const customerRow = joined<CustomerRefRow>(row, 'c_', CUSTOMER_REF_COLUMNS);
  const channelRow = joined<SalesChannelRefRow>(row, 'sc_', SALES_CHANNEL_COLUMNS);
  return {
    session: toSessionRow(row),
    customer: customerRow ? toCustomerRef(customerRow) : null,
    salesChannel: channelRow ? { channel: toSalesChannel(channelRow), accessKey: channelRow.access_key, active: readBool(channelRow.active), isDefault: readInt(row.sc_is_default) === 1 } : null,
    visibilityVersion: readInt(row.visibility_version),
  };
}

export async function revokeSession(executor: Executor, sessionId: string): Promise<void> {
  await executor('sessions').where({ id: sessionId }).whereNull('revoked_at').update({ revoked_at: nowDb() });
}

export async function revokeActorSessions(executor: Executor, actorType: ActorType, actorId: string): Promise<number> {
  return executor('sessions').where({ actor_type: actorType, actor_id: actorId }).whereNull('revoked_at').update({ revoked_at: nowDb() });
}
