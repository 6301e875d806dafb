import type {
  CheckoutInterceptor,
  CheckoutMethodKind,
  CheckoutMethodRestriction,
  ContextEnricher,
  ContextVersionSource,
  HostEventHandler,
  HostEventName,
  JobHandler,
  LineItemProcessor,
  LoginProvider,
  MailTemplate,
  OrderCancelledHook,
  OrderPlacedHook,
  PaymentMethodDefinition,
  PriceGate,
  PriceProvider,
  ProductExtension,
  StoreContext,
  VisibilityFilter,
} from '../contract/index.js';
import type { Executor } from '../lib/db.js';

/** What a plugin registers through the contract's extension points; every host keeps one of these. */
export interface PluginRegistries {
  loginProviders: LoginProvider[];
  contextEnrichers: ContextEnricher[];
  /** Plugin counters read with every Store API context (`auth.addContextVersion`). */
  contextVersions: ContextVersionSource[];
  visibilityFilters: VisibilityFilter[];
  /** (3.5) Values plugins add to product answers (`catalog.addProductExtension`). */
  productExtensions: ProductExtension[];
  priceProviders: PriceProvider[];
  /** (3.6) Gates that withhold prices and buying from a context (`prices.addPriceGate`). */
  priceGates: PriceGate[];
  lineItemProcessors: LineItemProcessor[];
  checkoutInterceptors: CheckoutInterceptor[];
  orderPlacedHooks: OrderPlacedHook[];
  orderCancelledHooks: OrderCancelledHook[];
  /** (3.5) Payment methods plugins added. */
  paymentMethods: PaymentMethodDefinition[];
  /** (4.1) Restrictions of the payment and shipping methods a caller is offered. */
  methodRestrictions: CheckoutMethodRestriction[];
  eventHandlers: Map<HostEventName, Array<HostEventHandler<HostEventName>>>;
  mailTemplates: Map<string, MailTemplate>;
  jobHandlers: Map<string, JobHandler>;
  jobSchedules: Map<string, number>;
}

export function emptyRegistries(): PluginRegistries {
  return {
    loginProviders: [],
    contextEnrichers: [],
    contextVersions: [],
    visibilityFilters: [],
    productExtensions: [],
    priceProviders: [],
    priceGates: [],
    lineItemProcessors: [],
    checkoutInterceptors: [],
    orderPlacedHooks: [],
    orderCancelledHooks: [],
    paymentMethods: [],
    methodRestrictions: [],
    eventHandlers: new Map(),
    mailTemplates: new Map(),
    jobHandlers: new Map(),
    jobSchedules: new Map(),
  };
}

/**
 * (4.1) The technical names of a kind the registered restrictions allow the caller (each narrows the
 * last), or null when none restricts.
 */
export async function allowedMethods(
  registries: PluginRegistries,
  executor: Executor,
  ctx: StoreContext,
  kind: CheckoutMethodKind,
): Promise<ReadonlySet<string> | null> {
  const answers: ReadonlySet<string>[] = [];
  for (const restriction of registries.methodRestrictions) {
    const names = await restriction(executor, ctx, kind);
    if (names) answers.push(names);
  }
  const [first, ...rest] = answers;
  return first ? new Set([...first].filter((name) => rest.every((names) => names.has(name)))) : null;
}
