import type { CriteriaSpec } from '../../lib/criteria.js';
import { readJson, type Executor } from '../../lib/db.js';
import { fromMinor } from '../../lib/money.js';
import { fromDbTime } from '../../lib/time.js';
import { documentsOfOrders } from './documents.js';

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

function groupBy<T extends Record<string, any>>(rows: T[], key: string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const list = groups.get(row[key]) ?? [];
    list.push(row);
    groups.set(row[key], list);
  }
  return groups;
}

/** Orders in the Store API's order shape, in the order of `ids`; unknown ids are skipped. */
export async function getOrders(executor: Executor, ids: string[]): Promise<Array<Record<string, unknown>>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  const rows = await executor('orders')
    .leftJoin('sales_channels', 'sales_channels.id', 'orders.sales_channel_id')
    .whereIn('orders.id', wanted)
    .select('orders.*', 'sales_channels.currency_precision as currency_precision');
  if (rows.length === 0) return [];
  const orderIds = rows.map((r) => r.id as string);
  const [lineRows, deliveryRows, transactionRows, documents] = await Promise.all([
    executor('order_line_items').whereIn('order_id', orderIds).orderBy('position').orderBy('id'),
    executor('order_deliveries').whereIn('order_id', orderIds).orderBy('created_at').orderBy('id'),
    executor('order_transactions').whereIn('order_id', orderIds).orderBy('created_at').orderBy('id'),
    documentsOfOrders(executor, orderIds),
  ]);
  const lines = groupBy(lineRows, 'order_id');
  const deliveries = groupBy(deliveryRows, 'order_id');
  const transactions = groupBy(transactionRows, 'order_id');

  const byId = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    const precision = row.currency_precision === null || row.currency_precision === undefined ? 2 : Number(row.currency_precision);
    const money = (minor: unknown) => fromMinor(minor as number, precision);
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
      lineItems: (lines.get(row.id) ?? []).map((l) => ({
        id: l.id,
        type: l.type,
        productId: l.product_id ?? null,
        productNumber: l.product_number ?? null,
        label: l.label,
        quantity: Number(l.quantity),
        unitPrice: money(l.unit_net),
        totalPrice: money(l.total_net),
        taxRate: Number(l.tax_rate_bp) / 100,
        position: Number(l.position),
        payload: readJson<Record<string, unknown>>(l.payload, {}),
      })),
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
