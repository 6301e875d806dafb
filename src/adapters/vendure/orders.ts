import type { Knex } from 'knex';
import { Customer, Order, OrderLine, Payment, ProductVariant, ProductVariantTranslation } from '@vendure/core';
import type { EntityTarget, ObjectLiteral } from 'typeorm';
import type { CustomerOrderFigures, HostRuntime, OrderRecord, OrderScope, PlacedBy } from '../../contract/index.js';
import { searchByCriteria, type CriteriaSpec } from '../../lib/criteria.js';
import { dialectOf, readInt, readJson, selectRow, selectRows, type Executor } from '../../lib/db.js';
import { fromDbTime, toDbTime } from '../../lib/time.js';
import type { IdMapper } from './ids.js';
import { toVendureIds } from './ids.js';
import { linePayloadColumns, linePayloadOfRow } from './participants.js';
import type { AdapterState } from './state.js';
import type { OrderLineRow } from './vendure-tables.js';
import { column, columns, selectAs, table } from './vendure-schema.js';

/**
 * `orders.*` on Vendure's Order / OrderLine / Payment entities' tables (reads with knex through the
 * plugin's executor, as vendure-tables.ts). An order is an order of the contract once Vendure placed
 * it (`orderPlacedAt` set): active orders are Vendure's carts. Who placed it (the plugin's actor:
 * an employee, a sales representative, the customer) is kept in two Order custom fields the
 * adapter declares (`PLACED_BY_FIELDS`), written when the order leaves the cart (order-process.ts);
 * an order without them was placed by its customer.
 */
export const PLACED_BY_FIELDS = { type: 'suiteB2BPlacedByType', id: 'suiteB2BPlacedById' } as const;

/** The column of a custom field of a Vendure entity (TypeORM's embedded `customFields`), from its metadata. */
export function customFieldColumn(entity: EntityTarget<ObjectLiteral>, name: string): string {
  return column(entity, `customFields.${name}`);
}

const placedByType = () => customFieldColumn(Order, PLACED_BY_FIELDS.type);
const placedById = () => customFieldColumn(Order, PLACED_BY_FIELDS.id);
const CANCELLED = 'Cancelled';
const CHUNK = 500;

/** Vendure's datetime columns come back as Date (MariaDB) or text (SQLite); both are UTC. */
function isoOf(value: unknown): string | null {
  return value == null ? null : fromDbTime(value as string | Date);
}

/** Net of a Vendure price: list prices may include tax (the channel's `pricesIncludeTax`). */
function netOf(price: number, includesTax: boolean, taxRatePercent: number): number {
  return includesTax ? Math.round(price / (1 + taxRatePercent / 100)) : price;
}

function taxRateOf(taxLines: unknown): number {
  return readJson<Array<{ taxRate?: number }>>(taxLines as string | null, []).reduce(
    (sum, line) => sum + Number(line.taxRate ?? 0),
    0,
  );
}

function placedByOf(ids: IdMapper, row: Record<string, unknown>): { type: string; id: string | null } {
  const type = row[placedByType()] as string | null | undefined;
  if (type) return { type, id: (row[placedById()] as string | null | undefined) ?? null };
  return { type: 'customer', id: row.customerId == null ? null : ids.toPlugin(row.customerId) };
}

/**
 * Vendure's placed orders in the plugin's column names and id form, as a derived table `placed_orders`
 * (order number = Vendure's order code, net total = subTotal + shipping, both without tax).
 */
export function placedOrders(ids: IdMapper, executor: Executor): Knex.QueryBuilder {
  const dialect = dialectOf(executor);
  const asPlugin = (name: string) => executor.raw(ids.columnAsPluginId(name, dialect));
  const o = columns(Order, 'o');
  const inner = executor(table(Order, 'o'))
    .whereNotNull(o('orderPlacedAt'))
    .select({
      id: asPlugin(o('id')),
      vendure_id: o('id'),
      vendure_customer_id: o('customerId'),
      order_number: o('code'),
      order_date: o('orderPlacedAt'),
      customer_id: asPlugin(o('customerId')),
      state: o('state'),
      net_total: executor.raw('?? + ??', [o('subTotal'), o('shipping')]),
      placed_by_type: executor.raw(`coalesce(??, 'customer')`, [`o.${placedByType()}`]),
      placed_by_id: executor.raw(`coalesce(??, ${ids.columnAsPluginId(o('customerId'), dialect)})`, [
        `o.${placedById()}`,
      ]),
    });
  return executor.from(inner.as('placed_orders'));
}

/** The fields plugins search orders by (`orders.search`), as the reference host's ORDER_SEARCH_CRITERIA. */
const ORDER_SEARCH_CRITERIA: CriteriaSpec = {
  fields: {
    id: { column: 'placed_orders.id', type: 'id' },
    orderNumber: { column: 'placed_orders.order_number', type: 'string' },
    orderDate: { column: 'placed_orders.order_date', type: 'date' },
    customerId: { column: 'placed_orders.customer_id', type: 'id' },
    state: { column: 'placed_orders.state', type: 'string' },
    placedByType: { column: 'placed_orders.placed_by_type', type: 'string' },
    placedById: { column: 'placed_orders.placed_by_id', type: 'id' },
  },
  termColumns: ['placed_orders.order_number'],
  defaultSort: [
    { column: 'placed_orders.order_date', order: 'desc' },
    { column: 'placed_orders.id', order: 'desc' },
  ],
  idColumn: 'placed_orders.id',
};

/** A placed Vendure order's row (its properties, and the placing actor's custom-field columns by their names). */
interface OrderTableRow extends Record<string, unknown> {
  id: string | number;
  code: string;
  state: string;
  currencyCode: string;
  orderPlacedAt: string | Date | null;
  customerId: string | number | null;
  subTotal: unknown;
  subTotalWithTax: unknown;
  shipping: unknown;
  shippingWithTax: unknown;
  billingAddress: unknown;
  shippingAddress: unknown;
}

/** An OrderLine row (the payload custom fields by their column names) and its variant's SKU. */
interface OrderLineRowOfOrder extends OrderLineRow, Record<string, unknown> {
  orderId: string | number;
}

interface PaymentRow {
  id: string | number;
  orderId: string | number;
  method: string;
  state: string;
  amount: unknown;
}

interface OrderCustomerRow {
  id: string | number;
  firstName: string | null;
  lastName: string | null;
  emailAddress: string | null;
}

async function getOrders(state: AdapterState, executor: Executor, pluginIds: string[]): Promise<OrderRecord[]> {
  const { ids } = state;
  const wanted = toVendureIds(ids, [...new Set(pluginIds)]);
  if (wanted.length === 0) return [];
  const rows: OrderTableRow[] = [];
  for (let i = 0; i < wanted.length; i += CHUNK)
    rows.push(
      ...(await selectRows<OrderTableRow>(
        executor(table(Order))
          .whereIn(column(Order, 'id'), wanted.slice(i, i + CHUNK))
          .whereNotNull(column(Order, 'orderPlacedAt'))
          .select(...selectAs(Order, undefined, ...ORDER_PROPERTIES), placedByType(), placedById()),
      )),
    );
  if (rows.length === 0) return [];
  const orderIds = rows.map((r) => r.id);
  const customerIds = [...new Set(rows.map((r) => r.customerId).filter((id) => id != null))];
  const [lineRows, paymentRows, customerRows] = await Promise.all([
    selectRows<OrderLineRowOfOrder>(
      orderLines(executor, 'l')
        .leftJoin(
          table(ProductVariant, 'v'),
          column(ProductVariant, 'id', 'v'),
          column(OrderLine, 'productVariantId', 'l'),
        )
        .whereIn(column(OrderLine, 'orderId', 'l'), orderIds)
        .orderBy(column(OrderLine, 'id', 'l'))
        .select(...selectAs(OrderLine, 'l', 'orderId'), ...selectAs(ProductVariant, 'v', 'sku')),
    ),
    selectRows<PaymentRow>(
      executor(table(Payment))
        .whereIn(column(Payment, 'orderId'), orderIds)
        .orderBy(column(Payment, 'id'))
        .select(selectAs(Payment, undefined, 'id', 'orderId', 'method', 'state', 'amount')),
    ),
    customerIds.length
      ? selectRows<OrderCustomerRow>(
          executor(table(Customer))
            .whereIn(column(Customer, 'id'), customerIds)
            .select(selectAs(Customer, undefined, 'id', 'firstName', 'lastName', 'emailAddress')),
        )
      : Promise.resolve([]),
  ]);
  const variantIds = [...new Set(lineRows.map((l) => l.productVariantId))];
  const vt = columns(ProductVariantTranslation);
  const names = new Map<string, string>(
    variantIds.length
      ? (
          await selectRows<{ baseId: string | number; name: string }>(
            executor(table(ProductVariantTranslation))
              .whereIn(vt('base'), variantIds)
              .orderBy(vt('id'))
              .select(`${vt('base')} as baseId`, ...selectAs(ProductVariantTranslation, undefined, 'name')),
          )
        ).map((t) => [String(t.baseId), String(t.name)])
      : [],
  );
  const customers = new Map(customerRows.map((c) => [String(c.id), c]));
  const salesChannelId = (await state.salesChannel(executor)).id;
  const byId = new Map<string, OrderRecord>();
  for (const row of rows) {
    const customer = customers.get(String(row.customerId));
    const lines = lineRows.filter((l) => String(l.orderId) === String(row.id));
    const net = Number(row.subTotal) + Number(row.shipping);
    const gross = Number(row.subTotalWithTax) + Number(row.shippingWithTax);
    const id = ids.toPlugin(row.id);
    byId.set(id, {
      id,
      orderNumber: row.code,
      orderDate: isoOf(row.orderPlacedAt)!, // placed orders only (whereNotNull above)
      stateMachineState: { technicalName: row.state, name: row.state },
      currency: { isoCode: row.currencyCode, precision: 2 },
      total: gross,
      netTotal: net,
      taxTotal: gross - net,
      billingAddress: readJson<Record<string, unknown> | null>(row.billingAddress, null),
      shippingAddress: readJson<Record<string, unknown> | null>(row.shippingAddress, null),
      orderCustomer: {
        customerId: row.customerId == null ? null : ids.toPlugin(row.customerId),
        customerNumber: row.customerId == null ? null : String(row.customerId),
        email: customer?.emailAddress ?? null,
        firstName: customer?.firstName ?? null,
        lastName: customer?.lastName ?? null,
        company: null,
      },
      customerComment: null,
      deliveries: [],
      transactions: paymentRows
        .filter((p) => String(p.orderId) === String(row.id))
        .map((p) => ({
          id: ids.toPlugin(p.id),
          stateMachineState: { technicalName: p.state, name: p.state },
          paymentMethod: { technicalName: p.method, name: p.method },
          amount: Number(p.amount),
        })),
      lineItems: lines.map((l, position) => {
        const rate = taxRateOf(l.taxLines);
        const unitNet = netOf(Number(l.listPrice), readBoolean(l.listPriceIncludesTax), rate);
        return {
          id: ids.toPlugin(l.id),
          type: 'product',
          productId: ids.toPlugin(l.productVariantId),
          productNumber: l.sku ?? null,
          label: names.get(String(l.productVariantId)) ?? '',
          quantity: Number(l.quantity),
          unitNet,
          totalNet: unitNet * Number(l.quantity),
          taxRateBp: Math.round(rate * 100),
          position,
          payload: linePayloadOfRow(l),
        };
      }),
      documents: [],
      customFields: {},
      placedBy: placedByOf(ids, row),
      salesChannelId,
    });
  }
  return pluginIds.map((id) => byId.get(id)).filter((order): order is OrderRecord => !!order);
}

/** The Order properties `orders.get` reads. */
const ORDER_PROPERTIES = [
  'id',
  'code',
  'state',
  'currencyCode',
  'orderPlacedAt',
  'customerId',
  'subTotal',
  'subTotalWithTax',
  'shipping',
  'shippingWithTax',
  'billingAddress',
  'shippingAddress',
];

/** The OrderLine properties the adapter reads. */
const ORDER_LINE_PROPERTIES = ['id', 'productVariantId', 'quantity', 'listPrice', 'listPriceIncludesTax', 'taxLines'];

/**
 * Vendure's order lines (alias `alias`) with the properties the adapter reads (OrderLineRow) and the
 * payload custom fields under their column names (participants.ts linePayloadOfRow).
 */
export function orderLines(executor: Executor, alias: string): Knex.QueryBuilder {
  return executor(table(OrderLine, alias)).select(
    ...selectAs(OrderLine, alias, ...ORDER_LINE_PROPERTIES),
    ...linePayloadColumns().map((name) => `${alias}.${name}`),
  );
}

function readBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

function placedByOnly(query: Knex.QueryBuilder, placedBy: PlacedBy | undefined): Knex.QueryBuilder {
  return placedBy
    ? query.where('placed_orders.placed_by_type', placedBy.type).where('placed_orders.placed_by_id', placedBy.id)
    : query;
}

/** Per period `[from, to)` the placed orders' net revenue (`r<i>`) and count (`c<i>`), as select items. */
function periodSums(executor: Executor, bounds: ReadonlyArray<readonly [Knex.Value, Knex.Value]>): Knex.Raw[] {
  const o = columns(Order);
  const sums: Knex.Raw[] = [];
  bounds.forEach((range, i) => {
    sums.push(
      executor.raw(`SUM(CASE WHEN ?? >= ? AND ?? < ? THEN ?? + ?? ELSE 0 END) as r${i}`, [
        o('orderPlacedAt'),
        range[0],
        o('orderPlacedAt'),
        range[1],
        o('subTotal'),
        o('shipping'),
      ]),
    );
    sums.push(
      executor.raw(`SUM(CASE WHEN ?? >= ? AND ?? < ? THEN 1 ELSE 0 END) as c${i}`, [
        o('orderPlacedAt'),
        range[0],
        o('orderPlacedAt'),
        range[1],
      ]),
    );
  });
  return sums;
}

export function ordersContract(state: AdapterState): HostRuntime['orders'] {
  const { ids } = state;
  return {
    async get(executor, id) {
      return (await getOrders(state, executor, [id]))[0] ?? null;
    },
    getMany: (executor, orderIds) => getOrders(state, executor, orderIds),
    async search(executor, scope: OrderScope, criteria) {
      const base = placedByOnly(
        placedOrders(ids, executor).whereIn('placed_orders.customer_id', [...new Set(scope.customerIds)]),
        scope.placedBy,
      );
      // Each customer's latest placed order: none of theirs is newer (same moment: the higher id).
      if (scope.latestPerCustomer)
        base.whereNotExists((newer) => {
          const o = columns(Order, 'newer');
          newer
            .select(1)
            .from(table(Order, 'newer'))
            .whereNotNull(o('orderPlacedAt'))
            .whereRaw('?? = ??', [o('customerId'), 'placed_orders.vendure_customer_id'])
            .where((w) => {
              w.whereRaw('?? > ??', [o('orderPlacedAt'), 'placed_orders.order_date']).orWhere((same) => {
                same
                  .whereRaw('?? = ??', [o('orderPlacedAt'), 'placed_orders.order_date'])
                  .whereRaw('?? > ??', [o('id'), 'placed_orders.vendure_id']);
              });
            });
        });
      const page = await searchByCriteria<{ id: string }>(base, criteria, ORDER_SEARCH_CRITERIA, (qb) =>
        qb.select('placed_orders.id'),
      );
      const elements = page.rows.length
        ? await getOrders(
            state,
            executor,
            page.rows.map((r) => r.id),
          )
        : [];
      return { total: page.total, page: page.page, limit: page.limit, elements };
    },
    async belongsTo(executor, orderId, customerId) {
      const order = ids.toVendure(orderId);
      const customer = ids.toVendure(customerId);
      if (!order || !customer) return false;
      const o = columns(Order);
      return Boolean(
        await executor(table(Order))
          .where(o('id'), order)
          .where(o('customerId'), customer)
          .whereNotNull(o('orderPlacedAt'))
          .first(o('id')),
      );
    },
    async figuresByCustomer(executor, customerIds, period = {}) {
      const wanted = toVendureIds(ids, [...new Set(customerIds)]);
      const figures: CustomerOrderFigures[] = [];
      for (let i = 0; i < wanted.length; i += CHUNK) {
        const o = columns(Order);
        const query = executor(table(Order))
          .whereIn(o('customerId'), wanted.slice(i, i + CHUNK))
          .whereNotNull(o('orderPlacedAt'))
          .whereNot(o('state'), CANCELLED);
        if (period.from) query.where(o('orderPlacedAt'), '>=', toDbTime(period.from));
        if (period.to) query.where(o('orderPlacedAt'), '<=', toDbTime(period.to));
        const rows: Array<Record<string, unknown>> = await query
          .groupBy(o('customerId'))
          .select(
            ...selectAs(Order, undefined, 'customerId'),
            executor.raw('COUNT(*) as order_count'),
            executor.raw('SUM(?? + ??) as revenue', [o('subTotal'), o('shipping')]),
            executor.raw('MAX(??) as last_order', [o('orderPlacedAt')]),
          );
        for (const row of rows)
          figures.push({
            customerId: ids.toPlugin(row.customerId),
            orderCount: readInt(row.order_count),
            netTotal: readInt(row.revenue),
            lastOrderDate: isoOf(row.last_order),
          });
      }
      return figures;
    },
    async figuresByPeriod(executor, customerId, periods) {
      if (periods.length === 0) return [];
      const customer = ids.toVendure(customerId);
      if (!customer) return periods.map(() => ({ orderCount: 0, netTotal: 0 }));
      const bounds = periods.map((p) => [toDbTime(p.from), toDbTime(p.to)] as const);
      const o = columns(Order);
      const sums = periodSums(executor, bounds);
      const [row = {}]: Array<Record<string, unknown>> = await executor(table(Order))
        .where(o('customerId'), customer)
        .whereNotNull(o('orderPlacedAt'))
        .whereNot(o('state'), CANCELLED)
        .select(sums);
      return bounds.map((_, i) => ({ orderCount: readInt(row[`c${i}`]), netTotal: readInt(row[`r${i}`]) }));
    },
    async latestWithProduct(executor, input) {
      const variant = ids.toVendure(input.productId);
      if (!variant) return null;
      const l = columns(OrderLine, 'l');
      const query = placedOrders(ids, executor)
        .join(table(OrderLine, 'l'), l('orderId'), 'placed_orders.vendure_id')
        .where('placed_orders.customer_id', input.customerId)
        .where(l('productVariant'), variant);
      const hit = await selectRow<{ id: string; line_id: string | number }>(
        placedByOnly(query, input.placedBy)
          .orderBy('placed_orders.order_date', 'desc')
          .orderBy('placed_orders.vendure_id', 'desc')
          .first('placed_orders.id', `${l('id')} as line_id`),
      );
      return hit ? { orderId: String(hit.id), lineItemId: ids.toPlugin(hit.line_id) } : null;
    },
    async orderedProductIds(executor, { customerId, placedBy, limit }) {
      const l = columns(OrderLine, 'l');
      const query = placedOrders(ids, executor)
        .join(table(OrderLine, 'l'), l('orderId'), 'placed_orders.vendure_id')
        .where('placed_orders.customer_id', customerId)
        .whereNot('placed_orders.state', CANCELLED)
        .where(l('quantity'), '>', 0)
        .groupBy(l('productVariantId'))
        .select(
          `${l('productVariantId')} as variant_id`,
          executor.raw('MAX(placed_orders.order_date) as last_order_date'),
          executor.raw('SUM(??) as total_quantity', [l('quantity')]),
          executor.raw('COUNT(DISTINCT placed_orders.vendure_id) as order_count'),
        )
        .orderBy('last_order_date', 'desc')
        .orderBy(l('productVariantId'))
        .limit(Math.max(0, Math.floor(limit)));
      const rows = await selectRows<Record<string, unknown>>(placedByOnly(query, placedBy));
      return rows.map((row) => ({
        productId: ids.toPlugin(row.variant_id),
        lastOrderDate: isoOf(row.last_order_date)!,
        totalQuantity: readInt(row.total_quantity),
        orderCount: readInt(row.order_count),
      }));
    },
  };
}
