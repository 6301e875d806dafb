import type { OrderInterceptor, RequestContext } from '@vendure/core';
import type { StoreContext } from '../../contract/index.js';
import { priceRefusal } from '../../lib/price-providers.js';
import { refusalText } from './participants.js';
import type { AdapterState } from './state.js';

/**
 * Contract 3.6's price gates on Vendure's Shop API: a context a gate withholds prices from (a closed
 * shop's guest) cannot fill a cart — `addItemToOrder` and `adjustOrderLine` answer an
 * OrderInterceptorError whose `interceptorError` starts with the gate's code
 * (`SUITE__LOGIN_REQUIRED: …`). Vendure's own price fields (`ProductVariant.price`, `priceWithTax`)
 * still answer: hiding them is the storefront theme's part on this host (docs/closed-shop.md).
 */
export function priceGateInterceptor(
  state: () => AdapterState | null,
  storeContextOf: (ctx: RequestContext) => Promise<StoreContext | null>,
): OrderInterceptor {
  async function check(ctx: RequestContext): Promise<string | void> {
    const s = state();
    if (!s || s.registries.priceGates.length === 0) return;
    const storeCtx = await storeContextOf(ctx);
    if (!storeCtx) return;
    const refusal = await priceRefusal(s.registries.priceGates, s.db, storeCtx);
    if (refusal) return refusalText(refusal);
  }
  return {
    willAddItemToOrder: (ctx) => check(ctx),
    willAdjustOrderLine: (ctx) => check(ctx),
  };
}
