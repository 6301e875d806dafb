import { pricesWithheld } from '../closed-shop/index.js';
import {
  CART_LIMITS,
  type CartLineItem,
  type HostRuntime,
  type LineItemProcessor,
  type ProductExtension,
  type StoreContext,
} from '../../contract/index.js';
import type { Executor } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { fromMinor } from '../../lib/money.js';
import { deleteRule, ruleOf, rulesOf, saveRule, type StoredQuantityRule } from './repository.js';
import { defaultRule, isAllowed, quantityRefusal, type QuantityRule } from './rules.js';
import type { QuantityRuleCache } from './rule-cache.js';

export const QUANTITY_RULE_PROCESSOR = 'quantity-rule';

/** A quantity that enters somewhere (a cart line, an offer line, an approval line): its product, quantity and where it is in the request. */
export interface EnteredQuantity {
  productId: string | null;
  quantity: number;
  label: string;
  pointer?: string;
}

/**
 * Refuses the first quantity its product's rule does not admit (400 SUITE__QUANTITY_NOT_ALLOWED).
 * For the entry points that keep quantities in the plugin's own tables (offer lines, approval
 * lines); carts and orders are checked by the line-item processor. One read for all the lines.
 */
export async function assertAllowedQuantities(executor: Executor, entered: EnteredQuantity[]): Promise<void> {
  const rules = await rulesOf(
    executor,
    entered.flatMap((e) => (e.productId ? [e.productId] : [])),
  );
  for (const item of entered) {
    const rule = item.productId ? rules.get(item.productId) : undefined;
    if (rule && !isAllowed(rule, item.quantity)) throw quantityRefusal(rule, item.quantity, item.label, item.pointer);
  }
}

/**
 * The line-item processor: every quantity that enters a cart ('add': Store API cart, fast order,
 * lists to cart, the representative's fast order; on Vendure addItemToOrder / adjustOrderLine) and
 * every line of an order ('order': checkout of a cart whose line a newer rule refuses, approval
 * execute, offer accept, on both hosts) is checked against its product's rule, with the quantity
 * the line has after the add (an add to a line, or two items of a product, make one line) (kept per process
 * while the rules version stands: rule-cache.ts).
 */
export function quantityRuleProcessor(cache: QuantityRuleCache): LineItemProcessor {
  return {
    name: QUANTITY_RULE_PROCESSOR,
    async process(executor: Executor, ctx: StoreContext, item: CartLineItem, _phase, options): Promise<CartLineItem> {
      // A part of a line (contract 4.3): the host checks the line it joins with its new quantity.
      if (!item.productId || options?.partial) return item;
      const rule = await cache.ruleOf(ctx, executor, item.productId);
      if (rule && !isAllowed(rule, item.quantity)) throw quantityRefusal(rule, item.quantity, item.label);
      return item;
    },
  };
}

/** What an operator sends for a product's rule (absent fields take their defaults). */
export interface RuleInput {
  minQuantity?: number;
  maxQuantity?: number | null;
  step?: number;
  packSize?: number;
  priceUnit?: 'piece' | 'pack';
}

const invalid = (detail: string, pointer: string) =>
  Errors.badRequest('SUITE__QUANTITY_RULE_INVALID', detail, { pointer });

/** The rule an input makes: defaults filled in (a pack product's minimum and step are one pack), consistency checked. */
export function ruleFromInput(productId: string, input: RuleInput): QuantityRule {
  const packSize = input.packSize ?? 1;
  const rule: QuantityRule = {
    productId,
    packSize,
    minQuantity: input.minQuantity ?? packSize,
    step: input.step ?? packSize,
    maxQuantity: input.maxQuantity ?? null,
    priceUnit: input.priceUnit ?? 'piece',
  };
  for (const field of ['minQuantity', 'step', 'maxQuantity'] as const) {
    const value = rule[field];
    if (value !== null && value % packSize !== 0)
      throw invalid(
        `${field} (${value}) must be a multiple of the pack size ${packSize}: quantities count pieces, sold in whole packs.`,
        `/${field}`,
      );
  }
  if (rule.minQuantity > CART_LIMITS.maxLineQuantity)
    throw invalid(`minQuantity may be at most ${CART_LIMITS.maxLineQuantity}, a cart line's limit.`, '/minQuantity');
  if (rule.maxQuantity !== null && rule.maxQuantity < rule.minQuantity)
    throw invalid('maxQuantity must not be below minQuantity.', '/maxQuantity');
  if (rule.priceUnit === 'pack' && packSize < 2)
    throw invalid('A price per pack needs a pack size of 2 or more.', '/priceUnit');
  return rule;
}

export async function setRule(
  host: HostRuntime,
  productId: string,
  input: RuleInput,
): Promise<{ rule: StoredQuantityRule; created: boolean }> {
  if ((await host.catalog.products(host.db, [productId])).length === 0) throw Errors.notFound('Product', productId);
  const created = await saveRule(host.db, ruleFromInput(productId, input));
  return { rule: (await ruleOf(host.db, productId))!, created };
}

export async function removeRule(host: HostRuntime, productId: string): Promise<void> {
  if (!(await deleteRule(host.db, productId))) throw Errors.notFound('Quantity rule', productId);
}

/** A rule as the Store API answers it, with the price a buyer is quoted for one piece and one pack (net, currency units). */
export interface StoreRuleView {
  productId: string;
  minQuantity: number;
  maxQuantity: number | null;
  step: number;
  packSize: number;
  priceUnit: 'piece' | 'pack';
  custom: boolean;
  /** Absent for a guest of a closed shop (prices withheld). */
  unitPrice?: number;
  packPrice?: number;
}

/** The rules of the products the caller may see (the default rule for those without one), in the order asked; others are absent. */
export async function storeRules(host: HostRuntime, ctx: StoreContext, productIds: string[]): Promise<StoreRuleView[]> {
  const products = await host.catalog.visibleProducts(host.db, ctx, [...new Set(productIds)]);
  const byId = new Map(products.map((p) => [p.id, p]));
  const visible = [...new Set(productIds)].filter((id) => byId.has(id));
  const rules = await rulesOf(host.db, visible);
  const effective = visible.map((id) => rules.get(id) ?? defaultRule(id));
  const withheld = await pricesWithheld(host, ctx);
  const prices = withheld
    ? []
    : await host.prices.calculateMany(
        host.db,
        ctx,
        effective.map((rule) => ({ product: byId.get(rule.productId)!, quantity: rule.minQuantity })),
      );
  const precision = ctx.salesChannel.currencyPrecision;
  return effective.map((rule, index) => ({
    productId: rule.productId,
    minQuantity: rule.minQuantity,
    maxQuantity: rule.maxQuantity,
    step: rule.step,
    packSize: rule.packSize,
    priceUnit: rule.priceUnit,
    custom: rules.has(rule.productId),
    ...(withheld
      ? {}
      : {
          unitPrice: fromMinor(prices[index]!.unitNet, precision),
          packPrice: fromMinor(prices[index]!.unitNet * rule.packSize, precision),
        }),
  }));
}

/**
 * The rule in the hosts' own product answers (contract 3.5): `extensions.quantityRule` of the Store
 * API product detail, `suiteExtensions.quantityRule` of Vendure's ProductVariant; the default rule
 * (custom false) for products without one, so a theme always finds what to build its picker from.
 */
export const quantityRuleExtension: ProductExtension = {
  name: 'quantityRule',
  async load(executor, _ctx, productIds) {
    const rules = await rulesOf(executor, productIds);
    return new Map(
      productIds.map((id) => {
        const { minQuantity, maxQuantity, step, packSize, priceUnit } = rules.get(id) ?? defaultRule(id);
        return [id, { minQuantity, maxQuantity, step, packSize, priceUnit, custom: rules.has(id) }];
      }),
    );
  },
};
