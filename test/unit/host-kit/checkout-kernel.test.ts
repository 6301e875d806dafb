import { expect } from 'chai';
import type {
  CartLineItem,
  CheckoutInterceptor,
  CustomerAddress,
  LineItemProcessor,
  OrderDraft,
  PriceLine,
  ProductRecord,
  StoreContext,
} from '../../../src/contract/index.js';
import {
  checkOrder,
  checkStock,
  givenLineItems,
  orderDraft,
  priceLineItems,
  processLineItem,
  type KernelRegistries,
} from '../../../src/host-kit/checkout-kernel.js';
import type { Trx } from '../../../src/lib/db.js';
import { AppError, Errors } from '../../../src/lib/errors.js';

// The checkout kernel (decision 0063) without a database: the executor is only handed on, so a token stands for it.
const trx = { transaction: 'the order transaction' } as unknown as Trx;
const ctx = {
  customer: { id: 'c1' },
  salesChannel: { id: 'sc1', currencyIso: 'EUR' },
  actor: { type: 'employee', id: 'e1' },
} as unknown as StoreContext;

const item = (id: string, productId: string, quantity = 1, position = 0): CartLineItem => ({
  id,
  type: 'product',
  productId,
  label: `label ${id}`,
  quantity,
  payload: {},
  position,
});

const line = (id: string, productId: string | null, unitNet = 100, quantity = 1): PriceLine => ({
  lineItemId: id,
  productId,
  productNumber: null,
  label: `line ${id}`,
  type: 'product',
  quantity,
  unitNet,
  totalNet: unitNet * quantity,
  taxRateBp: 1900,
  payload: {},
});

const product = (id: string, stock = 10): ProductRecord =>
  ({ id, productNumber: `SW-${id}`, name: `product ${id}`, stock }) as ProductRecord;

/** Registries whose processors and interceptors write what they see into `calls`. */
function recording(skipper?: string) {
  const calls: string[] = [];
  const processor = (name: string): LineItemProcessor => ({
    name,
    process: async (executor, _ctx, current, phase, options) => {
      expect(executor).to.equal(trx);
      calls.push(`${name} ${current.id} ${phase}${options?.partial ? ' partial' : ''} ${current.label}`);
      return { ...current, label: `${current.label}+${name}` };
    },
  });
  const interceptor = (name: string): CheckoutInterceptor => ({
    name,
    intercept: async (executor, _ctx, draft) => {
      expect(executor).to.equal(trx);
      calls.push(`${name} ${draft.lines.map((l) => l.label).join(',')}`);
      draft.customFields[name] = true;
    },
  });
  const registries: KernelRegistries = {
    lineItemProcessors: [processor('tickets'), processor('numbers')],
    checkoutInterceptors: [interceptor('approval'), interceptor('budget'), ...(skipper ? [interceptor(skipper)] : [])],
  };
  return { calls, registries };
}

const linesOf = (items: CartLineItem[]) => items.map((i) => ({ ...line(i.id, i.productId), label: i.label }));

describe('host-kit: the checkout kernel', () => {
  it('processes each line through every processor in turn, then runs the interceptors in registration order', async () => {
    const { calls, registries } = recording();
    const check = checkOrder(registries, trx, ctx);
    const processed = await check.processLines([item('l1', 'p1'), item('l2', 'p2', 1, 1)]);
    expect(processed.map((i) => i.label)).to.deep.equal(['label l1+tickets+numbers', 'label l2+tickets+numbers']);
    const draft = check.draft({ lines: linesOf(processed) });
    await check.intercept(draft);
    expect(calls).to.deep.equal([
      'tickets l1 order label l1',
      'numbers l1 order label l1+tickets',
      'tickets l2 order label l2',
      'numbers l2 order label l2+tickets',
      'approval label l1+tickets+numbers,label l2+tickets+numbers',
      'budget label l1+tickets+numbers,label l2+tickets+numbers',
    ]);
    expect(draft.customFields).to.deep.equal({ approval: true, budget: true });
  });

  it('skips the interceptors the placement names (approval execute skips the approval), and only those', async () => {
    const { calls, registries } = recording('cost-center');
    const check = checkOrder(registries, trx, ctx, { skipInterceptors: ['approval', 'unknown'] });
    const draft = check.draft({ lines: linesOf(await check.processLines([item('l1', 'p1')])) });
    await check.intercept(draft);
    expect(calls.filter((c) => !c.startsWith('tickets') && !c.startsWith('numbers'))).to.deep.equal([
      'budget label l1+tickets+numbers',
      'cost-center label l1+tickets+numbers',
    ]);
  });

  it('stops at the first refusal: later interceptors are not consulted', async () => {
    const { calls, registries } = recording();
    registries.checkoutInterceptors.unshift({
      name: 'refuser',
      intercept: () => Promise.reject(Errors.badRequest('SUITE__ORDER_APPROVAL_REQUIRED', 'Ask for approval.')),
    });
    const check = checkOrder(registries, trx, ctx);
    const draft = check.draft({ lines: linesOf(await check.processLines([item('l1', 'p1')])) });
    const refusal = await check.intercept(draft).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).to.be.instanceOf(AppError);
    expect((refusal as AppError).code).to.equal('SUITE__ORDER_APPROVAL_REQUIRED');
    expect(calls.some((c) => c.startsWith('approval') || c.startsWith('budget'))).to.equal(false);
  });

  it('holds the order of the steps: processLines → draft → intercept, each once, on its own draft', async () => {
    const { registries } = recording();
    const fails = async (step: () => unknown) => {
      try {
        await step();
      } catch (error) {
        return (error as Error).message;
      }
      return 'no error';
    };
    const early = checkOrder(registries, trx, ctx);
    expect(await fails(() => early.draft({ lines: [] }))).to.match(/processLines → draft → intercept/);
    await early.processLines([]);
    expect(await fails(() => early.processLines([]))).to.match(/processLines → draft → intercept/);
    const foreign = orderDraft(ctx, { lines: [] });
    expect(await fails(() => early.intercept(foreign))).to.match(/the draft this check built/);
    const draft = early.draft({ lines: [] });
    await early.intercept(draft);
    expect(await fails(() => early.intercept(draft))).to.match(/processLines → draft → intercept/);
  });

  it('keeps an item its identity whatever a processor answers; hands the phase and options on', async () => {
    const { calls, registries: recorded } = recording();
    const rogue: LineItemProcessor = {
      name: 'rogue',
      process: async (_executor, _ctx, current) =>
        ({
          ...current,
          id: 'other',
          type: 'custom',
          productId: 'p9',
          position: 7,
          quantity: 3,
          payload: undefined,
        }) as unknown as CartLineItem,
    };
    const registries = {
      lineItemProcessors: [rogue, ...recorded.lineItemProcessors],
    };
    const processed = await processLineItem(registries, trx, ctx, item('l1', 'p1', 1, 2), 'add', { partial: true });
    expect(processed).to.deep.equal({
      id: 'l1',
      type: 'product',
      productId: 'p1',
      label: 'label l1+tickets+numbers',
      quantity: 3,
      payload: {},
      position: 2,
    });
    expect(calls).to.deep.equal(['tickets l1 add partial label l1', 'numbers l1 add partial label l1+tickets']);
  });

  it('builds the draft of the facts: the lines’ totals unless given, shipping falls back to billing, defaults', () => {
    const lines = [line('l1', 'p1', 1000, 2), line('l2', 'p2', 500)];
    const customFields = { costCenter: 'cc1' };
    const address: CustomerAddress = {
      id: 'a1',
      company: null,
      firstName: 'Ann',
      lastName: 'Buyer',
      street: 'Test Street 1',
      zipcode: '12345',
      city: 'Berlin',
      countryCode: 'DE',
    };
    const draft: OrderDraft = orderDraft(ctx, {
      lines,
      billingAddress: address,
      options: { customFields },
      paymentMethod: 'invoice',
    });
    expect(draft).to.deep.equal({
      customerId: 'c1',
      salesChannelId: 'sc1',
      lines,
      netTotal: 2500,
      taxTotal: 475,
      total: 2975,
      currencyIso: 'EUR',
      billingAddress: address,
      shippingAddress: address,
      customerComment: null,
      actor: { type: 'employee', id: 'e1' },
      origin: 'checkout',
      customFields: { costCenter: 'cc1' },
      invoiceNotes: [],
      paymentMethod: 'invoice',
    });
    expect(draft.customFields, 'a copy: interceptors add to the draft, not to the caller’s options').to.not.equal(
      customFields,
    );
    const vendure = orderDraft(ctx, {
      lines,
      totals: { netTotal: 3000, taxTotal: 475, total: 3475 },
      currencyIso: 'USD',
      options: { origin: 'order-approval', customerComment: 'asap' },
      shippingMethod: 'express',
    });
    expect(vendure).to.deep.include({
      netTotal: 3000,
      total: 3475,
      currencyIso: 'USD',
      billingAddress: null,
      shippingAddress: null,
      origin: 'order-approval',
      customerComment: 'asap',
      shippingMethod: 'express',
    });
    expect(vendure).to.not.have.property('paymentMethod');
  });

  it('maps line items to PriceLines once: the buyable at their prices, in order, the others unavailable', async () => {
    const asked: string[] = [];
    const { lines, unavailable } = await priceLineItems(
      [item('l1', 'p1', 2), item('l2', 'gone'), item('l3', 'p3', 1, 2)],
      new Map([
        ['p1', product('p1')],
        ['p3', product('p3')],
      ]),
      async (buyable) => {
        asked.push(...buyable.map((b) => `${b.product.id}×${b.quantity}`));
        return buyable.map((b, index) => ({
          unitNet: 100 * (index + 1),
          totalNet: 100 * (index + 1) * b.quantity,
          taxRateBp: 700,
        }));
      },
    );
    expect(asked).to.deep.equal(['p1×2', 'p3×1']);
    expect(unavailable.map((i) => i.id)).to.deep.equal(['l2']);
    expect(lines).to.deep.equal([
      { ...line('l1', 'p1', 100, 2), productNumber: 'SW-p1', label: 'label l1', taxRateBp: 700 },
      { ...line('l3', 'p3', 200), productNumber: 'SW-p3', label: 'label l3', taxRateBp: 700 },
    ]);
  });

  it('checks lines priced elsewhere and the stock as every host does', () => {
    const codeOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as AppError).code;
      }
      return null;
    };
    expect(codeOf(() => givenLineItems([]))).to.equal('SUITE__CART_EMPTY');
    expect(codeOf(() => givenLineItems([line('l1', 'p1', 1.5)]))).to.equal('SUITE__INVALID_LINE');
    expect(codeOf(() => givenLineItems([{ ...line('l1', 'p1'), quantity: 0 }]))).to.equal('SUITE__INVALID_LINE');
    const seen: string[] = [];
    const items = givenLineItems([line('l1', 'p1'), line('l2', null)], (l) => void seen.push(l.lineItemId));
    expect(seen).to.deep.equal(['l1', 'l2']);
    expect(items.map((i) => [i.id, i.position, i.label])).to.deep.equal([
      ['l1', 0, 'line l1'],
      ['l2', 1, 'line l2'],
    ]);
    const stock = new Map([['p1', product('p1', 3)]]);
    expect(codeOf(() => checkStock([item('l1', 'p1', 2), item('l2', 'p1', 1)], stock))).to.equal(null);
    expect(codeOf(() => checkStock([item('l1', 'p1', 2), item('l2', 'p1', 2)], stock))).to.equal('SUITE__OUT_OF_STOCK');
  });
});
