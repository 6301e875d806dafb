import { abandonedCarts } from './abandoned-carts.js';
import { orderedProductIds } from './ordered-products.js';
import type { AdminRoute, HostRuntime, StoreRoute } from '../../contract/index.js';
import type { HostInternals } from '../internals.js';
import type { CatalogModule } from '../catalog/index.js';
import { CartService } from './cart-service.js';
import { CheckoutService } from './checkout-service.js';
import { documents } from '../../host-kit/documents.js';
import {
  getOrderRecord,
  getOrderRecords,
  latestOrderWithProduct,
  orderBelongsTo,
  orderFiguresByCustomer,
  orderFiguresByPeriod,
  searchOrders,
} from './order-repository.js';
import { OrderViewCache } from './order-view-cache.js';
import { transactionOf } from '../../lib/db.js';
import { channelMethods, methodRoutes } from './methods.js';
import { checkoutRoutes, orderAdminRoutes } from './routes.js';

export interface CheckoutModule extends Pick<HostRuntime, 'cart' | 'checkout' | 'orders' | 'documents'> {
  storeRoutes: StoreRoute[];
  adminRoutes: AdminRoute[];
}

/** Cart, checkout, orders and documents (cart writes read products through the catalog's kept records). */
export function createCheckoutModule(
  internals: HostInternals,
  catalog: Pick<CatalogModule, 'visibleProductsInReadTransaction'>,
): CheckoutModule {
  const { registries } = internals;
  const carts = new CartService(internals, catalog.visibleProductsInReadTransaction);
  const checkout = new CheckoutService(internals, carts);
  const orderViews = new OrderViewCache();
  return {
    cart: {
      addLineItemProcessor: (processor) => void registries.lineItemProcessors.push(processor),
      current: (executor, ctx) => carts.current(ctx, executor),
      get: (executor, token) => carts.load(executor, token),
      abandoned: abandonedCarts,
      addLineItems: (executor, ctx, items) => carts.addLineItems(executor, ctx, items),
      async price(executor, ctx, cart) {
        const { lines, netTotal, taxTotal, total } = await carts.price(ctx, cart, executor);
        return { lines, netTotal, taxTotal, total };
      },
      async priceLines(executor, ctx, items) {
        // As a cart of these lines (the reference host prices a cart's given lines, whatever its token).
        const cart = {
          token: '',
          customerId: ctx.customer?.id ?? null,
          salesChannelId: ctx.salesChannel.id,
          lineItems: items,
        };
        const { lines, netTotal, taxTotal, total } = await carts.price(ctx, cart, executor);
        return { lines, netTotal, taxTotal, total };
      },
    },
    checkout: {
      addInterceptor: (interceptor) => void registries.checkoutInterceptors.push(interceptor),
      onOrderPlaced: (hook) => void registries.orderPlacedHooks.push(hook),
      onOrderCancelled: (hook) => void registries.orderCancelledHooks.push(hook),
      addPaymentMethod: (method) => void registries.paymentMethods.push(method),
      methods: (_executor, _ctx, kind) => Promise.resolve(channelMethods(registries, kind)),
      addMethodRestriction: (restriction) => void registries.methodRestrictions.push(restriction),
      placeOrder: (executor, ctx, options) => checkout.placeOrder(ctx, options, transactionOf(executor) ?? undefined),
    },
    orders: {
      get: (executor, id) => getOrderRecord(executor, id, orderViews),
      getMany: (executor, ids) => getOrderRecords(executor, ids, orderViews),
      search: searchOrders,
      belongsTo: orderBelongsTo,
      figuresByCustomer: orderFiguresByCustomer,
      figuresByPeriod: orderFiguresByPeriod,
      latestWithProduct: latestOrderWithProduct,
      orderedProductIds,
    },
    documents,
    storeRoutes: [...checkoutRoutes(internals, carts, checkout, orderViews), ...methodRoutes(registries, internals.db)],
    adminRoutes: orderAdminRoutes(checkout),
  };
}
