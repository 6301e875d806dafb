import {
  LanguageCode,
  PaymentMethodEligibilityChecker,
  PaymentMethodHandler,
  type ID,
  type RequestContext,
} from '@vendure/core';
import type { PaymentMethodDefinition, StoreContext } from '../../host/contract.js';
import { readJson, selectRows, type Executor } from '../../lib/db.js';
import type { AdapterState } from './state.js';

/** The code of the Vendure PaymentMethodHandler of a plugin payment method (`suite-b2b-on-account`). */
export const handlerCodeOf = (technicalName: string) => `suite-b2b-${technicalName}`;

/** The code of the one eligibility checker of all plugin payment methods: the definition's `available`. */
export const AVAILABILITY_CHECKER_CODE = 'suite-b2b-available';

/** The payment's metadata key that names the plugin's method (written by the handler). */
export const METHOD_METADATA_KEY = 'suiteB2BPaymentMethod';

const text = (value: string) => [{ languageCode: LanguageCode.en, value }];

/**
 * The contract's payment methods (`checkout.addPaymentMethod`, e.g. the payment-on-account
 * add-on's `on-account`) as Vendure PaymentMethodHandlers, one per method, registered in the shop's
 * `paymentOptions.paymentMethodHandlers` when the plugin is configured. A shop creates a Vendure
 * PaymentMethod with the handler (its own code, name, channels) as for any handler; the checker
 * `suite-b2b-available` offers it only to the callers the definition's `available` admits.
 *
 * The handler needs nothing from a gateway: it authorises the amount (`Authorized`) and names the
 * plugin's method in the payment's metadata. What the plugin decides — the credit line's check and
 * charge — runs when Vendure places the order, in the transaction of `addPaymentToOrder`
 * (order-placement.ts reads the method from the order's payment: the draft's and the placed order's
 * `paymentMethod`); a refusal there rolls the payment back with the plugin's code.
 */
export function paymentMethodHandlers(definitions: PaymentMethodDefinition[]): PaymentMethodHandler[] {
  return definitions.map(
    (definition) =>
      new PaymentMethodHandler({
        code: handlerCodeOf(definition.technicalName),
        description: text(`Suite B2B: ${definition.name}`),
        args: {},
        createPayment: (_ctx, _order, amount) => ({
          amount,
          state: 'Authorized' as const,
          metadata: { [METHOD_METADATA_KEY]: definition.technicalName },
        }),
        settlePayment: () => ({ success: true }),
        cancelPayment: () => ({ success: true }),
      }),
  );
}

/** The checker that asks the plugin's definition whether the caller may use the method (its `available`). */
export function availabilityChecker(
  state: () => AdapterState | null,
  storeContextOf: (ctx: RequestContext) => Promise<StoreContext | null>,
): PaymentMethodEligibilityChecker {
  return new PaymentMethodEligibilityChecker({
    code: AVAILABILITY_CHECKER_CODE,
    description: text('Suite B2B: offered to the buyers the plugin admits (e.g. on account: a credit line)'),
    args: {},
    check: async (ctx, order, _args, method) => {
      const s = state();
      if (!s) return false;
      const definition = s.registries.paymentMethods.find(
        (d) => handlerCodeOf(d.technicalName) === method.handler?.code,
      );
      if (!definition?.available) return true;
      // An order checkout.placeOrder is placing: its interceptors (the credit line's) decided already.
      if (s.placing.has(String(order.id))) return true;
      const storeCtx = await storeContextOf(ctx);
      return storeCtx ? definition.available(s.db, storeCtx) : false;
    },
  });
}

/**
 * The plugin's payment method an order is paid by: the technical name in the metadata of its newest
 * authorised or settled payment (read through `executor`, inside the placing transaction), else
 * undefined (a payment method of the shop's own).
 */
export async function paymentMethodOfOrder(executor: Executor, orderId: ID): Promise<string | undefined> {
  const payments = await selectRows<{ metadata: unknown }>(
    executor('payment')
      .where({ orderId })
      .whereIn('state', ['Authorized', 'Settled'])
      .orderBy('id', 'desc')
      .select('metadata'),
  );
  for (const payment of payments) {
    const name = readJson<Record<string, unknown>>(payment.metadata, {})[METHOD_METADATA_KEY];
    if (typeof name === 'string') return name;
  }
  return undefined;
}

/** The shop's Vendure payment methods served by a plugin handler: Vendure code → the plugin's technical name. */
export async function pluginPaymentMethods(executor: Executor): Promise<Map<string, string>> {
  const rows = await selectRows<{ code: string; handler: unknown }>(
    executor('payment_method').select('code', 'handler'),
  );
  const found = new Map<string, string>();
  for (const row of rows) {
    const code = readJson<{ code?: unknown }>(row.handler, {}).code;
    if (typeof code === 'string' && code.startsWith(handlerCodeOf('')))
      found.set(row.code, code.slice(handlerCodeOf('').length));
  }
  return found;
}
