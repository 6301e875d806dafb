import type { HostRuntime, ProductRecord, StoreContext } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { fromMinor, toMinor } from '../../lib/money.js';
import { declaredCustomer } from '../declared.js';
import { addToCart } from '../fast-order/index.js';
import { ProductListService } from '../product-list/index.js';
import { isAllowed, nearestAllowed, storeRules, type QuantityRule } from '../quantity-rule/index.js';
import type { LineChange } from './schemas.js';

export interface LineAnswer {
  lineItemId: string;
  productId: string | null;
  productNumber: string | null;
  label: string;
  orderedQuantity: number;
  quantity: number;
  orderedUnitPrice: number;
  unitPrice: number | null;
  added: boolean;
  changes: LineChange[];
  error: { code: string; detail: string; meta?: Record<string, unknown> } | null;
}

/**
 * The order as the caller may read it: the customer's, and only their own without orders.read-all
 * (as the host's order routes); anything else is a 404.
 */
async function readableOrder(host: HostRuntime, ctx: StoreContext, orderId: string) {
  const customer = declaredCustomer(ctx);
  if (!(await host.orders.belongsTo(host.db, orderId, customer.id))) throw Errors.notFound('Order', orderId);
  const order = await host.orders.get(host.db, orderId);
  if (!order) throw Errors.notFound('Order', orderId);
  const { placedBy } = order;
  if (!ctx.can('orders.read-all') && (placedBy.type !== ctx.actor.type || placedBy.id !== (ctx.actor.id ?? null)))
    throw Errors.notFound('Order', orderId);
  return order;
}

/** The allowed quantity nearest the ordered one: the next one up, else the highest (null: none). */
function allowedQuantity(rule: QuantityRule, quantity: number): number | null {
  if (isAllowed(rule, quantity)) return quantity;
  const near = nearestAllowed(rule, quantity);
  return near.find((q) => q >= quantity) ?? near.at(-1) ?? null;
}

/**
 * Puts the product lines of an order again into the cart or a product list, with today's
 * visibility, prices and quantity rules, and says per line what changed.
 */
export async function orderAgain(
  host: HostRuntime,
  lists: ProductListService,
  ctx: StoreContext,
  orderId: string,
  target: { to: 'cart' } | { to: 'product-list'; listId: string },
) {
  const order = await readableOrder(host, ctx, orderId);
  const lines = order.lineItems.filter((line) => line.productId);
  const ids = lines.map((line) => line.productId!);
  const products = new Map<string, ProductRecord>(
    (await host.catalog.visibleProducts(host.db, ctx, ids)).map((p) => [p.id, p]),
  );
  const rules = new Map((await storeRules(host, ctx, ids)).map((rule) => [rule.productId, rule]));
  const precision = ctx.salesChannel.currencyPrecision;

  const answers: LineAnswer[] = lines.map((line) => ({
    lineItemId: line.id,
    productId: line.productId,
    productNumber: line.productNumber,
    label: line.label,
    orderedQuantity: line.quantity,
    quantity: 0,
    orderedUnitPrice: fromMinor(line.unitNet, order.currency.precision),
    unitPrice: null,
    added: false,
    changes: [],
    error: null,
  }));
  const toAdd: Array<{ answer: LineAnswer; product: ProductRecord }> = [];
  for (const answer of answers) {
    const product = products.get(answer.productId!);
    const rule = rules.get(answer.productId!);
    if (!product || !rule) {
      answer.changes.push('not-visible');
      continue;
    }
    const quantity = allowedQuantity(rule, answer.orderedQuantity);
    if (quantity === null) {
      answer.changes.push('not-visible');
      continue;
    }
    if (quantity !== answer.orderedQuantity) answer.changes.push('quantity-adjusted');
    answer.quantity = quantity;
    if (product.stock < quantity) {
      answer.changes.push('out-of-stock');
      answer.quantity = 0;
      continue;
    }
    toAdd.push({ answer, product });
  }
  const prices = await host.prices.calculateMany(
    host.db,
    ctx,
    toAdd.map(({ answer, product }) => ({ product, quantity: answer.quantity })),
  );
  toAdd.forEach(({ answer }, index) => {
    const unitNet = prices[index]!.unitNet;
    answer.unitPrice = fromMinor(unitNet, precision);
    if (unitNet !== toMinor(answer.orderedUnitPrice, precision)) answer.changes.push('price-changed');
  });

  if (toAdd.length > 0) {
    if (target.to === 'cart') {
      const result = await addToCart(
        host,
        ctx,
        toAdd.map(({ answer }) => ({ productId: answer.productId!, quantity: answer.quantity })),
      );
      for (const item of result.items) {
        const answer = toAdd[item.index]!.answer;
        answer.added = item.added;
        answer.error = item.error;
        if (!item.added) answer.quantity = 0;
      }
    } else {
      await lists.add(
        ctx,
        target.listId,
        toAdd.map(({ answer }) => ({ productId: answer.productId!, quantity: answer.quantity })),
      );
      for (const { answer } of toAdd) answer.added = true;
    }
  }
  const added = answers.filter((a) => a.added).length;
  return {
    success: added === answers.length && answers.every((a) => a.changes.length === 0),
    target: target.to,
    added,
    lines: answers,
  };
}
