import { forUpdate, readInt, selectRow, type Executor } from '../../lib/db.js';
import { nowDb } from '../../lib/time.js';

export const CREDIT_LINES = 'suite_credit_lines';
export const CREDIT_LINE_CHARGES = 'suite_credit_line_charges';
export const PAYMENT_TERMS = 'suite_payment_terms';

/** A company's credit line, minor units. */
export interface CreditLine {
  customerId: string;
  limit: number;
  currencyIso: string;
  balance: number;
  updatedAt: string;
}

export interface PaymentTerms {
  customerId: string;
  daysNet: number;
  /** basis points: 2 % = 200 */
  discountBp: number;
  discountDays: number;
}

interface CreditLineRow {
  customer_id: string;
  credit_limit: unknown;
  currency_iso: string;
  balance: unknown;
  created_at: string;
  updated_at: string | null;
}

const toCreditLine = (row: CreditLineRow): CreditLine => ({
  customerId: row.customer_id,
  limit: readInt(row.credit_limit),
  currencyIso: row.currency_iso,
  balance: readInt(row.balance),
  updatedAt: row.updated_at ?? row.created_at,
});

/** The company's credit line; with `lock`, its row stays locked for the rest of the transaction (the charge is checked and written under it). */
export async function getCreditLine(executor: Executor, customerId: string, lock = false): Promise<CreditLine | null> {
  const query = executor(CREDIT_LINES).where({ customer_id: customerId }).first('*');
  const row = await selectRow<CreditLineRow>(lock ? forUpdate(query, executor) : query);
  return row ? toCreditLine(row) : null;
}

/** Sets the limit and currency; the balance stays (a lower limit than the balance only refuses further orders). */
export async function saveCreditLine(
  executor: Executor,
  customerId: string,
  limit: number,
  currencyIso: string,
): Promise<void> {
  const now = nowDb();
  const updated = await executor(CREDIT_LINES)
    .where({ customer_id: customerId })
    .update({ credit_limit: limit, currency_iso: currencyIso, updated_at: now });
  if (updated === 0)
    await executor(CREDIT_LINES).insert({
      customer_id: customerId,
      credit_limit: limit,
      currency_iso: currencyIso,
      balance: 0,
      created_at: now,
      updated_at: now,
    });
}

/** Records an order's charge and adds it to the balance; the caller holds the credit line's row lock. */
export async function chargeCreditLine(
  executor: Executor,
  charge: { customerId: string; orderId: string; amount: number; currencyIso: string },
): Promise<void> {
  await executor(CREDIT_LINE_CHARGES).insert({
    order_id: charge.orderId,
    customer_id: charge.customerId,
    amount: charge.amount,
    currency_iso: charge.currencyIso,
    charged_at: nowDb(),
    released_at: null,
  });
  await executor(CREDIT_LINES).where({ customer_id: charge.customerId }).increment('balance', charge.amount);
}

/**
 * Releases an order's charge once: the charge row is marked by a conditional write (a second
 * cancellation finds it released), then the balance goes down under the line's row lock.
 */
export async function releaseCharge(executor: Executor, orderId: string): Promise<void> {
  const charge = await selectRow<{ customer_id: string; amount: unknown }>(
    executor(CREDIT_LINE_CHARGES).where({ order_id: orderId }).whereNull('released_at').first('customer_id', 'amount'),
  );
  if (!charge) return;
  await getCreditLine(executor, charge.customer_id, true);
  const marked = await executor(CREDIT_LINE_CHARGES)
    .where({ order_id: orderId })
    .whereNull('released_at')
    .update({ released_at: nowDb() });
  if (marked !== 1) return;
  await executor(CREDIT_LINES).where({ customer_id: charge.customer_id }).decrement('balance', readInt(charge.amount));
}

export async function getPaymentTerms(executor: Executor, customerId: string): Promise<PaymentTerms | null> {
  const row = await selectRow<{ customer_id: string; days_net: unknown; discount_bp: unknown; discount_days: unknown }>(
    executor(PAYMENT_TERMS).where({ customer_id: customerId }).first('*'),
  );
  return row
    ? {
        customerId: row.customer_id,
        daysNet: readInt(row.days_net),
        discountBp: readInt(row.discount_bp),
        discountDays: readInt(row.discount_days),
      }
    : null;
}

export async function savePaymentTerms(executor: Executor, terms: PaymentTerms): Promise<void> {
  const now = nowDb();
  const values = {
    days_net: terms.daysNet,
    discount_bp: terms.discountBp,
    discount_days: terms.discountDays,
    updated_at: now,
  };
  const updated = await executor(PAYMENT_TERMS).where({ customer_id: terms.customerId }).update(values);
  if (updated === 0)
    await executor(PAYMENT_TERMS).insert({ customer_id: terms.customerId, ...values, created_at: now });
}

/** Customers deleted by the host: their credit lines, charges and terms go with them. */
export async function deleteCustomersPaymentOnAccount(executor: Executor, customerIds: string[]): Promise<void> {
  if (customerIds.length === 0) return;
  for (const table of [CREDIT_LINE_CHARGES, CREDIT_LINES, PAYMENT_TERMS])
    await executor(table).whereIn('customer_id', customerIds).delete();
}
