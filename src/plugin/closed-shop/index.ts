import { Errors, type AppError } from '../../lib/errors.js';
import type { HostRuntime, StoreContext } from '../../contract/index.js';

/**
 * Closed shop (decision 0026): in the sales channels the operator lists in the
 * setting `closedShopSalesChannelIds`, guests see no prices and cannot fill a cart. The add-on
 * says so through the contract's price gate (3.6); each host then leaves prices out of its product
 * answers and refuses its cart to such a guest. The plugin's own public routes that quote prices
 * (quantity rules, CMS product listings) ask `pricesWithheld` themselves.
 */
export const CLOSED_SHOP_SETTING = 'closedShopSalesChannelIds';

/** The refusal a closed shop answers to a guest who asks for what prices reveal (a price sort, a cart line). */
export function loginRequired(): AppError {
  return Errors.unauthorized(
    'This shop shows prices and takes orders only for logged-in business customers. Please log in.',
    'SUITE__LOGIN_REQUIRED',
  );
}

/** Whether the caller is a guest in a closed-shop sales channel. Logged-in callers cost no read. */
export async function pricesWithheld(host: HostRuntime, ctx: StoreContext): Promise<boolean> {
  if (ctx.actor.type !== 'guest') return false;
  const closed = await host.config.get<string[]>(CLOSED_SHOP_SETTING);
  return closed.includes(ctx.salesChannel.id);
}

export function registerClosedShop(host: HostRuntime): void {
  if (!host.prices.addPriceGate) {
    host.log.warn(
      { setting: CLOSED_SHOP_SETTING },
      'this host offers no price gate (contract 3.6): a closed shop cannot withhold its prices from guests here',
    );
    return;
  }
  host.prices.addPriceGate(async (_executor, ctx) => ((await pricesWithheld(host, ctx)) ? loginRequired() : null));
}
