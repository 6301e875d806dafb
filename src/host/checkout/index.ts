import type { AdminRoute, HostRuntime, StoreRoute } from '../contract.js';
import type { HostInternals } from '../internals.js';

export interface CheckoutModule extends Pick<HostRuntime, 'cart' | 'checkout' | 'orders' | 'documents'> {
  storeRoutes: StoreRoute[];
  adminRoutes: AdminRoute[];
}

const notYet = (what: string) => () => {
  throw new Error(`${what} is not implemented yet`);
};

/** Cart, checkout, orders and documents. (Stub: filled in by the checkout module.) */
export function createCheckoutModule(internals: HostInternals): CheckoutModule {
  return {
    cart: {
      addLineItemProcessor: (p) => void internals.registries.lineItemProcessors.push(p),
      current: notYet('cart.current'),
      get: notYet('cart.get'),
      addLineItems: notYet('cart.addLineItems'),
      price: notYet('cart.price'),
    },
    checkout: {
      addInterceptor: (i) => void internals.registries.checkoutInterceptors.push(i),
      onOrderPlaced: (h) => void internals.registries.orderPlacedHooks.push(h),
      placeOrder: notYet('checkout.placeOrder'),
    },
    orders: { get: notYet('orders.get'), getMany: notYet('orders.getMany') },
    documents: { createPdf: notYet('documents.createPdf'), get: notYet('documents.get') },
    storeRoutes: [],
    adminRoutes: [],
  };
}
