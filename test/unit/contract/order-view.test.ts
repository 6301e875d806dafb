import { expect } from 'chai';
import { orderView, type OrderRecord } from '../../../src/contract/index.js';
import { KeptViews, isKeptView } from '../../../src/lib/kept-views.js';

/** An order record as a host answers `orders.get`: amounts in minor units. */
function record(precision: number, overrides: Partial<OrderRecord> = {}): OrderRecord {
  return {
    id: 'a'.repeat(32),
    orderNumber: '10001',
    orderDate: '2026-12-07T10:00:00.000Z',
    stateMachineState: { technicalName: 'open', name: 'Open' },
    currency: { isoCode: 'EUR', precision },
    total: 2499,
    netTotal: 2100,
    taxTotal: 399,
    billingAddress: { street: 'Test Street 1' },
    shippingAddress: null,
    orderCustomer: {
      customerId: 'b'.repeat(32),
      customerNumber: 'C-1',
      email: 'buyer@example.test',
      firstName: 'Ann',
      lastName: 'Buyer',
      company: 'Acme',
    },
    customerComment: null,
    deliveries: [],
    transactions: [
      {
        id: 'c'.repeat(32),
        stateMachineState: { technicalName: 'open', name: 'Open' },
        paymentMethod: { technicalName: 'invoice', name: 'Invoice' },
        amount: 2499,
      },
    ],
    lineItems: [
      {
        id: 'd'.repeat(32),
        type: 'product',
        productId: 'e'.repeat(32),
        productNumber: 'P-1',
        label: 'Bolt',
        quantity: 3,
        unitNet: 700,
        totalNet: 2100,
        taxRateBp: 1900,
        position: 0,
        payload: { note: 'gift' },
      },
    ],
    documents: [],
    customFields: { offerId: 'O-1' },
    placedBy: { type: 'customer', id: 'b'.repeat(32) },
    salesChannelId: 'f'.repeat(32),
    ...overrides,
  };
}

describe('contract: orderView (an order record in the Store API shape)', () => {
  it('answers the amounts in currency units at the order precision, in the Store API key order', () => {
    const view = orderView(record(2));
    expect(view).to.deep.include({
      currency: { isoCode: 'EUR' },
      amountTotal: 24.99,
      amountNet: 21,
      taxAmount: 3.99,
    });
    expect(view.transactions[0]!.amount).to.equal(24.99);
    expect(view.lineItems).to.deep.equal([
      {
        id: 'd'.repeat(32),
        type: 'product',
        productId: 'e'.repeat(32),
        productNumber: 'P-1',
        label: 'Bolt',
        quantity: 3,
        unitPrice: 7,
        totalPrice: 21,
        taxRate: 19,
        position: 0,
        payload: { note: 'gift' },
      },
    ]);
    expect(Object.keys(view)).to.deep.equal([
      'id',
      'orderNumber',
      'orderDate',
      'stateMachineState',
      'currency',
      'amountTotal',
      'amountNet',
      'taxAmount',
      'billingAddress',
      'shippingAddress',
      'orderCustomer',
      'customerComment',
      'deliveries',
      'transactions',
      'lineItems',
      'documents',
      'customFields',
      'placedBy',
      'salesChannelId',
    ]);
    expect(orderView(record(3)).amountTotal).to.equal(2.499);
    expect(orderView(record(0)).amountNet).to.equal(2100);
  });

  it('leaves out of the JSON what the record leaves out', () => {
    const { shippingAddress: _s, customerComment: _c, salesChannelId: _id, ...bare } = record(2);
    const json = JSON.parse(JSON.stringify(orderView(bare))) as Record<string, unknown>;
    expect(json).to.not.have.any.keys('shippingAddress', 'customerComment', 'salesChannelId');
  });

  it('keeps the view of a kept record beside it (frozen, the same object), and builds one for a plain record each time', () => {
    const kept = new KeptViews<OrderRecord>(10);
    const shared = kept.keep('a', '1', record(2));
    const first = orderView(shared);
    expect(orderView(shared)).to.equal(first);
    expect(isKeptView(first)).to.equal(true);
    expect(Object.isFrozen(first.lineItems[0])).to.equal(true);
    const plain = record(2);
    expect(orderView(plain)).to.not.equal(orderView(plain));
    expect(orderView(plain)).to.deep.equal(first);
  });
});
