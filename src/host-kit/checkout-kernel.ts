import type {
  CalculatedPrice,
  CartLineItem,
  CustomerAddress,
  LineItemProcessOptions,
  OrderDraft,
  PlaceOrderOptions,
  PriceLine,
  ProductRecord,
  StoreContext,
} from '../contract/index.js';
import type { Executor, Trx } from '../lib/db.js';
import { Errors } from '../lib/errors.js';
import { totalsOf, type Totals } from '../lib/line-items.js';
import { outOfStock, requireCustomer } from './cart-rules.js';
import type { PluginRegistries } from './registries.js';

/**
 * The checkout kernel (decision 0063): what every host runs when it checks an order before writing
 * it, in one place, so the reference host, Vendure's order process and the plugin's own placements
 * (approval execute, offer accept, recurring orders) agree.
 *
 * The one order of a placement's check, held by `OrderCheck`:
 *   1. the line-item processors, phase 'order', line after line, each processor in registration order
 *      (`processLines`; they may change label, quantity and payload, never identity);
 *   2. the order draft, built from the facts the host supplies (`draft`);
 *   3. the checkout interceptors in registration order, but those the placement skips
 *      (`PlaceOrderOptions.skipInterceptors`: approval execute skips the approval's own) (`intercept`).
 * A host does its own work between the steps (pricing, addresses, its platform's order); a step out
 * of order is a bug, thrown as a plain Error.
 *
 * It also maps a line item and its price to the `PriceLine` interceptors, hooks and the plugin read
 * (`pricedLine`, `priceLineItems`), and checks lines priced elsewhere (`givenLineItems`) and stock
 * (`checkStock`) as every host does.
 */

/** What the kernel runs: the line-item processors and checkout interceptors the plugin registered (read at each call). */
export type KernelRegistries = Pick<PluginRegistries, 'lineItemProcessors' | 'checkoutInterceptors'>;

/** The price of a line as a host prices it: net unit and line price (minor units), tax rate in basis points. */
export type LinePrice = Pick<CalculatedPrice, 'unitNet' | 'totalNet' | 'taxRateBp'>;

/**
 * Runs every line-item processor on an item, in registration order ('add' when an item is added or
 * changed, 'order' inside the order transaction). A processor may change label, quantity and
 * payload; the item keeps its id, type, product and position whatever it answers.
 */
export async function processLineItem(
  registries: Pick<KernelRegistries, 'lineItemProcessors'>,
  executor: Executor,
  ctx: StoreContext,
  item: CartLineItem,
  phase: 'add' | 'order',
  options?: LineItemProcessOptions,
): Promise<CartLineItem> {
  let current = item;
  for (const processor of registries.lineItemProcessors) {
    const next = await processor.process(executor, ctx, current, phase, options);
    current = {
      ...next,
      id: item.id,
      type: item.type,
      productId: item.productId,
      position: item.position,
      payload: next.payload ?? {},
    };
  }
  return current;
}

/** A line item at a price: the `PriceLine` the draft, the interceptors, the hooks and `cart.price` answer. */
export function pricedLine(item: CartLineItem, productNumber: string | null, price: LinePrice): PriceLine {
  return {
    lineItemId: item.id,
    productId: item.productId,
    productNumber,
    label: item.label,
    type: item.type,
    quantity: item.quantity,
    unitNet: price.unitNet,
    totalNet: price.totalNet,
    taxRateBp: price.taxRateBp,
    payload: item.payload,
  };
}

/**
 * Line items priced: those whose product is in `products` (what the context may buy) at the prices
 * `calculate` answers for them (in the order given), the others `unavailable`.
 */
export async function priceLineItems(
  items: readonly CartLineItem[],
  products: ReadonlyMap<string, ProductRecord>,
  calculate: (buyable: Array<{ product: ProductRecord; quantity: number }>) => Promise<readonly LinePrice[]>,
): Promise<{ lines: PriceLine[]; unavailable: CartLineItem[] }> {
  const unavailable: CartLineItem[] = [];
  const buyable: Array<{ item: CartLineItem; product: ProductRecord }> = [];
  for (const item of items) {
    const product = item.productId ? products.get(item.productId) : undefined;
    if (product) buyable.push({ item, product });
    else unavailable.push(item);
  }
  const prices = await calculate(buyable.map(({ item, product }) => ({ product, quantity: item.quantity })));
  const lines = buyable.map(({ item, product }, index) => pricedLine(item, product.productNumber, prices[index]!));
  return { lines, unavailable };
}

/**
 * Lines priced elsewhere (approval execute, offer accept, recurring orders) as line items to process:
 * none is a 400 `SUITE__CART_EMPTY`, a line without a whole positive quantity or integer prices a 400
 * `SUITE__INVALID_LINE`; `each` adds a host's own refusal of a line (after those checks, line by line).
 */
export function givenLineItems(given: readonly PriceLine[], each?: (line: PriceLine) => void): CartLineItem[] {
  if (given.length === 0) throw Errors.badRequest('SUITE__CART_EMPTY', 'There is nothing to order.');
  for (const line of given) {
    if (
      !Number.isSafeInteger(line.quantity) ||
      line.quantity < 1 ||
      !Number.isSafeInteger(line.unitNet) ||
      !Number.isSafeInteger(line.totalNet)
    )
      throw Errors.badRequest('SUITE__INVALID_LINE', `The line "${line.label}" has no valid quantity or price.`);
    each?.(line);
  }
  return given.map((line, position) => ({
    id: line.lineItemId,
    type: line.type,
    productId: line.productId,
    label: line.label,
    quantity: line.quantity,
    payload: line.payload ?? {},
    position,
  }));
}

/** Given lines after the processors: their prices stay, label and payload are the processed items'. */
export function processedGivenLines(given: readonly PriceLine[], processed: readonly CartLineItem[]): PriceLine[] {
  return given.map((line, index) => ({ ...line, label: processed[index]!.label, payload: processed[index]!.payload }));
}

/** The quantity of each product over the items, in the order the products first appear. */
export function quantitiesByProduct(items: ReadonlyArray<{ productId: string | null; quantity: number }>) {
  const wanted = new Map<string, number>();
  for (const item of items)
    if (item.productId) wanted.set(item.productId, (wanted.get(item.productId) ?? 0) + item.quantity);
  return wanted;
}

/** Refuses (400 `SUITE__OUT_OF_STOCK`) the first product the items want more of than is in stock. */
export function checkStock(
  items: ReadonlyArray<{ productId: string | null; quantity: number }>,
  products: ReadonlyMap<string, ProductRecord>,
): void {
  for (const [productId, quantity] of quantitiesByProduct(items)) {
    const product = products.get(productId);
    if (product && quantity > product.stock) throw outOfStock(product);
  }
}

/** What a host knows of the order it is about to write; the kernel makes the draft of it. */
export interface DraftFacts {
  lines: PriceLine[];
  /** The order's totals as the host will charge them (Vendure: with shipping); absent: the lines' sums. */
  totals?: Totals;
  /** Absent: the sales channel's currency. */
  currencyIso?: string;
  billingAddress?: CustomerAddress | null;
  /** Absent or null: the billing address. */
  shippingAddress?: CustomerAddress | null;
  /** The placement's choices: origin (default 'checkout'), comment, custom fields (copied: interceptors add to the copy). */
  options?: Pick<PlaceOrderOptions, 'origin' | 'customerComment' | 'customFields'>;
  paymentMethod?: string;
  shippingMethod?: string;
}

/** The order draft the interceptors see, of the facts a host supplies, for the context's customer and actor. */
export function orderDraft(ctx: StoreContext, facts: DraftFacts): OrderDraft {
  const billingAddress = facts.billingAddress ?? null;
  const draft: OrderDraft = {
    customerId: requireCustomer(ctx).id,
    salesChannelId: ctx.salesChannel.id,
    lines: facts.lines,
    ...(facts.totals
      ? { netTotal: facts.totals.netTotal, taxTotal: facts.totals.taxTotal, total: facts.totals.total }
      : totalsOf(facts.lines)),
    currencyIso: facts.currencyIso ?? ctx.salesChannel.currencyIso,
    billingAddress,
    shippingAddress: facts.shippingAddress ?? billingAddress,
    customerComment: facts.options?.customerComment ?? null,
    actor: ctx.actor,
    origin: facts.options?.origin ?? 'checkout',
    customFields: { ...facts.options?.customFields },
    invoiceNotes: [],
  };
  if (facts.paymentMethod !== undefined) draft.paymentMethod = facts.paymentMethod;
  if (facts.shippingMethod !== undefined) draft.shippingMethod = facts.shippingMethod;
  return draft;
}

type CheckStep = 'open' | 'processed' | 'drafted' | 'intercepted';

/**
 * The check of one placement, in its transaction: processLines → draft → intercept, each once, in
 * that order (see the module's comment). The host works between the steps.
 */
export class OrderCheck {
  private step: CheckStep = 'open';
  private built: OrderDraft | null = null;
  private readonly skipped: ReadonlySet<string>;

  constructor(
    private readonly registries: KernelRegistries,
    private readonly trx: Trx,
    private readonly ctx: StoreContext,
    options: Pick<PlaceOrderOptions, 'skipInterceptors'> = {},
  ) {
    this.skipped = new Set(options.skipInterceptors ?? []);
  }

  /** Step 1: the order's line items through the processors (phase 'order', under their locks), in the lines' order. */
  async processLines(items: readonly CartLineItem[]): Promise<CartLineItem[]> {
    this.advance('open', 'processed');
    const processed: CartLineItem[] = [];
    for (const item of items) processed.push(await processLineItem(this.registries, this.trx, this.ctx, item, 'order'));
    return processed;
  }

  /** Step 2: the draft of the order (after the lines were processed). */
  draft(facts: DraftFacts): OrderDraft {
    this.advance('processed', 'drafted');
    this.built = orderDraft(this.ctx, facts);
    return this.built;
  }

  /** Step 3: the interceptors on this check's draft (which the host may have completed), but the skipped ones. */
  async intercept(draft: OrderDraft): Promise<void> {
    if (draft !== this.built) throw new Error('checkout kernel: intercept takes the draft this check built');
    this.advance('drafted', 'intercepted');
    for (const interceptor of this.registries.checkoutInterceptors)
      if (!this.skipped.has(interceptor.name)) await interceptor.intercept(this.trx, this.ctx, draft);
  }

  private advance(from: CheckStep, to: CheckStep): void {
    if (this.step !== from)
      throw new Error(`checkout kernel: a check goes processLines → draft → intercept, once each (at "${this.step}")`);
    this.step = to;
  }
}

/** Opens the check of one placement (its transaction, its context, the interceptors it skips). */
export function checkOrder(
  registries: KernelRegistries,
  trx: Trx,
  ctx: StoreContext,
  options?: Pick<PlaceOrderOptions, 'skipInterceptors'>,
): OrderCheck {
  return new OrderCheck(registries, trx, ctx, options);
}
