import type { Cart, HostRuntime, PriceLine, SalesChannel, StoreContext } from '../../host/contract.js';
import { inTransaction, isDuplicateKeyError, readInt, selectRow, selectRows, type Trx } from '../../lib/db.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { fromMinor } from '../../lib/money.js';
import { nowDb } from '../../lib/time.js';
import { actingContext } from '../company/acting-context.js';
import { insertApprovalFor } from '../order-approval/use-cases/create.js';
import { rulesOf } from '../quantity-rule/repository.js';
import { isAllowed, nearestAllowed } from '../quantity-rule/rules.js';
import {
  insertOccurrence,
  itemsOf,
  RECURRING_ITEMS,
  RECURRING_ORDERS,
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
/** Recurring orders looked at in one run of the job; the next run takes the rest. */
const BATCH = 100;

/** plugin.json `recurringOrderMissedOccurrences`: what happens to an occurrence whose day passed while the shop was down. */
export type MissedPolicy = 'place-once' | 'skip';

export interface PlacementSummary {
  placed: number;
  approvals: number;
  failed: number;
  skipped: number;
}

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
  const today = dateOf(options.now ?? new Date());
  const missed = options.missed ?? (await host.config.get<MissedPolicy>('recurringOrderMissedOccurrences'));
  const summary: PlacementSummary = { placed: 0, approvals: 0, failed: 0, skipped: 0 };
  const due = await selectRows<RecurringRow>(
    host
      .db(RECURRING_ORDERS)
      .where('status', 'active')
      .whereNotNull('next_date')
      .where('next_date', '<=', today)
      .orderBy('next_date')
      .orderBy('id')
      .limit(BATCH),
  );
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

async function placeOne(
  host: HostRuntime,
  row: RecurringRow,
  today: string,
  missed: MissedPolicy,
  summary: PlacementSummary,
): Promise<void> {
  const schedule = scheduleOf(row);
  const dates = datesBetween(schedule, row.next_date!, today);
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
  if (dueDate && prepared && prepared.lines.length > 0) {
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
  else if (done?.status === 'failed') summary.failed++;
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
      const moved = await trx(RECURRING_ORDERS)
        .where({ id: row.id, status: 'active', next_date: row.next_date })
        .update({
          next_date: next,
          status: next === null ? 'ended' : 'active',
          occurrence_count: trx.raw('?? + ?', ['occurrence_count', dueDate ? 1 : 0]),
          updated_at: now,
        });
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
      await mailOccurrence(host, trx, row, { dueDate, result, skipped, next, changes });
      return result;
    });
  } catch (error) {
    // The unique (recurring order, due date) key: another worker recorded this date first.
    if (isDuplicateKeyError(error)) return 'lost';
    throw error;
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
  const cart: Cart = {
    token: `recurring-${row.id}`,
    customerId: row.customer_id,
    salesChannelId: row.sales_channel_id,
    lineItems,
  };
  const priced = await host.cart.price(host.db, ctx, cart);
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

async function rememberPrices(trx: Trx, lines: PriceLine[]): Promise<void> {
  for (const line of lines)
    await trx(RECURRING_ITEMS).where('id', line.lineItemId).update({ last_unit_net: line.unitNet });
}

const STATUS_TEXT: Record<string, string> = {
  placed: 'ordered',
  approval: 'waiting for approval',
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
  const approval = occurrence.result?.approvalId
    ? await selectRow<{ approval_number: string }>(
        trx('suite_order_approvals').where('id', occurrence.result.approvalId).first('approval_number'),
      )
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
            orderNumber: occurrence.result.orderNumber,
            approvalNumber: approval?.approval_number ?? null,
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
              : `${change.label} is no longer available and was left out.`,
      })),
      hasChanges: occurrence.changes.length > 0,
    },
  });
}
