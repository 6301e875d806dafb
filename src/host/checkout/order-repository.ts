import type { Knex } from 'knex';
import { searchByCriteria, type Criteria, type CriteriaSpec } from '../../lib/criteria.js';
import { marks, readInt, readJson, selectRaw, selectRow, type Executor } from '../../lib/db.js';
import { lineItemFromRow, type LineItem } from '../../lib/line-items.js';
import { fromDbTime, toDbTime } from '../../lib/time.js';
import {
  orderView,
  type CustomerOrderFigures,
  type OrderRecord,
  type OrderScope,
  type OrderView,
  type PlacedBy,
  type ResultPage,
} from '../../contract/index.js';
import type { DocumentSummary } from '../../host-kit/documents.js';
import { PAYMENT_METHODS, SHIPPING_METHODS } from './methods.js';
import { orderStamp, type OrderViewCache } from './order-view-cache.js';
import type { DbNumber, DbTime, OrderDeliveryRow, OrderRow, OrderTransactionRow } from './rows.js';

const STATE_NAMES: Record<string, string> = {
  open: 'Open',
  in_progress: 'In progress',
  completed: 'Done',
  cancelled: 'Cancelled',
  paid: 'Paid',
  shipped: 'Shipped',
};

export function stateOf(technicalName: string): { technicalName: string; name: string } {
  return { technicalName, name: STATE_NAMES[technicalName] ?? technicalName };
}

/** Fields an order list may filter and sort on; the customer scope is added by the route. */
export const ORDER_CRITERIA: CriteriaSpec = {
  fields: {
    id: { column: 'orders.id', type: 'id' },
    orderNumber: { column: 'orders.order_number', type: 'string' },
    orderDate: { column: 'orders.order_date', type: 'date' },
    amountTotal: { column: 'orders.total', type: 'number' },
    amountNet: { column: 'orders.net_total', type: 'number' },
    'stateMachineState.technicalName': { column: 'orders.state', type: 'string' },
    'placedBy.type': { column: 'orders.placed_by_type', type: 'string' },
    'placedBy.id': { column: 'orders.placed_by_id', type: 'id' },
  },
  termColumns: ['orders.order_number'],
  defaultSort: [
    { column: 'orders.order_date', order: 'desc' },
    { column: 'orders.id', order: 'desc' },
  ],
  idColumn: 'orders.id',
};

/** The columns of an order `getOrders` reads, with its sales channel's currency precision. */
const ORDER_COLUMNS = [
  'id',
  'order_number',
  'sales_channel_id',
  'customer_id',
  'placed_by_type',
  'placed_by_id',
  'state',
  'currency_iso',
  'net_total',
  'tax_total',
  'total',
  'billing_address',
  'shipping_address',
  'customer_comment',
  'custom_fields',
  'order_customer',
  'order_date',
  'version',
] as const;
type OrderReadRow = Pick<OrderRow, (typeof ORDER_COLUMNS)[number]> & { currency_precision: number | string | null };

const FROM_ORDERS = 'from orders left join sales_channels on sales_channels.id = orders.sales_channel_id';
const SELECT_ORDERS = `select ${ORDER_COLUMNS.map((column) => `orders.${column}`).join(', ')}, sales_channels.currency_precision ${FROM_ORDERS}`;
const SELECT_STAMPS = `select orders.id, orders.version, sales_channels.currency_precision ${FROM_ORDERS}`;

/** The orders of `ids` (distinct) with their currency precision, in no particular order. */
function readOrderRows(executor: Executor, ids: string[]): Promise<OrderReadRow[]> {
  return selectRaw<OrderReadRow>(executor, `${SELECT_ORDERS} where orders.id in (${marks(ids.length)})`, ids);
}

/**
 * A row of `readOrderParts`: a line item ('l'), delivery ('d'), transaction ('t') or document
 * ('doc', without its content) of an order, in the columns the four tables share side by side
 * (each table fills its own and answers null for the rest).
 */
interface OrderPartRow {
  kind: 'l' | 'd' | 't' | 'doc';
  id: string;
  order_id: string;
  /** line type, document type */
  type: string | null;
  product_id: string | null;
  /** product number, document number */
  number: string | null;
  /** line label, document file name */
  label: string | null;
  quantity: DbNumber | null;
  /** line unit net, transaction amount */
  amount: DbNumber | null;
  total_net: DbNumber | null;
  tax_rate_bp: DbNumber | null;
  /** line payload, delivery shipping address (JSON text) */
  json: string | null;
  position: DbNumber | null;
  /** delivery and transaction state */
  state: string | null;
  /** shipping method, payment method */
  method: string | null;
  created_at: DbTime | null;
}

const PART_COLUMNS = [
  'type',
  'product_id',
  'number',
  'label',
  'quantity',
  'amount',
  'total_net',
  'tax_rate_bp',
  'json',
  'position',
  'state',
  'method',
  'created_at',
] as const;

/** One table's arm of the parts statement: its columns under the shared names, null for the others. */
function partArm(
  kind: OrderPartRow['kind'],
  table: string,
  columns: Partial<Record<(typeof PART_COLUMNS)[number], string>>,
): string {
  return `select '${kind}' as kind, id, order_id, ${PART_COLUMNS.map((name) => (columns[name] === name ? name : `${columns[name] ?? 'null'} as ${name}`)).join(', ')} from ${table}`;
}

const PART_ARMS = [
  partArm('l', 'order_line_items', {
    type: 'type',
    product_id: 'product_id',
    number: 'product_number',
    label: 'label',
    quantity: 'quantity',
    amount: 'unit_net',
    total_net: 'total_net',
    tax_rate_bp: 'tax_rate_bp',
    json: 'payload',
    position: 'position',
  }),
  partArm('d', 'order_deliveries', {
    json: 'shipping_address',
    state: 'state',
    method: 'shipping_method',
    created_at: 'created_at',
  }),
  partArm('t', 'order_transactions', {
    amount: 'amount',
    state: 'state',
    method: 'payment_method',
    created_at: 'created_at',
  }),
  partArm('doc', 'documents', {
    type: 'type',
    number: 'document_number',
    label: 'file_name',
    created_at: 'created_at',
  }),
];

/**
 * The line items, deliveries, transactions and documents of orders in one statement (a UNION ALL
 * of the four tables, each by its order_id index): lines by position and id, the others by
 * creation time and id, as when they were read one table at a time.
 */
function readOrderParts(executor: Executor, orderIds: string[]): Promise<OrderPartRow[]> {
  const where = ` where order_id in (${marks(orderIds.length)})`;
  const sql = `${PART_ARMS.join(`${where} union all `)}${where} order by kind, position, created_at, id`;
  return selectRaw<OrderPartRow>(executor, sql, [...orderIds, ...orderIds, ...orderIds, ...orderIds]);
}

interface OrderParts {
  lines: LineItem[];
  deliveries: OrderDeliveryRow[];
  transactions: OrderTransactionRow[];
  documents: DocumentSummary[];
}

/** Adds the parts of `rows` to their orders' entries of `byOrder`. */
function addPartsByOrder(byOrder: Map<string, OrderParts>, rows: OrderPartRow[]): void {
  for (const row of rows) {
    let parts = byOrder.get(row.order_id);
    if (!parts) byOrder.set(row.order_id, (parts = { lines: [], deliveries: [], transactions: [], documents: [] }));
    if (row.kind === 'l')
      parts.lines.push(
        lineItemFromRow({
          id: row.id,
          type: row.type!,
          product_id: row.product_id,
          product_number: row.number,
          label: row.label!,
          quantity: row.quantity,
          unit_net: row.amount,
          total_net: row.total_net,
          tax_rate_bp: row.tax_rate_bp,
          payload: row.json,
          position: row.position,
        }),
      );
    else if (row.kind === 'd')
      parts.deliveries.push({
        id: row.id,
        order_id: row.order_id,
        state: row.state!,
        shipping_method: row.method!,
        shipping_address: row.json,
        created_at: row.created_at!,
      });
    else if (row.kind === 't')
      parts.transactions.push({
        id: row.id,
        order_id: row.order_id,
        state: row.state!,
        payment_method: row.method!,
        amount: row.amount!,
        created_at: row.created_at!,
      });
    else
      parts.documents.push({
        id: row.id,
        fileName: row.label!,
        type: row.type!,
        documentNumber: row.number!,
        createdAt: fromDbTime(row.created_at)!,
      });
  }
}

const NO_PARTS: OrderParts = { lines: [], deliveries: [], transactions: [], documents: [] };

/**
 * Orders read per statement pair: a page of any list (at most 500) is one pair; longer id lists are
 * read in slices, so the parts statement (each id bound once per table) stays far below SQLite's
 * 32,766 bound values.
 */
const ORDERS_PER_READ = 500;

/**
 * Order records (the contract's, amounts in minor units), in the order of `ids`; unknown ids are
 * skipped. With `kept` and outside a transaction, the orders' stamps are read first and only the
 * orders whose record is not kept at its stamp are built (kept records are frozen: callers share them).
 */
export async function getOrderRecords(
  executor: Executor,
  ids: string[],
  kept?: OrderViewCache,
): Promise<OrderRecord[]> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  const byId = new Map<string, OrderRecord>();
  let toBuild = wanted;
  const cache = kept && !executor.isTransaction ? kept : undefined;
  if (cache) {
    toBuild = [];
    for (let i = 0; i < wanted.length; i += ORDERS_PER_READ)
      for (const row of await readOrderStamps(executor, wanted.slice(i, i + ORDERS_PER_READ))) {
        const view = cache.get(row.id, orderStamp(row.version, row.currency_precision));
        if (view) byId.set(row.id, view);
        else toBuild.push(row.id);
      }
  }
  // The stamp a view is kept at is the one read with its order's row, before its parts: a write
  // between the two moves the version past it, so the next read builds the order again.
  for (const { row, view } of await buildOrderViews(executor, toBuild))
    byId.set(row.id, cache ? cache.keep(row.id, orderStamp(row.version, row.currency_precision), view) : view);
  return ids.map((id) => byId.get(id)).filter((order): order is OrderRecord => !!order);
}

/** Orders in the Store API's order shape (amounts in currency units), as getOrderRecords reads them. */
export async function getOrders(executor: Executor, ids: string[], kept?: OrderViewCache): Promise<OrderView[]> {
  return (await getOrderRecords(executor, ids, kept)).map(orderView);
}

function readOrderStamps(
  executor: Executor,
  ids: string[],
): Promise<Array<{ id: string; version: DbNumber; currency_precision: number | string | null }>> {
  return selectRaw(executor, `${SELECT_STAMPS} where orders.id in (${marks(ids.length)})`, ids);
}

/** The views of the orders of `ids` (distinct) with the rows they were built from, in no particular order. */
async function buildOrderViews(
  executor: Executor,
  ids: string[],
): Promise<Array<{ row: OrderReadRow; view: OrderRecord }>> {
  if (ids.length === 0) return [];
  // SQL text, not knex builders: read for every page of orders (order list, budget orders), where
  // building the statements cost more CPU than running them. Two statements: the orders, their parts.
  const rows: OrderReadRow[] = [];
  const parts = new Map<string, OrderParts>();
  for (let i = 0; i < ids.length; i += ORDERS_PER_READ) {
    const found = await readOrderRows(executor, ids.slice(i, i + ORDERS_PER_READ));
    if (found.length === 0) continue;
    rows.push(...found);
    addPartsByOrder(
      parts,
      await readOrderParts(
        executor,
        found.map((r) => r.id),
      ),
    );
  }
  return rows.map((row) => ({ row, view: orderRecord(row, parts.get(row.id) ?? NO_PARTS) }));
}

function orderRecord(row: OrderReadRow, { lines, deliveries, transactions, documents }: OrderParts): OrderRecord {
  const precision =
    row.currency_precision === null || row.currency_precision === undefined ? 2 : Number(row.currency_precision);
  const customer = readJson<Record<string, unknown>>(row.order_customer, {});
  return {
    id: row.id,
    orderNumber: row.order_number,
    orderDate: fromDbTime(row.order_date)!,
    stateMachineState: stateOf(row.state),
    currency: { isoCode: row.currency_iso, precision },
    total: readInt(row.total),
    netTotal: readInt(row.net_total),
    taxTotal: readInt(row.tax_total),
    billingAddress: readJson<Record<string, unknown> | null>(row.billing_address, null),
    shippingAddress: readJson<Record<string, unknown> | null>(row.shipping_address, null),
    orderCustomer: {
      customerId: row.customer_id,
      customerNumber: (customer.customerNumber as string | undefined) ?? null,
      email: (customer.email as string | undefined) ?? null,
      firstName: (customer.firstName as string | undefined) ?? null,
      lastName: (customer.lastName as string | undefined) ?? null,
      company: (customer.company as string | undefined) ?? null,
    },
    customerComment: row.customer_comment ?? null,
    deliveries: deliveries.map((d) => ({
      id: d.id,
      stateMachineState: stateOf(d.state),
      shippingMethod: {
        technicalName: d.shipping_method,
        name: SHIPPING_METHODS[d.shipping_method] ?? d.shipping_method,
      },
      shippingOrderAddress: readJson<Record<string, unknown> | null>(d.shipping_address, null),
    })),
    transactions: transactions.map((t) => ({
      id: t.id,
      stateMachineState: stateOf(t.state),
      paymentMethod: { technicalName: t.payment_method, name: PAYMENT_METHODS[t.payment_method] ?? t.payment_method },
      amount: readInt(t.amount),
    })),
    lineItems: lines,
    documents: documents.map((d) => ({
      id: d.id,
      fileName: d.fileName,
      type: d.type,
      documentNumber: d.documentNumber,
      createdAt: d.createdAt,
    })),
    customFields: readJson<Record<string, unknown>>(row.custom_fields, {}),
    placedBy: { type: row.placed_by_type, id: row.placed_by_id ?? null },
    salesChannelId: row.sales_channel_id,
  };
}

export async function getOrderRecord(
  executor: Executor,
  id: string,
  kept?: OrderViewCache,
): Promise<OrderRecord | null> {
  return (await getOrderRecords(executor, [id], kept))[0] ?? null;
}

/** The order in the Store API's order shape (amounts in currency units), or null. */
export async function getOrder(executor: Executor, id: string, kept?: OrderViewCache): Promise<OrderView | null> {
  const record = await getOrderRecord(executor, id, kept);
  return record ? orderView(record) : null;
}

/** The fields plugins search orders by through the contract (`orders.search`); see OrderScope. */
export const ORDER_SEARCH_CRITERIA: CriteriaSpec = {
  fields: {
    id: { column: 'orders.id', type: 'id' },
    orderNumber: { column: 'orders.order_number', type: 'string' },
    orderDate: { column: 'orders.order_date', type: 'date' },
    customerId: { column: 'orders.customer_id', type: 'id' },
    state: { column: 'orders.state', type: 'string' },
    placedByType: { column: 'orders.placed_by_type', type: 'string' },
    placedById: { column: 'orders.placed_by_id', type: 'id' },
  },
  termColumns: ['orders.order_number'],
  defaultSort: ORDER_CRITERIA.defaultSort,
  idColumn: 'orders.id',
};

function placedByOnly(query: Knex.QueryBuilder, placedBy: PlacedBy | undefined, table = 'orders'): Knex.QueryBuilder {
  return placedBy
    ? query.where(`${table}.placed_by_type`, placedBy.type).where(`${table}.placed_by_id`, placedBy.id)
    : query;
}

export async function searchOrders(
  executor: Executor,
  scope: OrderScope,
  criteria: Criteria,
): Promise<ResultPage<OrderRecord>> {
  const base = placedByOnly(
    executor('orders').whereIn('orders.customer_id', [...new Set(scope.customerIds)]),
    scope.placedBy,
  );
  if (scope.latestPerCustomer) {
    base.whereNotExists((newer) => {
      newer
        .select(1)
        .from('orders as newer')
        .whereRaw('newer.customer_id = orders.customer_id')
        .where((w) => {
          w.whereRaw('newer.order_date > orders.order_date').orWhere((same) => {
            same.whereRaw('newer.order_date = orders.order_date').whereRaw('newer.id > orders.id');
          });
        });
    });
  }
  const page = await searchByCriteria<{ id: string }>(base, criteria, ORDER_SEARCH_CRITERIA, (qb) =>
    qb.select('orders.id'),
  );
  const elements = page.rows.length
    ? await getOrderRecords(
        executor,
        page.rows.map((r) => r.id),
      )
    : [];
  return { total: page.total, page: page.page, limit: page.limit, elements };
}

export async function orderBelongsTo(executor: Executor, orderId: string, customerId: string): Promise<boolean> {
  return Boolean(await executor<OrderRow>('orders').where({ id: orderId, customer_id: customerId }).first('id'));
}

const FIGURES_CHUNK = 500;

export async function orderFiguresByCustomer(
  executor: Executor,
  customerIds: string[],
  period: { from?: string; to?: string } = {},
): Promise<CustomerOrderFigures[]> {
  const unique = [...new Set(customerIds)];
  const figures: CustomerOrderFigures[] = [];
  for (let i = 0; i < unique.length; i += FIGURES_CHUNK) {
    const query = executor('orders')
      .whereIn('customer_id', unique.slice(i, i + FIGURES_CHUNK))
      .whereNot('state', 'cancelled');
    if (period.from) query.where('order_date', '>=', toDbTime(period.from));
    if (period.to) query.where('order_date', '<=', toDbTime(period.to));
    const rows: Array<Record<string, unknown>> = await query
      .groupBy('customer_id')
      .select(
        'customer_id',
        executor.raw('COUNT(*) as order_count'),
        executor.raw('SUM(net_total) as revenue'),
        executor.raw('MAX(order_date) as last_order'),
      );
    for (const row of rows)
      figures.push({
        customerId: row.customer_id as string,
        orderCount: readInt(row.order_count),
        netTotal: readInt(row.revenue),
        lastOrderDate: fromDbTime((row.last_order as string | null) ?? null),
      });
  }
  return figures;
}

/** Sums every period in one pass over the customer's orders. */
export async function orderFiguresByPeriod(
  executor: Executor,
  customerId: string,
  periods: Array<{ from: string; to: string }>,
): Promise<Array<{ orderCount: number; netTotal: number }>> {
  if (periods.length === 0) return [];
  const bounds = periods.map((p) => [toDbTime(p.from), toDbTime(p.to)] as const);
  const columns: Knex.Raw[] = [];
  bounds.forEach((range, i) => {
    columns.push(
      executor.raw(`SUM(CASE WHEN order_date >= ? AND order_date < ? THEN net_total ELSE 0 END) as r${i}`, range),
    );
    columns.push(executor.raw(`SUM(CASE WHEN order_date >= ? AND order_date < ? THEN 1 ELSE 0 END) as c${i}`, range));
  });
  const [row = {}]: Array<Record<string, unknown>> = await executor('orders')
    .where('customer_id', customerId)
    .whereNot('state', 'cancelled')
    .where('order_date', '>=', bounds.map(([from]) => from).sort()[0]!)
    .where(
      'order_date',
      '<',
      bounds
        .map(([, to]) => to)
        .sort()
        .at(-1)!,
    )
    .select(columns);
  return bounds.map((_, i) => ({ orderCount: readInt(row[`c${i}`]), netTotal: readInt(row[`r${i}`]) }));
}

export async function latestOrderWithProduct(
  executor: Executor,
  input: { customerId: string; productId: string; placedBy?: PlacedBy },
): Promise<{ orderId: string; lineItemId: string } | null> {
  const query = executor('orders')
    .join('order_line_items as l', 'l.order_id', 'orders.id')
    .where('orders.customer_id', input.customerId)
    .where('l.product_id', input.productId);
  const hit = await selectRow<{ id: string; line_id: string }>(
    placedByOnly(query, input.placedBy)
      .orderBy('orders.order_date', 'desc')
      .orderBy('orders.id', 'desc')
      .first('orders.id', 'l.id as line_id'),
  );
  return hit ? { orderId: hit.id, lineItemId: hit.line_id } : null;
}
