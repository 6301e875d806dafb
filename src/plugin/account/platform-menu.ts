import type { TypedSchema } from '../../lib/routes.js';
import { emptyBody, nullable, objectSchema } from '../../lib/schemas.js';
import { defineStoreRoute, type HostRuntime, type StoreContext } from '../../contract/index.js';
import { snippetMap, TAG } from './snippets.js';
import { storeListOf, storeListResponse } from '../../lib/store-list.js';

interface MenuDefinition {
  key: string;
  path: string | null;
  /** Shown when the caller holds any of these keys; absent: everyone logged in. */
  anyOf?: string[];
  /** Only for these kinds of login. */
  actors?: Array<StoreContext['actor']['type']>;
  /** The label when the sales channel's language has no snippet for the entry. */
  label?: string;
  children?: MenuDefinition[];
}

/** The B2B account menu. An entry without a path of its own is shown only while one of its children is. */
export const PLATFORM_MENU: readonly MenuDefinition[] = [
  { key: 'overview', path: '/account' },
  {
    key: 'company',
    path: null,
    children: [
      { key: 'employees', path: '/account/employees', anyOf: ['employee.read'] },
      { key: 'roles', path: '/account/roles', anyOf: ['role.read'] },
      { key: 'invitations', path: '/account/invitations', anyOf: ['invitation.manage'] },
      {
        key: 'organisationUnits',
        path: '/account/organisation-units',
        anyOf: ['organisation-unit.read'],
        // The company's own structure: a sales representative acting for the company does not maintain it.
        actors: ['customer', 'employee'],
        label: 'Organisation units',
      },
      {
        key: 'addressBook',
        path: '/account/address-book',
        anyOf: ['address.manage'],
        actors: ['customer', 'employee'],
        label: 'Address book',
      },
    ],
  },
  {
    key: 'ordering',
    path: null,
    children: [
      { key: 'orders', path: '/account/orders', anyOf: ['orders.read'] },
      {
        key: 'orderApprovals',
        path: '/account/order-approvals',
        anyOf: ['order-approval.request', 'order-approval.approve'],
      },
      {
        key: 'approvalRules',
        path: '/account/approval-rules',
        anyOf: ['order-approval.manage-rules'],
        // The company's own approval policy: a sales representative acting for the company does not set it.
        actors: ['customer', 'employee'],
        label: 'Approval rules',
      },
      { key: 'budgets', path: '/account/budgets', anyOf: ['budget.read'] },
      { key: 'fastOrder', path: '/account/fast-order', anyOf: ['orders.create'] },
      { key: 'productLists', path: '/account/product-lists', anyOf: ['product-list.manage'] },
      {
        key: 'myAssortment',
        path: '/account/assortment',
        anyOf: ['orders.read-all', 'orders.create'],
        label: 'My assortment',
      },
      {
        key: 'frequentlyOrdered',
        path: '/account/frequently-ordered',
        anyOf: ['orders.read-all', 'orders.create'],
        label: 'Frequently ordered',
      },
      {
        key: 'recurringOrders',
        path: '/account/recurring-orders',
        anyOf: ['recurring-orders.manage'],
        // A buyer's own schedule: a sales representative acting for the company does not keep one.
        actors: ['customer', 'employee'],
        label: 'Recurring orders',
      },
      {
        key: 'customerProductNumbers',
        path: '/account/customer-product-numbers',
        anyOf: ['customer-product-number.manage'],
      },
      { key: 'customerPrices', path: '/account/customer-prices', anyOf: ['orders.create'], label: 'Your prices' },
      { key: 'offers', path: '/account/offers', anyOf: ['offer.request', 'offer.read'] },
      { key: 'documents', path: '/account/documents', anyOf: ['orders.read'] },
      { key: 'expressCheckout', path: '/account/express-checkout', anyOf: ['orders.create'] },
    ],
  },
  { key: 'events', path: '/account/events', anyOf: ['event.register'] },
  {
    key: 'salesRepresentative',
    path: null,
    actors: ['salesRepresentative'],
    children: [
      { key: 'customers', path: '/account/sales-representative/customers' },
      { key: 'customerActivities', path: '/account/sales-representative/activities' },
      { key: 'salesStatistics', path: '/account/sales-representative/statistics' },
      { key: 'abandonedCarts', path: '/account/sales-representative/abandoned-carts', label: 'Abandoned carts' },
      { key: 'eventManager', path: '/account/event-manager', label: 'Event management' },
    ],
  },
];

export const MAX_MENU_DEPTH = 5;

interface MenuEntry {
  id: string;
  key: string;
  label: string;
  snippetKey: string;
  path: string | null;
  level: number;
  childCount: number;
  children: MenuEntry[];
}

/** What the operator configured (plugin config `accountMenuOrder`, `accountMenuLabels`, `accountMenuHidden`). */
export interface MenuCustomisation {
  order: string[];
  labels: Record<string, string>;
  hidden: string[];
}

/** One read of the settings (each `config.get` reads them all again). */
export async function menuCustomisation(host: HostRuntime): Promise<MenuCustomisation> {
  const settings = await host.config.all();
  return {
    order: (settings.accountMenuOrder as string[] | undefined) ?? [],
    labels: (settings.accountMenuLabels as Record<string, string> | undefined) ?? {},
    hidden: (settings.accountMenuHidden as string[] | undefined) ?? [],
  };
}

function allowed(ctx: StoreContext, entry: MenuDefinition, mayOpen: (path: string) => boolean): boolean {
  if (entry.actors && !entry.actors.includes(ctx.actor.type)) return false;
  if (entry.anyOf && !entry.anyOf.some((key) => ctx.can(key))) return false;
  // No entry may lead to a page the storefront does not have or the caller may not open.
  return entry.path === null || mayOpen(entry.path);
}

/** The operator's keys first, in their order; the rest keep the suite's order (a stable sort). */
function inOperatorOrder(entries: readonly MenuDefinition[], order: string[]): MenuDefinition[] {
  const rank = (entry: MenuDefinition): number => {
    const index = order.indexOf(entry.key);
    return index === -1 ? order.length : index;
  };
  return [...entries].sort((a, b) => rank(a) - rank(b));
}

/**
 * The entries the caller may see, nested down to `depth` (1 = top level only): allowed by the
 * caller's permissions and login kind, leading to a page the storefront has, arranged and labelled
 * as the operator configured.
 */
export function buildMenu(
  ctx: StoreContext,
  labels: Map<string, string>,
  depth: number,
  options: { mayOpen: (path: string) => boolean; customisation: MenuCustomisation },
): MenuEntry[] {
  const { order, labels: operatorLabels, hidden } = options.customisation;
  const build = (entries: readonly MenuDefinition[], level: number): MenuEntry[] =>
    inOperatorOrder(entries, order).flatMap((entry) => {
      if (hidden.includes(entry.key) || !allowed(ctx, entry, options.mayOpen)) return [];
      const children = build(entry.children ?? [], level + 1);
      if (entry.path === null && children.length === 0) return [];
      const snippetKey = `b2b.menu.${entry.key}`;
      const label = operatorLabels[entry.key] ?? labels.get(snippetKey) ?? entry.label ?? entry.key;
      return [
        {
          id: entry.key,
          key: entry.key,
          label,
          snippetKey,
          path: entry.path,
          level,
          childCount: children.length,
          children: level < depth ? children : [],
        },
      ];
    });
  return build(PLATFORM_MENU, 1);
}

/** An entry of the operator's preview: every entry of the suite, arranged and labelled as configured, hidden ones marked. */
export interface MenuPreviewEntry {
  key: string;
  label: string;
  path: string | null;
  hidden: boolean;
  /** Only for these kinds of login (absent: everyone logged in). */
  actors: string[] | null;
  children: MenuPreviewEntry[];
}

/** 'organisationUnits' → 'Organisation units' (the preview's label where the settings name none; shops show their snippets). */
function humanised(key: string): string {
  const words = key.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words[0]!.toUpperCase() + words.slice(1);
}

/**
 * The account menu as the settings arrange it, for the operator's console: the order, the labels
 * (else the entry's default label, else its key) and which entries are hidden (a hidden heading
 * hides its children), before any caller's permissions narrow it.
 */
export function menuPreview(customisation: MenuCustomisation): MenuPreviewEntry[] {
  const build = (entries: readonly MenuDefinition[], parentHidden: boolean): MenuPreviewEntry[] =>
    inOperatorOrder(entries, customisation.order).map((entry) => {
      const hidden = parentHidden || customisation.hidden.includes(entry.key);
      return {
        key: entry.key,
        label: customisation.labels[entry.key] ?? entry.label ?? humanised(entry.key),
        path: entry.path,
        hidden,
        actors: entry.actors ?? null,
        children: build(entry.children ?? [], hidden),
      };
    });
  return build(PLATFORM_MENU, false);
}

/**
 * Spelled out per level (no recursive $ref, so the OpenAPI document stays self-contained); FromSchema
 * cannot read a schema built by recursion, so it states its type.
 */
function entrySchema(level: number): TypedSchema<MenuEntry> {
  const schema = objectSchema(
    {
      id: { type: 'string', description: 'The entry key: list elements carry an id.' },
      key: { type: 'string' },
      label: { type: 'string' },
      snippetKey: { type: 'string' },
      path: nullable({ type: 'string' }),
      level: { const: level },
      childCount: { type: 'integer', minimum: 0 },
      children:
        level < MAX_MENU_DEPTH ? { type: 'array', items: entrySchema(level + 1) } : { type: 'array', maxItems: 0 },
    },
    ['id', 'key', 'label', 'snippetKey', 'path', 'level', 'childCount', 'children'],
  );
  return schema as unknown as TypedSchema<MenuEntry>;
}
const menuResponse = storeListResponse(entrySchema(1));
const depthQuery = objectSchema({ depth: { type: 'integer', minimum: 1, maximum: MAX_MENU_DEPTH } }, ['depth']);

export function platformMenuRoutes(host: HostRuntime) {
  /** The GET and POST declarations share this. */
  const menu = async (ctx: StoreContext, depth: number) => {
    const [labels, customisation] = await Promise.all([snippetMap(host.db, ctx.salesChannel), menuCustomisation(host)]);
    return storeListOf(
      buildMenu(ctx, labels, depth, { mayOpen: (path) => host.storefront.mayOpen(ctx, path), customisation }),
    );
  };
  const common = {
    path: '/b2b/platform-menu',
    summary:
      'The account menu entries the caller’s permissions allow, labelled in the sales channel’s language, nested down to `depth`.',
    description:
      '`childCount` tells how many children an entry has even where `depth` cut them off. Only entries whose storefront page exists and that the caller may open are listed; ' +
      'the operator arranges, relabels and hides entries with the plugin settings `accountMenuOrder`, `accountMenuLabels` and `accountMenuHidden`.',
    tags: [TAG],
    auth: 'login' as const,
    permission: null,
  };
  return [
    defineStoreRoute({
      ...common,
      method: 'GET',
      operationId: 'readPlatformMenu',
      schemas: { query: depthQuery, responses: { 200: menuResponse } },
      handler: ({ ctx, query }) => menu(ctx, query.depth),
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      operationId: 'readPlatformMenuByPost',
      schemas: { query: depthQuery, body: emptyBody, responses: { 200: menuResponse } },
      handler: ({ ctx, query }) => menu(ctx, query.depth),
    }),
  ];
}
