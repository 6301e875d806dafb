import { forUpdate, readInt, selectRow, selectRows, type Executor } from '../../lib/db.js';
import { nowDb } from '../../lib/time.js';

export const CREDIT_LINES = 'suite_credit_lines';
export const CREDIT_LINE_CHARGES = 'suite_credit_line_charges';
export const PAYMENT_TERMS = 'suite_payment_terms';
/** Terms per organisation unit (migration 029), overriding the company's for the unit's subtree. */
export const UNIT_PAYMENT_TERMS = 'suite_unit_payment_terms';

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

interface TermsRow {
  customer_id: string;
  unit_id?: string;
  days_net: unknown;
  discount_bp: unknown;
  discount_days: unknown;
}

const termsOf = (row: TermsRow): PaymentTerms => ({
  customerId: row.customer_id,
  daysNet: readInt(row.days_net),
  discountBp: readInt(row.discount_bp),
  discountDays: readInt(row.discount_days),
});

export async function getPaymentTerms(executor: Executor, customerId: string): Promise<PaymentTerms | null> {
  const row = await selectRow<TermsRow>(executor(PAYMENT_TERMS).where({ customer_id: customerId }).first('*'));
  return row ? termsOf(row) : null;
}

/** The payment terms set on the company's units, by unit id. */
export async function unitPaymentTerms(executor: Executor, customerId: string): Promise<Map<string, PaymentTerms>> {
  const rows = await selectRows<TermsRow & { unit_id: string }>(
    executor(UNIT_PAYMENT_TERMS).where({ customer_id: customerId }).select('*'),
  );
  return new Map(rows.map((row) => [row.unit_id, termsOf(row)]));
}

/** Writes the company's terms, or a unit's when `unitId` is given. */
export async function savePaymentTerms(executor: Executor, terms: PaymentTerms, unitId?: string): Promise<void> {
  const now = nowDb();
  const values = {
    days_net: terms.daysNet,
    discount_bp: terms.discountBp,
    discount_days: terms.discountDays,
    updated_at: now,
  };
  const [table, key] = unitId
    ? [UNIT_PAYMENT_TERMS, { unit_id: unitId }]
    : [PAYMENT_TERMS, { customer_id: terms.customerId }];
  const updated = await executor(table).where(key).update(values);
  if (updated === 0)
    await executor(table).insert({ ...key, customer_id: terms.customerId, ...values, created_at: now });
}

export async function deleteUnitPaymentTerms(executor: Executor, unitId: string): Promise<number> {
  return executor(UNIT_PAYMENT_TERMS).where({ unit_id: unitId }).delete();
}

/** Customers deleted by the host: their credit lines, charges and terms go with them. */
export async function deleteCustomersPaymentOnAccount(executor: Executor, customerIds: string[]): Promise<void> {
  if (customerIds.length === 0) return;
  for (const table of [CREDIT_LINE_CHARGES, CREDIT_LINES, PAYMENT_TERMS])
    await executor(table).whereIn('customer_id', customerIds).delete();
}
