import { createHash } from 'node:crypto';
import { objectSchema } from '../../lib/schemas.js';
import { storeListOf, storeListResponse } from '../../lib/store-list.js';
import type { Executor } from '../../lib/db.js';
import {
  defineStoreRoute,
  type CheckoutMethodKind,
  type CheckoutMethodRef,
  type PaymentMethodDefinition,
  type StoreContext,
} from '../../contract/index.js';
import { allowedMethods, type PluginRegistries } from '../../host-kit/registries.js';

/**
 * The shipping and payment methods of the reference host, the same in every sales channel (orders
 * are delivered by 'standard' and paid by 'invoice' unless they name another). The host charges no
 * shipping costs, so the shipping methods differ only in name. Named here once for the order views
 * and the method lists.
 */
export const SHIPPING_METHODS: Record<string, string> = { standard: 'Standard', express: 'Express' };
export const PAYMENT_METHODS: Record<string, string> = { invoice: 'Invoice' };
export const DEFAULT_PAYMENT_METHOD = 'invoice';
export const DEFAULT_SHIPPING_METHOD = 'standard';

/** The host's payment methods followed by those plugins added (contract 3.5), by technical name. */
export function paymentMethodNames(added: readonly PaymentMethodDefinition[]): Record<string, string> {
  return { ...PAYMENT_METHODS, ...Object.fromEntries(added.map((method) => [method.technicalName, method.name])) };
}

/** A method has no row of its own: its id is derived from its kind and technical name, so it stays the same across processes and restarts. */
export function methodId(kind: 'shipping_method' | 'payment_method', technicalName: string): string {
  return createHash('md5').update(`${kind}:${technicalName}`).digest('hex');
}

function methodView(kind: 'shipping_method' | 'payment_method', technicalName: string, name: string, position: number) {
  return {
    id: methodId(kind, technicalName),
    technicalName,
    name,
    description: null,
    active: true,
    position,
    translated: { name, description: null },
    apiAlias: kind,
  };
}

const methodSchema = (kind: string) =>
  objectSchema(
    {
      id: { type: 'string' },
      technicalName: { type: 'string' },
      name: { type: 'string' },
      description: { type: 'null' },
      active: { type: 'boolean' },
      position: { type: 'integer' },
      translated: { type: 'object' },
      apiAlias: { const: kind },
    },
    ['id', 'technicalName', 'name', 'active', 'position', 'apiAlias'],
  );

/**
 * The platform's method routes take a criteria body and `onlyAvailable` (leave out methods the
 * cart's rules exclude); the host has no such rules, so every method is available and they are all answered.
 */
const methodListBody = objectSchema({
  onlyAvailable: { type: 'boolean' },
  page: { type: 'integer', minimum: 1 },
  limit: { type: 'integer', minimum: 1, maximum: 500 },
  includes: { type: 'object' },
  associations: { type: 'object' },
});

const list = (kind: 'shipping_method' | 'payment_method', methods: Record<string, string>) =>
  storeListOf(
    Object.entries(methods).map(([technicalName, name], index) => methodView(kind, technicalName, name, index + 1)),
  );

const refsOf = (methods: Record<string, string>): CheckoutMethodRef[] =>
  Object.entries(methods).map(([technicalName, name]) => ({ technicalName, name }));

/** (4.1) The sales channel's methods of a kind: payment methods with those plugins added. */
export function channelMethods(registries: PluginRegistries, kind: CheckoutMethodKind): CheckoutMethodRef[] {
  return refsOf(kind === 'shipping' ? SHIPPING_METHODS : paymentMethodNames(registries.paymentMethods));
}

/**
 * The methods of a kind offered to the caller: a plugin payment method only where its `available`
 * admits the caller (contract 3.6), and only what the plugins' restrictions allow (4.1).
 */
async function offeredMethods(
  registries: PluginRegistries,
  kind: CheckoutMethodKind,
  ctx: StoreContext,
  executor: Executor,
): Promise<Record<string, string>> {
  const allowed = await allowedMethods(registries, executor, ctx, kind);
  const offered: Record<string, string> = {};
  for (const { technicalName, name } of channelMethods(registries, kind)) {
    if (allowed && !allowed.has(technicalName)) continue;
    const added = kind === 'payment' && registries.paymentMethods.find((m) => m.technicalName === technicalName);
    if (added && added.available && !(await added.available(executor, ctx))) continue;
    offered[technicalName] = name;
  }
  return offered;
}

/** `POST /shipping-method` and `POST /payment-method` as the shop platform's Store API answers them (guests may call them). */
export function methodRoutes(registries: PluginRegistries, executor: Executor) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/shipping-method',
      operationId: 'listShippingMethods',
      summary:
        "The sales channel's shipping methods offered to the caller (the platform's list envelope, elements with apiAlias shipping_method).",
      tags: ['Checkout'],
      auth: 'public',
      permission: null,
      schemas: { body: methodListBody, responses: { 200: storeListResponse(methodSchema('shipping_method')) } },
      handler: async ({ ctx }) => list('shipping_method', await offeredMethods(registries, 'shipping', ctx, executor)),
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/payment-method',
      operationId: 'listPaymentMethods',
      summary:
        "The sales channel's payment methods offered to the caller (the platform's list envelope, elements with apiAlias payment_method).",
      tags: ['Checkout'],
      auth: 'public',
      permission: null,
      schemas: { body: methodListBody, responses: { 200: storeListResponse(methodSchema('payment_method')) } },
      handler: async ({ ctx }) => list('payment_method', await offeredMethods(registries, 'payment', ctx, executor)),
    }),
  ];
}
