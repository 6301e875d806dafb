import type { CheckoutMethodKind, HostRuntime, OrderDraft, StoreContext, Trx } from '../../../contract/index.js';
import { inTransaction, type Executor } from '../../../lib/db.js';
import { AppError, Errors } from '../../../lib/errors.js';
import { declaredCustomer } from '../../declared.js';
import { seesEverything } from '../addresses/access.js';
import { findUnit, lockCompanyUnits } from '../units/repository.js';
import { unitsOfEmployee, unitTree, withAncestors, type UnitNode } from '../units/directory.js';
import { methodSettings, saveMethodSetting, type MethodSettings } from './repository.js';

const KINDS: readonly CheckoutMethodKind[] = ['payment', 'shipping'];
const FIELD: Record<CheckoutMethodKind, 'paymentMethods' | 'shippingMethods'> = {
  payment: 'paymentMethods',
  shipping: 'shippingMethods',
};

/** What applies to a unit: its own list of the kind, else that of the nearest unit above with one; null: unrestricted. */
function effectiveFor(
  tree: readonly UnitNode[],
  settings: MethodSettings,
  unitId: string,
  kind: CheckoutMethodKind,
): string[] | null {
  // withAncestors answers the unit first, then each unit above it in order.
  for (const id of withAncestors(tree, [unitId])) {
    const names = settings.get(id)?.[kind];
    if (names) return names;
  }
  return null;
}

/**
 * The methods of a kind an employee may use: what any of their units allows (a buyer of two units
 * orders for both), unrestricted when one of their units has no restriction above it or when they
 * are in no unit. The company admin, admin employees and sales representatives are unrestricted.
 */
export async function allowedForCaller(
  executor: Executor,
  ctx: StoreContext,
  kind: CheckoutMethodKind,
): Promise<ReadonlySet<string> | null> {
  if (!ctx.customer || seesEverything(ctx)) return null;
  const own = await unitsOfEmployee(executor, ctx.customer.id, ctx.actor.id!);
  if (own.length === 0) return null;
  const settings = await methodSettings(executor, ctx.customer.id);
  if (settings.size === 0) return null;
  const tree = await unitTree(executor, ctx.customer.id);
  const allowed = new Set<string>();
  for (const unitId of own) {
    const names = effectiveFor(tree, settings, unitId, kind);
    if (!names) return null;
    for (const name of names) allowed.add(name);
  }
  return allowed;
}

async function unitView(host: HostRuntime, ctx: StoreContext, executor: Executor, customerId: string, unitId: string) {
  const [tree, settings] = await Promise.all([unitTree(executor, customerId), methodSettings(executor, customerId)]);
  const own = settings.get(unitId) ?? {};
  const choicesOf = async (kind: CheckoutMethodKind) => (await host.checkout.methods?.(executor, ctx, kind)) ?? [];
  return {
    unitId,
    choices: { paymentMethods: await choicesOf('payment'), shippingMethods: await choicesOf('shipping') },
    paymentMethods: own.payment ?? null,
    shippingMethods: own.shipping ?? null,
    effective: {
      paymentMethods: effectiveFor(tree, settings, unitId, 'payment'),
      shippingMethods: effectiveFor(tree, settings, unitId, 'shipping'),
    },
    apiAlias: 'b2b_unit_checkout_methods' as const,
  };
}

export async function readUnitCheckoutMethods(host: HostRuntime, ctx: StoreContext, unitId: string) {
  const customer = declaredCustomer(ctx);
  if (!(await findUnit(host.db, customer.id, unitId))) throw Errors.notFound('Organisation unit', unitId);
  return unitView(host, ctx, host.db, customer.id, unitId);
}

/** Names must be methods of the sales channel: a typo would otherwise leave a unit unable to order. */
async function assertKnown(
  host: HostRuntime,
  ctx: StoreContext,
  kind: CheckoutMethodKind,
  names: readonly string[] | null,
  pointer?: string,
): Promise<void> {
  if (!names) return;
  if (!host.checkout.methods)
    throw new AppError(501, 'SUITE__NOT_SUPPORTED', 'This shop does not let the plugin name its checkout methods.');
  const known = new Set((await host.checkout.methods(host.db, ctx, kind)).map((method) => method.technicalName));
  const unknown = names.findIndex((name) => !known.has(name));
  if (unknown >= 0)
    throw Errors.badRequest(
      'SUITE__CHECKOUT_METHOD_UNKNOWN',
      `There is no ${kind} method "${names[unknown]}"; the shop has ${[...known].join(', ')}.`,
      { pointer: pointer ?? `/${FIELD[kind]}/${unknown}`, meta: { known: [...known] } },
    );
}

export async function setUnitCheckoutMethods(
  host: HostRuntime,
  ctx: StoreContext,
  unitId: string,
  body: { paymentMethods: string[] | null; shippingMethods: string[] | null },
) {
  const customer = declaredCustomer(ctx);
  for (const kind of KINDS) await assertKnown(host, ctx, kind, body[FIELD[kind]]);
  return inTransaction(host.db, async (trx) => {
    // The unit's row lock orders this write with a concurrent delete of the unit.
    if (!(await lockCompanyUnits(trx, customer.id)).some((unit) => unit.id === unitId))
      throw Errors.notFound('Organisation unit', unitId);
    for (const kind of KINDS) await saveMethodSetting(trx, customer.id, unitId, kind, body[FIELD[kind]]);
    return unitView(host, ctx, trx, customer.id, unitId);
  });
}

/** Refuses a chosen method the caller's units do not allow (the interceptor's and an approval request's check). */
async function assertAllowed(
  executor: Executor,
  ctx: StoreContext,
  chosen: { paymentMethod?: string | null; shippingMethod?: string | null },
): Promise<void> {
  for (const kind of KINDS) {
    const name = kind === 'payment' ? chosen.paymentMethod : chosen.shippingMethod;
    if (!name) continue;
    const allowed = await allowedForCaller(executor, ctx, kind);
    if (allowed && !allowed.has(name))
      throw Errors.badRequest(
        kind === 'payment' ? 'SUITE__PAYMENT_METHOD_NOT_ALLOWED' : 'SUITE__SHIPPING_METHOD_NOT_ALLOWED',
        `Your organisation unit does not allow the ${kind} method "${name}"; choose one of ${[...allowed].join(', ')}.`,
        { pointer: `/${kind}Method`, meta: { allowed: [...allowed].sort() } },
      );
  }
}

/** The checkout interceptor: an order naming a method the buyer's units do not allow is refused. */
export async function interceptCheckout(ctx: StoreContext, draft: OrderDraft, trx: Trx): Promise<void> {
  if (ctx.customer?.id !== draft.customerId) return;
  await assertAllowed(trx, ctx, draft);
}

/**
 * Methods chosen ahead of the order (an approval request): each must be one of the sales channel's
 * (400 SUITE__CHECKOUT_METHOD_UNKNOWN) and allowed to the caller, so an approver never approves an
 * order that could not be placed with them.
 */
export async function assertChosenMethods(
  host: HostRuntime,
  ctx: StoreContext,
  chosen: { paymentMethod?: string | null; shippingMethod?: string | null },
): Promise<void> {
  for (const kind of KINDS) {
    const name = kind === 'payment' ? chosen.paymentMethod : chosen.shippingMethod;
    if (name) await assertKnown(host, ctx, kind, [name], `/${kind}Method`);
  }
  await assertAllowed(host.db, ctx, chosen);
}
