import 'reflect-metadata';
import { Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { Ctx, type ProductVariant, type RequestContext } from '@vendure/core';
import { parse } from 'graphql';
import type { StoreContext } from '../../contract/index.js';
import type { AdapterState } from './state.js';

/**
 * Contract 3.5's product extensions in Vendure's Shop API: `ProductVariant.suiteExtensions` (JSON)
 * holds what the plugin adds to a product, keyed by the extension's name (e.g. `quantityRule`, so a
 * storefront builds its quantity picker from the variant it shows). A plugin product is a Vendure
 * variant, so the values are per variant. Computed per request for the caller (a field resolver),
 * not stored in custom fields: the plugin's tables stay the one place the values live.
 */
export const PRODUCT_EXTENSIONS_SCHEMA = parse(`
  extend type ProductVariant {
    "Suite B2B: what the plugin adds to this product, keyed by name (quantityRule: minQuantity, maxQuantity, step, packSize, priceUnit, custom)."
    suiteExtensions: JSON
  }
`);

/** The adapter state and the request's plugin context of the latest configuration (see plugin.ts: one Nest module graph per process). */
let active: {
  state: () => AdapterState | null;
  contextOf: (ctx: RequestContext) => Promise<StoreContext | null>;
} | null = null;

export function productExtensions(
  state: () => AdapterState | null,
  contextOf: (ctx: RequestContext) => Promise<StoreContext | null>,
): void {
  active = { state, contextOf };
}

class SuiteB2BVariantExtensionsResolver {
  async suiteExtensions(ctx: RequestContext, variant: ProductVariant): Promise<Record<string, unknown> | null> {
    const s = active?.state();
    if (!s || s.registries.productExtensions.length === 0) return null;
    const storeCtx = await active!.contextOf(ctx);
    if (!storeCtx) return null;
    const productId = s.ids.toPlugin(variant.id);
    const values: Record<string, unknown> = {};
    for (const extension of s.registries.productExtensions) {
      const value = (await extension.load(s.db, storeCtx, [productId])).get(productId);
      if (value) values[extension.name] = value;
    }
    return values;
  }
}

// Decorators applied as functions (tsx/esbuild emit no decorator metadata; see plugin.ts).
const descriptor = Object.getOwnPropertyDescriptor(SuiteB2BVariantExtensionsResolver.prototype, 'suiteExtensions')!;
Ctx()(SuiteB2BVariantExtensionsResolver.prototype, 'suiteExtensions', 0);
Parent()(SuiteB2BVariantExtensionsResolver.prototype, 'suiteExtensions', 1);
ResolveField()(SuiteB2BVariantExtensionsResolver.prototype, 'suiteExtensions', descriptor);
Resolver('ProductVariant')(SuiteB2BVariantExtensionsResolver);

export const PRODUCT_EXTENSION_RESOLVERS = [SuiteB2BVariantExtensionsResolver];
