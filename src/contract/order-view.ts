import { DerivedViews } from '../lib/kept-views.js';
import { lineItemView, type LineItemView } from '../lib/line-items.js';
import { fromMinor } from '../lib/money.js';
import type { OrderRecord } from './index.js';

/**
 * An order in the Store API's order shape (the reference host's `orderSchema`): an OrderRecord with
 * its amounts in currency units at the order's precision, the line items as line item views.
 */
export interface OrderView extends Omit<
  OrderRecord,
  'currency' | 'total' | 'netTotal' | 'taxTotal' | 'transactions' | 'lineItems'
> {
  currency: { isoCode: string };
  amountTotal: number;
  amountNet: number;
  taxAmount: number;
  transactions: Array<Omit<OrderRecord['transactions'][number], 'amount'> & { amount: number }>;
  lineItems: LineItemView[];
}

/** The view of a kept (frozen, shared) record, kept beside it for as long as the record is kept. */
const keptOrderViews = new DerivedViews<OrderRecord, OrderView>();

/**
 * The Store API's order shape of an order record: the one place the contract's minor units become
 * the currency units the Store API and Admin API answer (and mails print), for both hosts and every
 * add-on route that answers an order. Of a record the host keeps and shares, the view is kept too.
 */
export function orderView(order: OrderRecord): OrderView {
  return keptOrderViews.of(order, '', () => buildOrderView(order));
}

function buildOrderView(order: OrderRecord): OrderView {
  const precision = order.currency.precision;
  const money = (minor: number) => fromMinor(minor, precision);
  // The Store API's key order: an answer's JSON is the same whichever host built the record.
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    orderDate: order.orderDate,
    stateMachineState: order.stateMachineState,
    currency: { isoCode: order.currency.isoCode },
    amountTotal: money(order.total),
    amountNet: money(order.netTotal),
    taxAmount: money(order.taxTotal),
    billingAddress: order.billingAddress,
    shippingAddress: order.shippingAddress,
    orderCustomer: order.orderCustomer,
    customerComment: order.customerComment,
    deliveries: order.deliveries,
    transactions: order.transactions.map((t) => ({
      id: t.id,
      stateMachineState: t.stateMachineState,
      paymentMethod: t.paymentMethod,
      amount: money(t.amount),
    })),
    lineItems: order.lineItems.map((line) => lineItemView(line, precision)),
    documents: order.documents,
    customFields: order.customFields,
    placedBy: order.placedBy,
    salesChannelId: order.salesChannelId,
  };
}
