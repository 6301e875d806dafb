import type { Knex } from 'knex';
import {
  concatSql,
  dialectOf,
  groupConcatSql,
  readBool,
  readInt,
  selectRows,
  type Dialect,
  type Executor,
} from '../../lib/db.js';
import type { CatalogEntity, ProductRecord } from '../../contract/index.js';

export const CATALOG_TABLES: Record<CatalogEntity, string> = {
  product: 'products',
  category: 'categories',
  landing_page: 'landing_pages',
};

export const PRODUCT_COLUMNS = [
  'products.id',
  'products.version_id',
  'products.product_number',
  'products.name',
  'products.description',
  'products.stock',
  'products.active',
  'products.tax_rate_bp',
  'products.price_net',
  'products.manufacturer',
  'products.ean',
];

export type ProductRow = Record<string, unknown>;

export async function categoryIdsOf(executor: Executor, productIds: string[]): Promise<Map<string, string[]>> {
  const byProduct = new Map<string, string[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return byProduct;
  const rows = await executor<{ product_id: string; category_id: string }>('product_categories')
    .whereIn('product_id', productIds)
    .orderBy('category_id')
    .select('product_id', 'category_id');
  for (const row of rows) byProduct.get(row.product_id)?.push(row.category_id);
  return byProduct;
}

export function toProductRecord(row: ProductRow, categoryIds: string[]): ProductRecord {
  return {
    id: String(row.id),
    versionId: String(row.version_id),
    productNumber: String(row.product_number),
    name: String(row.name),
    description: (row.description as string | null) ?? null,
    stock: readInt(row.stock),
    active: readBool(row.active),
    taxRateBp: readInt(row.tax_rate_bp),
    priceNet: readInt(row.price_net),
    manufacturer: (row.manufacturer as string | null | undefined) ?? null,
    ean: (row.ean as string | null | undefined) ?? null,
    categoryIds,
  };
}

/**
 * The product's category ids as one column (`category_ids`, comma-separated), so records need no
 * second query. SQLite and MariaDB evaluate such a select-list subquery for the rows returned only,
 * after a sort and its limit (MariaDB ANALYZE: 25 loops for a page of 25 sorted by an unindexed
 * column), so a listing page may carry it too.
 */
export function categoryIdsColumn(executor: Executor): Knex.Raw {
  return executor.raw(categoryIdsSql(dialectOf(executor)));
}

/** The category ids of `products` (comma-separated), as an SQL expression. */
function categoryIdsSql(dialect: Dialect): string {
  return `(select ${groupConcatSql(dialect, 'pc.category_id')} from product_categories as pc where pc.product_id = products.id) as category_ids`;
}

export type TierPrices = Map<string, Array<{ minQuantity: number; priceNet: number }>>;

/** The tier prices of `products` (`minQuantity:priceNet` pairs, comma-separated), as an SQL expression. */
function tierPricesExpression(executor: Executor): string {
  const dialect = dialectOf(executor);
  return `(select ${groupConcatSql(dialect, concatSql(dialect, ['tp.min_quantity', "':'", 'tp.price_net']))} from product_tier_prices as tp where tp.product_id = products.id)`;
}

function tierPricesSql(executor: Executor): string {
  return `${tierPricesExpression(executor)} as tier_prices`;
}

/** The product's tier prices as one column (`tier_prices`: `minQuantity:priceNet` pairs, comma-separated), read like category_ids. */
export function tierPricesColumn(executor: Executor): Knex.Raw {
  return executor.raw(tierPricesSql(executor));
}

const selectWithCategoriesAndTiers = new Map<string, string>();

/**
 * `select` of PRODUCT_COLUMNS, the category ids and the tier prices (`tierPricesOfRows`) `from
 * products`, as SQL text for statements written as text (one text per dialect).
 */
export function selectProductsWithCategoriesAndTiers(executor: Executor): string {
  const dialect = dialectOf(executor);
  let sql = selectWithCategoriesAndTiers.get(dialect);
  if (!sql)
    selectWithCategoriesAndTiers.set(
      dialect,
      (sql = `select ${PRODUCT_COLUMNS.join(', ')}, ${categoryIdsSql(dialect)}, ${tierPricesSql(executor)} from products`),
    );
  return sql;
}

/** The tier prices read in the same statement as a record (visibleProducts), for pricing it without reading them again. */
const tiersReadWith = new WeakMap<ProductRecord, Array<{ minQuantity: number; priceNet: number }>>();

/** Tells that `tiers` (ascending, possibly empty) are the record's tier prices as read with it. */
export function rememberTierPrices(
  record: ProductRecord,
  tiers: Array<{ minQuantity: number; priceNet: number }>,
): void {
  // Frozen: copies of a kept record share them.
  if (!Object.isFrozen(tiers)) for (const tier of Object.freeze(tiers)) Object.freeze(tier);
  tiersReadWith.set(record, tiers);
}

/** The tier prices read with this very record (`rememberTierPrices`), or undefined. */
export function tierPricesReadWith(
  record: ProductRecord,
): Array<{ minQuantity: number; priceNet: number }> | undefined {
  return tiersReadWith.get(record);
}

/**
 * The tier prices of rows read with `tierPricesColumn`, by product, ascending by minimum quantity
 * (as tierPricesOf answers them); undefined when the rows were read without that column.
 */
export function tierPricesOfRows(rows: ProductRow[]): TierPrices | undefined {
  if (!rows.every((row) => 'tier_prices' in row)) return undefined;
  const byProduct: TierPrices = new Map();
  for (const row of rows) {
    if (typeof row.tier_prices !== 'string' || row.tier_prices === '') continue;
    const tiers = row.tier_prices.split(',').map((pair) => {
      const colon = pair.indexOf(':');
      return { minQuantity: Number(pair.slice(0, colon)), priceNet: Number(pair.slice(colon + 1)) };
    });
    byProduct.set(
      String(row.id),
      tiers.sort((a, b) => a.minQuantity - b.minQuantity),
    );
  }
  return byProduct;
}

/** Rows (from a products query) → records with their category ids, in the rows' order. */
export async function toProductRecords(executor: Executor, rows: ProductRow[]): Promise<ProductRecord[]> {
  if (rows.length > 0 && rows.every((row) => 'category_ids' in row))
    return rows.map((row) =>
      toProductRecord(
        row,
        typeof row.category_ids === 'string' && row.category_ids !== '' ? row.category_ids.split(',').sort() : [],
      ),
    );
  const categories = await categoryIdsOf(
    executor,
    rows.map((r) => String(r.id)),
  );
  return rows.map((row) => toProductRecord(row, categories.get(String(row.id)) ?? []));
}

/** Keeps the order of `ids`; missing ids are absent. */
export function inIdOrder<T extends { id: string }>(records: T[], ids: string[]): T[] {
  const byId = new Map(records.map((r) => [r.id, r]));
  const seen = new Set<string>();
  const result: T[] = [];
  for (const id of ids) {
    const record = byId.get(id);
    if (record && !seen.has(id)) {
      seen.add(id);
      result.push(record);
    }
  }
  return result;
}

export async function tierPricesOf(executor: Executor, productIds: string[]): Promise<TierPrices> {
  const byProduct: TierPrices = new Map();
  if (productIds.length === 0) return byProduct;
  const rows = await selectRows<{ product_id: string; min_quantity: number | string; price_net: number | string }>(
    executor('product_tier_prices')
      .whereIn('product_id', productIds)
      .orderBy('min_quantity')
      .select('product_id', 'min_quantity', 'price_net'),
  );
  for (const row of rows) {
    const list = byProduct.get(row.product_id) ?? [];
    list.push({ minQuantity: readInt(row.min_quantity), priceNet: readInt(row.price_net) });
    byProduct.set(row.product_id, list);
  }
  return byProduct;
}

/** Per product, the minimum quantities of its tier prices, ascending. */
export async function tierQuantitiesOf(executor: Executor, productIds: string[]): Promise<Map<string, number[]>> {
  const tiers = await tierPricesOf(executor, [...new Set(productIds)]);
  return new Map([...tiers].map(([id, list]) => [id, list.map((tier) => tier.minQuantity)]));
}
