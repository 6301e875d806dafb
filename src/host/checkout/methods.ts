import { createHash } from 'node:crypto';
import { objectSchema } from '../../lib/schemas.js';
import { storeListOf, storeListResponse } from '../../lib/store-list.js';
import type { Executor } from '../../lib/db.js';
import type { PaymentMethodDefinition, StoreContext, StoreRoute } from '../contract.js';

/**
 * The shipping and payment methods of the reference host: one of each, the same in every sales
 * channel (orders are delivered by 'standard' and paid by 'invoice'). Named here once for the order
 * views and the method lists.
 */
export const SHIPPING_METHODS: Record<string, string> = { standard: 'Standard' };
export const PAYMENT_METHODS: Record<string, string> = { invoice: 'Invoice' };
export const DEFAULT_PAYMENT_METHOD = 'invoice';

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

/** The plugins' payment methods offered to the caller (contract 3.6: a method's `available`, absent: offered to all). */
async function offeredMethods(
  added: readonly PaymentMethodDefinition[],
  ctx: StoreContext,
  executor: Executor,
): Promise<PaymentMethodDefinition[]> {
  const offered: PaymentMethodDefinition[] = [];
  for (const method of added) if (!method.available || (await method.available(executor, ctx))) offered.push(method);
  return offered;
}

/** `POST /shipping-method` and `POST /payment-method` as the shop platform's Store API answers them (guests may call them). */
export function methodRoutes(
  addedPaymentMethods: readonly PaymentMethodDefinition[],
  executor: Executor,
): StoreRoute[] {
  return [
    {
      method: 'POST',
      path: '/shipping-method',
      operationId: 'listShippingMethods',
      summary:
        "The sales channel's shipping methods (the platform's list envelope, elements with apiAlias shipping_method).",
      tags: ['Checkout'],
      auth: 'public',
      permission: null,
      schemas: { body: methodListBody, responses: { 200: storeListResponse(methodSchema('shipping_method')) } },
      handler: () => Promise.resolve(list('shipping_method', SHIPPING_METHODS)),
    },
    {
      method: 'POST',
      path: '/payment-method',
      operationId: 'listPaymentMethods',
      summary:
        "The sales channel's payment methods (the platform's list envelope, elements with apiAlias payment_method).",
      tags: ['Checkout'],
      auth: 'public',
      permission: null,
      schemas: { body: methodListBody, responses: { 200: storeListResponse(methodSchema('payment_method')) } },
      handler: async ({ ctx }) =>
        list('payment_method', paymentMethodNames(await offeredMethods(addedPaymentMethods, ctx, executor))),
    },
  ];
}
