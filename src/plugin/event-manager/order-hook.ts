import type { HostRuntime, OrderCancelledHook, OrderPlacedHook } from '../../contract/index.js';
import { readBool, readInt } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { nowDb } from '../../lib/time.js';
import { ticketOf } from './line-item-processor.js';
import { EVENT_MAIL, eventMailData, type EventMailData } from './mail.js';
import {
  activeParticipantsOfOrder,
  changeParticipantStatus,
  insertParticipant,
  lockEvent,
  nextWaitingPosition,
  seatStatuses,
  takenSeats,
} from './repository.js';
import { initialParticipantStatus, participantTransition } from './states.js';
import { promoteWaiting } from './use-cases/waiting-list.js';

/** What a participant of a cancelled order becomes. */
const ORDER_CANCELLED_STATUS = 'canceled';

/**
 * Writes one participant per ticket line in the order's transaction (the processor locked the
 * events already): registered while seats remain, then on the waiting list. Mails the orderer a
 * confirmation that prints every ticket's `lineItem.payload.participant`.
 */
export function eventOrderHook(host: HostRuntime): OrderPlacedHook {
  return async (trx, ctx, order) => {
    const tickets = order.lines.flatMap((line) => {
      const ticket = ticketOf(line.payload);
      return ticket ? [{ line, ...ticket }] : [];
    });
    if (tickets.length === 0) return;
    const now = nowDb();
    const mailLines = [];
    const events = new Map<string, EventMailData>();
    for (const eventId of [...new Set(tickets.map((t) => t.eventId))].sort()) {
      const event = await lockEvent(trx, eventId);
      if (!event) throw Errors.badRequest('SUITE__EVENT_NOT_FOUND', `The event "${eventId}" does not exist any more.`);
      events.set(eventId, await eventMailData(host, trx, ctx.salesChannel, event));
      const limit = event.participant_limit === null ? null : readInt(event.participant_limit);
      let taken = await takenSeats(trx, eventId);
      for (const ticket of tickets.filter((t) => t.eventId === eventId)) {
        const status = initialParticipantStatus(limit !== null && taken >= limit, readBool(event.waiting_list));
        if (status === 'registered') taken++;
        const { participant } = ticket;
        await insertParticipant(trx, {
          id: participant.id,
          eventId,
          customerId: order.customerId,
          employeeId: participant.employeeId || null,
          firstName: participant.firstName,
          lastName: participant.lastName,
          email: participant.email,
          status,
          waitingPosition: status === 'waiting' ? await nextWaitingPosition(trx, eventId) : null,
          notes: null,
          order: { id: order.id, lineItemId: ticket.line.id },
          createdBy: { type: ctx.actor.type, id: ctx.actor.id },
          createdAt: now,
        });
        mailLines.push({ ticket, status });
      }
    }
    const to = ctx.actor.type === 'employee' && ctx.actor.email ? ctx.actor.email : (ctx.customer?.email ?? null);
    if (!to) return;
    const lineItems = mailLines
      .sort((a, b) => order.lines.indexOf(a.ticket.line) - order.lines.indexOf(b.ticket.line))
      .map(({ ticket, status }) => ({
        id: ticket.line.id,
        label: ticket.line.label,
        quantity: ticket.line.quantity,
        productNumber: ticket.line.productNumber,
        payload: ticket.line.payload,
        event: events.get(ticket.eventId),
        status,
        waiting: status === 'waiting',
      }));
    await host.mail.enqueue(trx, {
      template: EVENT_MAIL.registrationConfirmed,
      to,
      salesChannelId: ctx.salesChannel.id,
      dedupeKey: `event-registration:${order.id}`,
      data: {
        order: { id: order.id, orderNumber: order.orderNumber },
        orderer: { name: ctx.actor.name },
        lineItems,
        registeredCount: lineItems.filter((l) => !l.waiting).length,
        waitingCount: lineItems.filter((l) => l.waiting).length,
      },
    });
  };
}

/**
 * Order-cancelled hook: the order's tickets give their places back. Its registered and waiting
 * participants become `canceled` (event rows locked in id order, as the order hook locks them), and
 * each event whose seat freed moves its waiting list up, as when staff cancel a participant.
 */
export function eventOrderCancelledHook(host: HostRuntime): OrderCancelledHook {
  return async (trx, _ctx, order) => {
    const participants = await activeParticipantsOfOrder(trx, order.id);
    const seats = await seatStatuses(trx);
    for (const eventId of [...new Set(participants.map((p) => p.event_id))].sort()) {
      await lockEvent(trx, eventId);
      let freed = false;
      for (const participant of participants.filter((p) => p.event_id === eventId)) {
        if (
          (await changeParticipantStatus(trx, participant.id, participant.status, ORDER_CANCELLED_STATUS, null)) !== 1
        )
          continue;
        freed ||= participantTransition(participant.status, ORDER_CANCELLED_STATUS, seats).freesSeat;
      }
      if (freed) await promoteWaiting(host, trx, eventId);
    }
  };
}
