import type { HostRuntime, SalesChannel } from '../../contract/index.js';
import type { Executor } from '../../lib/db.js';
import { fromDbTime } from '../../lib/time.js';
import { findSpecification, type EventRow } from './repository.js';

export const EVENT_MAIL = {
  registrationConfirmed: 'event-registration-confirmed',
  waitingListPromoted: 'event-waiting-list-promoted',
  circular: 'event-circular',
  reminder: 'event-reminder',
} as const;

export function formatDateTime(iso: string, timeZone: string): string {
  const options = {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: timeZone || 'UTC',
    timeZoneName: 'short',
  } as const;
  try {
    return new Intl.DateTimeFormat('en-GB', options).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' }).format(new Date(iso));
  }
}

export function eventPath(eventId: string): string {
  return `/account/events/${eventId}`;
}

/** What every event mail can print about the event (templates/mail/event-*: `event`); a type alias, so it fits a mail's `data`. */
export type EventMailData = {
  id: string;
  name: string;
  language: string;
  startsAt: string | null;
  endsAt: string | null;
  startsAtText: string;
  venue: string | null;
  url: string;
};

/** What every event mail can print about the event. */
export async function eventMailData(
  host: HostRuntime,
  executor: Executor,
  salesChannel: SalesChannel,
  event: EventRow,
): Promise<EventMailData> {
  const venue = event.venue_id ? await findSpecification(executor, event.venue_id) : null;
  return {
    id: event.id,
    name: event.name,
    language: event.language,
    startsAt: fromDbTime(event.starts_at),
    endsAt: fromDbTime(event.ends_at),
    startsAtText: formatDateTime(fromDbTime(event.starts_at)!, salesChannel.timeZone),
    venue: venue?.name ?? null,
    url: host.storefront.url(salesChannel, eventPath(event.id)),
  };
}

export async function salesChannelOfCustomer(
  host: HostRuntime,
  executor: Executor,
  customerId: string,
  fallback?: SalesChannel,
): Promise<SalesChannel | null> {
  const customer = await host.customers.get(executor, customerId);
  if (!customer) return fallback ?? null;
  return (await host.customers.salesChannel(executor, customer.salesChannelId)) ?? fallback ?? null;
}
