import { defineAdminRoute, type HostRuntime } from '../../contract/index.js';
import { objectSchema } from '../../lib/schemas.js';
import { catchUpDueOccurrences } from './placement.js';

const TAGS = ['Recurring orders'];
/** How long one call places before it answers (`done: false`: call again). */
const CATCH_UP_BUDGET_MS = 20_000;

const catchUpBody = objectSchema({
  now: {
    type: 'string',
    format: 'date-time',
    description: 'Run as of this time (ISO 8601); default: now. Dates after its day (UTC) are not placed.',
  },
  missedOccurrences: {
    enum: ['place-once', 'skip'],
    description: 'What happens to dates that passed unplaced; default: the setting recurringOrderMissedOccurrences.',
  },
});

const count = { type: 'integer', minimum: 0 } as const;
const catchUpResponse = objectSchema(
  {
    data: objectSchema(
      {
        now: { type: 'string', format: 'date-time' },
        placed: count,
        approvals: count,
        held: count,
        failed: count,
        skipped: count,
        runs: { type: 'integer', minimum: 1 },
        done: { type: 'boolean' },
      },
      ['now', 'placed', 'approvals', 'held', 'failed', 'skipped', 'runs', 'done'],
    ),
  },
  ['data'],
);

/**
 * The operator's catch-up for missed occurrences (decision 0041): what the job
 * `recurring-order.place-due` does every 5 minutes, run now and as of a chosen time, answered with
 * what it did. The CLI's `recurring-orders:place-due` is the same on the reference host.
 */
export function recurringOrderAdminRoutes(host: HostRuntime) {
  return [
    defineAdminRoute({
      method: 'POST',
      path: '/_action/suite-recurring-order/place-due',
      operationId: 'placeDueRecurringOrders',
      summary:
        'Places the recurring orders due as of `now` (default: now), as the job does: after downtime, or to catch up as of another time.',
      description:
        'Each due date is placed once, whoever runs it and however often (the job may run at the same time). Missed dates follow `missedOccurrences` (default: the setting). ' +
        'One call places for about 20 seconds; `done: false` says more is due: call again.',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: { body: catchUpBody, responses: { 200: catchUpResponse } },
      async handler({ body }) {
        const now = body.now ? new Date(body.now) : new Date();
        const { summary, runs, done } = await catchUpDueOccurrences(host, {
          now,
          missed: body.missedOccurrences,
          budgetMs: CATCH_UP_BUDGET_MS,
        });
        return { data: { now: now.toISOString(), ...summary, runs, done } };
      },
    }),
  ];
}
