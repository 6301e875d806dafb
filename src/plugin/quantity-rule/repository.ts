import { isDuplicateKeyError, readInt, selectRow, selectRows, type Executor } from '../../lib/db.js';
import { fromDbTime, nowDb } from '../../lib/time.js';
import type { QuantityRule } from './rules.js';

export const QUANTITY_RULES = 'suite_quantity_rules';

interface QuantityRuleRow {
  product_id: string;
  min_quantity: unknown;
  max_quantity: unknown;
  step: unknown;
  pack_size: unknown;
  price_unit: string;
  created_at: unknown;
  updated_at: unknown;
}

export interface StoredQuantityRule extends QuantityRule {
  createdAt: string;
  updatedAt: string | null;
}

function toRule(row: QuantityRuleRow): StoredQuantityRule {
  return {
    productId: row.product_id,
    minQuantity: readInt(row.min_quantity),
    maxQuantity: row.max_quantity === null || row.max_quantity === undefined ? null : readInt(row.max_quantity),
    step: readInt(row.step),
    packSize: readInt(row.pack_size),
    priceUnit: row.price_unit === 'pack' ? 'pack' : 'piece',
    createdAt: fromDbTime(row.created_at as string)!,
    updatedAt: fromDbTime(row.updated_at as string | null),
  };
}

/** The rules of these products, by product id (products without a rule are absent). */
export async function rulesOf(executor: Executor, productIds: string[]): Promise<Map<string, StoredQuantityRule>> {
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return new Map();
  const rows = await selectRows<QuantityRuleRow>(executor(QUANTITY_RULES).whereIn('product_id', ids).select());
  return new Map(rows.map((row) => [row.product_id, toRule(row)]));
}

export async function ruleOf(executor: Executor, productId: string): Promise<StoredQuantityRule | null> {
  const row = await selectRow<QuantityRuleRow>(executor(QUANTITY_RULES).where({ product_id: productId }).first());
  return row ? toRule(row) : null;
}

/** A page of rules by product id (an operator's list), optionally of one product. */
export async function listRules(
  executor: Executor,
  input: { productId?: string; page: number; limit: number },
): Promise<{ total: number; rules: StoredQuantityRule[] }> {
  const base = () => {
    const query = executor(QUANTITY_RULES);
    if (input.productId) query.where({ product_id: input.productId });
    return query;
  };
  const counted = await selectRow<{ total: unknown }>(base().count({ total: '*' }).first());
  const rows = await selectRows<QuantityRuleRow>(
    base()
      .orderBy('product_id')
      .limit(input.limit)
      .offset((input.page - 1) * input.limit)
      .select(),
  );
  return { total: readInt(counted?.total ?? 0), rules: rows.map(toRule) };
}

/** Sets a product's rule (insert or replace); answers whether it was new. */
export async function saveRule(executor: Executor, rule: QuantityRule): Promise<boolean> {
  const values = {
    min_quantity: rule.minQuantity,
    max_quantity: rule.maxQuantity,
    step: rule.step,
    pack_size: rule.packSize,
    price_unit: rule.priceUnit,
  };
  const now = nowDb();
  // A read first: MySQL/MariaDB count an UPDATE that changes nothing as no row.
  if (await executor(QUANTITY_RULES).where({ product_id: rule.productId }).first('product_id')) {
    await executor(QUANTITY_RULES)
      .where({ product_id: rule.productId })
      .update({ ...values, updated_at: now });
    return false;
  }
  try {
    await executor(QUANTITY_RULES).insert({ product_id: rule.productId, ...values, created_at: now });
    return true;
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    // Another request set the first rule at the same moment: this one replaces it.
    await executor(QUANTITY_RULES)
      .where({ product_id: rule.productId })
      .update({ ...values, updated_at: now });
    return false;
  }
}

export async function deleteRule(executor: Executor, productId: string): Promise<boolean> {
  return (await executor(QUANTITY_RULES).where({ product_id: productId }).delete()) > 0;
}

export async function deleteRulesOf(executor: Executor, productIds: string[]): Promise<void> {
  if (productIds.length) await executor(QUANTITY_RULES).whereIn('product_id', productIds).delete();
}
