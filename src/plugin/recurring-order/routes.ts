import { defineStoreRoute } from '../../contract/index.js';
import { pathParams } from '../../lib/schemas.js';
import { storeList } from '../../lib/store-list.js';
import { emptyBody } from '../../lib/schemas.js';
import { createBody, listBody, listResponse, recurringOrderSchema, TAG, updateBody } from './schemas.js';
import type { RecurringOrderService } from './service.js';

export const MANAGE_PERMISSION = 'recurring-orders.manage';
const common = {
  tags: [TAG],
  auth: 'login' as const,
  actors: ['customer' as const, 'employee' as const],
  needsCustomer: true,
  permission: MANAGE_PERMISSION,
};
const idParams = pathParams('id');
const one = { 200: recurringOrderSchema };

/**
 * The buyer's recurring orders: an employee sees and manages the ones they set up, the company
 * admin (the customer login) all of the company's. Another customer's id, or a colleague's for an
 * employee, is a 404.
 */
export function recurringOrderRoutes(service: RecurringOrderService) {
  return [
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/b2b/recurring-order/list',
      operationId: 'listRecurringOrders',
      summary: 'The recurring orders the caller may see, by criteria (newest first), each with its latest occurrences.',
      schemas: { body: listBody, responses: { 200: listResponse } },
      async handler({ ctx, body }) {
        const { page, views } = await service.list(ctx, body);
        return storeList(views, page);
      },
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/b2b/recurring-order',
      operationId: 'createRecurringOrder',
      summary:
        "Turns the caller's cart or one of the company's product lists into a recurring order every N days, weeks or months.",
      description:
        'Each occurrence is placed by the job worker through the normal checkout (approval rules, budgets, quantity rules and assortments apply); the buyer is mailed each one with what changed since the last.',
      idempotent: true,
      schemas: { body: createBody, responses: one },
      handler: ({ ctx, body }) => service.create(ctx, body),
    }),
    defineStoreRoute({
      ...common,
      method: 'GET',
      path: '/b2b/recurring-order/{id}',
      operationId: 'readRecurringOrder',
      summary: 'One recurring order with its items and latest 50 occurrences.',
      schemas: { params: idParams, responses: one },
      handler: ({ ctx, params }) => service.read(ctx, params.id),
    }),
    defineStoreRoute({
      ...common,
      method: 'PATCH',
      path: '/b2b/recurring-order/{id}',
      operationId: 'updateRecurringOrder',
      summary:
        'Changes the schedule (interval, start, end), name, comment or addresses; the next date follows from the new schedule, not before today.',
      schemas: { params: idParams, body: updateBody, responses: one },
      handler: ({ ctx, params, body }) => service.update(ctx, params.id, body),
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/b2b/recurring-order/{id}/pause',
      operationId: 'pauseRecurringOrder',
      summary: 'Pauses an active recurring order: nothing is ordered until it is resumed.',
      schemas: { params: idParams, body: emptyBody, responses: one },
      handler: ({ ctx, params }) => service.pause(ctx, params.id),
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/b2b/recurring-order/{id}/resume',
      operationId: 'resumeRecurringOrder',
      summary:
        'Resumes a paused recurring order on its next date from today (what fell due while paused is not ordered).',
      schemas: { params: idParams, body: emptyBody, responses: one },
      handler: ({ ctx, params }) => service.resume(ctx, params.id),
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/b2b/recurring-order/{id}/skip',
      operationId: 'skipRecurringOrder',
      summary: 'Skips the next occurrence (recorded as skipped); the one after it becomes the next.',
      schemas: { params: idParams, body: emptyBody, responses: one },
      handler: ({ ctx, params }) => service.skipNext(ctx, params.id),
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/b2b/recurring-order/{id}/cancel',
      operationId: 'cancelRecurringOrder',
      summary:
        'Cancels the recurring order for good (its occurrences and orders stay); cancelling twice answers it again.',
      schemas: { params: idParams, body: emptyBody, responses: one },
      handler: ({ ctx, params }) => service.cancel(ctx, params.id),
    }),
  ];
}
