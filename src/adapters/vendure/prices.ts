import type {
  Injector,
  PriceCalculationResult,
  ProductVariantPriceCalculationArgs,
  ProductVariantPriceCalculationStrategy,
  RequestContext,
} from '@vendure/core';
import type { ProductRecord, StoreContext } from '../../host/contract.js';
import type { AdapterState } from './state.js';

/**
 * Customer prices in Vendure: Vendure takes one ProductVariantPriceCalculationStrategy, so the
 * adapter wraps the configured one. For a Shop API request of a logged-in customer (or an employee
 * with a plugin context token) the plugin's price providers answer first, in their registration
 * order, for quantity 1; the first answer is the variant's net price (`priceIncludesTax: false`),
 * which Vendure's default OrderItemPriceCalculationStrategy takes for order lines — so the price
 * shows in `product.variants.price` and in `activeOrder` lines. No answer: the wrapped strategy's.
 * Quantity-dependent prices (minQuantity > 1) need an OrderItemPriceCalculationStrategy: to do.
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
    const variant = args.productVariant;
    const product: ProductRecord = {
      id: state.ids.toPlugin(variant.id),
      versionId: '',
      productNumber: variant.sku,
      name: variant.name ?? variant.sku,
      description: null,
      stock: 0,
      active: variant.enabled !== false,
      taxRateBp: 0,
      priceNet: args.inputPrice,
      manufacturer: null,
      ean: null,
      categoryIds: [],
    };
    for (const provider of state.registries.priceProviders) {
      const provided = await provider(ctx, product, 1, state.db);
      if (provided) return { price: provided.unitNet, priceIncludesTax: false };
    }
    return base;
  }
}
