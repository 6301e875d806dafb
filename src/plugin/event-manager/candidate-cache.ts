import { LRUCache } from 'lru-cache';
import type { HostRuntime, StoreContext } from '../../contract/index.js';
import { applyCriteriaFilters } from '../../lib/criteria.js';
import { selectRows } from '../../lib/db.js';
import type { OwnCriteria } from '../product-fields.js';
import { EVENT_CRITERIA, EVENTS_VERSION, customerEventsQuery, eventsVersion } from './repository.js';
import type { EventSettingsCache } from './settings.js';

/** Distinct overview queries (registration statuses, own filters and ids) remembered. */
const QUERIES_MAX = 200;

interface Candidates {
  /** The events version read before the rows were. */
  version: number;
  /** The time the rows were read at: events over by then are not among them. */
  readAt: string;
  /** Per event: its product and its end (the stored form, which orders as the time does). */
  productIds: string[];
  endsAt: string[];
  /** The earliest of `endsAt`: until then, every row kept is a candidate. */
  firstEnd: string;
}

/**
 * The event overview's candidate events (a registration status, not over, passing the request's own
 * filters; product visibility is the host's answer) as the product id per event, kept per query
 * until the events version moves (any write to the events or their speakers, on any process: a
 * database counter moved by triggers) — the overview asks the host about these products on every
 * request, and reading them cost more than the page. Time passing is applied on every request: the
 * rows kept carry their end, and an event over since is left out.
 */
export class EventCandidateCache {
  private readonly entries = new LRUCache<string, Candidates>({ max: QUERIES_MAX });

  constructor(
    private readonly host: HostRuntime,
    private readonly settings: EventSettingsCache,
  ) {}

  /** One product id per candidate event of `own` (not made distinct) at `now` (the time of the request's page query). */
  async productIds(ctx: StoreContext, own: OwnCriteria, now: string): Promise<string[]> {
    const statuses = this.settings.current().registrationStatuses;
    const key = JSON.stringify([statuses, own.filter ?? [], own.ids ?? []]);
    const version = this.host.auth.contextVersion?.(ctx, EVENTS_VERSION) ?? (await eventsVersion(this.host.db));
    let entry = this.entries.get(key);
    // A clock set back could make an event not over any more that the rows left out.
    if (!entry || entry.version !== version || now < entry.readAt) {
      const rows = await selectRows<{ product_id: string; ends_at: string }>(
        applyCriteriaFilters(customerEventsQuery(this.host.db, statuses, now), own, EVENT_CRITERIA).select(
          'ev.product_id',
          'ev.ends_at',
        ),
      );
      const endsAt = rows.map((row) => row.ends_at);
      // Frozen: the host may then answer the same list with its kept answer (contract 3.3, catalog.productIds).
      const productIds = Object.freeze(rows.map((row) => row.product_id)) as string[];
      entry = {
        version,
        readAt: now,
        productIds,
        endsAt,
        firstEnd: endsAt.reduce((first, end) => (end < first ? end : first), '\uffff'),
      };
      this.entries.set(key, entry);
      return entry.productIds;
    }
    const { productIds, endsAt } = entry;
    if (entry.firstEnd >= now) return productIds;
    const current: string[] = [];
    for (let i = 0; i < productIds.length; i++) if (endsAt[i]! >= now) current.push(productIds[i]!);
    return current;
  }
}
