import {
  ActiveOrderService,
  isGraphQlErrorResult,
  Order,
  OrderLine,
  OrderService,
  ProductVariant,
  ProductVariantTranslation,
  RequestContextService,
  TransactionalConnection,
  type RequestContext,
} from '@vendure/core';
import { retriedVendureTransaction } from './retried-transaction.js';
import type { Cart, CartLineItem, HostRuntime, PriceLine, StoreContext } from '../../contract/index.js';
import { CART_LIMITS, checkQuantity, notAvailable, outOfStock, requireCustomer } from '../../host-kit/cart-rules.js';
import { priceLineItems, pricedLine, processLineItem } from '../../host-kit/checkout-kernel.js';
import { readBool, readInt, readJson, selectRow, selectRows, type Executor } from '../../lib/db.js';
import { AppError, Errors } from '../../lib/errors.js';
import { totalsOf } from '../../lib/line-items.js';
import type { AdapterState } from './state.js';
import { vendureServices } from './state.js';
import { notSupported } from './unsupported.js';
import { requestFor } from './vendure-context.js';
import { buyerColumn, buyerOf } from './active-order.js';
import { orderLines } from './orders.js';
import { fieldsOfPayload, linePayload, linePayloadOfRow } from './participants.js';
import { defaultChannel, type OrderLineRow } from './vendure-tables.js';
import { column, columns, junction, selectAs, table } from './vendure-schema.js';

/**
 * The contract's cart on Vendure: the context's cart is the Vendure **active order** of the
 * context's buyer (active-order.ts: the company admin, each employee and a sales representative
 * acting for the customer have their own, all orders of the customer; the same one Vendure's Shop
 * API answers as `activeOrder` for that buyer), as the reference host keeps one cart per actor.
 * The cart token is the order's id in the plugin's form.
 *
 * Reads go through the plugin's executor on Vendure's orders and order lines; lines are added
 * through `OrderService.addItemToOrder` in one Vendure transaction, with a RequestContext the adapter
 * creates for the plugin's context (vendure-context.ts `requestFor`), so Vendure's order
 * interceptors, stock rules and price strategy (the plugin's customer prices, prices.ts) apply.
 * `price` answers Vendure's own line prices (net, as Vendure will charge them) for the lines the
 * context may still see. Lines carry the payload keys of event tickets (`participant`, `eventId`, in
 * the OrderLine custom fields of participants.ts); items of another type than `product` or with other
 * payload keys answer 501.
 */
interface OrderRow {
  id: string | number;
  customerId: string | number | null;
}

interface LineRow extends OrderLineRow {
  name: string | null;
}

interface ActiveOrderRow {
  id: string | number;
}

/** Net of a Vendure list price (it may include tax: the channel's `pricesIncludeTax`). */
function netOf(price: number, includesTax: boolean, taxRatePercent: number): number {
  return includesTax ? Math.round(price / (1 + taxRatePercent / 100)) : price;
}

const PAYLOAD_KEYS = new Set(['participant', 'eventId']);

/** One cart line per product and payload (Vendure's addItemToOrder joins a line with equal custom fields). */
const lineKey = (productId: string, payload: Record<string, unknown>) => `${productId} ${JSON.stringify(payload)}`;

function taxRateOf(taxLines: unknown): number {
  return readJson<Array<{ taxRate?: number }>>(taxLines, []).reduce((sum, line) => sum + Number(line.taxRate ?? 0), 0);
}

// eslint-disable-next-line max-lines-per-function -- longer than 150 lines before the 150-line rule covered all of src; split it when it next changes
export function cartContract(state: AdapterState): Pick<HostRuntime, 'cart'> {
  const { ids } = state;

  async function linesOf(executor: Executor, orderId: string | number): Promise<LineRow[]> {
    const channel = await defaultChannel(executor);
    const l = columns(OrderLine, 'l');
    const vt = columns(ProductVariantTranslation, 'vt');
    return selectRows<LineRow>(
      orderLines(executor, 'l')
        .join(table(ProductVariant, 'v'), column(ProductVariant, 'id', 'v'), l('productVariantId'))
        .leftJoin(table(ProductVariantTranslation, 'vt'), function () {
          this.on(vt('base'), column(ProductVariant, 'id', 'v')).andOnVal(
            vt('languageCode'),
            channel.defaultLanguageCode,
          );
        })
        .where(l('orderId'), orderId)
        .where(l('quantity'), '>', 0)
        .orderBy(l('id'))
        .select(...selectAs(ProductVariant, 'v', 'sku'), ...selectAs(ProductVariantTranslation, 'vt', 'name')),
    );
  }

  function toLineItem(row: LineRow, position: number): CartLineItem {
    return {
      id: ids.toPlugin(row.id),
      type: 'product',
      productId: ids.toPlugin(row.productVariantId),
      label: row.name ?? row.sku ?? '',
      quantity: readInt(row.quantity),
      payload: linePayloadOfRow(row as unknown as Record<string, unknown>),
      position,
    };
  }

  /** The open (active) Vendure order as a cart; a placed order is no cart any more. */
  async function load(executor: Executor, orderId: string): Promise<Cart | null> {
    const order = await selectRow<OrderRow>(
      executor(table(Order))
        .where(column(Order, 'id'), orderId)
        .where(column(Order, 'active'), true)
        .first(selectAs(Order, undefined, 'id', 'customerId')),
    );
    if (!order) return null;
    const lines = await linesOf(executor, order.id);
    return {
      token: ids.toPlugin(order.id),
      customerId: order.customerId == null ? null : ids.toPlugin(order.customerId),
      salesChannelId: (await state.salesChannel(executor)).id,
      lineItems: lines.map(toLineItem),
    };
  }

  /** The Vendure id of the buyer's active order (as SuiteB2BActiveOrderStrategy finds it, active-order.ts). */
  async function activeOrderId(executor: Executor, ctx: StoreContext): Promise<string | null> {
    const customerId = ids.toVendure(requireCustomer(ctx).id);
    if (!customerId) throw Errors.unauthorized();
    const channel = await defaultChannel(executor);
    const buyer = buyerOf(ctx);
    const o = columns(Order, 'o');
    const oc = junction(Order, 'channels', 'oc');
    const query = executor(table(Order, 'o'))
      .join(oc.table, oc.owner, o('id'))
      .where(o('customerId'), customerId)
      .where(o('active'), true)
      .where(oc.inverse, channel.id);
    if (buyer === null) void query.whereNull(`o.${buyerColumn()}`);
    else void query.where(`o.${buyerColumn()}`, buyer);
    const row = await selectRow<ActiveOrderRow>(
      query
        .orderBy(o('createdAt'), 'desc')
        .orderBy(o('id'), 'desc')
        .first(selectAs(Order, 'o', 'id')),
    );
    return row ? String(row.id) : null;
  }

  /** A Vendure RequestContext (Shop API, default channel) whose hooks see the plugin's context. */
  function vendureContext(ctx: StoreContext): Promise<RequestContext> {
    return vendureServices(state)
      .service(RequestContextService)
      .create({ apiType: 'shop', req: requestFor(ctx) });
  }

  /**
   * The buyer's active order through Vendure's ActiveOrderService (the adapter's strategy finds it,
   * or creates it for the buyer, as for the Shop API's `addItemToOrder`).
   */
  async function ensureActiveOrder(vendureCtx: RequestContext): Promise<string> {
    const order = await vendureServices(state).service(ActiveOrderService).getActiveOrder(vendureCtx, undefined, true);
    if (!order) throw Errors.conflict();
    return String(order.id);
  }

  function refusal(message: string, pointer: string, productId: string): AppError {
    if (message.startsWith('SUITE__PRODUCT_NOT_VISIBLE')) return notAvailable(productId, pointer);
    return Errors.badRequest('SUITE__CART_ITEM_REFUSED', message, { pointer, meta: { productId } });
  }

  return {
    cart: {
      addLineItemProcessor: (processor) => void state.registries.lineItemProcessors.push(processor),
      async current(executor, ctx) {
        requireCustomer(ctx);
        const orderId = (await activeOrderId(executor, ctx)) ?? (await ensureActiveOrder(await vendureContext(ctx)));
        const cart = await load(executor, orderId);
        if (!cart) throw Errors.conflict();
        return cart;
      },
      async get(executor, token) {
        const orderId = ids.toVendure(token);
        return orderId ? load(executor, orderId) : null;
      },
      // Vendure writes the lines in a transaction of its own (addItemToOrder); the reads before it run on `executor`.
      async addLineItems(executor, ctx, items) {
        requireCustomer(ctx);
        await ctx.ruleIds();
        const pointer = (index: number) => `/items/${index}`;
        // A Vendure order line keeps the payload keys of event tickets (OrderLine custom fields, participants.ts).
        const unsupported = items.findIndex(
          (item) =>
            (item.type ?? 'product') !== 'product' ||
            Object.keys(item.payload ?? {}).some((key) => !PAYLOAD_KEYS.has(key)),
        );
        if (unsupported >= 0)
          throw notSupported('cart.addLineItems (line types, payload keys other than participant and eventId)');
        const products = new Map(
          (
            await state.runtime.catalog.visibleProducts(
              executor,
              ctx,
              items.map((i) => i.productId),
            )
          ).map((p) => [p.id, p]),
        );
        const lineFields: Array<Record<string, string | null> | undefined> = [];
        for (const [index, item] of items.entries()) {
          const product = products.get(item.productId);
          if (!product) throw notAvailable(item.productId, pointer(index));
          checkQuantity(item.quantity, `${pointer(index)}/quantity`);
          // The plugin's line-item processors may refuse the item (e.g. an event ticket needs participants) or shape its payload.
          // It is a part of its line (contract 4.3): addItemToOrder's interceptor checks the line with its new quantity.
          let line: CartLineItem = {
            id: '',
            type: 'product',
            productId: product.id,
            label: product.name,
            quantity: item.quantity,
            payload: { ...item.payload },
            position: index,
          };
          line = await processLineItem(state.registries, executor, ctx, line, 'add', { partial: true });
          // As on Vendure's Shop API: the participant and its event go into the line's custom fields (other keys are not kept).
          lineFields.push(fieldsOfPayload(line.payload ?? {}) ?? undefined);
        }
        const connection = vendureServices(state).service(TransactionalConnection);
        const orders = vendureServices(state).service(OrderService);
        const orderId = await retriedVendureTransaction(connection, await vendureContext(ctx), async (vendureCtx) => {
          // Found through the plugin's connection, not in this transaction: on MariaDB a plain read before
          // the lock below would fix the transaction's snapshot before the lock, and addItemToOrder would
          // then raise the line from that stale snapshot.
          const id = (await activeOrderId(state.db, ctx)) ?? (await ensureActiveOrder(vendureCtx));
          // Vendure's addItemToOrder reads a line's quantity and writes it back raised, unlocked:
          // concurrent adds to one order lost each other's units (30 adds, 3 units). The order row
          // is locked for the transaction first, so adds to one order queue (SQLite's writing
          // transaction holds the whole database already).
          if (state.dialect !== 'sqlite')
            await connection
              .getRepository(vendureCtx, Order)
              .createQueryBuilder('o')
              .setLock('pessimistic_write')
              .where('o.id = :id', { id })
              .getOne();
          const cart = await load(state.db, id);
          const inCart = new Map<string, number>();
          const lines = new Set<string>();
          for (const line of cart?.lineItems ?? []) {
            if (!line.productId) continue;
            inCart.set(line.productId, (inCart.get(line.productId) ?? 0) + line.quantity);
            lines.add(lineKey(line.productId, line.payload ?? {}));
          }
          const keys = items.map((item, index) => lineKey(item.productId, linePayload(lineFields[index])));
          if (new Set([...lines, ...keys]).size > CART_LIMITS.maxLines)
            throw Errors.badRequest('SUITE__CART_FULL', `A cart holds at most ${CART_LIMITS.maxLines} lines.`, {
              pointer: '/items',
            });
          // Items of one line (product and shaped payload) are added as one: the line's checks see its new quantity.
          const joined = new Map<string, { index: number; productId: string; quantity: number }>();
          for (const [index, item] of items.entries()) {
            const key = keys[index]!;
            const known = joined.get(key);
            if (known) known.quantity += item.quantity;
            else joined.set(key, { index, productId: item.productId, quantity: item.quantity });
          }
          for (const { index, productId, quantity } of joined.values()) {
            const product = products.get(productId)!;
            const wanted = (inCart.get(product.id) ?? 0) + quantity;
            checkQuantity(wanted, `${pointer(index)}/quantity`);
            if (wanted > product.stock) throw outOfStock(product, pointer(index));
            inCart.set(product.id, wanted);
            const result = await orders.addItemToOrder(
              vendureCtx,
              id,
              ids.toVendure(product.id)!,
              quantity,
              lineFields[index],
            );
            // An error result is refused as a whole: throwing rolls back the lines added before it.
            if (isGraphQlErrorResult(result)) {
              const detail = 'interceptorError' in result ? String(result.interceptorError) : String(result.message);
              throw refusal(detail, pointer(index), product.id);
            }
          }
          return id;
        });
        const cart = await load(state.db, orderId);
        if (!cart) throw Errors.conflict();
        return cart;
      },
      async price(executor, ctx, cart) {
        const orderId = ids.toVendure(cart.token);
        const rows = orderId ? await linesOf(executor, orderId) : [];
        const visible = new Set(
          (
            await state.runtime.catalog.visibleProducts(
              executor,
              ctx,
              rows.map((r) => ids.toPlugin(r.productVariantId)),
            )
          ).map((p) => p.id),
        );
        const lines: PriceLine[] = [];
        for (const [position, row] of rows.entries()) {
          const item = toLineItem(row, position);
          if (!visible.has(item.productId!)) continue;
          const rate = taxRateOf(row.taxLines);
          const unitNet = netOf(Number(row.listPrice), readBool(row.listPriceIncludesTax), rate);
          lines.push(
            pricedLine(item, row.sku, {
              unitNet,
              totalNet: unitNet * item.quantity,
              taxRateBp: Math.round(rate * 100),
            }),
          );
        }
        return { lines, ...totalsOf(lines) };
      },
      priceLines: (executor, ctx, items) => priceGivenLines(state, executor, ctx, items),
    },
  };
}

/**
 * `cart.priceLines` (contract 4.4): lines no Vendure order holds (a recurring order's items), priced
 * as Vendure would price them for the context — the products the context may see (others left out),
 * at the price providers' prices or the variant's list price, net (catalog.ts `calculateMany`, which
 * follows the channel's `pricesIncludeTax` as the price strategy does).
 */
async function priceGivenLines(
  state: AdapterState,
  executor: Executor,
  ctx: StoreContext,
  items: CartLineItem[],
): Promise<{ lines: PriceLine[]; netTotal: number; taxTotal: number; total: number }> {
  const productIds = items.flatMap((item) => (item.productId ? [item.productId] : []));
  const products = new Map(
    (await state.runtime.catalog.visibleProducts(executor, ctx, productIds)).map((p) => [p.id, p]),
  );
  const { lines } = await priceLineItems(items, products, (buyable) =>
    state.runtime.prices.calculateMany(executor, ctx, buyable),
  );
  return { lines, ...totalsOf(lines) };
}
