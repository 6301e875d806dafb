import type {
  Injector,
  PriceCalculationResult,
  ProductVariant,
  ProductVariantPriceCalculationArgs,
  ProductVariantPriceCalculationStrategy,
  RequestContext,
} from '@vendure/core';
import type { ProductRecord, StoreContext } from '../../contract/index.js';
import type { AdapterState } from './state.js';

/**
 * Customer prices in Vendure: Vendure takes one ProductVariantPriceCalculationStrategy, so the
 * adapter wraps the configured one. For a Shop API request of a logged-in customer (or an employee
 * with a plugin context token) the plugin's price providers answer first, in their registration
 * order, for quantity 1; the first answer is the variant's price in the channel's terms (decision
 * 0032: net, or gross on a channel with `pricesIncludeTax`, as Vendure's own variant prices are), which
 * Vendure's default OrderItemPriceCalculationStrategy takes for order lines — so the price
 * shows in `product.variants.price` and in `activeOrder` lines. No answer: the wrapped strategy's.
 * Quantity-dependent prices (a customer price from a minimum quantity) apply to order lines through
 * `providerUnitNet` in SuiteB2BGivenPriceStrategy (place-order.ts), which asks for the line's quantity.
 */
export class SuiteB2BPriceStrategy implements ProductVariantPriceCalculationStrategy {
  constructor(
    private readonly inner: ProductVariantPriceCalculationStrategy,
    private readonly state: () => AdapterState | null,
    private readonly storeContextOf: (ctx: RequestContext) => Promise<StoreContext | null>,
  ) {}

  async init(injector: Injector): Promise<void> {
    await this.inner.init?.(injector);
  }

  async destroy(): Promise<void> {
    await this.inner.destroy?.();
  }

  async calculate(args: ProductVariantPriceCalculationArgs): Promise<PriceCalculationResult> {
    const base = await this.inner.calculate(args);
    const state = this.state();
    if (!state || state.registries.priceProviders.length === 0) return base;
    const ctx = await this.storeContextOf(args.ctx);
    if (!ctx?.customer) return base;
    const provided = await providerUnitNet(state, ctx, args.productVariant, args.inputPrice, 1);
    // In the channel's terms (decision 0032): a customer price on a channel whose prices include tax is gross.
    if (provided !== null) return { price: provided, priceIncludesTax: args.ctx.channel.pricesIncludeTax };
    return base;
  }
}

/**
 * The net unit price the plugin's price providers give `variant` for `quantity` in the plugin
 * context `ctx` (the first answer, in registration order), or null when none answers: the customer
 * prices with their minimum quantities (customer-prices.md). `listNet` is the variant's own price.
 * Both in the channel's terms: gross on a channel whose prices include tax (decision 0032).
 */
export async function providerUnitNet(
  state: AdapterState,
  ctx: StoreContext,
  variant: ProductVariant,
  listNet: number,
  quantity: number,
): Promise<number | null> {
  const product: ProductRecord = {
    id: state.ids.toPlugin(variant.id),
    versionId: '',
    productNumber: variant.sku,
    name: variant.name ?? variant.sku,
    description: null,
    stock: 0,
    active: variant.enabled !== false,
    taxRateBp: 0,
    priceNet: listNet,
    manufacturer: null,
    ean: null,
    categoryIds: [],
  };
  for (const provider of state.registries.priceProviders) {
    const provided = await provider(state.db, ctx, product, quantity);
    if (provided) return provided.unitNet;
  }
  return null;
}
