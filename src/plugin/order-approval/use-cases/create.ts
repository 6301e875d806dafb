import type { HostRuntime, PriceLine, StoreContext } from '../../../contract/index.js';
import { Errors } from '../../../lib/errors.js';
import { inTransaction, isDuplicateKeyError, type Trx } from '../../../lib/db.js';
import { newId } from '../../../lib/ids.js';
import { fromMinor } from '../../../lib/money.js';
import {
  applicableBudgetIds,
  budgetExceededError,
  evaluateBudgets,
  type BudgetEvaluation,
} from '../../budget/index.js';
import { resolveChain } from '../rules/chain.js';
import { chooseRule } from '../rules/evaluate.js';
import { storedRuleId } from '../rules/repository.js';
import {
  addActivity,
  getApproval,
  insertApproval,
  insertApprovalLines,
  insertReservations,
  loadSettings,
  totalsOf,
  type Reservation,
} from '../repository.js';
import { assertChosenMethods } from '../../company/index.js';
import { assertOwnAddresses } from './access.js';
import { notifyApprovers } from './notify.js';
import { declaredCustomer } from '../../declared.js';
import { assertAllowedQuantities } from '../../quantity-rule/index.js';

export interface CreateApprovalInput {
  cartToken: string;
  customerComment?: string | null;
  billingAddressId?: string | null;
  shippingAddressId?: string | null;
  paymentMethod?: string | null;
  shippingMethod?: string | null;
}

/** Turns the caller's cart into a pending approval: reasons (role, budget), budget reservations, mails to the approvers. */
export async function createApproval(host: HostRuntime, ctx: StoreContext, body: CreateApprovalInput): Promise<string> {
  const customer = declaredCustomer(ctx);
  await ctx.ruleIds();
  const cart = await host.cart.get(host.db, body.cartToken);
  if (!cart || cart.customerId !== customer.id)
    throw Errors.badRequest('SUITE__CART_NOT_FOUND', 'There is no cart with this token for your account.', {
      pointer: '/cartToken',
    });
  if (cart.lineItems.length === 0)
    throw Errors.badRequest('SUITE__CART_EMPTY', 'The cart is empty.', { pointer: '/cartToken' });
  const priced = await host.cart.price(host.db, ctx, cart);
  const pricedIds = new Set(priced.lines.map((l) => l.lineItemId));
  const unavailable = cart.lineItems.find((l) => !pricedIds.has(l.id));
  if (unavailable)
    throw Errors.badRequest('SUITE__PRODUCT_NOT_AVAILABLE', `"${unavailable.label}" is not available.`, {
      pointer: '/cartToken',
      meta: { productId: unavailable.productId },
    });
  await assertInStock(host, priced.lines);
  // A cart line a newer rule refuses is refused here as at checkout, before anyone is asked to approve it.
  await assertAllowedQuantities(
    host.db,
    priced.lines.map((l) => ({ productId: l.productId, quantity: l.quantity, label: l.label, pointer: '/cartToken' })),
  );
  await assertOwnAddresses(host, customer.id, body);
  await assertChosenMethods(host, ctx, body);

  return inTransaction(host.db, (trx) =>
    insertApprovalFor(host, ctx, trx, {
      cartToken: cart.token,
      lines: priced.lines,
      customerComment: body.customerComment ?? null,
      billingAddressId: body.billingAddressId ?? null,
      shippingAddressId: body.shippingAddressId ?? null,
      paymentMethod: body.paymentMethod ?? null,
      shippingMethod: body.shippingMethod ?? null,
    }),
  );
}

/**
 * Writes a pending approval of priced lines in the caller's transaction (budget reservations, the
 * rule's levels, mails to the approvers) and answers its id: the cart route above, and a recurring
 * order's occurrence that needs approval (src/plugin/recurring-order), whose lines were priced and
 * checked by its caller. `cartToken` names the approval's source; one open approval per token.
 */
export async function insertApprovalFor(
  host: HostRuntime,
  ctx: StoreContext,
  trx: Trx,
  input: {
    cartToken: string;
    lines: PriceLine[];
    customerComment: string | null;
    billingAddressId: string | null;
    shippingAddressId: string | null;
    paymentMethod?: string | null;
    shippingMethod?: string | null;
  },
): Promise<string> {
  const customer = declaredCustomer(ctx);
  const priced = { lines: input.lines };
  const body = input;
  const settings = await loadSettings(trx, customer.id);
  const reservations: Reservation[] = [];
  let budgets: BudgetEvaluation[] | undefined;
  if (ctx.actor.type === 'employee' && ctx.employee) {
    const budgetIds = await applicableBudgetIds(trx, customer.id, ctx.employee.id);
    budgets = await evaluateBudgets(host, trx, {
      customerId: customer.id,
      budgetIds,
      lines: priced.lines,
      currencyIso: ctx.salesChannel.currencyIso,
      timeZone: ctx.salesChannel.timeZone,
    });
    const refused = budgets.find((e) => e.exceeds && !e.budget.allowApproval);
    if (refused) throw budgetExceededError(refused, ctx.salesChannel.currencyPrecision);
    for (const e of budgets) reservations.push({ budgetId: e.budget.id, amount: e.relevant, exceeds: e.exceeds });
  }
  const order = {
    customerId: customer.id,
    buyer: ctx.actor,
    lines: priced.lines,
    currencyIso: ctx.salesChannel.currencyIso,
    timeZone: ctx.salesChannel.timeZone,
    budgets,
  };
  const { rule, reasons } = await chooseRule(host, trx, order, true);
  if (!rule)
    throw Errors.badRequest(
      'SUITE__ORDER_APPROVAL_NOT_REQUIRED',
      'No approval rule of your company applies to this order: place it directly.',
      { pointer: '/cartToken' },
    );
  const requester = {
    customerId: customer.id,
    requesterType: ctx.actor.type,
    requesterId: ctx.actor.id ?? customer.id,
  };
  const chain = await resolveChain(trx, rule, requester, settings);

  const id = newId();
  const totals = totalsOf(priced.lines);
  try {
    await insertApproval(trx, {
      id,
      approvalNumber: await host.nextNumber(trx, 'order-approval', 'OA'),
      customerId: customer.id,
      salesChannelId: ctx.salesChannel.id,
      requester: {
        type: ctx.actor.type,
        id: ctx.actor.id,
        name: ctx.actor.name || customer.email,
        email: ctx.actor.email,
      },
      levels: chain,
      reasons,
      rule: { id: storedRuleId(rule), name: rule.name, levelCount: chain.length },
      cartToken: input.cartToken,
      customerComment: body.customerComment ?? null,
      billingAddressId: body.billingAddressId ?? null,
      shippingAddressId: body.shippingAddressId ?? null,
      paymentMethod: body.paymentMethod ?? null,
      shippingMethod: body.shippingMethod ?? null,
      currencyIso: ctx.salesChannel.currencyIso,
      totals,
    });
  } catch (error) {
    if (isDuplicateKeyError(error))
      throw Errors.badRequest('SUITE__ORDER_APPROVAL_EXISTS', 'An open order approval exists for this cart already.', {
        pointer: '/cartToken',
      });
    throw error;
  }
  await insertApprovalLines(trx, id, priced.lines);
  await insertReservations(trx, id, reservations);
  await addActivity(trx, id, ctx.actor, 'created', body.customerComment ?? null, {
    reasons,
    total: fromMinor(totals.total, ctx.salesChannel.currencyPrecision),
    rule: rule.name,
    levels: chain.length,
  });
  const approval = (await getApproval(trx, customer.id, id))!;
  await notifyApprovers(host, trx, approval, ctx.salesChannel, false);
  return id;
}

async function assertInStock(
  host: HostRuntime,
  lines: Array<{ productId: string | null; quantity: number; label: string }>,
): Promise<void> {
  const wanted = new Map<string, number>();
  for (const l of lines) if (l.productId) wanted.set(l.productId, (wanted.get(l.productId) ?? 0) + l.quantity);
  const products = await host.catalog.products(host.db, [...wanted.keys()]);
  for (const p of products) {
    if ((wanted.get(p.id) ?? 0) > p.stock)
      throw Errors.badRequest('SUITE__PRODUCT_OUT_OF_STOCK', `Only ${p.stock} of "${p.name}" are in stock.`, {
        meta: { productId: p.id, stock: p.stock },
      });
  }
}
