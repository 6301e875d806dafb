import { LRUCache } from 'lru-cache';
import { Errors } from '../../lib/errors.js';
import {
  dialectOf,
  fixedRead,
  forUpdate,
  inTransaction,
  readInt,
  readJson,
  selectRows,
  transactionOf,
  writeJson,
  type Executor,
  type Trx,
} from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { totalsOf, type Totals } from '../../lib/line-items.js';
import { nowDb, nowMs, toDbTime } from '../../lib/time.js';
import type {
  Cart,
  CartLineItem,
  LineItemProcessOptions,
  PriceLine,
  ProductRecord,
  StoreContext,
} from '../../contract/index.js';
import type { HostInternals } from '../internals.js';
import type { CatalogModule } from '../catalog/index.js';
import { calculatePrices } from '../catalog/prices.js';
import type { CartLineRow, CartRow } from './rows.js';
import { sessionCartTokenOf } from './session-cart.js';
import { CART_LIMITS, checkQuantity, notAvailable, outOfStock, requireCustomer } from '../../host-kit/cart-rules.js';
import { priceLineItems, processLineItem } from '../../host-kit/checkout-kernel.js';

export { CART_LIMITS, checkQuantity, notAvailable, outOfStock, requireCustomer } from '../../host-kit/cart-rules.js';

/**
 * A cart's updated_at only orders a customer's open carts (the newest is found again on the next
 * login), so a write within this many milliseconds of the last touch leaves the cart row alone.
 */
const CART_TOUCH_EVERY_MS = 60_000;

export interface NewLineItem {
  type?: string;
  productId: string;
  quantity: number;
  payload?: Record<string, unknown>;
}

export interface LineItemChange {
  id: string;
  quantity?: number;
  payload?: Record<string, unknown>;
}

export interface PricedCart extends Totals {
  lines: PriceLine[];
  /** Lines whose product the context can no longer buy (hidden, inactive or deleted). */
  unavailable: CartLineItem[];
}

/** JSON with sorted keys: two payloads are the same line when this matches. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

/** The columns of a line that `toLineItem` reads. */
export const LINE_COLUMNS = ['id', 'type', 'product_id', 'label', 'quantity', 'payload', 'position'] as const;
export type LineColumns = Pick<CartLineRow, (typeof LINE_COLUMNS)[number]>;

type LockedCartRow = LineColumns & {
  c_token: string;
  c_order_id: string | null;
  c_customer_id: string | null;
  c_sales_channel_id: string;
  c_updated_at: string | null;
};

/** The cart row locked (PostgreSQL's first step of lockWithLines). */
const lockedCart = fixedRead((executor: Executor, token: string) =>
  executor('carts').where('token', token).forUpdate().select('token'),
);

/** A cart row and its lines (a left join: a cart without lines is one row of nulls), the cart row locked. */
const lockedCartWithLines = fixedRead((executor: Executor, token: string) =>
  forUpdate(
    executor('carts as c')
      .leftJoin('cart_line_items as l', 'l.cart_token', 'c.token')
      .where('c.token', token)
      .orderBy('l.position')
      .orderBy('l.id')
      .select(
        'c.token as c_token',
        'c.order_id as c_order_id',
        'c.customer_id as c_customer_id',
        'c.sales_channel_id as c_sales_channel_id',
        'c.updated_at as c_updated_at',
        ...LINE_COLUMNS.map((column) => `l.${column}`),
      ),
    executor,
    'c',
  ),
);

export function toLineItem(row: LineColumns): CartLineItem {
  return {
    id: row.id,
    type: row.type,
    productId: row.product_id ?? null,
    label: row.label,
    quantity: readInt(row.quantity),
    payload: readJson<Record<string, unknown>>(row.payload, {}),
    position: readInt(row.position),
  };
}

/** Whether a line would be stored as it is (a line not touched keeps its payload object). */
function sameLine(a: CartLineItem, b: CartLineItem): boolean {
  return (
    a.type === b.type &&
    a.productId === b.productId &&
    a.label === b.label &&
    a.quantity === b.quantity &&
    a.position === b.position &&
    (a.payload === b.payload || canonicalJson(a.payload) === canonicalJson(b.payload))
  );
}

/** The columns of a line's row that differ from the line as it was read (most adds change the quantity only). */
function changedColumns(
  previous: CartLineItem,
  row: {
    type: string;
    product_id: string | null;
    label: string;
    quantity: number;
    payload: string | null;
    position: number;
  },
): Partial<typeof row> {
  const changed: Partial<typeof row> = {};
  if (row.type !== previous.type) changed.type = row.type;
  if (row.product_id !== previous.productId) changed.product_id = row.product_id;
  if (row.label !== previous.label) changed.label = row.label;
  if (row.quantity !== previous.quantity) changed.quantity = row.quantity;
  if (row.payload !== writeJson(previous.payload)) changed.payload = row.payload;
  if (row.position !== previous.position) changed.position = row.position;
  return changed;
}

function productIdsOf(lines: CartLineItem[]): string[] {
  return lines.map((line) => line.productId).filter((id): id is string => !!id);
}

/** Carts are stored by token; a session points at its cart, a cart belongs to one actor of one customer. */
export class CartService {
  /**
   * The products (visible to the writing context) of every line of a cart a write returned, read
   * in the write's transaction under the cart lock: `price` of that cart reads them no second time.
   */
  private readonly productsOfWrite = new WeakMap<Cart, Map<string, ProductRecord>>();

  /**
   * Per session, the cart token this process last resolved or switched it to. Like the token read
   * with the session (`sessionCartTokenOf`), only a first guess checked under the cart's lock: the
   * session cache keeps the token its session was read with, which a cart switch does not refresh
   * (a new session's first add, a cart cleared and started again), so that guess alone misses.
   */
  private readonly cartTokenOfSession = new LRUCache<string, string>({ max: 20000 });

  /** A cart's updated_at as read under its lock (for `saveLines`). */
  private readonly updatedAtOfLocked = new WeakMap<Cart, string | null>();

  constructor(
    private readonly internals: HostInternals,
    private readonly visibleProductsInReadTransaction: CatalogModule['visibleProductsInReadTransaction'],
  ) {}

  private get runtime() {
    return this.internals.runtime;
  }

  async load(executor: Executor, token: string): Promise<Cart | null> {
    const row = await executor<CartRow>('carts').where({ token }).first('token', 'customer_id', 'sales_channel_id');
    return row ? this.withLines(executor, row) : null;
  }

  /** The cart of a row already read, with its lines. */
  private async withLines(
    executor: Executor,
    row: Pick<CartRow, 'token' | 'customer_id' | 'sales_channel_id'>,
  ): Promise<Cart> {
    const lines = await selectRows<LineColumns>(
      executor('cart_line_items')
        .where({ cart_token: row.token })
        .orderBy('position')
        .orderBy('id')
        .select(...LINE_COLUMNS),
    );
    return {
      token: row.token,
      customerId: row.customer_id ?? null,
      salesChannelId: row.sales_channel_id,
      lineItems: lines.map(toLineItem),
    };
  }

  /**
   * The cart row with its lines in one read (a left join: a cart without lines is one row of
   * nulls), the row locked for the rest of the transaction as `lockRow` locks it.
   */
  private async lockWithLines(
    trx: Trx,
    token: string,
  ): Promise<{ cart: Cart; orderId: string | null; customerId: string | null } | null> {
    // PostgreSQL: a locking read that waited for the lock sees the locked row's new version but the joined
    // lines as of its start (READ COMMITTED takes one snapshot per statement): lock first, then read in a
    // statement of its own. MySQL/MariaDB's locking read reads the latest committed lines itself.
    if (dialectOf(trx) === 'postgres') await lockedCart(trx, token);
    const rows = await lockedCartWithLines<LockedCartRow>(trx, token);
    const first = rows[0];
    if (!first) return null;
    const lineItems = rows.filter((row) => row.id !== null && row.id !== undefined).map(toLineItem);
    const cart: Cart = {
      token: first.c_token,
      customerId: first.c_customer_id ?? null,
      salesChannelId: first.c_sales_channel_id,
      lineItems,
    };
    this.updatedAtOfLocked.set(cart, first.c_updated_at ?? null);
    return { cart, orderId: first.c_order_id ?? null, customerId: first.c_customer_id ?? null };
  }

  /** The cart row, locked for the rest of the transaction (MySQL/MariaDB; SQLite's writing transaction holds the database). */
  private lockRow(trx: Trx, token: string) {
    return forUpdate(
      trx<CartRow>('carts')
        .where({ token })
        .first('token', 'order_id', 'customer_id', 'sales_channel_id', 'updated_at'),
      trx,
    );
  }

  /** The token the session points at (open or already ordered), without creating anything. */
  async sessionCartToken(executor: Executor, ctx: StoreContext): Promise<string | null> {
    if (!ctx.sessionId) return null;
    const session = await executor<{ id: string; cart_token: string | null }>('sessions')
      .where({ id: ctx.sessionId })
      .first('cart_token');
    return session?.cart_token ?? null;
  }

  /**
   * The token of the context's open cart: the session's, else the actor's newest open cart (a new
   * login finds its cart again), else a new one. The session is switched by a conditional write.
   */
  async ensureCartToken(ctx: StoreContext, executor: Executor, attempt = 0): Promise<string> {
    const customer = requireCustomer(ctx);
    if (!ctx.sessionId) throw Errors.unauthorized();
    const known = await this.sessionCartToken(executor, ctx);
    if (known) {
      const cart = await executor<CartRow>('carts').where({ token: known }).first('order_id', 'customer_id');
      if (cart && !cart.order_id && cart.customer_id === customer.id) {
        this.cartTokenOfSession.set(ctx.sessionId, known);
        return known;
      }
    }
    const owner = { customer_id: customer.id, actor_type: ctx.actor.type, actor_id: ctx.actor.id };
    const restored = await executor<CartRow>('carts')
      .where(owner)
      .whereNull('order_id')
      .orderBy('updated_at', 'desc')
      .first('token');
    const token: string = restored?.token ?? newId();
    if (!restored) {
      const now = nowDb();
      await executor('carts').insert({
        token,
        sales_channel_id: ctx.salesChannel.id,
        ...owner,
        created_at: now,
        updated_at: now,
      });
    }
    const swap = executor('sessions').where({ id: ctx.sessionId });
    if (known) swap.where({ cart_token: known });
    else swap.whereNull('cart_token');
    if ((await swap.update({ cart_token: token })) === 1) {
      this.cartTokenOfSession.set(ctx.sessionId, token);
      return token;
    }
    // Another request of this session switched it first: use what it chose.
    if (!restored) await executor('carts').where({ token }).delete();
    if (attempt >= 3) throw Errors.conflict();
    return this.ensureCartToken(ctx, executor, attempt + 1);
  }

  async current(ctx: StoreContext, executor: Executor = this.internals.db): Promise<Cart> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const cart = await this.load(executor, await this.ensureCartToken(ctx, executor));
      if (cart) return cart;
    }
    throw Errors.conflict();
  }

  /** The open cart, locked for the rest of the transaction and read after the lock. */
  async lockCurrent(ctx: StoreContext, trx: Trx): Promise<Cart> {
    const customer = requireCustomer(ctx);
    // The token this process last knew for the session, else the one read with the session for this
    // request's context: when its cart is, under the lock, open and the customer's, it is the cart
    // (one read of the row and its lines); else as below.
    const remembered = ctx.sessionId
      ? (this.cartTokenOfSession.get(ctx.sessionId) ?? sessionCartTokenOf(ctx))
      : undefined;
    if (remembered) {
      const locked = await this.lockWithLines(trx, remembered);
      if (locked && !locked.orderId && locked.customerId === customer.id) return locked.cart;
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      const token = await this.ensureCartToken(ctx, trx);
      const row = await this.lockRow(trx, token);
      if (row && !row.order_id) {
        const cart = await this.withLines(trx, row);
        this.updatedAtOfLocked.set(cart, row.updated_at ? String(row.updated_at) : null);
        return cart;
      }
    }
    throw Errors.conflict();
  }

  /** Runs every line-item processor (the checkout kernel's one loop): they may change label, quantity and payload, never identity. */
  process(
    ctx: StoreContext,
    item: CartLineItem,
    phase: 'add' | 'order',
    executor: Executor,
    options?: LineItemProcessOptions,
  ): Promise<CartLineItem> {
    return processLineItem(this.internals.registries, executor, ctx, item, phase, options);
  }

  /**
   * Adds items to the context's cart: inside `executor` when it is a transaction (the caller's writes
   * seen, its rollback undoing the add), else in a transaction of its own (retried on contention).
   */
  async addLineItems(
    executor: Executor,
    ctx: StoreContext,
    items: NewLineItem[],
    pointerPrefix = '/items',
  ): Promise<Cart> {
    requireCustomer(ctx);
    const open = transactionOf(executor);
    if (open) return this.addInto(open, ctx, items, pointerPrefix);
    // Rules are read on the root connection; read them before holding locks (SQLite has one connection).
    await ctx.ruleIds();
    return inTransaction(this.internals.db, (trx) => this.addInto(trx, ctx, items, pointerPrefix));
  }

  private async addInto(trx: Trx, ctx: StoreContext, items: NewLineItem[], pointerPrefix: string): Promise<Cart> {
    const cart = await this.lockCurrent(ctx, trx);
    // The added products and those of the cart's lines (the answer prices every line).
    const all = await this.visibleById(
      ctx,
      [...items.map((i) => i.productId), ...productIdsOf(cart.lineItems)],
      trx,
      true,
    );
    const added = new Set(items.map((i) => i.productId));
    const byId = new Map([...all].filter(([id]) => added.has(id)));
    const lines = cart.lineItems.map((line) => ({ ...line }));
    let position = lines.reduce((max, line) => Math.max(max, line.position + 1), 0);
    // Lines added as a part (they may be joined by a later item) and not yet processed as the line they became.
    const unfinished = new Set<string>();
    for (const [index, item] of items.entries()) {
      const product = byId.get(item.productId);
      if (!product) throw notAvailable(item.productId, `${pointerPrefix}/${index}`);
      checkQuantity(item.quantity, `${pointerPrefix}/${index}/quantity`);
      const type = item.type ?? 'product';
      // The item is only a part of its line when a line or a later item of its product may join it:
      // the line's own checks (a quantity rule's minimum and step) then wait for the merged line.
      const partial =
        lines.some((line) => line.type === type && line.productId === product.id) ||
        items.slice(index + 1).some((later) => (later.type ?? 'product') === type && later.productId === product.id);
      const candidate = await this.process(
        ctx,
        {
          id: newId(),
          type,
          productId: product.id,
          label: product.name,
          quantity: item.quantity,
          payload: item.payload ?? {},
          position,
        },
        'add',
        trx,
        partial ? { partial: true } : undefined,
      );
      const same = lines.findIndex(
        (line) =>
          line.type === candidate.type &&
          line.productId === candidate.productId &&
          canonicalJson(line.payload) === canonicalJson(candidate.payload),
      );
      if (same >= 0) {
        const merged = { ...lines[same]!, quantity: lines[same]!.quantity + item.quantity };
        checkQuantity(merged.quantity, `${pointerPrefix}/${index}/quantity`);
        lines[same] = await this.process(ctx, merged, 'add', trx);
        unfinished.delete(merged.id);
      } else {
        lines.push(candidate);
        if (partial) unfinished.add(candidate.id);
        position++;
      }
    }
    for (const [at, line] of lines.entries())
      if (unfinished.has(line.id)) lines[at] = await this.process(ctx, line, 'add', trx);
    this.checkLimits(lines, byId, pointerPrefix);
    return this.remember(await this.saveLines(trx, cart, lines), all);
  }

  async updateLineItems(ctx: StoreContext, changes: LineItemChange[]): Promise<Cart> {
    requireCustomer(ctx);
    await ctx.ruleIds();
    return inTransaction(this.internals.db, async (trx) => {
      const cart = await this.lockCurrent(ctx, trx);
      const lines = cart.lineItems.map((line) => ({ ...line }));
      for (const [index, change] of changes.entries()) {
        const at = lines.findIndex((line) => line.id === change.id);
        if (at < 0) throw Errors.notFound('Line item', change.id);
        const updated = {
          ...lines[at]!,
          quantity: change.quantity ?? lines[at]!.quantity,
          payload: change.payload ?? lines[at]!.payload,
        };
        checkQuantity(updated.quantity, `/items/${index}/quantity`);
        lines[at] = await this.process(ctx, updated, 'add', trx);
      }
      const touched = lines.filter((line) => changes.some((c) => c.id === line.id));
      // Processors keep a line's product, so the lines' products read with the cart are these.
      const all = await this.visibleById(ctx, productIdsOf(lines), trx, true);
      const wanted = new Set(productIdsOf(touched));
      const byId = new Map([...all].filter(([id]) => wanted.has(id)));
      for (const line of touched) {
        if (line.productId && !byId.has(line.productId))
          throw notAvailable(line.productId, `/items/${changes.findIndex((c) => c.id === line.id)}`);
      }
      this.checkLimits(lines, byId, '/items');
      return this.remember(await this.saveLines(trx, cart, lines), all);
    });
  }

  async removeLineItems(ctx: StoreContext, ids: string[]): Promise<Cart> {
    requireCustomer(ctx);
    return inTransaction(this.internals.db, async (trx) => {
      const cart = await this.lockCurrent(ctx, trx);
      const present = new Set(cart.lineItems.map((line) => line.id));
      const missing = ids.find((id) => !present.has(id));
      if (missing) throw Errors.notFound('Line item', missing);
      await trx('cart_line_items').where({ cart_token: cart.token }).whereIn('id', ids).delete();
      await trx('carts').where({ token: cart.token }).update({ updated_at: nowDb() });
      return (await this.load(trx, cart.token))!;
    });
  }

  /** Deletes the actor's open carts; the next use starts an empty one. */
  async clear(ctx: StoreContext): Promise<void> {
    const customer = requireCustomer(ctx);
    await inTransaction(this.internals.db, async (trx) => {
      const known = await this.sessionCartToken(trx, ctx);
      const doomed = trx('carts')
        .whereNull('order_id')
        .where((q) => {
          q.where({ customer_id: customer.id, actor_type: ctx.actor.type, actor_id: ctx.actor.id });
          if (known)
            q.orWhere((k) => {
              k.where({ token: known, customer_id: customer.id });
            });
        });
      await doomed.delete();
      if (ctx.sessionId) {
        await trx('sessions').where({ id: ctx.sessionId }).update({ cart_token: null });
        this.cartTokenOfSession.delete(ctx.sessionId);
      }
    });
  }

  /** Prices the lines the context may still buy; the others are listed as unavailable. */
  async price(ctx: StoreContext, cart: Cart, executor: Executor = this.internals.db): Promise<PricedCart> {
    const ofWrite = this.productsOfWrite.get(cart);
    const products = ofWrite ?? (await this.visibleById(ctx, productIdsOf(cart.lineItems), executor));
    const priced = await this.priceLines(ctx, cart.lineItems, products, executor);
    return { ...priced, ...totalsOf(priced.lines) };
  }

  /**
   * The products of `ids` the context may see, by id, each with its tier prices. `inCartWrite`: the
   * caller is a cart write's transaction, which writes no product, so the records kept per process at
   * the request's products version serve it there too (any other transaction reads them).
   */
  private async visibleById(
    ctx: StoreContext,
    ids: string[],
    executor: Executor,
    inCartWrite = false,
  ): Promise<Map<string, ProductRecord>> {
    const products = inCartWrite
      ? await this.visibleProductsInReadTransaction(executor, ctx, ids)
      : await this.runtime.catalog.visibleProducts(executor, ctx, ids);
    return new Map(products.map((p) => [p.id, p]));
  }

  private remember(cart: Cart, products: Map<string, ProductRecord>): Cart {
    this.productsOfWrite.set(cart, products);
    return cart;
  }

  priceLines(
    ctx: StoreContext,
    items: CartLineItem[],
    products: Map<string, ProductRecord>,
    executor: Executor,
  ): Promise<{ lines: PriceLine[]; unavailable: CartLineItem[] }> {
    return priceLineItems(items, products, (buyable) =>
      calculatePrices(this.internals.registries.priceProviders, ctx, buyable, executor),
    );
  }

  private checkLimits(lines: CartLineItem[], products: Map<string, ProductRecord>, pointerPrefix: string): void {
    if (lines.length > CART_LIMITS.maxLines)
      throw Errors.badRequest('SUITE__CART_FULL', `A cart holds at most ${CART_LIMITS.maxLines} lines.`, {
        pointer: pointerPrefix,
      });
    const wanted = new Map<string, number>();
    for (const line of lines)
      if (line.productId) wanted.set(line.productId, (wanted.get(line.productId) ?? 0) + line.quantity);
    for (const [productId, quantity] of wanted) {
      const product = products.get(productId);
      if (product && quantity > product.stock) throw outOfStock(product, pointerPrefix);
    }
  }

  /**
   * Writes only the lines that changed (new lines in one multi-row insert) and answers the cart as
   * stored, built from what was read under the lock plus the change: the cost of an add grows with
   * the lines it changes, not with the cart (no second read of every line). The cart row itself is
   * touched at most once a minute (CART_TOUCH_EVERY_MS).
   */
  private async saveLines(trx: Trx, cart: Cart, lines: CartLineItem[]): Promise<Cart> {
    const before = new Map(cart.lineItems.map((line) => [line.id, line]));
    const now = nowDb();
    const stored: CartLineItem[] = [];
    const inserts: Array<Record<string, unknown>> = [];
    for (const line of lines) {
      const previous = before.get(line.id);
      if (previous && sameLine(previous, line)) {
        stored.push(previous);
        continue;
      }
      const row = {
        type: line.type,
        product_id: line.productId,
        label: line.label.slice(0, 255),
        quantity: line.quantity,
        payload: writeJson(line.payload),
        position: line.position,
      };
      stored.push({ ...line, label: row.label, payload: readJson<Record<string, unknown>>(row.payload, {}) });
      if (!previous) inserts.push({ id: line.id, cart_token: cart.token, ...row, created_at: now });
      else {
        // SQL text (the changed columns are a few fixed names, none of them reserved words): knex's building cost more than the statement.
        const changed = Object.entries({ ...changedColumns(previous, row), updated_at: now });
        await trx.raw(
          `update cart_line_items set ${changed.map(([column]) => `${column} = ?`).join(', ')} where id = ? and cart_token = ?`,
          [...changed.map(([, value]) => value), line.id, cart.token],
        );
      }
    }
    if (inserts.length) await trx('cart_line_items').insert(inserts);
    const touched = this.updatedAtOfLocked.get(cart);
    if (!touched || touched < toDbTime(nowMs() - CART_TOUCH_EVERY_MS))
      await trx('carts').where({ token: cart.token }).update({ updated_at: now });
    // The order load() reads: position, then id.
    stored.sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { ...cart, lineItems: stored };
  }
}
