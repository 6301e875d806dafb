import type {
  CheckoutInterceptor,
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
  VisibilityFilter,
} from '../host/contract.js';

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
    eventHandlers: new Map(),
    mailTemplates: new Map(),
    jobHandlers: new Map(),
    jobSchedules: new Map(),
  };
}
