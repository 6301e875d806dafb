/**
 * HostRuntime: the only thing the plugin imports from the host. A second host implementing this
 * contract loads the plugin unchanged. Breaking changes bump CONTRACT_VERSION's major.
 */
import type { Criteria } from '../lib/criteria.js';
import type { AppError } from '../lib/errors.js';
import type { Db, Executor, Trx } from '../lib/db.js';
import type { IdempotencyStore } from '../lib/idempotency.js';
import type {
  AnswerOf,
  CallableRoute,
  Declared,
  RateLimitRule,
  RouteDefinition,
  RouteRef,
  RouteSchemas,
  StoreActorName,
  TypedRoute,
} from '../lib/routes.js';

export { orderView, type OrderView } from './order-view.js';

export const CONTRACT_VERSION = '5.0.0';

/*
 * The contract's genuinely open shapes: each is the JSON of one side's own (a plugin's, a template's,
 * an operator's), which the other side stores and passes through without reading. Everything a side
 * reads has a type of its own.
 */

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/**
 * A line item's payload: open by design. Line-item processors shape it (an event ticket's
 * `participant` and `eventId`, a customer's own product number …); the host stores it with the line,
 * keeps lines with different payloads apart and hands it back unread.
 */
export type LinePayload = Record<string, unknown>;

/**
 * An order's custom fields: open by design. Each interceptor adds keys of its own (an approval's id
 * and number, an offer's id, a cost center …); the host stores them with the order and answers them
 * as `customFields` unread.
 */
export type OrderCustomFields = Record<string, unknown>;

/**
 * An address as an order keeps it: the host's own JSON of it (the reference host: the customer's
 * address as CustomerAddress was when ordered; Vendure: its OrderAddress). Open: it differs by host,
 * and the plugin only passes it on.
 */
export type OrderAddress = Record<string, unknown>;

/** The data a mail, storefront or console template is rendered with: open, each template reads its own. */
export type TemplateData = Record<string, unknown>;

/** The plugin's settings (plugin.json's `config` schema): the host keeps what the schema allows, unread. */
export type PluginSettings = Record<string, unknown>;

/** A job's payload: open, each job's own JSON (an operator's CLI queues one with the values it names); a handler checks what it reads. */
export type JobPayload = Record<string, unknown>;

/** A query string's values as a page receives them: a parameter's text, or the texts of a repeated one. */
export type PageQuery = Record<string, string | string[] | undefined>;

/**
 * A posted form's fields as a page receives them: a field's text, the texts of a repeated name
 * (checkboxes, rows of inputs), or a chosen file (see StorefrontUpload).
 */
export type PageForm = Record<string, string | string[] | StorefrontUpload | undefined>;

export interface Logger {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
  debug(obj: object | string, msg?: string): void;
}

export interface SalesChannel {
  id: string;
  name: string;
  currencyIso: string;
  currencyPrecision: number;
  languageCode: string;
  timeZone: string;
  /** Configured storefront domains (absolute URLs); mail links are built from these, never from Host. */
  domains: string[];
}

export interface CustomerRef {
  id: string;
  salesChannelId: string;
  customerNumber: string;
  email: string;
  firstName: string;
  lastName: string;
  company: string | null;
  groupId: string | null;
  tags: string[];
  active: boolean;
}

export type ActorType = 'guest' | 'customer' | 'employee' | 'salesRepresentative';

export interface Actor {
  type: ActorType;
  /** customer id, employee id or sales representative id; null for guests */
  id: string | null;
  name: string;
  email: string | null;
}

/** The Store API caller. Built per request by the host, enriched by plugins. */
export interface StoreContext {
  requestId: string;
  ip: string;
  /** The context token presented (or issued) for this request; null for an anonymous guest. */
  token: string | null;
  sessionId: string | null;
  salesChannel: SalesChannel;
  /** The business account the caller acts for. */
  customer: CustomerRef | null;
  actor: Actor;
  /** Session attributes plugins set at login (see SessionAttributes). */
  attributes: SessionAttributes;
  /** Set by the employee add-on's context enricher. */
  employee: {
    id: string;
    roleId: string | null;
    roleName: string | null;
    email: string;
    firstName: string;
    lastName: string;
  } | null;
  /** Set by the sales representative add-on's context enricher. */
  salesRepresentative: { id: string; email: string; name: string } | null;
  /** 'all' for the company admin (the customer login); the role's keys for an employee. */
  permissions: ReadonlySet<string> | 'all';
  can(permission: string): boolean;
  /** Ids of the rules this context matches (computed lazily, cached for the request). */
  ruleIds(): Promise<string[]>;
}

export interface AdminContext {
  requestId: string;
  ip: string;
  /** 'integration' (client_credentials) or 'user' (password grant) */
  principalType: 'integration' | 'user';
  principalId: string;
}

/**
 * Store API routes: auth 'public' (anyone, a guest context), 'login' (customer, employee or sales
 * representative); `actors` narrows who may call (the host's pipeline refuses the others: a guest
 * 401, another actor 403), `needsCustomer` asks for a customer the caller acts for.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- route lists mix handlers of different inputs (contravariant parameters); each route's own types come from defineStoreRoute
export type StoreRoute<B = any, Q = any, P = any> = RouteDefinition<StoreContext, B, Q, P> & {
  auth: 'public' | 'login';
  actors?: StoreActorName[];
};
/** Admin API routes: auth 'admin' (a bearer token from /api/oauth/token; actor 'admin'), or 'public' (the token route itself). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as StoreRoute above
export type AdminRoute<B = any, Q = any, P = any> = RouteDefinition<AdminContext, B, Q, P> & {
  auth: 'admin' | 'public';
};

/**
 * Declares a Store API route whose handler reads `body`, `query` and `params` typed from its own
 * `schemas` (the objects ajv validates and OpenAPI publishes): reading a property the schema does not
 * declare fails to compile. The route object is returned unchanged.
 */
export function defineStoreRoute<const S extends RouteSchemas, const O extends string>(
  route: TypedRoute<StoreContext, S> & { operationId: O; auth: 'public' | 'login'; actors?: StoreActorName[] },
): Declared<StoreRoute, O, S> {
  return route as unknown as Declared<StoreRoute, O, S>;
}

/** `defineStoreRoute` for the Admin API. */
export function defineAdminRoute<const S extends RouteSchemas, const O extends string>(
  route: TypedRoute<AdminContext, S> & { operationId: O; auth: 'admin' | 'public' },
): Declared<AdminRoute, O, S> {
  return route as unknown as Declared<AdminRoute, O, S>;
}

/**
 * What a login provider keeps with a session (LoginIdentity.attributes) and every request's context
 * reads back (StoreContext.attributes), stored by the host as JSON. The keys the plugin and the hosts
 * read are named; a plugin may keep others of its own (JSON values), which the host passes through.
 */
export interface SessionAttributes {
  /** The employee the session logs in (the employee add-on's login provider). */
  employeeId?: string;
  /** The sales representative the session logs in (the sales representative add-on's). */
  salesRepresentativeId?: string;
  /** The actor's name and e-mail as the host's context shows them (StoreContext.actor). */
  actorName?: string;
  actorEmail?: string;
  [key: string]: unknown;
}

export interface LoginIdentity {
  /** The customer the login acts for; null for a sales representative who acts for none (yet). */
  customerId: string | null;
  actor: Actor;
  attributes: SessionAttributes;
}

/**
 * Lets a plugin accept logins the host does not know (employees, sales representatives).
 * Answer null when the e-mail is not yours, 'wrong-password' when it is but the password (or the
 * account's state) refuses it: the host then spends no extra password check, so a refusal takes
 * the same time whoever owns the address.
 */
export type LoginProvider = (
  trx: Trx,
  email: string,
  password: string,
  salesChannel: SalesChannel,
) => Promise<LoginIdentity | 'wrong-password' | null>;

/** Runs for every authenticated Store API request after the session is loaded. */
export type ContextEnricher = (executor: Executor, ctx: StoreContext) => Promise<void>;

/**
 * A counter a plugin keeps in its own table (columns `name` and `value`; its triggers move it on
 * every write to the data it versions), read with each Store API request's context in the statement
 * the host reads its own versions with: a plugin's per-process cache then checks itself against the
 * request's value without a read of its own.
 */
export interface ContextVersionSource {
  /** The plugin's counter table: plain SQL identifiers. */
  table: string;
  /** The counter's row (the value of its `name` column). */
  name: string;
}

export type CatalogEntity = 'product' | 'category' | 'landing_page';

/** Stands for the entity's id column in a `sql` visibility constraint; the host puts its own qualified column there. */
export const VISIBILITY_ID_MARKER = '{entity.id}';

/** The limits every host applies to a cart: the largest quantity of one line and the most lines. */
export const CART_LIMITS = { maxLineQuantity: 10000, maxLines: 200 } as const;

/**
 * What a visibility filter answers, in a form any host can apply in its own query:
 * - `all`: no restriction;
 * - `exclude` / `only`: the ids the context may not / may only see;
 * - `sql`: a boolean SQL expression on the entity's id, compiled for the host's dialect, with `?`
 *   value placeholders (`bindings`) and VISIBILITY_ID_MARKER where the id column goes. It may read
 *   only the plugin's own tables; the host ANDs it into its query.
 */
export type VisibilityConstraint =
  | { kind: 'all' }
  | { kind: 'exclude'; ids: string[] }
  | { kind: 'only'; ids: string[] }
  | { kind: 'sql'; sql: string; bindings: unknown[] };

/**
 * Says what of one catalog entity a context may see. `executor` is the connection the host's query
 * runs on (a transaction inside cart and checkout): a filter that reads must read through it.
 */
export type VisibilityFilter = (
  executor: Executor,
  ctx: StoreContext,
  entity: CatalogEntity,
) => Promise<VisibilityConstraint>;

/**
 * A plugin's own list narrowed or sorted by product fields: the host answers the ids of `within`
 * that match, in the order asked. Field names are those of `catalog.productCriteriaFields`.
 */
export interface ProductIdQuery {
  /** The candidates (the product ids of the plugin's rows); the answer is a subset of them. */
  within: string[];
  filter?: Criteria['filter'];
  /** Contains-match on product number and name. */
  term?: string;
  sort?: Criteria['sort'];
}

export interface ProductSearchOptions {
  /** Only these products. */
  within?: string[];
  /**
   * The term matches a product number prefix or part of the name, and (ranked after exact and
   * prefix number matches respectively) the products the plugin names here, e.g. by the customer's
   * own numbers. Without it the term is a contains-match on number and name.
   */
  alsoMatch?: { exact: string[]; prefix: string[] };
  /**
   * Sort fields the plugin owns (not product fields): per field, a numeric sort key per product id;
   * products without a key sort as null. Criteria (and defaultSort) may sort on these names.
   */
  orderings?: Record<string, Map<string, number>>;
  /** The sort when the criteria give none (default: product number, then id). */
  defaultSort?: Array<{ field: string; order: 'asc' | 'desc' }>;
}

/** One product a customer ordered before, summed over the orders considered. */
export interface OrderedProduct {
  productId: string;
  /** UTC ISO-8601 */
  lastOrderDate: string;
  totalQuantity: number;
  orderCount: number;
}

/**
 * What a plugin adds to the products buyers see, e.g. a quantity rule for a theme's quantity
 * picker. A host answers it in its product answers under `extensions.<name>`: the reference host in
 * the Store API's product detail (`GET /product/{productId}`), Vendure in the Shop API's
 * `ProductVariant.suiteExtensions` (JSON, keyed by name).
 */
export interface ProductExtension {
  name: string;
  /** Per product id its value; products the extension has nothing for are absent. Reads through `executor`. */
  load(executor: Executor, ctx: StoreContext, productIds: string[]): Promise<Map<string, JsonObject>>;
}

export interface ProductRecord {
  id: string;
  versionId: string;
  productNumber: string;
  name: string;
  description: string | null;
  stock: number;
  active: boolean;
  taxRateBp: number;
  /** list net price, minor units */
  priceNet: number;
  manufacturer: string | null;
  ean: string | null;
  categoryIds: string[];
}

/** One option of a property group (colour: red), as a variant's options and a product's properties name it. */
export interface PropertyValue {
  groupId: string;
  groupName: string;
  optionId: string;
  optionName: string;
}

/** A product with the property values that make it a variant (its options). */
export interface VariantRecord extends ProductRecord {
  options: PropertyValue[];
}

/** A product's variant family as a context may see it. */
export interface VariantFamily {
  /** The main product (the one the variants belong to). */
  main: ProductRecord;
  /** Its active variants the context may see, by product number; empty for a product without variants. */
  variants: VariantRecord[];
}

/** A product that shares property values with another one. */
export interface SimilarProduct {
  product: ProductRecord;
  /** The property values both have (at least one), by group and option position. */
  shared: PropertyValue[];
}

export interface CalculatedPrice {
  /** net unit price, minor units */
  unitNet: number;
  quantity: number;
  totalNet: number;
  taxRateBp: number;
  totalTax: number;
  totalGross: number;
  /** where the price came from: 'list', 'tier', 'customer-price', 'offer' … */
  source: string;
  /** A pseudo (strike-through) net unit price, minor units, when the price provider named one. */
  listPriceNet?: number | null;
}

/** A price provider's answer: a unit net price (minor units) and where it came from. */
export interface ProvidedPrice {
  unitNet: number;
  source: string;
  /** a pseudo (strike-through) net unit price, minor units */
  listPriceNet?: number | null;
}

/** Returns a unit net price (minor units) for the context, or null to let the next provider (or the list price) decide. */
export interface PriceProvider {
  (executor: Executor, ctx: StoreContext, product: ProductRecord, quantity: number): Promise<ProvidedPrice | null>;
  /**
   * Optional: the same answers for many lines at once, in the order given (null: the next provider
   * decides), e.g. one query for a listing page instead of one per product. A host that prices many
   * lines (`prices.calculateMany`, listings) calls it once with the lines no earlier provider
   * answered; without it, the provider is called once per line.
   */
  many?(
    executor: Executor,
    ctx: StoreContext,
    items: ReadonlyArray<{ product: ProductRecord; quantity: number }>,
  ): Promise<Array<ProvidedPrice | null>>;
}

/**
 * Withholds prices and buying from a context, e.g. a closed shop's guests. Answers null when the
 * context may see prices, else the error the host answers when such a context asks for what prices
 * reveal (a price filter or sort, a cart line): typically 401 `SUITE__LOGIN_REQUIRED`. A host
 * leaves the prices out of its product answers for such a context (the reference host: no
 * `calculatedPrice` or `tierPrices`; its storefront shows a login prompt instead of price and buy
 * button) and refuses its cart (Vendure: `addItemToOrder` answers the error's code). Reads through
 * `executor`.
 */
export type PriceGate = (executor: Executor, ctx: StoreContext) => Promise<AppError | null>;

export interface CartLineItem {
  id: string;
  type: string;
  productId: string | null;
  label: string;
  quantity: number;
  payload: LinePayload;
  position: number;
}

/** A customer's cart with lines, neither ordered nor changed since a moment (`cart.abandoned`). */
export interface AbandonedCart {
  token: string;
  customerId: string;
  /** Whose cart it is where the host keeps one cart per buyer of a customer (an employee); else null. */
  actor: { type: string; id: string } | null;
  /** When the cart was last changed (ISO 8601, UTC). */
  updatedAt: string;
  lineItems: CartLineItem[];
}

export interface Cart {
  token: string;
  customerId: string | null;
  salesChannelId: string;
  lineItems: CartLineItem[];
}

/** How the host calls a processor beyond the phase. */
export interface LineItemProcessOptions {
  /**
   * 'add' only: the item is what is being added, not yet the line it will be: it may still join a
   * line of the cart (or another item of the same request) with the same product and payload. The
   * host processes that line again with its new quantity once merged (without `partial`), so a
   * processor that checks a line's quantity (minimum, step) leaves a partial item's quantity alone.
   */
  partial?: boolean;
}

/**
 * Validates and enriches line items (e.g. `payload.participant` for event tickets).
 * Called when an item is added or changed ('add') and again inside the order transaction ('order'),
 * where it must re-check capacities under lock. Throw an AppError to refuse.
 */
export interface LineItemProcessor {
  name: string;
  process(
    executor: Executor,
    ctx: StoreContext,
    item: CartLineItem,
    phase: 'add' | 'order',
    options?: LineItemProcessOptions,
  ): Promise<CartLineItem>;
}

export interface PriceLine {
  lineItemId: string;
  productId: string | null;
  productNumber: string | null;
  label: string;
  type: string;
  quantity: number;
  unitNet: number;
  totalNet: number;
  taxRateBp: number;
  payload: LinePayload;
}

export interface OrderDraft {
  customerId: string;
  salesChannelId: string;
  lines: PriceLine[];
  netTotal: number;
  taxTotal: number;
  total: number;
  currencyIso: string;
  /** The customer's address the order is billed to (from its address book), null when none. */
  billingAddress: CustomerAddress | null;
  shippingAddress: CustomerAddress | null;
  customerComment: string | null;
  /** who the order is placed by; interceptors read this */
  actor: Actor;
  /** where it came from: 'checkout', or a plugin's name ('order-approval', 'offer') */
  origin: string;
  /**
   * The order's custom fields (PlaceOrderOptions.customFields to begin with): an interceptor may
   * add its own keys; the host writes them with the order (the Store API order shape answers them
   * as `customFields`) and hands them to the order-placed hooks.
   */
  customFields: OrderCustomFields;
  /** Lines an interceptor adds to the order's invoice, printed under the order's header (e.g. "Cost center: …"). */
  invoiceNotes: string[];
  /**
   * The technical name of the payment method the order is paid by (PlaceOrderOptions.paymentMethod,
   * else the host's default); absent on a host that offers no choice of payment method.
   */
  paymentMethod?: string;
  /** Lines an interceptor sets as the invoice's payment text (e.g. the payment terms); empty: the host's own. */
  paymentNotes?: string[];
  /**
   * The technical name of the shipping method the order is delivered by
   * (PlaceOrderOptions.shippingMethod, else the host's default); absent on a host that offers no
   * choice of shipping method.
   */
  shippingMethod?: string;
}

/** The two kinds of checkout method a sales channel offers. */
export type CheckoutMethodKind = 'payment' | 'shipping';

/** A payment or shipping method as the sales channel offers it. */
export interface CheckoutMethodRef {
  technicalName: string;
  name: string;
}

/**
 * Narrows the methods of a kind a caller is offered: the technical names allowed, or null for no
 * restriction. The host leaves the others out of its method lists; the plugin's interceptor still
 * refuses an order that names one anyway. Reads through `executor`.
 */
export type CheckoutMethodRestriction = (
  executor: Executor,
  ctx: StoreContext,
  kind: CheckoutMethodKind,
) => Promise<ReadonlySet<string> | null>;

/** A payment method a plugin adds to the host's list (`checkout.addPaymentMethod`). */
export interface PaymentMethodDefinition {
  /** Unique technical name, e.g. 'on-account'; the order's transaction carries it. */
  technicalName: string;
  name: string;
  description?: string | null;
  /**
   * Whether the method is offered to this caller (e.g. on account only to a company with a credit
   * line); absent: to everyone. The host's method list leaves it out where it answers false; the
   * plugin's interceptor still refuses an order that names it anyway. Reads through `executor`.
   */
  available?(executor: Executor, ctx: StoreContext): Promise<boolean>;
}

/**
 * May refuse an order before it is written (throw an AppError), inside the order transaction.
 * Interceptors named in `skipInterceptors` of placeOrder are not consulted (e.g. approval execute
 * skips the approval interceptor, having been approved).
 */
export interface CheckoutInterceptor {
  name: string;
  intercept(trx: Trx, ctx: StoreContext, draft: OrderDraft): Promise<void>;
}

/** A state of an order, delivery or transaction: its technical name and a display name. */
export interface OrderStateRef {
  technicalName: string;
  name: string;
}

/** A line of an order record: amounts in minor units, the tax rate in basis points (as a PriceLine's). */
export interface OrderLineRecord {
  id: string;
  type: string;
  productId: string | null;
  productNumber: string | null;
  label: string;
  quantity: number;
  /** net unit price, minor units */
  unitNet: number;
  /** net line total, minor units */
  totalNet: number;
  taxRateBp: number;
  position: number;
  payload: LinePayload;
}

/**
 * An order as `orders.get`, `getMany` and `search` answer it: the Store API's order (the host's
 * `orderSchema`) with its amounts in minor units, as everywhere in the contract (`orderView`,
 * src/contract/order-view.ts, turns it into the Store API's shape, amounts in currency units); addresses
 * are the host's address views (null when absent).
 */
export interface OrderRecord {
  id: string;
  orderNumber: string;
  /** ISO 8601. */
  orderDate: string;
  stateMachineState: OrderStateRef;
  /** The order's currency and its precision (the decimal places of its amounts at the API edge). */
  currency: { isoCode: string; precision: number };
  /** gross total, minor units */
  total: number;
  /** net total, minor units */
  netTotal: number;
  /** tax total, minor units */
  taxTotal: number;
  billingAddress: OrderAddress | null;
  shippingAddress?: OrderAddress | null;
  orderCustomer: {
    /** Null for a guest's order (a host that sells to guests, e.g. Vendure's Shop API). */
    customerId: string | null;
    customerNumber?: string | null;
    email: string | null;
    firstName: string | null;
    lastName: string | null;
    company: string | null;
  };
  customerComment?: string | null;
  deliveries: Array<{
    id: string;
    stateMachineState: OrderStateRef;
    shippingMethod: { technicalName: string; name: string };
    shippingOrderAddress: OrderAddress | null;
  }>;
  transactions: Array<{
    id: string;
    stateMachineState: OrderStateRef;
    paymentMethod: { technicalName: string; name: string };
    /** minor units */
    amount: number;
  }>;
  lineItems: OrderLineRecord[];
  documents: Array<{ id: string; fileName: string; type: string; documentNumber: string; createdAt?: string }>;
  customFields: OrderCustomFields;
  /** Who placed it: the customer, an employee, a sales representative, the job worker … */
  placedBy: { type: string; id: string | null };
  salesChannelId?: string;
}

export interface PlacedOrder {
  id: string;
  orderNumber: string;
  customerId: string;
  salesChannelId: string;
  netTotal: number;
  taxTotal: number;
  total: number;
  lines: Array<PriceLine & { id: string }>;
  origin: string;
  actor: Actor;
  customFields: OrderCustomFields;
  /** As on the draft. */
  paymentMethod?: string;
}

/** Runs inside the order's transaction, after the order rows are written. */
export type OrderPlacedHook = (trx: Trx, ctx: StoreContext, order: PlacedOrder) => Promise<void>;

/** A placed order that was cancelled as a whole. */
export interface CancelledOrder {
  id: string;
  orderNumber: string;
  customerId: string;
  salesChannelId: string;
}

/**
 * Who cancels a placed order: an Admin API integration or an administrator user (`id`: the
 * integration's or the user's; on Vendure the administrator's user in its Admin API), or the
 * platform itself (`system`, `id` null: its own processes, a channel without an administrator).
 */
export interface OrderCanceller {
  type: 'integration' | 'user' | 'system';
  id: string | null;
}

/** What the order-cancelled hooks are given of the cancelling call, as the order-placed hooks get the placing StoreContext. */
export interface CancellationContext {
  /** The request that cancels (for logs); null when the platform names none. */
  requestId: string | null;
  canceller: OrderCanceller;
  /** The order's sales channel. */
  salesChannel: SalesChannel;
}

/**
 * Runs inside the transaction that cancels a placed order (an operator, the platform's own order
 * management), after the order's state is written: releases what the order-placed hooks took for it
 * (budget usage, event seats). Throwing an AppError refuses the cancellation.
 */
export type OrderCancelledHook = (trx: Trx, ctx: CancellationContext, order: CancelledOrder) => Promise<void>;

export interface PlaceOrderOptions {
  /** The cart to order; marked as ordered by a conditional write, so it yields at most one order. */
  cartToken?: string;
  /** Lines to order instead of a cart (approval execute, offer accept), priced as given. */
  lines?: PriceLine[];
  billingAddressId?: string | null;
  shippingAddressId?: string | null;
  customerComment?: string | null;
  origin?: string;
  skipInterceptors?: string[];
  customFields?: OrderCustomFields;
  /**
   * The technical name of the payment method (the host's or one a plugin added); absent: the host's
   * default. An unknown name is a 400 (SUITE__PAYMENT_METHOD_UNKNOWN).
   */
  paymentMethod?: string | null;
  /**
   * The technical name of the shipping method; absent: the host's default. An unknown name is a 400
   * (SUITE__SHIPPING_METHOD_UNKNOWN).
   */
  shippingMethod?: string | null;
}

/**
 * One page of a list read through the contract: the shop platform's search result without its
 * envelope. `criteria` arguments are the platform's criteria over the field names the call lists;
 * an unknown field is a 400 (SUITE__UNKNOWN_CRITERIA_FIELD), as in a route.
 */
export interface ResultPage<T> {
  total: number;
  page: number;
  limit: number;
  elements: T[];
}

/** The actor who placed an order; lists narrowed to it show only what that actor placed. */
export interface PlacedBy {
  type: ActorType;
  id: string;
}

/**
 * Which orders an order list reads. It is never "all orders": the customers are always named.
 * Criteria fields: id, orderNumber, orderDate, customerId, state, placedByType, placedById;
 * `term` searches the order number; default sort: newest first (order date, then id).
 */
export interface OrderScope {
  customerIds: string[];
  placedBy?: PlacedBy;
  /** Only each customer's most recent order (latest order date, then highest id). */
  latestPerCustomer?: boolean;
}

/** A customer's address as `customers.addresses` answers it (both hosts: these fields, in this order). */
export type CustomerAddress = {
  id: string;
  company: string | null;
  firstName: string;
  lastName: string;
  street: string;
  zipcode: string;
  city: string;
  /** ISO 3166-1 alpha-2, upper case */
  countryCode: string;
};

/** An address as the plugin writes it into a customer's address book (`customers.createAddress`). */
export interface AddressInput {
  company?: string | null;
  firstName: string;
  lastName: string;
  street: string;
  zipcode: string;
  city: string;
  /** ISO 3166-1 alpha-2, upper case */
  countryCode: string;
}

/** Order count and net revenue of one customer, cancelled orders excluded. */
export interface CustomerOrderFigures {
  customerId: string;
  orderCount: number;
  /** net revenue, minor units */
  netTotal: number;
  /** the latest order date (UTC ISO-8601), null without orders */
  lastOrderDate: string | null;
}

/** A document without its content. */
export interface DocumentSummary {
  id: string;
  fileName: string;
  mimeType: string;
  type: string;
  documentNumber: string;
  customerId: string | null;
  orderId: string | null;
  /** the number of the document's order, null when it belongs to no order */
  orderNumber: string | null;
  createdAt: string;
}

/**
 * Which documents a document list reads: one customer's, and with `placedBy` only those of orders
 * that actor placed plus the documents that belong to no order (what the host's download route
 * lets such a caller read). Criteria fields: id, type, documentNumber, fileName, orderId,
 * orderNumber, createdAt; `term` searches document number, file name and order number; default
 * sort: newest first.
 */
export interface DocumentScope {
  customerId: string;
  placedBy?: PlacedBy;
}

/**
 * Which customers a customer list reads: the named ones, optionally only those of a sales channel
 * and only active ones. Criteria fields: id, customerNumber, company, email, firstName, lastName,
 * groupId; `term` searches company, customer number, e-mail and names; default sort: company, id.
 */
export interface CustomerScope {
  ids: string[];
  salesChannelId?: string;
  activeOnly?: boolean;
}

export interface CustomerGroupRef {
  id: string;
  name: string;
}

export interface CmsPageRecord {
  id: string;
  name: string;
  title: string;
  /** Sections as stored: [{type: 'text' | 'image' | 'product-listing', …}] */
  sections: unknown[];
  /** Categories and landing pages that use the page as their layout (active or not). */
  categoryIds: string[];
  landingPageIds: string[];
}

export interface MailTemplate {
  /** Handlebars source of the subject line */
  subject: string;
  /** Handlebars source of the HTML body */
  html: string;
  /** Handlebars source of the text body */
  text: string;
}

export interface OutgoingMail {
  template: string;
  to: string;
  cc?: string[];
  salesChannelId?: string | null;
  data: TemplateData;
  attachments?: Array<{ filename: string; documentId: string }>;
  /** A mail with the same key is never queued twice. */
  dedupeKey?: string;
}

/** One run of a job, as its handler is given it. */
export interface JobContext {
  /** The name the handler is registered under. */
  name: string;
  /** The queued job's id; null for a scheduled run (`jobs.schedule`), which has no row of its own. */
  id: string | null;
  /** Which attempt this is, from 1 (a failed job is retried later, a few times); 1 for a scheduled run. */
  attempt: number;
  /** What the job was queued with; `{}` for a scheduled run. */
  payload: JobPayload;
  /** The runtime of the plugin that registered the handler (its settings, its zone). */
  host: HostRuntime;
}

export type JobHandler = (job: JobContext) => Promise<void>;

/**
 * A file a storefront form sent (`enctype="multipart/form-data"`, an `<input type="file">`): it
 * arrives in the page's `form` under the input's name. A host without uploads sends none; pages keep
 * a text field for the same content (a pasted CSV).
 */
export interface StorefrontUpload {
  fileName: string;
  contentType: string;
  content: Buffer;
}

export interface StorefrontPage {
  path: string;
  method?: 'GET' | 'POST';
  /** 'public' or 'login' (redirects to the login form). */
  auth: 'public' | 'login';
  /**
   * The caller must hold one of these permission keys, else the host answers 403 before the
   * handler runs; the host links the page (account menu, product page, cart) only for callers who
   * may open it.
   */
  anyPermission?: string[];
  /** As on a Store API route: the actors that may open the page (absent: every actor `auth` admits); others get the 403 page. */
  actors?: StoreActorName[];
  /** As on a Store API route: the caller must act for a customer, else the 403 page. */
  needsCustomer?: boolean;
  /** Checked before the handler runs; a page may share a counter with a Store API route by using its name. */
  rateLimit?: RateLimitRule | RateLimitRule[];
  /**
   * Returns a template name under templates/storefront and its data, or a redirect. A redirect with
   * `login` (a context token from auth.createSession) logs the browser in: the host ends the
   * browser's previous session and keeps the token in the session cookie. A `file` is sent as a
   * download (attachment). `form` holds the posted fields as strings, and a chosen file as a
   * {@link StorefrontUpload}.
   */
  handler(input: {
    ctx: StoreContext;
    params: Record<string, string>;
    query: PageQuery;
    form: PageForm;
  }): Promise<
    | { template: string; data: TemplateData; status?: number }
    | { redirect: string; login?: { token: string } }
    | { file: { fileName: string; contentType: string; content: Buffer } }
  >;
}

/**
 * The operator who opened a console page: an administrator of the host (the reference host's admin
 * users; on Vendure an administrator with the plugin's permission), logged in to the console with a
 * cookie session.
 */
export interface ConsoleContext {
  requestId: string;
  ip: string;
  operator: {
    id: string;
    /** The login name the request log and the console's header show. */
    username: string;
    /** A read-only operator sees every page; the host refuses every change (a POST page with `changes` not false) with a 403. */
    readOnly: boolean;
  };
  /** The Admin API caller the console's in-process calls act as (`console.call`). */
  admin: AdminContext;
}

/** What a console page answers: a template under templates/console with its data, a redirect (with a notice for the next page), or a download. */
export type ConsolePageResult =
  | { template: string; data: TemplateData; status?: number }
  | { redirect: string; notice?: string }
  | { file: { fileName: string; contentType: string; content: Buffer } };

/**
 * A page of the operator's console. The host serves it under its console path (`console.basePath`),
 * behind its administrator login: no session → the login form; every POST carries the session's
 * CSRF token (else 403); a read-only operator's change (a POST whose `changes` is not false) is
 * refused with a 403 page before the handler runs; the request log names the operator.
 */
export interface ConsolePage {
  /** Relative to the console's path: '/' is the start page; named parameters as `:id`. */
  path: string;
  method?: 'GET' | 'POST';
  /** A POST that writes nothing (a preview): a read-only operator may send it. Default true for POST. */
  changes?: boolean;
  /** A GET page listed in the console's menu, by `position`. */
  menu?: { label: string; position: number };
  /** `form` holds the posted fields as strings and a chosen file as a {@link StorefrontUpload} (a host without uploads sends none). */
  handler(input: {
    ctx: ConsoleContext;
    params: Record<string, string>;
    query: PageQuery;
    form: PageForm;
  }): Promise<ConsolePageResult>;
}

/** The Admin API's JSON:API answers, as the host's routes below give them. */
export interface JsonApiList<A> {
  data: Array<{ id: string; type: string; attributes: A }>;
  meta: { total: number };
}
export interface JsonApiOne<A> {
  data: { id: string; type: string; attributes: A };
}

/** A customer as the host's Admin API answers it. */
export interface AdminCustomerAttributes {
  customerNumber: string;
  company: string | null;
  firstName: string;
  lastName: string;
  email: string;
  active: boolean;
  groupId: string | null;
}

/** An Admin API integration (client credentials); its secret only in the answer that creates it. */
export interface AdminIntegrationAttributes {
  clientId: string;
  label: string;
  createdAt: string;
}

/** A mail of the host's outbox and a job of its queue, as the ops routes list them. */
export interface AdminMailAttributes {
  template: string;
  recipient: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
}
export interface AdminJobAttributes {
  name: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  finishedAt: string | null;
}

interface FailedWork {
  query: { state: 'failed'; page?: number; limit?: number };
}

interface NamedSearch {
  body: { ids?: string[]; term?: string; page?: number; limit?: number };
}
interface Paged {
  query?: { page?: number; limit?: number };
}
interface ById {
  params: { id: string };
}

const hostRoute = <I, A>(operationId: string) => ({ operationId }) as RouteRef<I, A>;

/**
 * The host's own Admin API routes the console's pages call, as values for `console.call` and
 * `console.has`: their operationId with the input and answer the host gives. A host may serve only
 * some (`has` says which; a call of another answers 501 SUITE__NOT_SUPPORTED_BY_HOST).
 */
export const HOST_ADMIN_ROUTES = {
  readCustomer: hostRoute<ById, JsonApiOne<AdminCustomerAttributes>>('readCustomer'),
  searchCustomer: hostRoute<
    { body: { page?: number; limit?: number; term?: string; sort?: unknown } },
    JsonApiList<AdminCustomerAttributes>
  >('searchCustomer'),
  listCustomerGroup: hostRoute<Paged, JsonApiList<{ name: string }>>('listCustomerGroup'),
  listSalesChannel: hostRoute<Paged, JsonApiList<{ name: string }>>('listSalesChannel'),
  searchCategory: hostRoute<NamedSearch, JsonApiList<{ name: string }>>('searchCategory'),
  searchRule: hostRoute<NamedSearch, JsonApiList<{ name: string }>>('searchRule'),
  createRule: hostRoute<{ body: { name: string; conditions: unknown } }, JsonApiOne<{ name: string }>>('createRule'),
  deleteRule: hostRoute<ById, void>('deleteRule'),
  listIntegrations: hostRoute<Paged, JsonApiList<AdminIntegrationAttributes>>('listIntegrations'),
  createIntegration: hostRoute<
    { body: { label: string } },
    JsonApiOne<AdminIntegrationAttributes & { clientSecret: string }>
  >('createIntegration'),
  deleteIntegration: hostRoute<ById, void>('deleteIntegration'),
  listMailOutbox: hostRoute<FailedWork, JsonApiList<AdminMailAttributes>>('listMailOutbox'),
  retryMailOutbox: hostRoute<ById, void>('retryMailOutbox'),
  discardMailOutbox: hostRoute<ById, void>('discardMailOutbox'),
  listJobs: hostRoute<FailedWork, JsonApiList<AdminJobAttributes>>('listJobs'),
  retryJob: hostRoute<ById, void>('retryJob'),
  discardJob: hostRoute<ById, void>('discardJob'),
  readPluginConfig: hostRoute<Record<never, never>, PluginSettings>('readPluginConfig'),
  updatePluginConfig: hostRoute<{ body: PluginSettings }, PluginSettings>('updatePluginConfig'),
};

/** What a console call passes to the route; typed from the route by the plugin's caller. */
export interface ConsoleCallInput {
  /** The route's path parameters by name. */
  params?: Record<string, string>;
  /** The route's query (its schema checks it, as over HTTP). */
  query?: JsonObject;
  body?: unknown;
}

/** A declared Admin API route's answer to an in-process call. */
export interface ConsoleCallResult<T = unknown> {
  status: number;
  body: T;
}

/** One entry of the account menu an add-on provides; `path` null for a heading over its children. */
export interface AccountMenuEntry {
  key: string;
  label: string;
  path: string | null;
  children: AccountMenuEntry[];
}

/**
 * What the host announces to plugins. The host deletes its records; a plugin that keeps host ids
 * in its own tables (plain columns, no foreign keys to host tables) cleans them up here, as a
 * cascade of a foreign key would have. Payloads carry the host's opaque ids, in batches.
 */
export interface HostEvents {
  /** Customers were deleted (their addresses, carts, sessions and documents with them). */
  'customer.deleted': { ids: string[] };
  'customer_group.deleted': { ids: string[] };
  'product.deleted': { ids: string[] };
  /** Categories were deleted: the one asked for and the sub-categories deleted with it. */
  'category.deleted': { ids: string[] };
  'landing_page.deleted': { ids: string[] };
}

export type HostEventName = keyof HostEvents;

/** Runs inside the transaction of the change, after the host's rows are gone; a throw rolls the change back. */
export type HostEventHandler<E extends HostEventName> = (trx: Trx, payload: HostEvents[E]) => Promise<void>;

export interface HostRuntime {
  readonly contractVersion: string;
  readonly db: Db;
  readonly log: Logger;
  /** The plugin's configuration: plugin.json defaults overlaid by what the operator saved. */
  readonly config: { get<T = unknown>(key: string): Promise<T>; all(): Promise<PluginSettings> };

  readonly storeApi: {
    route(route: StoreRoute): void;
    /**
     * Where the Store API keeps Idempotency-Keys: a page calling an idempotent route in-process
     * passes its form's token, kept here, so a resubmitted form acts once. Optional for a host:
     * without it the token is not kept and a resubmitted form may act twice.
     */
    readonly idempotency?: IdempotencyStore;
  };
  readonly adminApi: { route(route: AdminRoute): void };

  readonly auth: {
    addLoginProvider(provider: LoginProvider): void;
    addContextEnricher(enricher: ContextEnricher): void;
    /** Reads this counter with every Store API context built after the call (register at load, before serving). */
    addContextVersion(source: ContextVersionSource): void;
    /**
     * The counter's value as read when `ctx` was built (0 when its row is missing); undefined when
     * the host did not read it (a context it did not build, a counter not added, a host without
     * it): read it yourself. Optional for a host, a performance hook: absent, the plugin reads the
     * counter itself.
     */
    contextVersion?(ctx: StoreContext, source: ContextVersionSource): number | undefined;
    /** Starts a session (e.g. after password-less login) and returns its context token. */
    createSession(
      trx: Executor,
      identity: LoginIdentity & { salesChannelId: string },
    ): Promise<{ token: string; sessionId: string }>;
    /** Revokes sessions of one actor (logout everywhere, deactivation, password change). */
    revokeActorSessions(executor: Executor, actorType: ActorType, actorId: string): Promise<number>;
    hashPassword(password: string): Promise<string>;
    verifyPassword(password: string, hash: string): Promise<boolean>;
  };

  readonly customers: {
    get(executor: Executor, id: string): Promise<CustomerRef | null>;
    /** Many customers by id, in the order of `ids`; unknown ids are absent. */
    getMany(executor: Executor, ids: string[]): Promise<CustomerRef[]>;
    findByEmail(executor: Executor, email: string): Promise<CustomerRef | null>;
    /** Customers by customer number (CSV imports); unknown numbers are absent. */
    findByNumbers(executor: Executor, customerNumbers: string[]): Promise<CustomerRef[]>;
    /** A page of the customers in `scope` by criteria (see CustomerScope). */
    search(executor: Executor, scope: CustomerScope, criteria: Criteria): Promise<ResultPage<CustomerRef>>;
    /** Creates a customer (account request accepted, CLI). */
    create(
      executor: Executor,
      input: {
        salesChannelId: string;
        email: string;
        password: string | null;
        firstName: string;
        lastName: string;
        company?: string | null;
        groupId?: string | null;
      },
    ): Promise<CustomerRef>;
    addresses(executor: Executor, customerId: string): Promise<CustomerAddress[]>;
    /** The ids of the customer's default addresses (null when none is set or the customer is unknown). */
    defaultAddressIds(
      executor: Executor,
      customerId: string,
    ): Promise<{ billing: string | null; shipping: string | null }>;
    setDefaultAddress(
      executor: Executor,
      customerId: string,
      type: 'billing' | 'shipping',
      addressId: string,
    ): Promise<boolean>;
    /**
     * Adds an address to the customer's address book and answers it in the shape of `addresses`;
     * null when the customer is unknown. A country the host does not know is an AppError 400
     * `SUITE__UNKNOWN_COUNTRY`. A host whose customer writes cannot join the caller's transaction
     * (Vendure) writes in its own; callers pass the root executor and compensate.
     */
    createAddress(executor: Executor, customerId: string, input: AddressInput): Promise<CustomerAddress | null>;
    /** Changes the given fields of one of the customer's addresses; null when it is not the customer's. */
    updateAddress(
      executor: Executor,
      customerId: string,
      addressId: string,
      input: Partial<AddressInput>,
    ): Promise<CustomerAddress | null>;
    /** Deletes one of the customer's addresses (no longer a default then); false when it is not the customer's. */
    deleteAddress(executor: Executor, customerId: string, addressId: string): Promise<boolean>;
    salesChannel(executor: Executor, id: string): Promise<SalesChannel | null>;
  };

  readonly customerGroups: {
    /** Customer groups by id, in the order of `ids`; unknown ids are absent. */
    getMany(executor: Executor, ids: string[]): Promise<CustomerGroupRef[]>;
  };

  readonly rules: {
    /** Ids of the rules a context matches, read through `executor` (a transaction sees the rules it wrote). */
    matchingRuleIds(executor: Executor, ctx: StoreContext): Promise<string[]>;
    exists(executor: Executor, ruleId: string): Promise<boolean>;
  };

  readonly catalog: {
    addVisibilityFilter(filter: VisibilityFilter): void;
    /** Adds a plugin's values to the product answers (see ProductExtension). Optional: a host without it leaves it out. */
    addProductExtension?(extension: ProductExtension): void;
    /**
     * Products by id that the context may see (active, visible); missing ids are absent from the
     * result. Records may be frozen (the reference host shares the records it keeps per process
     * between requests): copy one to change it.
     */
    visibleProducts(executor: Executor, ctx: StoreContext, ids: string[]): Promise<ProductRecord[]>;
    /** Products the context may see (active, visible) whose number is exactly one of `numbers`. */
    visibleProductsByNumber(executor: Executor, ctx: StoreContext, numbers: string[]): Promise<ProductRecord[]>;
    /** The field names product criteria accept (filters, sorts): the one allow-list of product fields. */
    readonly productCriteriaFields: readonly string[];
    /**
     * A page of active products by criteria (filter, sort, term, ids, paging, total), visible to
     * `ctx`; `ctx` null: every active product (sales staff tools). Reads through `executor`.
     */
    searchProducts(
      executor: Executor,
      ctx: StoreContext | null,
      criteria: Criteria,
      options?: ProductSearchOptions,
    ): Promise<ResultPage<ProductRecord>>;
    /**
     * The ids of `query.within` that match the filter and term, in the order of the sort (then id),
     * for lists the plugin keeps in its own tables. `ctx` given: only active products it may see;
     * null: any product. A frozen `within` (Object.freeze) that a plugin keeps and passes again may
     * be answered with the same frozen array while nothing visible changed: asking about the same
     * long list on every request then costs no pass over it.
     */
    productIds(executor: Executor, ctx: StoreContext | null, query: ProductIdQuery): Promise<string[]>;
    /** Per product, the minimum quantities of its tier prices (ascending); products without tiers are absent. */
    tierQuantities(executor: Executor, productIds: string[]): Promise<Map<string, number[]>>;
    /** Products by id regardless of visibility (for re-checks of stored snapshots). */
    products(executor: Executor, ids: string[]): Promise<ProductRecord[]>;
    entityVersionId(executor: Executor, entity: CatalogEntity, id: string): Promise<string | null>;
    /** Of the given ids of one entity, those that are active and that the context may see. */
    visibleEntityIds(executor: Executor, ctx: StoreContext, entity: CatalogEntity, ids: string[]): Promise<string[]>;
    /** Product ids by product number (CSV imports); unknown numbers are absent. */
    productIdsByNumbers(
      executor: Executor,
      productNumbers: string[],
    ): Promise<Array<{ id: string; productNumber: string }>>;
    /**
     * The variant family of a product: `productId` names the main product or one of its variants.
     * Null when that product or its main product is unknown, inactive or hidden from the context
     * (so a hidden product answers like an unknown one); hidden or inactive variants are left out.
     */
    variants(executor: Executor, ctx: StoreContext, productId: string): Promise<VariantFamily | null>;
    /**
     * The active products the context may see that share the most property values with the product,
     * most shared first (then product number, id), at most `limit`; the product's own variant
     * family (its main product and variants) is left out. Null when the product is unknown,
     * inactive or hidden from the context. `properties` are the product's own property values.
     */
    propertySimilarProducts(
      executor: Executor,
      ctx: StoreContext,
      productId: string,
      options: { limit: number },
    ): Promise<{ properties: PropertyValue[]; products: SimilarProduct[] } | null>;
    /** Called when something that changes visibility changed (cache invalidation across processes). */
    visibilityChanged(executor: Executor): Promise<void>;
    /**
     * A counter that changes whenever visibility changes on any process; cache keys include it.
     * With `ctx`: the value read when the request's context was built, without another read. A
     * performance hook, optional for a host: without it a plugin keeps no visibility cache and asks
     * its tables on every request.
     */
    visibilityVersion?(executor: Executor, ctx?: StoreContext): Promise<number>;
  };

  readonly prices: {
    addPriceProvider(provider: PriceProvider): void;
    /** Adds a price gate (see PriceGate). Optional: a host without it shows prices to everyone. */
    addPriceGate?(gate: PriceGate): void;
    calculate(
      executor: Executor,
      ctx: StoreContext,
      product: ProductRecord,
      quantity: number,
    ): Promise<CalculatedPrice>;
    /** The same for many lines at once (tier prices read in one query), in the order given. */
    calculateMany(
      executor: Executor,
      ctx: StoreContext,
      items: Array<{ product: ProductRecord; quantity: number }>,
    ): Promise<CalculatedPrice[]>;
  };

  readonly cart: {
    addLineItemProcessor(processor: LineItemProcessor): void;
    /**
     * The carts of these customers that hold lines and were neither ordered nor changed since
     * `idleSince`, the most recently changed first, at most `limit`. Optional: a host without it
     * has no abandoned-cart list (the sales representative's route answers 501).
     */
    abandoned?(executor: Executor, customerIds: string[], idleSince: Date, limit: number): Promise<AbandonedCart[]>;
    /** The context's cart (created on first use). */
    current(executor: Executor, ctx: StoreContext): Promise<Cart>;
    get(executor: Executor, token: string): Promise<Cart | null>;
    /**
     * Adds items to the context's cart and answers the cart: inside `executor` when it is a
     * transaction, else in a transaction of its own (retried on contention); visibility and the
     * line-item processors ('add') run on it. A host whose cart writes cannot join the caller's
     * transaction (Vendure: `addItemToOrder`) writes in its own and reads through `executor`:
     * callers pass the root executor there.
     */
    addLineItems(
      executor: Executor,
      ctx: StoreContext,
      items: Array<{ type?: string; productId: string; quantity: number; payload?: LinePayload }>,
    ): Promise<Cart>;
    /**
     * Prices every line of a cart the host keeps for the context (visibility and line-item processors
     * applied). A host may read the lines by the cart's token (Vendure: the order's lines, as it will
     * charge them); lines no cart holds are priced by `priceLines`.
     */
    price(
      executor: Executor,
      ctx: StoreContext,
      cart: Cart,
    ): Promise<{ lines: PriceLine[]; netTotal: number; taxTotal: number; total: number }>;
    /**
     * Prices lines no cart holds (a recurring order's items) for the context as `price` prices a
     * cart's: only the products the context may see today (the others are left out), at the
     * context's prices (price providers, tiers by quantity); each PriceLine's `lineItemId` is the
     * item's `id`. Optional: without it the plugin prices such lines as a cart with a token of its
     * own, which only a host that prices the given lines (the reference host) answers.
     */
    priceLines?(
      executor: Executor,
      ctx: StoreContext,
      items: CartLineItem[],
    ): Promise<{ lines: PriceLine[]; netTotal: number; taxTotal: number; total: number }>;
  };

  readonly checkout: {
    addInterceptor(interceptor: CheckoutInterceptor): void;
    onOrderPlaced(hook: OrderPlacedHook): void;
    /** Called when a placed order is cancelled, in the cancelling transaction. */
    onOrderCancelled(hook: OrderCancelledHook): void;
    /**
     * Adds a payment method to the sales channels' lists (the Store API's /payment-method) that
     * orders may name; interceptors see it on the draft and may refuse. Optional: a host whose
     * payment methods are configured elsewhere leaves it out.
     */
    addPaymentMethod?(method: PaymentMethodDefinition): void;
    /**
     * The sales channel's methods of a kind: payment methods include those plugins added (all of
     * them, whatever their `available` answers). Optional: a host without it offers no choice the
     * plugin can name (the allowed methods per unit are then not settable).
     */
    methods?(executor: Executor, ctx: StoreContext, kind: CheckoutMethodKind): Promise<CheckoutMethodRef[]>;
    /** Adds a restriction the host applies to its method lists (see CheckoutMethodRestriction). Optional. */
    addMethodRestriction?(restriction: CheckoutMethodRestriction): void;
    /**
     * Places an order: inside `executor` when it is a transaction, else in a transaction of its own
     * (retried on contention). Interceptors, processors and hooks run inside it.
     */
    placeOrder(executor: Executor, ctx: StoreContext, options: PlaceOrderOptions): Promise<PlacedOrder>;
  };

  /**
   * Orders as OrderRecords (amounts in minor units). A host may answer records it keeps and shares
   * between requests (the reference host does outside transactions, frozen): read them, copy to change.
   */
  readonly orders: {
    /** The order, or null. */
    get(executor: Executor, id: string): Promise<OrderRecord | null>;
    /** Many orders, in the order of `ids`; unknown ids are absent. */
    getMany(executor: Executor, ids: string[]): Promise<OrderRecord[]>;
    /** A page of the orders in `scope` by criteria (see OrderScope). */
    search(executor: Executor, scope: OrderScope, criteria: Criteria): Promise<ResultPage<OrderRecord>>;
    /** Whether the order exists and belongs to the customer. */
    belongsTo(executor: Executor, orderId: string, customerId: string): Promise<boolean>;
    /**
     * Order count, net revenue and last order date per customer (only customers with orders are
     * listed), cancelled orders excluded; `period` bounds the order date, both ends inclusive.
     */
    figuresByCustomer(
      executor: Executor,
      customerIds: string[],
      period?: { from?: string; to?: string },
    ): Promise<CustomerOrderFigures[]>;
    /**
     * Order count and net revenue (minor units) of one customer per period, in the order of
     * `periods`; each period is [from, to) (UTC ISO-8601), cancelled orders excluded.
     */
    figuresByPeriod(
      executor: Executor,
      customerId: string,
      periods: Array<{ from: string; to: string }>,
    ): Promise<Array<{ orderCount: number; netTotal: number }>>;
    /** The customer's latest order with a line of the product, and that line; null when none. */
    latestWithProduct(
      executor: Executor,
      input: { customerId: string; productId: string; placedBy?: PlacedBy },
    ): Promise<{ orderId: string; lineItemId: string } | null>;
    /**
     * The products a customer ordered (only orders placed by `placedBy` when given; cancelled
     * orders excluded), the most recently ordered first, at most `limit` of them.
     */
    orderedProductIds(
      executor: Executor,
      query: { customerId: string; placedBy?: PlacedBy; limit: number },
    ): Promise<OrderedProduct[]>;
  };

  readonly documents: {
    /** Renders a PDF from a title and blocks of text/tables and stores it; returns the document id and file name. */
    createPdf(
      executor: Executor,
      input: {
        type: string;
        number: string;
        customerId: string | null;
        orderId?: string | null;
        title: string;
        lines: Array<{ text: string } | { table: string[][] }>;
      },
    ): Promise<{ id: string; fileName: string }>;
    get(
      executor: Executor,
      id: string,
    ): Promise<{
      id: string;
      fileName: string;
      mimeType: string;
      content: Buffer;
      customerId: string | null;
      orderId: string | null;
      type: string;
      number: string;
      createdAt: string;
    } | null>;
    /** Documents by id without their content, in the order of `ids`; unknown ids are absent. */
    getMeta(executor: Executor, ids: string[]): Promise<DocumentSummary[]>;
    /** A page of the documents in `scope` by criteria (see DocumentScope), without content. */
    search(executor: Executor, scope: DocumentScope, criteria: Criteria): Promise<ResultPage<DocumentSummary>>;
  };

  readonly cms: {
    /** A CMS page with the ids of the categories and landing pages that use it, or null. */
    get(executor: Executor, id: string): Promise<CmsPageRecord | null>;
  };

  readonly mail: {
    /** Writes the mail to the outbox inside the caller's transaction; a job sends it. */
    enqueue(executor: Executor, mail: OutgoingMail): Promise<void>;
    /** The names of the registered templates (the host's and the plugin's), sorted. Optional for a host. */
    templateNames?(): string[];
    /** A registered template's Handlebars sources; null for an unknown name. Optional for a host. */
    templateSource?(name: string): MailTemplate | null;
    /**
     * Renders a registered template with `data` as sending would (subject, HTML, text), without
     * queueing anything; null for an unknown name. The console previews mail templates with it.
     * Optional for a host.
     */
    render?(name: string, data: TemplateData): { subject: string; html: string; text: string } | null;
  };

  readonly jobs: {
    register(name: string, handler: JobHandler): void;
    /** A recurring job, claimed by one process per run. */
    schedule(name: string, everySeconds: number): void;
  };

  readonly storefront: {
    page(page: StorefrontPage): void;
    /** A link into the storefront on the sales channel's first configured domain. */
    url(salesChannel: SalesChannel, path: string): string;
    /**
     * The account page shows the menu this provider builds for the visitor (what their permissions
     * allow); the host leaves out entries whose page is not mounted, and headings left empty.
     */
    accountMenu(provider: (ctx: StoreContext) => Promise<AccountMenuEntry[]>): void;
    /**
     * Whether the storefront has a GET page at `path` that the caller may open: a link to it ends
     * neither in a 404 nor in a 401/403. A host whose storefront is a separate theme it cannot see
     * answers true (the theme owns its pages). A query string or fragment in `path` is ignored.
     * It takes no executor: the answer is the registered pages' gates (auth, actors, permissions)
     * applied to the context, read from memory, synchronously, without a database.
     */
    mayOpen(ctx: StoreContext, path: string): boolean;
  };

  readonly events: {
    on<E extends HostEventName>(event: E, handler: HostEventHandler<E>): void;
  };

  /**
   * The operator's console: pages the plugin registers, served by the host behind its administrator
   * login (see ConsolePage), and the one way those pages act: `call` runs a declared Admin API
   * route in-process through the host's pipeline as the operator's admin caller — the route's
   * schemas (400), handler and error codes, as over HTTP. It resolves with the status and body of a
   * success and rejects with the route's AppError. The route is given as a value — a declaration of
   * the plugin's or one of {@link HOST_ADMIN_ROUTES} — and the host runs the route it serves under
   * that value's operationId; the input and answer are typed from it. A bare operationId is
   * accepted too (untyped, deprecated). Optional: a host without a console leaves it out and the
   * plugin registers no pages.
   */
  readonly console?: {
    page(page: ConsolePage): void;
    call<R extends CallableRoute>(
      ctx: ConsoleContext,
      route: R,
      input?: ConsoleCallInput,
    ): Promise<ConsoleCallResult<AnswerOf<R>>>;
    /** @deprecated Give the route (a declaration or a HOST_ADMIN_ROUTES entry), not its operationId. */
    call<T = unknown>(
      ctx: ConsoleContext,
      operationId: string,
      input?: ConsoleCallInput,
    ): Promise<ConsoleCallResult<T>>;
    /** Whether the host's Admin API serves the route (a value or a bare operationId): a page links only to what exists. */
    has(route: { readonly operationId: string } | string): boolean;
    /** Where the host serves the console ('/b2b-admin' on the reference host). */
    readonly basePath: string;
  };

  /** Sequential human-readable numbers (order, offer, document numbers) safe across processes. */
  nextNumber(executor: Executor, range: string, prefix?: string): Promise<string>;
}

/** What a plugin's entry module exports as default. */
export interface HostPlugin {
  name: string;
  register(host: HostRuntime): Promise<void>;
  /** Adds the plugin's demo records (employees, budgets, events …) for a demo customer. */
  seedDemo?(host: HostRuntime, demo: DemoShop): Promise<string[]>;
}

/** What the host's demo seed created, for plugins to build on. */
export interface DemoShop {
  salesChannelId: string;
  customerId: string;
  customerEmail: string;
  productIds: string[];
  categoryIds: string[];
}

export type { Db, Executor, Trx };
