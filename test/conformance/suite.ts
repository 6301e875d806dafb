import { expect } from 'chai';
import {
  orderView,
  type CustomerRef,
  type HostRuntime,
  type OrderDraft,
  type PlacedOrder,
  type PriceLine,
  type ProductRecord,
  type StoreContext,
} from '../../src/contract/index.js';
import { AppError, Errors } from '../../src/lib/errors.js';
import { newId } from '../../src/lib/ids.js';
import type { ConformanceBehaviour, ConformanceFixture } from './fixture.js';

/**
 * The contract's behaviour, written once and run against every host (decision 0038):
 * `describeConformance(host, fixture)` calls only `HostRuntime`; the fixture (fixture.ts) brings the
 * host's buyers, product, contexts, jobs and mailbox. A difference between the hosts is a failing
 * test, or — while it is known and written down — a pending one on that host (`fixture.differences`).
 */

const HEX_ID = /^[0-9a-f]{32}$/;

/** What the suite's own extension points do and saw; they act only for the customers a test names here. */
interface Probe {
  /** customer id → product ids its visibility filter hides from that customer */
  hidden: Map<string, Set<string>>;
  /** customers whose orders the interceptor refuses */
  veto: Set<string>;
  /** customers whose order-placed hook throws, after queueing a mail to the address given */
  failInHook: Map<string, string>;
  /** customers whose orders get the interceptor's custom field */
  stamp: Set<string>;
  /** what the interceptor saw, per customer */
  drafts: Map<string, OrderDraft[]>;
  /** what the order-placed hook saw, per customer */
  placed: Map<string, Array<{ order: PlacedOrder; inTransaction: boolean; readInHook: unknown }>>;
  /** runs of the suite's scheduled job */
  jobRuns: Array<{ payload: Record<string, unknown>; contractVersion: string }>;
}

export const CONFORMANCE_JOB = 'conformance.tick';
export const CONFORMANCE_MAIL_TEMPLATE = 'product-request';

const probes = new WeakMap<HostRuntime, Probe>();

/** The suite's extension points, registered once per runtime (a shared app keeps them between files). */
function probeOf(host: HostRuntime): Probe {
  const known = probes.get(host);
  if (known) return known;
  const probe: Probe = {
    hidden: new Map(),
    veto: new Set(),
    failInHook: new Map(),
    stamp: new Set(),
    drafts: new Map(),
    placed: new Map(),
    jobRuns: [],
  };
  probes.set(host, probe);
  host.catalog.addVisibilityFilter(async (_executor, ctx, entity) => {
    const ids = ctx.customer && entity === 'product' ? probe.hidden.get(ctx.customer.id) : undefined;
    return ids ? { kind: 'exclude', ids: [...ids] } : { kind: 'all' };
  });
  host.checkout.addInterceptor({
    name: 'conformance',
    async intercept(_trx, ctx, draft) {
      const customerId = ctx.customer?.id ?? '';
      if (!probe.drafts.has(customerId)) return;
      probe.drafts.get(customerId)!.push(structuredClone(draft));
      if (probe.veto.has(customerId))
        throw Errors.badRequest('SUITE__CONFORMANCE_VETO', 'The conformance interceptor refuses this order.');
      if (probe.stamp.has(customerId)) draft.customFields.conformanceStamp = 'stamped';
    },
  });
  host.checkout.onOrderPlaced(async (trx, _ctx, order) => {
    const seen = probe.placed.get(order.customerId);
    if (!seen) return;
    seen.push({
      order,
      inTransaction: trx.isTransaction === true,
      readInHook: await host.orders.get(trx, order.id),
    });
    const mailTo = probe.failInHook.get(order.customerId);
    if (mailTo) {
      await host.mail.enqueue(trx, conformanceMail(mailTo, `rolled back ${order.orderNumber}`));
      throw new Error('the conformance hook fails after the order was written');
    }
  });
  host.jobs.register(CONFORMANCE_JOB, async ({ payload, host: runtime }) => {
    probe.jobRuns.push({ payload, contractVersion: runtime.contractVersion });
  });
  host.jobs.schedule(CONFORMANCE_JOB, 24 * 3600);
  return probe;
}

/** A mail of a template every host registers from plugin.json; the subject carries `marker`. */
function conformanceMail(to: string, marker: string) {
  return {
    template: CONFORMANCE_MAIL_TEMPLATE,
    to,
    data: {
      representativeName: 'Conformance',
      askedBy: { name: 'Suite', email: 'suite@conformance.test' },
      customer: { company: 'Conformance Ltd', customerNumber: 'C-1' },
      product: { number: marker, name: 'conformance' },
      comment: marker,
    },
  };
}

/** What a rejected promise rejected with (null when it resolved). */
async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (error: unknown) => error,
  );
}

export function describeConformance(hostName: string, fixture: ConformanceFixture): void {
  describe(`conformance on ${hostName}: the contract's behaviour`, function () {
    this.timeout(90_000);
    let host: HostRuntime;
    let probe: Probe;

    /**
     * A behaviour: a test on this host, or pending where the fixture names a known difference
     * (CONFORMANCE_RUN_PENDING=1 runs those too, to see whether the difference is still there).
     */
    const behaviour = (key: ConformanceBehaviour, title: string, test: () => Promise<void>) => {
      const difference = fixture.differences[key];
      if (difference && !process.env.CONFORMANCE_RUN_PENDING) it(`${title} [pending on ${hostName}: ${difference}]`);
      else it(title, test);
    };

    /** A buyer the suite's extension points watch, with its context. */
    const buyer = async (): Promise<{ customer: CustomerRef; ctx: StoreContext }> => {
      const customer = await fixture.newCustomer();
      probe.drafts.set(customer.id, []);
      probe.placed.set(customer.id, []);
      return { customer, ctx: await fixture.storeContext(customer) };
    };
    const productRecord = async (ctx: StoreContext): Promise<ProductRecord> => {
      const id = await fixture.product();
      const [record] = await host.catalog.visibleProducts(host.db, ctx, [id]);
      expect(record, `product ${id} is visible to a new customer`).to.not.equal(undefined);
      return record!;
    };
    /** The customer's cart with `quantity` of the product; answers its token. */
    const cartWith = async (ctx: StoreContext, productId: string, quantity: number): Promise<string> => {
      const cart = await host.cart.addLineItems(host.db, ctx, [{ productId, quantity }]);
      return cart.token;
    };
    const ordersOf = async (customerId: string) =>
      (await host.orders.search(host.db, { customerIds: [customerId] }, {})).elements;

    before(() => {
      host = fixture.runtime();
      probe = probeOf(host);
    });

    behaviour('ids', 'ids are 32 lowercase hex: customers, products, carts, lines, orders', async () => {
      const { customer, ctx } = await buyer();
      const product = await productRecord(ctx);
      expect(customer.id).to.match(HEX_ID);
      expect(customer.salesChannelId).to.match(HEX_ID);
      expect(product.id).to.match(HEX_ID);
      const token = await cartWith(ctx, product.id, 1);
      expect(token).to.match(HEX_ID);
      const cart = (await host.cart.get(host.db, token))!;
      expect(cart.lineItems.map((l) => [l.id, l.productId].every((id) => HEX_ID.test(id ?? '')))).to.deep.equal([true]);
      const placed = await host.checkout.placeOrder(host.db, ctx, { cartToken: token });
      expect(placed.id).to.match(HEX_ID);
      expect(placed.lines.map((l) => HEX_ID.test(l.id))).to.deep.equal([true]);
      const read = (await host.orders.get(host.db, placed.id))!;
      expect(read.id).to.equal(placed.id);
      expect(read.orderCustomer.customerId).to.equal(customer.id);
      expect(read.lineItems.map((l) => l.productId)).to.deep.equal([product.id]);
      expect(await host.orders.get(host.db, newId())).to.equal(null);
    });

    behaviour(
      'money',
      'money is integer minor units in the contract and currency units in the order shape',
      async () => {
        const { ctx } = await buyer();
        const product = await productRecord(ctx);
        expect(Number.isSafeInteger(product.priceNet)).to.equal(true);
        expect(Number.isSafeInteger(product.taxRateBp)).to.equal(true);
        const token = await cartWith(ctx, product.id, 3);
        const priced = await host.cart.price(host.db, ctx, (await host.cart.get(host.db, token))!);
        expect(priced.lines.map((l) => [l.productId, l.quantity, l.unitNet, l.totalNet])).to.deep.equal([
          [product.id, 3, product.priceNet, 3 * product.priceNet],
        ]);
        expect(priced.netTotal).to.equal(3 * product.priceNet);
        expect(priced.total).to.equal(priced.netTotal + priced.taxTotal);
        expect(priced.taxTotal).to.be.closeTo(Math.round((3 * product.priceNet * product.taxRateBp) / 10000), 1);

        const placed = await host.checkout.placeOrder(host.db, ctx, { cartToken: token });
        expect([placed.netTotal, placed.taxTotal, placed.total].every(Number.isSafeInteger)).to.equal(true);
        expect(placed.total).to.equal(placed.netTotal + placed.taxTotal);
        expect(placed.lines.map((l) => [l.unitNet, l.totalNet])).to.deep.equal([
          [product.priceNet, 3 * product.priceNet],
        ]);
        const scale = 10 ** ctx.salesChannel.currencyPrecision;
        const read = (await host.orders.get(host.db, placed.id))!;
        // The record in minor units, as the rest of the contract; its Store API view in currency units.
        expect(read.currency).to.deep.equal({
          isoCode: ctx.salesChannel.currencyIso,
          precision: ctx.salesChannel.currencyPrecision,
        });
        expect([read.netTotal, read.taxTotal, read.total]).to.deep.equal([
          placed.netTotal,
          placed.taxTotal,
          placed.total,
        ]);
        expect(read.lineItems.map((l) => [l.unitNet, l.totalNet])).to.deep.equal([
          [product.priceNet, 3 * product.priceNet],
        ]);
        const view = orderView(read);
        expect(view.currency).to.deep.equal({ isoCode: ctx.salesChannel.currencyIso });
        expect([view.amountNet, view.taxAmount, view.amountTotal]).to.deep.equal([
          placed.netTotal / scale,
          placed.taxTotal / scale,
          placed.total / scale,
        ]);
        const [figures] = await host.orders.figuresByCustomer(host.db, [placed.customerId]);
        expect(figures).to.include({ customerId: placed.customerId, orderCount: 1, netTotal: placed.netTotal });
      },
    );

    behaviour(
      'totals.lines',
      "an order's totals are its lines' totals: the cart's price, the interceptor's draft, the placed order and the hook agree",
      async () => {
        const { customer, ctx } = await buyer();
        const product = await productRecord(ctx);
        const token = await cartWith(ctx, product.id, 2);
        const priced = await host.cart.price(host.db, ctx, (await host.cart.get(host.db, token))!);
        const totals = [priced.netTotal, priced.taxTotal, priced.total];
        expect(priced.netTotal).to.equal(2 * product.priceNet);
        const placed = await host.checkout.placeOrder(host.db, ctx, { cartToken: token });
        const [draft] = probe.drafts.get(customer.id)!;
        expect([draft!.netTotal, draft!.taxTotal, draft!.total]).to.deep.equal(totals);
        expect([placed.netTotal, placed.taxTotal, placed.total]).to.deep.equal(totals);
        const [hooked] = probe.placed.get(customer.id)!;
        expect([hooked!.order.netTotal, hooked!.order.total]).to.deep.equal([priced.netTotal, priced.total]);
      },
    );

    behaviour(
      'customers.lookup',
      'customers: get, getMany and findByEmail answer the same customer; unknown ones are absent',
      async () => {
        const { customer } = await buyer();
        const { customer: other } = await buyer();
        expect(await host.customers.get(host.db, customer.id)).to.deep.equal(customer);
        expect(await host.customers.findByEmail(host.db, customer.email)).to.deep.equal(customer);
        expect(await host.customers.findByEmail(host.db, customer.email.toUpperCase())).to.deep.equal(customer);
        expect(await host.customers.findByEmail(host.db, `nobody-${newId()}@example.test`)).to.equal(null);
        expect(await host.customers.get(host.db, newId())).to.equal(null);
        expect(await host.customers.get(host.db, 'not-an-id')).to.equal(null);
        const many = await host.customers.getMany(host.db, [other.id, newId(), customer.id]);
        expect(many.map((c) => c.id)).to.deep.equal([other.id, customer.id]);
        expect(customer).to.include({ active: true });
        const channel = await host.customers.salesChannel(host.db, customer.salesChannelId);
        expect(channel?.id).to.equal(customer.salesChannelId);
      },
    );

    behaviour(
      'cart.lines',
      "cart: a customer's cart adds up one line per product, keeps its token, and is the customer's alone",
      async () => {
        const { customer, ctx } = await buyer();
        const { ctx: otherCtx } = await buyer();
        const product = await productRecord(ctx);
        const empty = await host.cart.current(host.db, ctx);
        expect(empty).to.include({ customerId: customer.id, salesChannelId: customer.salesChannelId });
        expect(empty.lineItems).to.deep.equal([]);
        await host.cart.addLineItems(host.db, ctx, [{ productId: product.id, quantity: 2 }]);
        const cart = await host.cart.addLineItems(host.db, ctx, [{ productId: product.id, quantity: 1 }]);
        expect(cart.token).to.equal(empty.token);
        expect(cart.lineItems.map((l) => [l.type, l.productId, l.quantity])).to.deep.equal([
          ['product', product.id, 3],
        ]);
        expect((await host.cart.get(host.db, cart.token))!.lineItems).to.deep.equal(cart.lineItems);
        expect((await host.cart.current(host.db, ctx)).token).to.equal(cart.token);
        const others = await host.cart.current(host.db, otherCtx);
        expect(others.token).to.not.equal(cart.token);
        expect(others.lineItems).to.deep.equal([]);
        expect(await host.cart.get(host.db, newId())).to.equal(null);
      },
    );

    behaviour(
      'checkout.cart',
      'checkout: placeOrder orders the cart once — its lines and totals — and the next cart is a new, empty one',
      async () => {
        const { customer, ctx } = await buyer();
        const product = await productRecord(ctx);
        const token = await cartWith(ctx, product.id, 2);
        const placed = await host.checkout.placeOrder(host.db, ctx, { cartToken: token });
        expect(placed).to.include({ customerId: customer.id, salesChannelId: customer.salesChannelId });
        expect(placed.actor).to.include({ type: 'customer', id: customer.id });
        expect(placed.lines.map((l) => [l.productId, l.quantity, l.unitNet, l.totalNet])).to.deep.equal([
          [product.id, 2, product.priceNet, 2 * product.priceNet],
        ]);

        const next = await host.cart.current(host.db, ctx);
        expect(next.token).to.not.equal(token);
        expect(next.lineItems).to.deep.equal([]);
        const again = await refusal(host.checkout.placeOrder(host.db, ctx, { cartToken: token }));
        expect(again, 'the ordered cart again').to.be.instanceOf(AppError);
        expect((again as AppError).status).to.equal(400);
        expect((await ordersOf(customer.id)).map((o) => o.id)).to.deep.equal([placed.id]);
        const read = (await host.orders.get(host.db, placed.id))!;
        expect(read.orderNumber).to.equal(placed.orderNumber);
        expect(read.placedBy).to.deep.equal({ type: 'customer', id: customer.id });
        expect(read.lineItems.map((l) => [l.productId, l.quantity])).to.deep.equal([[product.id, 2]]);
      },
    );

    behaviour(
      'checkout.comment',
      "checkout: the customer's comment reaches the interceptors and is kept with the order",
      async () => {
        const { customer, ctx } = await buyer();
        const product = await productRecord(ctx);
        const placed = await host.checkout.placeOrder(host.db, ctx, {
          cartToken: await cartWith(ctx, product.id, 1),
          customerComment: 'Deliver to gate 3',
        });
        expect(probe.drafts.get(customer.id)!.map((d) => d.customerComment)).to.include('Deliver to gate 3');
        expect((await host.orders.get(host.db, placed.id))!.customerComment).to.equal('Deliver to gate 3');
      },
    );

    behaviour(
      'checkout.givenLines',
      'checkout: placeOrder with given lines (approval execute, offer accept) charges the given net prices',
      async () => {
        const { customer, ctx } = await buyer();
        const product = await productRecord(ctx);
        const unitNet = product.priceNet + 123;
        const line: PriceLine = {
          lineItemId: newId(),
          productId: product.id,
          productNumber: product.productNumber,
          label: product.name,
          type: 'product',
          quantity: 2,
          unitNet,
          totalNet: 2 * unitNet,
          taxRateBp: product.taxRateBp,
          payload: {},
        };
        const placed = await host.checkout.placeOrder(host.db, ctx, { lines: [line], origin: 'conformance' });
        expect(placed.origin).to.equal('conformance');
        expect(placed.lines.map((l) => [l.productId, l.quantity, l.unitNet])).to.deep.equal([[product.id, 2, unitNet]]);
        const read = (await host.orders.get(host.db, placed.id))!;
        const scale = 10 ** ctx.salesChannel.currencyPrecision;
        expect(read.netTotal).to.equal(placed.netTotal);
        expect(read.lineItems.map((l) => [l.productId, l.quantity, l.unitNet])).to.deep.equal([
          [product.id, 2, unitNet],
        ]);
        expect(orderView(read).lineItems.map((l) => [l.productId, l.quantity, l.unitPrice])).to.deep.equal([
          [product.id, 2, unitNet / scale],
        ]);
        expect(await host.orders.belongsTo(host.db, placed.id, customer.id)).to.equal(true);
      },
    );

    behaviour(
      'cart.priceLines',
      'cart.priceLines (4.4) prices lines no cart holds for the buyer, leaves out a product it cannot see, and they place',
      async () => {
        const { customer, ctx } = await buyer();
        const product = await productRecord(ctx);
        expect(host.cart.priceLines, 'the host offers cart.priceLines').to.be.a('function');
        const item = (productId: string, quantity: number, position: number) => ({
          id: newId(),
          type: 'product',
          productId,
          label: 'conformance',
          quantity,
          payload: {},
          position,
        });
        const known = item(product.id, 3, 0);
        const priced = await host.cart.priceLines!(host.db, ctx, [known, item(newId(), 1, 1)]);
        expect(priced.lines.map((l) => [l.lineItemId, l.productId, l.quantity, l.unitNet, l.totalNet])).to.deep.equal([
          [known.id, product.id, 3, product.priceNet, 3 * product.priceNet],
        ]);
        expect(priced.netTotal).to.equal(3 * product.priceNet);
        expect(priced.total).to.equal(priced.netTotal + priced.taxTotal);
        const placed = await host.checkout.placeOrder(host.db, ctx, { lines: priced.lines, origin: 'conformance' });
        expect(placed.lines.map((l) => [l.productId, l.quantity, l.unitNet])).to.deep.equal([
          [product.id, 3, product.priceNet],
        ]);
        expect(await host.orders.belongsTo(host.db, placed.id, customer.id)).to.equal(true);
      },
    );

    behaviour(
      'hooks.inTransaction',
      "an order-placed hook runs once per order, inside the order's transaction, and reads the order there",
      async () => {
        const { customer, ctx } = await buyer();
        const product = await productRecord(ctx);
        const placed = await host.checkout.placeOrder(host.db, ctx, { cartToken: await cartWith(ctx, product.id, 1) });
        const seen = probe.placed.get(customer.id)!;
        expect(seen.map((s) => [s.order.id, s.inTransaction])).to.deep.equal([[placed.id, true]]);
        expect(seen[0]!.readInHook).to.include({ id: placed.id, orderNumber: placed.orderNumber });
        expect(seen[0]!.order.lines.map((l) => [l.productId, l.quantity])).to.deep.equal([[product.id, 1]]);
      },
    );

    behaviour(
      'hooks.rollback',
      'a throwing order-placed hook rolls the order back: no order, the cart keeps its lines, its mail is never sent',
      async () => {
        const { customer, ctx } = await buyer();
        const product = await productRecord(ctx);
        const mailTo = `hook-${newId().slice(0, 12)}@conformance.test`;
        probe.failInHook.set(customer.id, mailTo);
        const token = await cartWith(ctx, product.id, 1);
        const failed = await refusal(host.checkout.placeOrder(host.db, ctx, { cartToken: token }));
        expect(failed, 'placeOrder with a failing hook').to.be.instanceOf(Error);
        expect(probe.placed.get(customer.id)).to.have.length(1);
        expect(await ordersOf(customer.id)).to.deep.equal([]);
        const cart = await host.cart.current(host.db, ctx);
        expect(cart.token).to.equal(token);
        expect(cart.lineItems.map((l) => [l.productId, l.quantity])).to.deep.equal([[product.id, 1]]);
        await fixture.deliverMail();
        expect((await fixture.mailbox()).messages.filter((m) => m.envelopeTo.includes(mailTo))).to.deep.equal([]);

        // Without the failure the same cart orders.
        probe.failInHook.delete(customer.id);
        const placed = await host.checkout.placeOrder(host.db, ctx, { cartToken: token });
        expect((await ordersOf(customer.id)).map((o) => o.id)).to.deep.equal([placed.id]);
      },
    );

    behaviour(
      'interceptor.veto',
      "a checkout interceptor sees the draft in minor units and its refusal is placeOrder's error; nothing is ordered",
      async () => {
        const { customer, ctx } = await buyer();
        const product = await productRecord(ctx);
        probe.veto.add(customer.id);
        const token = await cartWith(ctx, product.id, 2);
        const refused = await refusal(host.checkout.placeOrder(host.db, ctx, { cartToken: token }));
        expect(refused).to.be.instanceOf(AppError);
        expect(refused).to.include({ status: 400, code: 'SUITE__CONFORMANCE_VETO' });
        const [draft] = probe.drafts.get(customer.id)!;
        expect(draft).to.include({ customerId: customer.id, origin: 'checkout' });
        expect(draft!.actor).to.include({ type: 'customer', id: customer.id });
        expect(draft!.lines.map((l) => [l.productId, l.quantity, l.unitNet])).to.deep.equal([
          [product.id, 2, product.priceNet],
        ]);
        expect(probe.placed.get(customer.id)).to.deep.equal([]);
        expect(await ordersOf(customer.id)).to.deep.equal([]);
        const cart = await host.cart.current(host.db, ctx);
        expect([cart.token, cart.lineItems.map((l) => l.quantity)]).to.deep.equal([token, [2]]);
        // Given lines are refused the same way.
        const given = await refusal(
          host.checkout.placeOrder(host.db, ctx, {
            lines: (await host.cart.price(host.db, ctx, cart)).lines,
          }),
        );
        expect(given).to.include({ code: 'SUITE__CONFORMANCE_VETO' });
        // An interceptor named in skipInterceptors is not asked.
        const skipped = await host.checkout.placeOrder(host.db, ctx, {
          cartToken: token,
          skipInterceptors: ['conformance'],
        });
        expect((await ordersOf(customer.id)).map((o) => o.id)).to.deep.equal([skipped.id]);
      },
    );

    behaviour(
      'interceptor.customFields',
      'custom fields an interceptor adds are written with the order and handed to the hooks',
      async () => {
        const { customer, ctx } = await buyer();
        const product = await productRecord(ctx);
        probe.stamp.add(customer.id);
        const placed = await host.checkout.placeOrder(host.db, ctx, {
          cartToken: await cartWith(ctx, product.id, 1),
          customFields: { conformanceGiven: 'given' },
        });
        const expected = { conformanceGiven: 'given', conformanceStamp: 'stamped' };
        expect(placed.customFields).to.include(expected);
        expect(probe.placed.get(customer.id)![0]!.order.customFields).to.include(expected);
        expect((await host.orders.get(host.db, placed.id))!.customFields).to.include(expected);
      },
    );

    behaviour(
      'visibility',
      'a visibility filter hides a product from one customer (catalog, search, cart) and not from another',
      async () => {
        const { customer, ctx } = await buyer();
        const { ctx: otherCtx } = await buyer();
        const product = await productRecord(ctx);
        probe.hidden.set(customer.id, new Set([product.id]));
        expect(await host.catalog.visibleProducts(host.db, ctx, [product.id])).to.deep.equal([]);
        expect(await host.catalog.visibleProductsByNumber(host.db, ctx, [product.productNumber])).to.deep.equal([]);
        expect(await host.catalog.visibleEntityIds(host.db, ctx, 'product', [product.id])).to.deep.equal([]);
        expect((await host.catalog.searchProducts(host.db, ctx, { ids: [product.id] })).total).to.equal(0);
        expect(await host.catalog.productIds(host.db, ctx, { within: [product.id] })).to.deep.equal([]);
        expect(await host.catalog.variants(host.db, ctx, product.id)).to.equal(null);
        const added = await refusal(host.cart.addLineItems(host.db, ctx, [{ productId: product.id, quantity: 1 }]));
        expect(added, 'adding the hidden product').to.be.instanceOf(AppError);
        expect((await host.cart.current(host.db, ctx)).lineItems).to.deep.equal([]);

        expect((await host.catalog.visibleProducts(host.db, otherCtx, [product.id])).map((p) => p.id)).to.deep.equal([
          product.id,
        ]);
        const found = await host.catalog.searchProducts(host.db, otherCtx, { ids: [product.id] });
        expect(found.elements.map((p) => p.id)).to.deep.equal([product.id]);
        expect(await host.catalog.productIds(host.db, otherCtx, { within: [product.id] })).to.deep.equal([product.id]);
        // Without a context (sales staff tools, stored snapshots) the product is there.
        expect((await host.catalog.products(host.db, [product.id])).map((p) => p.id)).to.deep.equal([product.id]);
      },
    );

    behaviour(
      'orders.search',
      'orders.search answers only the named customers, narrows to an actor and by criteria, newest first',
      async () => {
        const { customer: a, ctx: aCtx } = await buyer();
        const { customer: b, ctx: bCtx } = await buyer();
        const product = await productRecord(aCtx);
        const first = await host.checkout.placeOrder(host.db, aCtx, { cartToken: await cartWith(aCtx, product.id, 1) });
        const second = await host.checkout.placeOrder(host.db, aCtx, {
          cartToken: await cartWith(aCtx, product.id, 1),
        });
        const ofB = await host.checkout.placeOrder(host.db, bCtx, { cartToken: await cartWith(bCtx, product.id, 1) });

        const page = await host.orders.search(host.db, { customerIds: [a.id] }, {});
        expect(page).to.include({ total: 2, page: 1 });
        expect(page.elements.map((o) => o.id)).to.have.members([first.id, second.id]);
        expect(page.elements.every((o) => o.orderCustomer.customerId === a.id)).to.equal(true);
        const both = await host.orders.search(host.db, { customerIds: [a.id, b.id] }, { limit: 10 });
        expect(both.total).to.equal(3);
        const own = await host.orders.search(
          host.db,
          { customerIds: [a.id, b.id], placedBy: { type: 'customer', id: b.id } },
          {},
        );
        expect(own.elements.map((o) => o.id)).to.deep.equal([ofB.id]);
        const filtered = await host.orders.search(
          host.db,
          { customerIds: [a.id, b.id] },
          { filter: [{ type: 'equals', field: 'customerId', value: b.id }] },
        );
        expect(filtered.elements.map((o) => o.id)).to.deep.equal([ofB.id]);
        const byNumber = await host.orders.search(host.db, { customerIds: [a.id] }, { term: second.orderNumber });
        expect(byNumber.elements.map((o) => o.id)).to.deep.equal([second.id]);
        expect((await host.orders.search(host.db, { customerIds: [] }, {})).total).to.equal(0);
        expect(await host.orders.belongsTo(host.db, ofB.id, a.id)).to.equal(false);
        expect((await host.orders.getMany(host.db, [ofB.id, first.id])).map((o) => o.id)).to.deep.equal([
          ofB.id,
          first.id,
        ]);
        const unknownField = await refusal(
          host.orders.search(
            host.db,
            { customerIds: [a.id] },
            { filter: [{ type: 'equals', field: 'netTotal', value: 1 }] },
          ),
        );
        expect(unknownField).to.be.instanceOf(AppError).with.property('status', 400);
      },
    );

    behaviour(
      'jobs.schedule',
      "a registered and scheduled job runs once per worker run, with the host's runtime",
      async () => {
        const before = probe.jobRuns.length;
        await fixture.runJobs([CONFORMANCE_JOB]);
        expect(probe.jobRuns.length).to.equal(before + 1);
        expect(probe.jobRuns.at(-1)).to.deep.equal({ payload: {}, contractVersion: host.contractVersion });
        await fixture.runJobs([CONFORMANCE_JOB]);
        expect(probe.jobRuns.length).to.equal(before + 2);
      },
    );

    behaviour(
      'mail.outbox',
      'a mail enqueued in a transaction is sent after commit and never after rollback',
      async () => {
        const mailbox = await fixture.mailbox();
        const marker = newId().slice(0, 12);
        const committedTo = `sent-${marker}@conformance.test`;
        const rolledBackTo = `dropped-${marker}@conformance.test`;
        await host.db.transaction((trx) => host.mail.enqueue(trx, conformanceMail(committedTo, `sent ${marker}`)));
        const rolledBack = await refusal(
          host.db.transaction(async (trx) => {
            await host.mail.enqueue(trx, conformanceMail(rolledBackTo, `dropped ${marker}`));
            throw new Error('roll back');
          }),
        );
        expect(rolledBack).to.be.instanceOf(Error);
        await fixture.deliverMail();
        const mail = await mailbox.waitFor((m) => m.envelopeTo.includes(committedTo), 10_000);
        expect(mail.subject).to.contain(`sent ${marker}`);
        expect(mail.text).to.contain(`sent ${marker}`);
        expect(mailbox.messages.filter((m) => m.envelopeTo.includes(rolledBackTo))).to.deep.equal([]);
      },
    );
  });
}
