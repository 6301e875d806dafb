import type {
  Executor,
  HostRuntime,
  OrderDraft,
  PlacedOrder,
  SalesChannel,
  StoreContext,
  Trx,
} from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { fromMinor, moneyText } from '../../lib/money.js';
import { unitsOfEmployee, unitTree, withAncestors } from '../company/index.js';
import {
  chargeCreditLine,
  getCreditLine,
  getPaymentTerms,
  unitPaymentTerms,
  type CreditLine,
  type PaymentTerms,
} from './repository.js';
import { now } from '../../lib/time.js';

/** The technical name of the payment method this add-on adds. */
export const ON_ACCOUNT = 'on-account';
/** The order's custom field with the payment terms it was placed under. */
export const TERMS_FIELD = 'paymentTerms';

/** Terms as the API answers them (and the order keeps them): percent, not basis points. */
export function termsView(terms: PaymentTerms) {
  return { daysNet: terms.daysNet, discountPercent: terms.discountBp / 100, discountDays: terms.discountDays };
}

export function creditLineView(line: CreditLine, precision: number) {
  return {
    limit: fromMinor(line.limit, precision),
    currencyIso: line.currencyIso,
    balance: fromMinor(line.balance, precision),
    remaining: fromMinor(Math.max(0, line.limit - line.balance), precision),
  };
}

const addDays = (isoDate: string, days: number) =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86400000).toISOString().slice(0, 10);

/** The invoice's payment lines for the terms, with due dates counted from the order date (UTC). */
export function termsText(terms: PaymentTerms, orderDate: string, onAccount: boolean): string[] {
  const lines = [
    `Payment${onAccount ? ' on account' : ''}: ${terms.daysNet} days net, due ${addDays(orderDate, terms.daysNet)}.`,
  ];
  if (terms.discountBp > 0 && terms.discountDays > 0)
    lines.push(
      `${terms.discountBp / 100} % discount if paid within ${terms.discountDays} days (by ${addDays(orderDate, terms.discountDays)}).`,
    );
  return lines;
}

/**
 * The terms a buyer's orders carry: an employee's are those of the nearest unit with terms above
 * each of their units (the unit itself first); of several, the deepest unit's (ties: the unit first
 * by name). Without unit terms, the company's.
 */
export async function termsForBuyer(
  executor: Executor,
  ctx: StoreContext,
  customerId: string,
): Promise<PaymentTerms | null> {
  if (ctx.actor.type === 'employee' && ctx.actor.id) {
    const own = await unitsOfEmployee(executor, customerId, ctx.actor.id);
    const byUnit = own.length > 0 ? await unitPaymentTerms(executor, customerId) : new Map<string, PaymentTerms>();
    if (byUnit.size > 0) {
      const tree = await unitTree(executor, customerId);
      const nameOf = new Map(tree.map((unit) => [unit.id, unit.name]));
      const candidates = own.flatMap((unitId) => {
        // withAncestors answers the unit first, then each unit above it: the first with terms is the nearest.
        const chain = withAncestors(tree, [unitId]);
        const holder = chain.find((id) => byUnit.has(id));
        return holder ? [{ holder, depth: chain.length - 1 - chain.indexOf(holder) }] : [];
      });
      candidates.sort(
        (a, b) => b.depth - a.depth || (nameOf.get(a.holder) ?? '').localeCompare(nameOf.get(b.holder) ?? ''),
      );
      if (candidates[0]) return byUnit.get(candidates[0].holder)!;
    }
  }
  return getPaymentTerms(executor, customerId);
}

/**
 * The checkout interceptor. Every order of a company with payment terms carries them (custom field
 * and invoice text, whatever the payment method). An order on account needs the company's credit
 * line in the order's currency with room for the order's total; the line's row stays locked until the
 * order's transaction ends, so concurrent orders are checked one after another against the balance
 * the previous one left (the order-placed hook charges it under the same lock).
 */
export async function interceptCheckout(ctx: StoreContext, draft: OrderDraft, trx: Trx): Promise<void> {
  const onAccount = draft.paymentMethod === ON_ACCOUNT;
  if (onAccount) {
    const line = await getCreditLine(trx, draft.customerId, true);
    if (!line)
      throw Errors.badRequest(
        'SUITE__CREDIT_LINE_MISSING',
        'This company has no credit line: choose another payment method.',
        { pointer: '/paymentMethod' },
      );
    if (line.currencyIso !== draft.currencyIso)
      throw Errors.badRequest(
        'SUITE__CREDIT_LINE_CURRENCY',
        `The credit line is in ${line.currencyIso}, the order in ${draft.currencyIso}.`,
        { pointer: '/paymentMethod' },
      );
    const remaining = Math.max(0, line.limit - line.balance);
    if (draft.total > remaining) {
      const precision = ctx.salesChannel.currencyPrecision;
      const text = (minor: number) => moneyText(fromMinor(minor, precision), precision, line.currencyIso);
      throw Errors.badRequest(
        'SUITE__CREDIT_LINE_EXCEEDED',
        `The order total ${text(draft.total)} exceeds the remaining credit line of ${text(remaining)}.`,
        {
          pointer: '/paymentMethod',
          meta: {
            remaining: fromMinor(remaining, precision),
            orderTotal: fromMinor(draft.total, precision),
            currencyIso: line.currencyIso,
          },
        },
      );
    }
  }
  const terms = await termsForBuyer(trx, ctx, draft.customerId);
  if (terms) {
    draft.customFields[TERMS_FIELD] = termsView(terms);
    draft.paymentNotes = termsText(terms, now().toISOString().slice(0, 10), onAccount);
  }
}

/** Whether the caller may pay on account: acting for a company with a credit line in the sales channel's currency. */
export async function onAccountAvailable(ctx: StoreContext, executor: Executor): Promise<boolean> {
  if (!ctx.customer) return false;
  const line = await getCreditLine(executor, ctx.customer.id);
  return line !== null && line.currencyIso === ctx.salesChannel.currencyIso;
}

/** The order-placed hook: charges an order on account to the credit line the interceptor locked. */
export async function chargeOrder(order: PlacedOrder, salesChannel: SalesChannel, trx: Trx): Promise<void> {
  if (order.paymentMethod !== ON_ACCOUNT) return;
  await chargeCreditLine(trx, {
    customerId: order.customerId,
    orderId: order.id,
    amount: order.total,
    currencyIso: salesChannel.currencyIso,
  });
}

/** What checkout shows a buyer: the credit line's room and the terms the order will carry. */
export async function accountView(host: HostRuntime, ctx: StoreContext, customerId: string) {
  const [line, terms] = await Promise.all([
    getCreditLine(host.db, customerId),
    termsForBuyer(host.db, ctx, customerId),
  ]);
  return {
    paymentMethod: ON_ACCOUNT,
    creditLine: line ? creditLineView(line, ctx.salesChannel.currencyPrecision) : null,
    paymentTerms: terms ? termsView(terms) : null,
    apiAlias: 'b2b_payment_on_account',
  };
}
