import type { Knex } from 'knex';
import type { HostRuntime, StoreContext } from '../../../contract/index.js';
import { searchByCriteria, type Criteria } from '../../../lib/criteria.js';
import { selectRow } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { nowDb } from '../../../lib/time.js';
import { narrowByProductFields } from '../../product-fields.js';
import {
  EVENT_COLUMNS,
  EVENT_CRITERIA,
  PARTICIPANT_COLUMNS,
  PARTICIPANT_CRITERIA,
  customerEventsQuery,
  eventProductFields,
  participantsOf,
  toCustomerParticipantView,
  withHostFields,
  withSeatCounts,
  type EventRow,
  type EventRowWithCounts,
  type EventView,
  type ParticipantRow,
} from '../repository.js';
import type { EventSettingsCache } from '../settings.js';
import { eventViews } from './events.js';
import type { EventCandidateCache } from '../candidate-cache.js';

/** Events a customer may see: a registration status, not over (the product's visibility is the host's answer, below). */
function customerEvents(host: HostRuntime, settings: EventSettingsCache, now = nowDb()): Knex.QueryBuilder {
  return customerEventsQuery(host.db, settings.current().registrationStatuses, now);
}

/** Events of active products the context may see, by criteria. */
export async function searchCustomerEvents(
  host: HostRuntime,
  settings: EventSettingsCache,
  candidates: EventCandidateCache,
  ctx: StoreContext,
  criteria: Criteria,
): Promise<{ total: number; data: EventView[] }> {
  await ctx.ruleIds();
  const now = nowDb();
  const query = customerEvents(host, settings, now);
  const list = await narrowByProductFields(host, ctx, query, criteria, EVENT_CRITERIA, eventProductFields, undefined, {
    candidateProductIds: (own) => candidates.productIds(ctx, own, now),
  });
  const page = await searchByCriteria<EventRowWithCounts>(
    query,
    list.criteria,
    EVENT_CRITERIA,
    (q) => list.order(withSeatCounts(q.select(EVENT_COLUMNS), host.db)),
    { knownTotal: list.total },
  );
  return { total: page.total, data: await eventViews(host, settings, host.db, page.rows, ctx) };
}

export async function customerEvent(
  host: HostRuntime,
  settings: EventSettingsCache,
  ctx: StoreContext,
  id: string,
): Promise<EventView> {
  await ctx.ruleIds();
  const row = await selectRow<EventRow>(customerEvents(host, settings).where('ev.id', id).first(EVENT_COLUMNS));
  if (!row || (await host.catalog.visibleProducts(host.db, ctx, [row.product_id])).length === 0)
    throw Errors.notFound('Event', id);
  return (await eventViews(host, settings, host.db, [row], ctx))[0]!;
}

/** The customer's participants in all events (the company's registrations). */
export async function companyParticipants(host: HostRuntime, customerId: string, criteria: Criteria) {
  const base = participantsOf(host.db, { customerId });
  const page = await searchByCriteria<ParticipantRow>(base, criteria, PARTICIPANT_CRITERIA, (q) =>
    q.select(PARTICIPANT_COLUMNS),
  );
  return {
    total: page.total,
    data: (await withHostFields(host, host.db, page.rows)).map(toCustomerParticipantView),
    nextCursor: page.nextCursor,
  };
}
