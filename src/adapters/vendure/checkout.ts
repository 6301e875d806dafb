import type { HostRuntime } from '../../contract/index.js';
import type { AdapterState } from './state.js';
import { cartContract } from './cart.js';
import { ordersContract } from './orders.js';
import { placeOrderOnVendure } from './place-order.js';
import { channelMethodsOnVendure } from './payment-methods.js';

/**
 * Cart, checkout and orders on Vendure. The extension points are recorded (the plugin registers
 * them at start-up) and run in Vendure's order process (order-process.ts) and in placeOrder
 * (place-order.ts: given lines into a real Vendure order). Orders are read from Vendure's tables
 * (orders.ts); the cart is the customer's Vendure active order (cart.ts).
 */
export function checkoutContract(state: AdapterState): Pick<HostRuntime, 'cart' | 'checkout' | 'orders'> {
  return {
    cart: cartContract(state).cart,
    checkout: {
      addInterceptor: (interceptor) => void state.registries.checkoutInterceptors.push(interceptor),
      onOrderPlaced: (hook) => void state.registries.orderPlacedHooks.push(hook),
      onOrderCancelled: (hook) => void state.registries.orderCancelledHooks.push(hook),
      // (3.5) A Vendure PaymentMethodHandler each, registered when the plugin is configured (payment-methods.ts).
      addPaymentMethod: (method) => void state.registries.paymentMethods.push(method),
      // (4.1) Vendure's own methods (payment-methods.ts); the restrictions act through the plugin's eligibility checkers.
      methods: (executor, _ctx, kind) => channelMethodsOnVendure(executor, state.registries.paymentMethods, kind),
      addMethodRestriction: (restriction) => void state.registries.methodRestrictions.push(restriction),
      placeOrder: placeOrderOnVendure(state),
    },
    orders: ordersContract(state),
  };
}
