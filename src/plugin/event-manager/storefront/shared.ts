import type { StoreContext, StorefrontPage } from '../../../contract/index.js';
import { Errors } from '../../../lib/errors.js';
import { isId } from '../../../lib/ids.js';
import type { Form } from '../../storefront-kit.js';
import { formatDateTime } from '../mail.js';
import type { EventView } from '../repository.js';
import type { EventSettings } from '../settings.js';

/** What the event pages share: how an event reads on a page, and the readers of their forms. */

export const ORDER_PERMISSION = 'orders.create';
const SAFE_LINK = /^(\/(?![/\\])|https?:\/\/)/i;

/** A form value (the first, when repeated), trimmed; '' when absent. */
export function field(form: Form, name: string): string {
  const value = form[name];
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.trim() : '';
}

/** 'YYYY-MM-DDTHH:MM' from a datetime-local input, read as UTC, as the route's ISO date-time; '' → undefined (the route names what is missing). */
export function formDate(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(/[zZ]|[+-]\d\d:\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** A path id: a 404 for anything that cannot be one (no route is called with it). */
export function pathId(id: string | undefined, label: string): string {
  if (!id || !isId(id)) throw Errors.notFound(label, id ?? '');
  return id;
}

export function dateTime(ctx: StoreContext, iso: string | null): string {
  return iso ? formatDateTime(iso, ctx.salesChannel.timeZone) : '';
}

export function display(ctx: StoreContext, event: EventView) {
  return {
    ...event,
    startsAtText: dateTime(ctx, event.startsAt),
    endsAtText: dateTime(ctx, event.endsAt),
    deadlineText: dateTime(ctx, event.registrationDeadline),
    speakerNames: event.speakers.map((s) => s.name).join(', '),
    seatsText: event.participantLimit === null ? 'Unlimited' : `${event.freeSeats} of ${event.participantLimit} free`,
  };
}

export function allEventsLink(settings: EventSettings): string {
  if (settings.categoryUrl && SAFE_LINK.test(settings.categoryUrl)) return settings.categoryUrl;
  if (settings.categoryId && isId(settings.categoryId)) return `/account/events?category=${settings.categoryId}`;
  return '/account/events';
}

/** A list route's answer as the pages read it. */
export interface ListAnswer<T> {
  total: number;
  elements: T[];
}

/** The sales staff's pages: sales representative logins only (the pipeline refuses everyone else). */
export const STAFF_PAGE: Pick<StorefrontPage, 'auth' | 'actors'> = { auth: 'login', actors: ['salesRepresentative'] };
