import type { Cart, HostRuntime, PriceLine, SalesChannel, StoreContext } from '../../contract/index.js';
import { inTransaction, isDuplicateKeyError, readInt, type Trx } from '../../lib/db.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { fromMinor } from '../../lib/money.js';
import { now, nowDb } from '../../lib/time.js';
import { actingContext } from '../company/index.js';
import { approvalNumberOf, insertApprovalFor } from '../order-approval/index.js';
import { isAllowed, nearestAllowed, rulesOf } from '../quantity-rule/index.js';
import {
  currentSchedule,
  dueRecurringOrders,
  insertOccurrence,
  itemsOf,
  moveOnFrom,
  recordedDates,
  rememberPrices,
  scheduleOf,
  type ItemRow,
  type OccurrenceChange,
  type OccurrenceStatus,
  type RecurringRow,
} from './repository.js';
import { dateOf, datesBetween, firstDateFrom } from './schedule.js';

export const RECURRING_ORIGIN = 'recurring-order';
export const OCCURRENCE_MAIL = 'recurring-order-occurrence';
const APPROVAL_REQUIRED = 'SUITE__ORDER_APPROVAL_REQUIRED';

/** plugin.json `recurringOrderMissedOccurrences`: what happens to an occurrence whose day passed while the shop was down. */
export type MissedPolicy = 'place-once' | 'skip';

export interface PlacementSummary {
  placed: number;
  approvals: number;
  failed: number;
  skipped: number;
  /** Dates not ordered because a product is gone and the buyer chose `hold`. */
  held: number;
  /** Recurring orders that were due and looked at (at most one batch, BATCH_SIZE, per run). */
  due: number;
}

export const BATCH_SIZE = 100;

interface Outcome {
  status: Exclude<OccurrenceStatus, 'skipped'>;
  reason: string | null;
  errorCode: string | null;
  orderId: string | null;
  orderNumber: string | null;
  approvalId: string | null;
}

interface Prepared {
  ctx: StoreContext;
  lines: PriceLine[];
  changes: OccurrenceChange[];
}

/**
 * Places every occurrence that is due on `now`'s date (UTC) or before: the job's work, run by any
 * number of workers at once. Each recurring order moves on from the next date it was read with by
 * a conditional write in the transaction that places (or records) the occurrence, and the
 * occurrence's row is unique per due date: an occurrence is placed once, whoever runs it and
 * however often; a worker that dies before its commit leaves it due for the next run.
 */
export async function placeDueOccurrences(
  host: HostRuntime,
  options: { now?: Date; missed?: MissedPolicy } = {},
): Promise<PlacementSummary> {
  const today = dateOf(options.now ?? now());
  const missed = options.missed ?? (await host.config.get<MissedPolicy>('recurringOrderMissedOccurrences'));
  const summary: PlacementSummary = { placed: 0, approvals: 0, held: 0, failed: 0, skipped: 0, due: 0 };
  const due = await dueRecurringOrders(host.db, today, BATCH_SIZE);
  summary.due = due.length;
  for (const row of due) {
    try {
      await placeOne(host, row, today, missed, summary);
    } catch (error) {
      // One order's trouble (a database hiccup) must not hold up the others; it stays due for the next run.
      host.log.error({ recurringOrderId: row.id, err: String(error) }, 'recurring order occurrence failed');
    }
  }
  return summary;
}

/**
 * The operator's catch-up (Admin API route, CLI): runs as of `now` batch after batch until a batch is
 * not full (nothing more is due), a batch changes nothing (what is left fails each time: the log
 * says why), or `budgetMs` has passed; `done` says whether nothing is left due.
 */
export async function catchUpDueOccurrences(
  host: HostRuntime,
  options: { now?: Date; missed?: MissedPolicy; budgetMs?: number },
): Promise<{ summary: Omit<PlacementSummary, 'due'>; runs: number; done: boolean }> {
  const started = Date.now();
  const total = { placed: 0, approvals: 0, held: 0, failed: 0, skipped: 0 };
  let runs = 0;
  for (;;) {
    const run = await placeDueOccurrences(host, { now: options.now, missed: options.missed });
    runs++;
    const changed = run.placed + run.approvals + run.held + run.failed + run.skipped;
    for (const key of ['placed', 'approvals', 'held', 'failed', 'skipped'] as const) total[key] += run[key];
    if (run.due < BATCH_SIZE) return { summary: total, runs, done: true };
    if (changed === 0 || (options.budgetMs !== undefined && Date.now() - started >= options.budgetMs))
      return { summary: total, runs, done: false };
  }
}

async function placeOne(
  host: HostRuntime,
  row: RecurringRow,
  today: string,
  missed: MissedPolicy,
  summary: PlacementSummary,
): Promise<void> {
  const schedule = scheduleOf(row);
  const passed = datesBetween(schedule, row.next_date!, today);
  // A date that has its occurrence already (a next date left on it by a version before decision 0041) is not
  // recorded again: the schedule moves past it.
  const recorded = await recordedDates(host.db, row.id, passed);
  if (recorded.size > 0)
    host.log.warn(
      { recurringOrderId: row.id, dates: [...recorded] },
      'recurring order: dates already recorded are passed over; the schedule moves on',
    );
  const dates = passed.filter((date) => !recorded.has(date));
  const latest = dates.at(-1) ?? null;
  const onTime = latest === today ? latest : null;
  const dueDate = missed === 'place-once' ? latest : onTime;
  const skipped = dueDate === null ? dates : dates.slice(0, -1);
  const next = firstDateFrom(schedule, today, true);
  const claim = { row, next, skipped };

  const items = (await itemsOf(host.db, [row.id])).get(row.id) ?? [];
  const ctx = dueDate
    ? await actingContext(host, {
        customerId: row.customer_id,
        salesChannelId: row.sales_channel_id,
        employeeId: row.owner_type === 'employee' ? row.owner_id : null,
      })
    : null;
  const prepared = ctx ? await prepare(host, ctx, row, items) : null;

  const record = async (work: (trx: Trx, occurrenceId: string) => Promise<Outcome | null>) =>
    recordOccurrence(host, claim, dueDate, prepared?.changes ?? [], work);

  let refusal: AppError | null = null;
  const attempt = async (work: (trx: Trx, occurrenceId: string) => Promise<Outcome | null>) => {
    try {
      return { done: await record(work) };
    } catch (error) {
      if (error instanceof AppError && error.status < 500 && error.status !== 409) {
        refusal = error;
        return null;
      }
      throw error;
    }
  };

  let result: { done: Outcome | null | 'lost' } | null = null;
  const held = dueDate && prepared && prepared.lines.length > 0 ? heldFor(row, prepared.changes) : null;
  if (held) result = { done: await record(() => Promise.resolve(held)) };
  else if (dueDate && prepared && prepared.lines.length > 0) {
    result = await attempt(async (trx) => {
      const placed = await host.checkout.placeOrder(trx, prepared.ctx, {
        lines: prepared.lines,
        billingAddressId: row.billing_address_id,
        shippingAddressId: row.shipping_address_id,
        customerComment: row.comment,
        origin: RECURRING_ORIGIN,
        customFields: { recurringOrderId: row.id, recurringOrderDate: dueDate },
      });
      await rememberPrices(trx, prepared.lines);
      return outcome('placed', { orderId: placed.id, orderNumber: placed.orderNumber });
    });
    const firstRefusal = refusal as AppError | null;
    if (!result && firstRefusal?.code === APPROVAL_REQUIRED)
      result = await attempt(async (trx, occurrenceId) => {
        const approvalId = await insertApprovalFor(host, prepared.ctx, trx, {
          cartToken: occurrenceId,
          lines: prepared.lines,
          customerComment: row.comment,
          billingAddressId: row.billing_address_id,
          shippingAddressId: row.shipping_address_id,
        });
        return outcome('approval', { approvalId, reason: firstRefusal.message, errorCode: firstRefusal.code });
      });
  }
  if (!result) {
    const why = refusal as AppError | null;
    const reason = !dueDate
      ? null
      : !ctx
        ? 'The buyer can no longer order for the company (account or employee inactive).'
        : prepared && prepared.lines.length === 0
          ? 'None of the products can be ordered any more.'
          : (why?.message ?? 'The order could not be placed.');
    result = {
      done: await record(() =>
        Promise.resolve(
          dueDate
            ? outcome('failed', { reason, errorCode: why?.code ?? 'SUITE__RECURRING_ORDER_NOT_PLACEABLE' })
            : null,
        ),
      ),
    };
  }
  const done = result.done;
  if (done === 'lost') return;
  summary.skipped += skipped.length;
  if (done?.status === 'placed') summary.placed++;
  else if (done?.status === 'approval') summary.approvals++;
  else if (done?.status === 'held') summary.held++;
  else if (done?.status === 'failed') summary.failed++;
}

export const PRODUCT_UNAVAILABLE = 'SUITE__RECURRING_ORDER_PRODUCT_UNAVAILABLE';

/**
 * The buyer's choice `hold` (decision 0041): a date whose products are not all available any more
 * places nothing; the occurrence is `held` and the mail asks the buyer what to do. null: place.
 */
function heldFor(row: RecurringRow, changes: OccurrenceChange[]): Outcome | null {
  if (row.unavailable_products !== 'hold') return null;
  const gone = changes.filter((change) => change.kind === 'not-available').map((change) => `"${change.label}"`);
  if (gone.length === 0) return null;
  return outcome('held', {
    errorCode: PRODUCT_UNAVAILABLE,
    reason:
      `${gone.join(', ')} can no longer be ordered, so nothing was ordered for this date. ` +
      'Choose "leave out products that are not available" for this recurring order to have the rest ordered, or cancel it.',
  });
}

function outcome(status: Outcome['status'], fields: Partial<Omit<Outcome, 'status'>>): Outcome {
  return {
    status,
    reason: fields.reason ?? null,
    errorCode: fields.errorCode ?? null,
    orderId: fields.orderId ?? null,
    orderNumber: fields.orderNumber ?? null,
    approvalId: fields.approvalId ?? null,
  };
}

/**
 * One transaction: the recurring order moves on from the next date it was read with (else another
 * worker did it: 'lost'), the missed dates are recorded as skipped, `work` places or records the
 * due date's occurrence, and the buyer is mailed what happened.
 */
async function recordOccurrence(
  host: HostRuntime,
  claim: { row: RecurringRow; next: string | null; skipped: string[] },
  dueDate: string | null,
  changes: OccurrenceChange[],
  work: (trx: Trx, occurrenceId: string) => Promise<Outcome | null>,
): Promise<Outcome | null | 'lost'> {
  const { row, next, skipped } = claim;
  try {
    return await inTransaction(host.db, async (trx) => {
      const now = nowDb();
      const moved = await moveOnFrom(
        trx,
        { id: row.id, status: 'active', nextDate: row.next_date },
        { next_date: next, status: next === null ? 'ended' : 'active', updated_at: now },
        dueDate ? 1 : 0,
      );
      if (moved !== 1) return 'lost' as const;
      for (const date of skipped)
        await insertOccurrence(trx, {
          id: newId(),
          recurring_order_id: row.id,
          customer_id: row.customer_id,
          due_date: date,
          status: 'skipped',
          reason: 'missed',
          error_code: null,
          order_id: null,
          order_number: null,
          approval_id: null,
          changes: [],
          created_at: now,
        });
      const occurrenceId = newId();
      const result = dueDate ? await work(trx, occurrenceId) : null;
      if (dueDate && result)
        await insertOccurrence(trx, {
          id: occurrenceId,
          recurring_order_id: row.id,
          customer_id: row.customer_id,
          due_date: dueDate,
          status: result.status,
          reason: result.reason,
          error_code: result.errorCode,
          order_id: result.orderId,
          order_number: result.orderNumber,
          approval_id: result.approvalId,
          changes,
          created_at: now,
        });
      if (dueDate || skipped.length > 0)
        await mailOccurrence(host, trx, row, { dueDate, result, skipped, next, changes });
      return result;
    });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    // The unique (recurring order, due date) key: another worker recorded this date first, and moved
    // the next date on. A next date that did not move is stuck on a recorded date: say so (the run's
    // error log), never leave it silently.
    const current = await currentSchedule(host.db, row.id);
    if (!current || current.status !== 'active' || current.next_date !== row.next_date) return 'lost';
    throw new Error(
      `recurring order ${row.id}: the occurrence of ${dueDate ?? skipped.join(', ')} is recorded already and the next date ${row.next_date} could not move on`,
      { cause: error },
    );
  }
}

/**
 * The lines of an occurrence as the buyer may order them today: each item priced for them
 * (visibility, customer prices, line-item processors), a quantity a quantity rule no longer admits
 * moved to the nearest allowed one, and what differs from the last occurrence.
 */
async function prepare(host: HostRuntime, ctx: StoreContext, row: RecurringRow, items: ItemRow[]): Promise<Prepared> {
  const changes: OccurrenceChange[] = [];
  const rules = await rulesOf(
    host.db,
    items.map((item) => item.product_id),
  );
  const lineItems = items.map((item, position) => {
    let quantity = readInt(item.quantity);
    const rule = rules.get(item.product_id);
    if (rule && !isAllowed(rule, quantity)) {
      const allowed = nearestAllowed(rule, quantity);
      const adjusted = allowed.find((q) => q >= quantity) ?? allowed.at(-1);
      if (adjusted !== undefined && adjusted !== quantity) {
        changes.push({
          kind: 'quantity-adjusted',
          productId: item.product_id,
          label: item.label,
          before: quantity,
          after: adjusted,
        });
        quantity = adjusted;
      }
    }
    return {
      id: item.id,
      type: 'product',
      productId: item.product_id,
      label: item.label,
      quantity,
      payload: {},
      position,
    };
  });
  // No cart holds these lines: priced as given (contract 4.4). A host before 4.4 gets them as a cart
  // of a token of the plugin's, which only a host that prices a cart's given lines answers.
  const cart: Cart = {
    token: `recurring-${row.id}`,
    customerId: row.customer_id,
    salesChannelId: row.sales_channel_id,
    lineItems,
  };
  const priced = host.cart.priceLines
    ? await host.cart.priceLines(host.db, ctx, lineItems)
    : await host.cart.price(host.db, ctx, cart);
  const pricedById = new Map(priced.lines.map((line) => [line.lineItemId, line]));
  for (const item of items) {
    const line = pricedById.get(item.id);
    if (!line) {
      changes.push({ kind: 'not-available', productId: item.product_id, label: item.label });
      continue;
    }
    const before = item.last_unit_net === null || item.last_unit_net === undefined ? null : readInt(item.last_unit_net);
    if (before !== null && before !== line.unitNet)
      changes.push({
        kind: 'price-changed',
        productId: item.product_id,
        label: item.label,
        before,
        after: line.unitNet,
      });
  }
  return { ctx, lines: priced.lines, changes };
}

const STATUS_TEXT: Record<string, string> = {
  placed: 'ordered',
  approval: 'waiting for approval',
  held: 'held, a product is no longer available',
  failed: 'not ordered',
};

async function mailOccurrence(
  host: HostRuntime,
  trx: Trx,
  row: RecurringRow,
  occurrence: {
    dueDate: string | null;
    result: Outcome | null;
    skipped: string[];
    next: string | null;
    changes: OccurrenceChange[];
  },
): Promise<void> {
  const to = row.owner_email ?? (await host.customers.get(trx, row.customer_id))?.email;
  if (!to) return;
  const salesChannel: SalesChannel | null = await host.customers.salesChannel(trx, row.sales_channel_id);
  if (!salesChannel) return;
  const precision = salesChannel.currencyPrecision;
  const money = (minor: number) => `${fromMinor(minor, precision).toFixed(precision)} ${salesChannel.currencyIso}`;
  const approvalNumber = occurrence.result?.approvalId
    ? await approvalNumberOf(trx, occurrence.result.approvalId)
    : undefined;
  await host.mail.enqueue(trx, {
    template: OCCURRENCE_MAIL,
    to,
    salesChannelId: salesChannel.id,
    dedupeKey: `recurring-order:${row.id}:${occurrence.dueDate ?? occurrence.skipped.at(-1) ?? ''}`,
    data: {
      recipientName: row.owner_name,
      recurringOrder: {
        id: row.id,
        name: row.name,
        nextDate: occurrence.next,
        url: host.storefront.url(salesChannel, '/account/recurring-orders'),
      },
      occurrence: occurrence.result
        ? {
            dueDate: occurrence.dueDate,
            status: occurrence.result.status,
            statusText: STATUS_TEXT[occurrence.result.status] ?? occurrence.result.status,
            placed: occurrence.result.status === 'placed',
            needsApproval: occurrence.result.status === 'approval',
            failed: occurrence.result.status === 'failed',
            held: occurrence.result.status === 'held',
            orderNumber: occurrence.result.orderNumber,
            approvalNumber: approvalNumber ?? null,
            reason: occurrence.result.reason,
          }
        : null,
      skippedDates: occurrence.skipped,
      changes: occurrence.changes.map((change) => ({
        ...change,
        text:
          change.kind === 'price-changed'
            ? `${change.label}: the price changed from ${money(change.before!)} to ${money(change.after!)}.`
            : change.kind === 'quantity-adjusted'
              ? `${change.label}: the quantity was adjusted from ${change.before} to ${change.after} (quantity rule).`
              : occurrence.result?.status === 'held'
                ? `${change.label} is no longer available.`
                : `${change.label} is no longer available and was left out.`,
      })),
      hasChanges: occurrence.changes.length > 0,
    },
  });
}
