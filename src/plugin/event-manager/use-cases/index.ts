import type { HostRuntime, StoreContext } from '../../../contract/index.js';
import type { Criteria } from '../../../lib/criteria.js';
import type { Executor } from '../../../lib/db.js';
import { searchSpecifications, specificationsOfType, type EventRow, type SpecificationType } from '../repository.js';
import type { EventSettings, EventSettingsCache } from '../settings.js';
import { EventCandidateCache } from '../candidate-cache.js';
import { sendCircularMail, staffSender, type CircularSender } from './circular-mail.js';
import { companyParticipants, customerEvent, searchCustomerEvents } from './customer.js';
import {
  createEvent,
  deleteEvent,
  eventStatuses,
  eventView,
  eventViews,
  searchEvents,
  setEventStatus,
  updateEvent,
  type EventInput,
} from './events.js';
import {
  addParticipant,
  addParticipantStatus,
  participantView,
  searchParticipants,
  setParticipantStatus,
  updateParticipant,
  type ParticipantInput,
  type ParticipantPatch,
} from './participants.js';
import { createSpecification, deleteSpecification, updateSpecification } from './specifications.js';

export type { EventInput } from './events.js';
export type { ParticipantInput, ParticipantPatch, Person } from './participants.js';

/**
 * The event manager's use cases bound to the host and the settings, for routes, storefront pages and
 * jobs. Each one lives in its own module of this folder; this is only the table of contents.
 */
export class EventUseCases {
  private readonly candidates: EventCandidateCache;

  constructor(
    private readonly host: HostRuntime,
    private readonly settings: EventSettingsCache,
  ) {
    this.candidates = new EventCandidateCache(host, settings);
  }

  // events (sales staff)
  eventStatuses = (settings: EventSettings = this.settings.current()): string[] => eventStatuses(settings);
  views = (executor: Executor, rows: EventRow[]) => eventViews(this.host, this.settings, executor, rows);
  view = (executor: Executor, id: string) => eventView(this.host, this.settings, executor, id);
  searchEvents = (criteria: Criteria) => searchEvents(this.host, this.settings, criteria);
  createEvent = (ctx: StoreContext | null, input: EventInput) =>
    createEvent(this.host, this.settings, ctx?.salesRepresentative?.id ?? null, input);
  updateEvent = (id: string, input: EventInput) => updateEvent(this.host, this.settings, id, input);
  deleteEvent = (id: string) => deleteEvent(this.host, id);
  setEventStatus = (id: string, status: string) => setEventStatus(this.host, this.settings, id, status);
  // specifications
  searchSpecifications = (criteria: Criteria) => searchSpecifications(this.host.db, criteria);
  specificationsOfType = (type: SpecificationType) => specificationsOfType(this.host.db, type);
  createSpecification = (input: Parameters<typeof createSpecification>[1]) => createSpecification(this.host, input);
  updateSpecification = (id: string, input: Parameters<typeof updateSpecification>[2]) =>
    updateSpecification(this.host, id, input);
  deleteSpecification = (id: string) => deleteSpecification(this.host, id);
  // participants (sales staff)
  searchParticipants = (eventId: string, criteria: Criteria) => searchParticipants(this.host, eventId, criteria);
  participant = (executor: Executor, id: string) => participantView(this.host, executor, id);
  addParticipant = (ctx: StoreContext, eventId: string, input: ParticipantInput) =>
    addParticipant(this.host, ctx, eventId, input);
  updateParticipant = (id: string, patch: ParticipantPatch) => updateParticipant(this.host, id, patch);
  setParticipantStatus = (id: string, status: string) => setParticipantStatus(this.host, id, status);
  addParticipantStatus = (input: Parameters<typeof addParticipantStatus>[1]) => addParticipantStatus(this.host, input);
  sendCircularMail = (
    sender: StoreContext | CircularSender,
    eventId: string,
    input: Parameters<typeof sendCircularMail>[3],
  ) => sendCircularMail(this.host, 'actor' in sender ? staffSender(sender) : sender, eventId, input);
  // customers
  searchCustomerEvents = (ctx: StoreContext, criteria: Criteria) =>
    searchCustomerEvents(this.host, this.settings, this.candidates, ctx, criteria);
  customerEvent = (ctx: StoreContext, id: string) => customerEvent(this.host, this.settings, ctx, id);
  companyParticipants = (customerId: string, criteria: Criteria) =>
    companyParticipants(this.host, customerId, criteria);
}
