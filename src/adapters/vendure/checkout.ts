import type { HostRuntime } from '../../host/contract.js';
import type { AdapterState } from './state.js';
import { cartContract } from './cart.js';
import { ordersContract } from './orders.js';
import { notSupported } from './unsupported.js';

/**
 * Cart, checkout and orders on Vendure. The extension points are recorded (the plugin registers
 * them at start-up); what would run them, Vendure's order process, is milestone 2 of issue 13
 * (docs/vendure.md). Orders are read from Vendure's tables (orders.ts); the cart calls and
 * checkout.placeOrder answer 501 until then.
 */
export function checkoutContract(state: AdapterState): Pick<HostRuntime, 'cart' | 'checkout' | 'orders'> {
  const no = (call: string) => () => Promise.reject(notSupported(call));
  return {
    cart: cartContract(state).cart,
    checkout: {
      addInterceptor: (interceptor) => void state.registries.checkoutInterceptors.push(interceptor),
      onOrderPlaced: (hook) => void state.registries.orderPlacedHooks.push(hook),
      placeOrder: no('checkout.placeOrder'),
    },
    orders: ordersContract(state),
  };
}
