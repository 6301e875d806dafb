import { randomUUID } from 'node:crypto';
import { newId } from '../../src/lib/ids.js';
import { nowDb } from '../../src/lib/time.js';
import type { Actor, CustomerRef, StoreContext } from '../../src/contract/index.js';
import { inZone } from '../../src/host/plugins/zones.js';
import { getShop, http } from './shop.js';

export interface TestProduct {
  id: string;
  number: string;
  name: string;
}

/** A product row straight in the catalog tables: 10.00 net, 19 % tax, 100 in stock unless told. */
export async function insertProduct(
  input: {
    name?: string;
    priceNet?: number;
    stock?: number;
    active?: boolean;
    taxRateBp?: number;
    tiers?: Array<[number, number]>;
  } = {},
): Promise<TestProduct> {
  const db = (await getShop()).db;
  const id = newId();
  const number = `CO-${id.slice(0, 12)}`;
  const name = input.name ?? `Product ${id.slice(0, 6)}`;
  await db('products').insert({
    id,
    version_id: newId(),
    product_number: number,
    name,
    description: null,
    stock: input.stock ?? 100,
    active: input.active ?? true,
    tax_rate_bp: input.taxRateBp ?? 1900,
    price_net: input.priceNet ?? 1000,
    created_at: nowDb(),
  });
  for (const [minQuantity, priceNet] of input.tiers ?? [])
    await db('product_tier_prices').insert({
      id: newId(),
      product_id: id,
      min_quantity: minQuantity,
      price_net: priceNet,
    });
  return { id, number, name };
}

export async function productStock(id: string): Promise<number> {
  const row = await (await getShop()).db('products').where({ id }).first('stock');
  return Number(row.stock);
}

export async function addToCart(token: string, items: Array<Record<string, unknown>>) {
  return (await http()).post('/store-api/checkout/cart/line-item').set('suite-context-token', token).send({ items });
}

export async function placeOrder(token: string, body: Record<string, unknown> = {}) {
  return (await http()).post('/store-api/checkout/order').set('suite-context-token', token).send(body);
}

/** A Store API context for calling the runtime directly (what a plugin gets in a route handler). */
export async function storeContextFor(customer: CustomerRef, actor?: Actor): Promise<StoreContext> {
  const shop = await getShop();
  const salesChannel = (await shop.runtime.customers.salesChannel(shop.db, customer.salesChannelId))!;
  const ctx: StoreContext = {
    requestId: randomUUID(),
    ip: '127.0.0.1',
    token: null,
    sessionId: null,
    salesChannel,
    customer,
    actor: actor ?? {
      type: 'customer',
      id: customer.id,
      name: `${customer.firstName} ${customer.lastName}`,
      email: customer.email,
    },
    attributes: {},
    employee: null,
    salesRepresentative: null,
    permissions: 'all',
    can: () => true,
    // Host code a plugin reaches through the context: in the host's zone, as the host's own contexts run it.
    ruleIds: inZone('host', () => shop.runtime.rules.matchingRuleIds(shop.db, ctx)),
  };
  return ctx;
}

let permissionEnricherRegistered = false;

/**
 * A customer session whose permissions are narrowed to `permissions` (as the employee add-on does
 * for employees), through a context enricher that only touches sessions marked this way.
 */
export async function sessionWithPermissions(customer: CustomerRef, permissions: string[]): Promise<string> {
  const shop = await getShop();
  if (!permissionEnricherRegistered) {
    permissionEnricherRegistered = true;
    shop.runtime.auth.addContextEnricher(async (_executor, ctx) => {
      const narrowed = ctx.attributes.testPermissions;
      if (Array.isArray(narrowed)) ctx.permissions = new Set(narrowed.map(String));
    });
  }
  const { token } = await shop.runtime.auth.createSession(shop.db, {
    salesChannelId: customer.salesChannelId,
    customerId: customer.id,
    actor: {
      type: 'customer',
      id: customer.id,
      name: `${customer.firstName} ${customer.lastName}`,
      email: customer.email,
    },
    attributes: { testPermissions: permissions },
  });
  return token;
}
