import type { Knex } from 'knex';
import { searchByCriteria, type Criteria, type CriteriaSpec } from '../../lib/criteria.js';
import { readInt, readJson, selectRow, selectRows, type Executor } from '../../lib/db.js';
import { lineItemFromRow, lineItemView } from '../../lib/line-items.js';
import { fromMinor } from '../../lib/money.js';
import { fromDbTime, toDbTime } from '../../lib/time.js';
import type { CustomerOrderFigures, OrderScope, PlacedBy, ResultPage } from '../contract.js';
import type { DocumentSummary } from './documents.js';
import type { DbNumber, DbTime, OrderDeliveryRow, OrderLineRow, OrderRow, OrderTransactionRow } from './rows.js';

const STATE_NAMES: Record<string, string> = {
  open: 'Open',
  in_progress: 'In progress',
  completed: 'Done',
  cancelled: 'Cancelled',
  paid: 'Paid',
  shipped: 'Shipped',
};

const PAYMENT_METHODS: Record<string, string> = { invoice: 'Invoice' };
const SHIPPING_METHODS: Record<string, string> = { standard: 'Standard' };

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

function groupByOrder<T extends { order_id: string }>(rows: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const list = groups.get(row.order_id) ?? [];
    list.push(row);
    groups.set(row.order_id, list);
  }
  return groups;
}

type AttachmentRow = { kind: 'd' | 'doc' | 't'; id: string; order_id: string; state: string | null; method: string | null; shipping_address: string | null; amount: DbNumber | null; file_name: string | null; type: string | null; document_number: string | null; created_at: DbTime };

/**
 * The deliveries, transactions and documents (without content) of orders in one statement: a
 * UNION ALL of the three tables with their columns side by side, each table's rows by creation
 * time and id as when they were three reads.
 */
async function orderAttachments(executor: Executor, orderIds: string[]) {
  const deliveries = executor('order_deliveries')
    .whereIn('order_id', orderIds)
    .select(executor.raw("'d' as kind"), 'id', 'order_id', 'state', 'shipping_method as method', 'shipping_address', executor.raw('null as amount'), executor.raw('null as file_name'), executor.raw('null as type'), executor.raw('null as document_number'), 'created_at');
  const transactions = executor('order_transactions')
    .whereIn('order_id', orderIds)
    .select(executor.raw("'t' as kind"), 'id', 'order_id', 'state', 'payment_method as method', executor.raw('null as shipping_address'), 'amount', executor.raw('null as file_name'), executor.raw('null as type'), executor.raw('null as document_number'), 'created_at');
  const documents = executor('documents')
    .whereIn('order_id', orderIds)
    .select(executor.raw("'doc' as kind"), 'id', 'order_id', executor.raw('null as state'), executor.raw('null as method'), executor.raw('null as shipping_address'), executor.raw('null as amount'), 'file_name', 'type', 'document_number', 'created_at');
  const rows = await selectRows<AttachmentRow>(deliveries.unionAll([transactions, documents]).orderBy('kind').orderBy('created_at').orderBy('id'));
  const result = { deliveries: new Map<string, OrderDeliveryRow[]>(), transactions: new Map<string, OrderTransactionRow[]>(), documents: new Map<string, DocumentSummary[]>() };
  const add = <T>(map: Map<string, T[]>, orderId: string, value: T) => {
    const list = map.get(orderId);
    if (list) list.push(value);
    else map.set(orderId, [value]);
  };
  for (const row of rows) {
    if (row.kind === 'd') add(result.deliveries, row.order_id, { id: row.id, order_id: row.order_id, state: row.state!, shipping_method: row.method!, shipping_address: row.shipping_address, created_at: row.created_at });
    else if (row.kind === 't') add(result.transactions, row.order_id, { id: row.id, order_id: row.order_id, state: row.state!, payment_method: row.method!, amount: row.amount!, created_at: row.created_at });
    else add(result.documents, row.order_id, { id: row.id, fileName: row.file_name!, type: row.type!, documentNumber: row.document_number!, createdAt: fromDbTime(row.created_at)! });
  }
  return result;
}

/** Orders in the Store API's order shape, in the order of `ids`; unknown ids are skipped. */
export async function getOrders(executor: Executor, ids: string[]): Promise<Array<Record<string, unknown>>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  const rows = await selectRows<OrderRow & { currency_precision: number | string | null }>(
    executor('orders')
      .leftJoin('sales_channels', 'sales_channels.id', 'orders.sales_channel_id')
      .whereIn('orders.id', wanted)
      .select('orders.*', 'sales_channels.currency_precision as currency_precision'),
  );
  if (rows.length === 0) return [];
  const orderIds = rows.map((r) => r.id);
  const [lineRows, { deliveries, transactions, documents }] = await Promise.all([
    executor<OrderLineRow>('order_line_items').whereIn('order_id', orderIds).orderBy('position').orderBy('id'),
    orderAttachments(executor, orderIds),
  ]);
  const lines = groupByOrder(lineRows);

  const byId = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    const precision = row.currency_precision === null || row.currency_precision === undefined ? 2 : Number(row.currency_precision);
    const money = (minor: number | string) => fromMinor(minor, precision);
    const customer = readJson<Record<string, unknown>>(row.order_customer, {});
    byId.set(row.id, {
      id: row.id,
      orderNumber: row.order_number,
      orderDate: fromDbTime(row.order_date),
      stateMachineState: stateOf(row.state),
      currency: { isoCode: row.currency_iso },
      amountTotal: money(row.total),
      amountNet: money(row.net_total),
      taxAmount: money(row.tax_total),
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
      deliveries: (deliveries.get(row.id) ?? []).map((d) => ({
        id: d.id,
        stateMachineState: stateOf(d.state),
        shippingMethod: { technicalName: d.shipping_method, name: SHIPPING_METHODS[d.shipping_method] ?? d.shipping_method },
        shippingOrderAddress: readJson<Record<string, unknown> | null>(d.shipping_address, null),
      })),
      transactions: (transactions.get(row.id) ?? []).map((t) => ({
        id: t.id,
        stateMachineState: stateOf(t.state),
        paymentMethod: { technicalName: t.payment_method, name: PAYMENT_METHODS[t.payment_method] ?? t.payment_method },
        amount: money(t.amount),
      })),
      lineItems: (lines.get(row.id) ?? []).map((l) => lineItemView(lineItemFromRow(l), precision)),
      documents: (documents.get(row.id) ?? []).map((d) => ({ id: d.id, fileName: d.fileName, type: d.type, documentNumber: d.documentNumber, createdAt: d.createdAt })),
      customFields: readJson<Record<string, unknown>>(row.custom_fields, {}),
      placedBy: { type: row.placed_by_type, id: row.placed_by_id ?? null },
      salesChannelId: row.sales_channel_id,
    });
  }
  return ids.map((id) => byId.get(id)).filter((order): order is Record<string, unknown> => !!order);
}

export async function getOrder(executor: Executor, id: string): Promise<Record<string, unknown> | null> {
  return (await getOrders(executor, [id]))[0] ?? null;
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
  return placedBy ? query.where(`${table}.placed_by_type`, placedBy.type).where(`${table}.placed_by_id`, placedBy.id) : query;
}

export async function searchOrders(executor: Executor, scope: OrderScope, criteria: Criteria): Promise<ResultPage<Record<string, unknown>>> {
  const base = placedByOnly(executor('orders').whereIn('orders.customer_id', [...new Set(scope.customerIds)]), scope.placedBy);
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
  const page = await searchByCriteria<{ id: string }>(base, criteria, ORDER_SEARCH_CRITERIA, (qb) => qb.select('orders.id'));
  const elements = page.rows.length ? await getOrders(executor, page.rows.map((r) => r.id)) : [];
  return { total: page.total, page: page.page, limit: page.limit, elements };
}

export async function orderBelongsTo(executor: Executor, orderId: string, customerId: string): Promise<boolean> {
  return Boolean(await executor<OrderRow>('orders').where({ id: orderId, customer_id: customerId }).first('id'));
}

const FIGURES_CHUNK = 500;

export async function orderFiguresByCustomer(executor: Executor, customerIds: string[], period: { from?: string; to?: string } = {}): Promise<CustomerOrderFigures[]> {
  const unique = [...new Set(customerIds)];
  const figures: CustomerOrderFigures[] = [];
  for (let i = 0; i < unique.length; i += FIGURES_CHUNK) {
    const query = executor('orders').whereIn('customer_id', unique.slice(i, i + FIGURES_CHUNK)).whereNot('state', 'cancelled');
    if (period.from) query.where('order_date', '>=', toDbTime(period.from));
    if (period.to) query.where('order_date', '<=', toDbTime(period.to));
    const rows: Array<Record<string, unknown>> = await query
      .groupBy('customer_id')
      .select('customer_id', executor.raw('COUNT(*) as order_count'), executor.raw('SUM(net_total) as revenue'), executor.raw('MAX(order_date) as last_order'));
    for (const row of rows)
      figures.push({ customerId: row.customer_id as string, orderCount: readInt(row.order_count), netTotal: readInt(row.revenue), lastOrderDate: fromDbTime((row.last_order as string | null) ?? null) });
  }
  return figures;
}

/** Sums every period in one pass over the customer's orders. */
export async function orderFiguresByPeriod(executor: Executor, customerId: string, periods: Array<{ from: string; to: string }>): Promise<Array<{ orderCount: number; netTotal: number }>> {
  if (periods.length === 0) return [];
  const bounds = periods.map((p) => [toDbTime(p.from), toDbTime(p.to)] as const);
  const columns: Knex.Raw[] = [];
  bounds.forEach((range, i) => {
    columns.push(executor.raw(`SUM(CASE WHEN order_date >= ? AND order_date < ? THEN net_total ELSE 0 END) as r${i}`, range));
    columns.push(executor.raw(`SUM(CASE WHEN order_date >= ? AND order_date < ? THEN 1 ELSE 0 END) as c${i}`, range));
  });
  const [row = {}]: Array<Record<string, unknown>> = await executor('orders')
    .where('customer_id', customerId)
    .whereNot('state', 'cancelled')
    .where('order_date', '>=', bounds.map(([from]) => from).sort()[0]!)
    .where('order_date', '<', bounds.map(([, to]) => to).sort().at(-1)!)
    .select(columns);
  return bounds.map((_, i) => ({ orderCount: readInt(row[`c${i}`]), netTotal: readInt(row[`r${i}`]) }));
}

export async function latestOrderWithProduct(executor: Executor, input: { customerId: string; productId: string; placedBy?: PlacedBy }): Promise<{ orderId: string; lineItemId: string } | null> {
  const query = executor('orders')
    .join('order_line_items as l', 'l.order_id', 'orders.id')
    .where('orders.customer_id', input.customerId)
    .where('l.product_id', input.productId);
  const hit = await selectRow<{ id: string; line_id: string }>(placedByOnly(query, input.placedBy).orderBy('orders.order_date', 'desc').orderBy('orders.id', 'desc').first('orders.id', 'l.id as line_id'));
  return hit ? { orderId: hit.id, lineItemId: hit.line_id } : null;
}
