import {
  LanguageCode,
  Payment,
  PaymentMethod,
  PaymentMethodEligibilityChecker,
  PaymentMethodHandler,
  ShippingEligibilityChecker,
  ShippingLine,
  ShippingMethod,
  type ID,
  type RequestContext,
} from '@vendure/core';
import type {
  CheckoutMethodKind,
  CheckoutMethodRef,
  PaymentMethodDefinition,
  StoreContext,
} from '../../contract/index.js';
import { readJson, selectRows, type Executor } from '../../lib/db.js';
import type { AdapterState } from './state.js';
import { column, columns, related, selectAs, table } from './vendure-schema.js';
import { allowedMethods } from '../../host-kit/registries.js';

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

/**
 * The checker that asks the plugin whether the caller may use the method: a plugin method's
 * definition (`available`), and for every method the plugin's method restrictions (4.1: the
 * payment methods a buyer's organisation unit allows). A shop puts it on each method it wants the
 * plugin to govern; an order paid by a method the restrictions exclude is refused at placement anyway.
 */
export function availabilityChecker(
  state: () => AdapterState | null,
  storeContextOf: (ctx: RequestContext) => Promise<StoreContext | null>,
): PaymentMethodEligibilityChecker {
  return new PaymentMethodEligibilityChecker({
    code: AVAILABILITY_CHECKER_CODE,
    description: text(
      'Suite B2B: offered to the buyers the plugin admits (on account: a credit line; the unit’s methods)',
    ),
    args: {},
    check: async (ctx, order, _args, method) => {
      const s = state();
      if (!s) return false;
      // An order checkout.placeOrder is placing: its interceptors decided already.
      if (s.placing.has(String(order.id))) return true;
      const definition = s.registries.paymentMethods.find(
        (d) => handlerCodeOf(d.technicalName) === method.handler?.code,
      );
      if (!definition?.available && s.registries.methodRestrictions.length === 0) return true;
      const storeCtx = await storeContextOf(ctx);
      if (!storeCtx) return !definition?.available;
      const allowed = await allowedMethods(s.registries, s.db, storeCtx, 'payment');
      if (allowed && !allowed.has(definition?.technicalName ?? method.code)) return false;
      return definition?.available ? definition.available(s.db, storeCtx) : true;
    },
  });
}

/** (4.1) The code of the shipping checker that offers a method only where the plugin's restrictions allow it. */
export const SHIPPING_CHECKER_CODE = 'suite-b2b-allowed';

/**
 * (4.1) A ShippingEligibilityChecker for the shop's shipping methods: eligible unless the plugin's
 * restrictions (the buyer's organisation unit) exclude the method. Vendure gives a shipping method
 * one checker, so a shop puts this one on the methods a unit may be denied.
 */
export function shippingChecker(
  state: () => AdapterState | null,
  storeContextOf: (ctx: RequestContext) => Promise<StoreContext | null>,
): ShippingEligibilityChecker {
  return new ShippingEligibilityChecker({
    code: SHIPPING_CHECKER_CODE,
    description: text('Suite B2B: offered where the buyer’s organisation unit allows the method'),
    args: {},
    check: async (ctx, order, _args, method) => {
      const s = state();
      if (!s) return false;
      if (s.placing.has(String(order.id)) || s.registries.methodRestrictions.length === 0) return true;
      const storeCtx = await storeContextOf(ctx);
      if (!storeCtx) return true;
      const allowed = await allowedMethods(s.registries, s.db, storeCtx, 'shipping');
      return !allowed || allowed.has(method.code);
    },
  });
}

/**
 * The payment method an order is paid by, as the draft names it: of its newest authorised or settled
 * payment (read through `executor`, inside the placing transaction) the plugin's technical name in
 * the metadata, else the shop's Vendure payment method code; undefined before a payment.
 */
export async function paymentMethodOfOrder(executor: Executor, orderId: ID): Promise<string | undefined> {
  const [payment] = await selectRows<{ metadata: unknown; method: string }>(
    executor(table(Payment))
      .where(column(Payment, 'orderId'), orderId)
      .whereIn(column(Payment, 'state'), ['Authorized', 'Settled'])
      .orderBy(column(Payment, 'id'), 'desc')
      .limit(1)
      .select(selectAs(Payment, undefined, 'metadata', 'method')),
  );
  if (!payment) return undefined;
  const name = readJson<Record<string, unknown>>(payment.metadata, {})[METHOD_METADATA_KEY];
  return typeof name === 'string' ? name : payment.method;
}

/** (4.1) The code of the Vendure shipping method an order is delivered by, undefined before one is set. */
export async function shippingMethodOfOrder(executor: Executor, orderId: ID): Promise<string | undefined> {
  const [line] = await selectRows<{ code: string }>(
    executor(table(ShippingLine, 'l'))
      .join(
        table(ShippingMethod, 'm'),
        column(ShippingMethod, 'id', 'm'),
        column(ShippingLine, 'shippingMethodId', 'l'),
      )
      .where(column(ShippingLine, 'orderId', 'l'), orderId)
      .orderBy(column(ShippingLine, 'id', 'l'))
      .limit(1)
      .select(selectAs(ShippingMethod, 'm', 'code')),
  );
  return line?.code;
}

/**
 * (4.1) The shop's methods of a kind as the contract names them: shipping methods by their Vendure
 * code, payment methods by code, or by the plugin's technical name where a plugin handler serves
 * them (payment on account). Every channel's, enabled ones only.
 */
export async function channelMethodsOnVendure(
  executor: Executor,
  definitions: readonly PaymentMethodDefinition[],
  kind: CheckoutMethodKind,
): Promise<CheckoutMethodRef[]> {
  const method = kind === 'shipping' ? ShippingMethod : PaymentMethod;
  const translation = related(method, 'translations');
  const m = columns(method, 'm');
  const query = executor(table(method, 'm'))
    .leftJoin(table(translation, 't'), column(translation, 'base', 't'), m('id'))
    .orderBy(m('id'))
    .select(
      ...selectAs(method, 'm', 'code'),
      ...selectAs(translation, 't', 'name'),
      kind === 'payment' ? `${m('handler')} as handler` : executor.raw('null as handler'),
    );
  if (kind === 'shipping') query.whereNull(m('deletedAt'));
  else query.where(m('enabled'), true);
  const rows = await selectRows<{ code: string; name: string | null; handler: unknown }>(query);
  const methods = new Map<string, CheckoutMethodRef>();
  for (const row of rows) {
    const handlerCode = readJson<{ code?: unknown }>(row.handler, {}).code;
    const definition = definitions.find((d) => handlerCodeOf(d.technicalName) === handlerCode);
    const technicalName = definition?.technicalName ?? row.code;
    if (!methods.has(technicalName))
      methods.set(technicalName, { technicalName, name: definition?.name ?? row.name ?? row.code });
  }
  return [...methods.values()];
}

/** The shop's Vendure payment methods served by a plugin handler: Vendure code → the plugin's technical name. */
export async function pluginPaymentMethods(executor: Executor): Promise<Map<string, string>> {
  const rows = await selectRows<{ code: string; handler: unknown }>(
    executor(table(PaymentMethod)).select(selectAs(PaymentMethod, undefined, 'code', 'handler')),
  );
  const found = new Map<string, string>();
  for (const row of rows) {
    const code = readJson<{ code?: unknown }>(row.handler, {}).code;
    if (typeof code === 'string' && code.startsWith(handlerCodeOf('')))
      found.set(row.code, code.slice(handlerCodeOf('').length));
  }
  return found;
}
