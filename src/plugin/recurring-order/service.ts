import type { HostRuntime, StoreContext } from '../../contract/index.js';
import { searchByCriteria, type Criteria } from '../../lib/criteria.js';
import { inTransaction, readInt, type Executor } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { now, nowDb } from '../../lib/time.js';
import { declaredCustomer } from '../declared.js';
import { assertOwnAddresses } from '../order-approval/index.js';
import { findList } from '../product-list/index.js';
import {
  findRecurring,
  insertOccurrence,
  insertRecurring,
  itemsOf,
  moveOnFrom,
  occurrencesOf,
  productListItems,
  recordedDates,
  recordedDatesFrom,
  recurringCountOf,
  recurringView,
  scheduleOf,
  scoped,
  updateIfStatus,
  type RecurringRow,
  type RecurringView,
  type UnavailableProducts,
} from './repository.js';
import { criteriaSpec } from './schemas.js';
import { dateOf, firstDateFrom, firstOpenDate, isCalendarDate, type IntervalUnit, type Schedule } from './schedule.js';

export interface CreateInput {
  name?: string;
  source: 'cart' | 'product-list';
  productListId?: string;
  interval: { unit: IntervalUnit; count: number };
  startDate: string;
  endDate?: string | null;
  comment?: string | null;
  billingAddressId?: string | null;
  shippingAddressId?: string | null;
  unavailableProducts?: UnavailableProducts;
}

export type UpdateInput = Partial<Omit<CreateInput, 'source' | 'productListId'>>;

/** An employee sees and manages the recurring orders they set up; the company admin those of the whole company. */
function ownerScope(ctx: StoreContext): string | null {
  return ctx.actor.type === 'employee' && ctx.employee ? ctx.employee.id : null;
}

function today(): string {
  return dateOf(now());
}

function assertDates(startDate: string, endDate: string | null | undefined, checkStart: boolean): void {
  if (!isCalendarDate(startDate))
    throw Errors.badRequest('SUITE__INVALID_DATE', 'startDate is not a calendar date.', { pointer: '/startDate' });
  if (checkStart && startDate < today())
    throw Errors.badRequest('SUITE__RECURRING_ORDER_START_IN_PAST', 'The first occurrence cannot lie in the past.', {
      pointer: '/startDate',
    });
  if (endDate !== null && endDate !== undefined) {
    if (!isCalendarDate(endDate))
      throw Errors.badRequest('SUITE__INVALID_DATE', 'endDate is not a calendar date.', { pointer: '/endDate' });
    if (endDate < startDate)
      throw Errors.badRequest('SUITE__INVALID_DATE_RANGE', 'endDate lies before startDate.', { pointer: '/endDate' });
  }
}

export class RecurringOrderService {
  constructor(private readonly host: HostRuntime) {}

  async view(executor: Executor, row: RecurringRow): Promise<RecurringView> {
    const items = (await itemsOf(executor, [row.id])).get(row.id) ?? [];
    return recurringView(row, items, await occurrencesOf(executor, row.id));
  }

  async read(ctx: StoreContext, id: string): Promise<RecurringView> {
    return this.view(this.host.db, await this.find(ctx, id));
  }

  private async find(ctx: StoreContext, id: string, executor: Executor = this.host.db): Promise<RecurringRow> {
    const row = await findRecurring(executor, declaredCustomer(ctx).id, ownerScope(ctx), id);
    if (!row) throw Errors.notFound('Recurring order', id);
    return row;
  }

  async list(ctx: StoreContext, criteria: Criteria) {
    const base = scoped(this.host.db, declaredCustomer(ctx).id, ownerScope(ctx));
    const page = await searchByCriteria<RecurringRow>(base, criteria, criteriaSpec, (qb) => qb.select('*'));
    const ids = page.rows.map((row) => row.id);
    const items = await itemsOf(this.host.db, ids);
    const views = [];
    for (const row of page.rows)
      views.push(recurringView(row, items.get(row.id) ?? [], await occurrencesOf(this.host.db, row.id, 5)));
    return { page, views };
  }

  async create(ctx: StoreContext, body: CreateInput): Promise<RecurringView> {
    const customer = declaredCustomer(ctx);
    assertDates(body.startDate, body.endDate, true);
    await assertOwnAddresses(this.host, customer.id, body);
    const wanted = await this.sourceItems(ctx, body);
    if (wanted.length === 0)
      throw Errors.badRequest(
        'SUITE__RECURRING_ORDER_EMPTY',
        'There is nothing to order: the source holds no products.',
        {
          pointer: body.source === 'cart' ? '/source' : '/productListId',
        },
      );
    const products = new Map(
      (
        await this.host.catalog.visibleProducts(
          this.host.db,
          ctx,
          wanted.map((w) => w.productId),
        )
      ).map((p) => [p.id, p]),
    );
    const missing = wanted.find((w) => !products.has(w.productId));
    if (missing)
      throw Errors.badRequest('SUITE__PRODUCT_NOT_AVAILABLE', 'A product of the source is not available.', {
        meta: { productId: missing.productId },
      });
    const schedule: Schedule = {
      unit: body.interval.unit,
      count: body.interval.count,
      startDate: body.startDate,
      endDate: body.endDate ?? null,
    };
    const id = newId();
    const now = nowDb();
    const owner =
      ctx.actor.type === 'employee' && ctx.employee
        ? {
            type: 'employee',
            id: ctx.employee.id,
            name: `${ctx.employee.firstName} ${ctx.employee.lastName}`.trim(),
            email: ctx.employee.email,
          }
        : {
            type: 'customer',
            id: customer.id,
            name: `${customer.firstName} ${customer.lastName}`.trim(),
            email: customer.email,
          };
    return inTransaction(this.host.db, async (trx) => {
      const count = await recurringCountOf(trx, customer.id);
      await insertRecurring(
        trx,
        {
          id,
          customer_id: customer.id,
          sales_channel_id: ctx.salesChannel.id,
          owner_type: owner.type,
          owner_id: owner.id,
          owner_name: owner.name || owner.email,
          owner_email: owner.email,
          name: body.name ?? `Recurring order ${count + 1}`,
          source: body.source,
          source_id: body.source === 'product-list' ? body.productListId! : null,
          interval_unit: schedule.unit,
          interval_count: schedule.count,
          start_date: schedule.startDate,
          end_date: schedule.endDate,
          next_date: firstDateFrom(schedule, schedule.startDate),
          status: 'active',
          billing_address_id: body.billingAddressId ?? null,
          shipping_address_id: body.shippingAddressId ?? null,
          comment: body.comment ?? null,
          // A new recurring order holds an occurrence whose product is gone unless the buyer chose otherwise.
          unavailable_products: body.unavailableProducts ?? 'hold',
          occurrence_count: 0,
          created_at: now,
          updated_at: null,
        },
        wanted.map((w, position) => ({
          id: newId(),
          recurring_order_id: id,
          product_id: w.productId,
          label: products.get(w.productId)!.name,
          quantity: w.quantity,
          position,
        })),
      );
      return this.view(trx, (await findRecurring(trx, customer.id, null, id))!);
    });
  }

  /** The products and quantities of the cart or the product list (one line per product, quantities added). */
  private async sourceItems(
    ctx: StoreContext,
    body: CreateInput,
  ): Promise<Array<{ productId: string; quantity: number }>> {
    const customer = declaredCustomer(ctx);
    const rows: Array<{ productId: string | null; quantity: number }> = [];
    if (body.source === 'cart') {
      const cart = await this.host.cart.current(this.host.db, ctx);
      for (const item of cart.lineItems)
        if (item.type === 'product') rows.push({ productId: item.productId, quantity: item.quantity });
    } else {
      if (!body.productListId)
        throw Errors.badRequest('SUITE__PRODUCT_LIST_REQUIRED', 'Name the product list to order from.', {
          pointer: '/productListId',
        });
      const list = await findList(this.host.db, customer.id, body.productListId);
      const items = await productListItems(this.host.db, customer.id, list.id);
      for (const item of items) rows.push({ productId: item.product_id, quantity: readInt(item.quantity) });
    }
    const merged = new Map<string, number>();
    for (const row of rows)
      if (row.productId && row.quantity > 0) merged.set(row.productId, (merged.get(row.productId) ?? 0) + row.quantity);
    return [...merged].map(([productId, quantity]) => ({ productId, quantity }));
  }

  /** Changes the schedule (or name, comment, addresses); the next date follows from the new schedule, not before today. */
  async update(ctx: StoreContext, id: string, body: UpdateInput): Promise<RecurringView> {
    const row = await this.find(ctx, id);
    if (row.status === 'cancelled')
      throw Errors.badRequest('SUITE__RECURRING_ORDER_CANCELLED', 'A cancelled recurring order cannot be changed.');
    await assertOwnAddresses(this.host, row.customer_id, body);
    const old = scheduleOf(row);
    const schedule: Schedule = {
      unit: body.interval?.unit ?? old.unit,
      count: body.interval?.count ?? old.count,
      startDate: body.startDate ?? old.startDate,
      endDate: body.endDate === undefined ? old.endDate : body.endDate,
    };
    assertDates(schedule.startDate, schedule.endDate, body.startDate !== undefined);
    const next = await this.openDate(row, schedule, schedule.startDate > today() ? schedule.startDate : today());
    const status = next === null ? 'ended' : row.status === 'paused' ? 'paused' : 'active';
    const changed = await updateIfStatus(this.host.db, id, row.status, {
      name: body.name ?? row.name,
      interval_unit: schedule.unit,
      interval_count: schedule.count,
      start_date: schedule.startDate,
      end_date: schedule.endDate,
      next_date: next,
      status,
      comment: body.comment === undefined ? row.comment : body.comment,
      unavailable_products: body.unavailableProducts ?? row.unavailable_products,
      billing_address_id: body.billingAddressId === undefined ? row.billing_address_id : body.billingAddressId,
      shipping_address_id: body.shippingAddressId === undefined ? row.shipping_address_id : body.shippingAddressId,
      updated_at: nowDb(),
    });
    if (changed !== 1) throw Errors.conflict();
    return this.read(ctx, id);
  }

  async pause(ctx: StoreContext, id: string): Promise<RecurringView> {
    const row = await this.find(ctx, id);
    if (row.status === 'paused') return this.view(this.host.db, row);
    if (row.status !== 'active')
      throw Errors.badRequest('SUITE__RECURRING_ORDER_NOT_ACTIVE', 'Only an active recurring order can be paused.');
    await this.transition(row, { status: 'paused' });
    return this.read(ctx, id);
  }

  /** A paused order resumes on its next date from today: what fell due while paused is not ordered. */
  async resume(ctx: StoreContext, id: string): Promise<RecurringView> {
    const row = await this.find(ctx, id);
    if (row.status === 'active') return this.view(this.host.db, row);
    if (row.status !== 'paused')
      throw Errors.badRequest('SUITE__RECURRING_ORDER_NOT_PAUSED', 'Only a paused recurring order can be resumed.');
    const next = await this.openDate(row, scheduleOf(row), today());
    await this.transition(row, { status: next === null ? 'ended' : 'active', next_date: next });
    return this.read(ctx, id);
  }

  /** The next occurrence is not ordered (recorded as skipped); the one after it becomes the next. */
  async skipNext(ctx: StoreContext, id: string): Promise<RecurringView> {
    const row = await this.find(ctx, id);
    if ((row.status !== 'active' && row.status !== 'paused') || !row.next_date)
      throw Errors.badRequest('SUITE__RECURRING_ORDER_NOT_ACTIVE', 'There is no next occurrence to skip.');
    const skipped = row.next_date;
    const next = await this.openDate(row, scheduleOf(row), skipped, true);
    await inTransaction(this.host.db, async (trx) => {
      const moved = await moveOnFrom(
        trx,
        { id: row.id, status: row.status, nextDate: skipped },
        { next_date: next, status: next === null ? 'ended' : row.status, updated_at: nowDb() },
      );
      if (moved !== 1) throw Errors.conflict();
      // A next date left on a day that has its occurrence (by a version before decision 0041) moves on without a second record.
      if ((await recordedDates(trx, row.id, [skipped])).size > 0) return;
      await insertOccurrence(trx, {
        id: newId(),
        recurring_order_id: row.id,
        customer_id: row.customer_id,
        due_date: skipped,
        status: 'skipped',
        reason: 'skipped-by-buyer',
        error_code: null,
        order_id: null,
        order_number: null,
        approval_id: null,
        changes: [],
        created_at: nowDb(),
      });
    });
    return this.read(ctx, id);
  }

  async cancel(ctx: StoreContext, id: string): Promise<RecurringView> {
    const row = await this.find(ctx, id);
    if (row.status === 'cancelled') return this.view(this.host.db, row);
    await this.transition(row, { status: 'cancelled', next_date: null });
    return this.read(ctx, id);
  }

  /**
   * The next date of a (changed or resumed) schedule from `from` on: never a date that has its
   * occurrence already (ordered, sent for approval, failed or skipped), which the worker could not
   * record again (decision 0041; before it, a same-day change back to today stopped the order for good).
   */
  private async openDate(row: RecurringRow, schedule: Schedule, from: string, after = false): Promise<string | null> {
    const start = after ? firstDateFrom(schedule, from, true) : from;
    if (start === null) return null;
    return firstOpenDate(schedule, start, await recordedDatesFrom(this.host.db, row.id, start));
  }

  /** A conditional write from the status read: a concurrent change is a 409. */
  private async transition(row: RecurringRow, values: Record<string, unknown>): Promise<void> {
    const changed = await updateIfStatus(this.host.db, row.id, row.status, { ...values, updated_at: nowDb() });
    if (changed !== 1) throw Errors.conflict();
  }
}
