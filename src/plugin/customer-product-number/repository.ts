import type { Knex } from 'knex';
import type { HostRuntime, StoreContext } from '../../contract/index.js';
import { fixedRead, selectRows, type Executor } from '../../lib/db.js';
import { fromDbTime } from '../../lib/time.js';

export const CUSTOMER_PRODUCT_NUMBERS = 'suite_customer_product_numbers';
const CHUNK = 500;

/** Customer product numbers compare trimmed and case-insensitively. */
export function numberKey(value: string): string {
  return value.trim().toLowerCase();
}

/** A row of the numbers table. */
export interface NumberRow {
  id: string;
  customer_id: string;
  product_id: string;
  product_number: string;
  number_key: string;
  created_at: string | Date;
  updated_at: string | Date | null;
}

/** The columns the views read (VIEW_COLUMNS). */
export type NumberViewRow = Pick<NumberRow, 'id' | 'product_id' | 'product_number' | 'created_at' | 'updated_at'>;

/** A number row with the shop's product number and name (from the host). */
export function toView(row: NumberViewRow, product: { productNumber: string; name: string } | undefined) {
  return {
    id: String(row.id),
    productId: String(row.product_id),
    productNumber: product?.productNumber ?? '',
    productName: product?.name ?? '',
    customerProductNumber: String(row.product_number),
    createdAt: fromDbTime(row.created_at)!,
    updatedAt: fromDbTime(row.updated_at),
  };
}

/** Rows → views, with the products' numbers and names read from the host in one call. */
export async function toViews(host: HostRuntime, executor: Executor, rows: NumberViewRow[]) {
  const products = new Map(
    (
      await host.catalog.products(
        executor,
        rows.map((row) => String(row.product_id)),
      )
    ).map((p) => [p.id, p]),
  );
  return rows.map((row) => toView(row, products.get(String(row.product_id))));
}

export const VIEW_COLUMNS = ['cpn.id', 'cpn.product_id', 'cpn.product_number', 'cpn.created_at', 'cpn.updated_at'];

/** The customer's numbers (the rows of the list route). */
export function numbersQuery(executor: Executor, customerId: string): Knex.QueryBuilder {
  return executor(`${CUSTOMER_PRODUCT_NUMBERS} as cpn`).where('cpn.customer_id', customerId);
}

/** Product ids whose number (key) starts with `prefix` (already a key), at most `max`, in key order; and those equal to it. */
export async function productIdsByNumberPrefix(
  executor: Executor,
  customerId: string,
  prefix: string,
  max: number,
): Promise<{ exact: string[]; prefix: string[] }> {
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const rows: Array<{ product_id: string; number_key: string }> = await executor(CUSTOMER_PRODUCT_NUMBERS)
    .where('customer_id', customerId)
    .where('number_key', '>=', prefix)
    .where('number_key', '<', end)
    .orderBy('number_key')
    .limit(max)
    .select('product_id', 'number_key');
  return {
    exact: rows.filter((r) => r.number_key === prefix).map((r) => r.product_id),
    prefix: rows.map((r) => r.product_id),
  };
}

export async function numbersOf(
  executor: Executor,
  customerId: string,
  productIds: string[],
): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  const unique = [...new Set(productIds)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const rows: Array<Pick<NumberRow, 'product_id' | 'product_number'>> = await executor(CUSTOMER_PRODUCT_NUMBERS)
      .where('customer_id', customerId)
      .whereIn('product_id', unique.slice(i, i + CHUNK))
      .select('product_id', 'product_number');
    for (const row of rows) result.set(row.product_id, row.product_number);
  }
  return result;
}

/** Product ids by customer product number key. */
export async function productIdsByNumber(
  executor: Executor,
  customerId: string,
  numbers: string[],
): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  const keys = [...new Set(numbers.map(numberKey).filter(Boolean))];
  for (let i = 0; i < keys.length; i += CHUNK) {
    const rows: Array<Pick<NumberRow, 'number_key' | 'product_id'>> = await executor(CUSTOMER_PRODUCT_NUMBERS)
      .where('customer_id', customerId)
      .whereIn('number_key', keys.slice(i, i + CHUNK))
      .select('number_key', 'product_id');
    for (const row of rows) result.set(row.number_key, row.product_id);
  }
  return result;
}

/**
 * Visible, active products by catalog product number: an exact match first, else one that differs
 * only in case (numbers are looked up as typed, upper- and lower-cased, so the unique index serves).
 */
export async function visibleProductsByNumber(
  host: HostRuntime,
  ctx: StoreContext,
  numbers: string[],
  executor: Executor = host.db,
): Promise<Map<string, string>> {
  return productsByNumberAnyCase(numbers, (variants) => host.catalog.visibleProductsByNumber(executor, ctx, variants));
}

/** As visibleProductsByNumber, but any product of the catalog (the operator's import). */
export async function productsByNumber(
  host: HostRuntime,
  numbers: string[],
  executor: Executor = host.db,
): Promise<Map<string, string>> {
  return productsByNumberAnyCase(numbers, (variants) => host.catalog.productIdsByNumbers(executor, variants));
}

async function productsByNumberAnyCase(
  numbers: string[],
  find: (variants: string[]) => Promise<Array<{ id: string; productNumber: string }>>,
): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  const wanted = [...new Set(numbers.map((n) => n.trim()).filter(Boolean))];
  const variants = [...new Set(wanted.flatMap((n) => [n, n.toUpperCase(), n.toLowerCase()]))];
  const found = new Map((await find(variants)).map((p) => [p.productNumber, p.id]));
  for (const number of wanted) {
    const id = found.get(number) ?? found.get(number.toUpperCase()) ?? found.get(number.toLowerCase());
    if (id) result.set(number, id);
  }
  return result;
}

/** Customers or products were deleted by the host (contract events): their numbers go with them. */
export async function deleteNumbersOf(
  executor: Executor,
  column: 'customer_id' | 'product_id',
  ids: string[],
): Promise<void> {
  await executor(CUSTOMER_PRODUCT_NUMBERS).whereIn(column, ids).delete();
}

/** One product's number, by its SQL text (an add reads it on every request; knex's building cost more than the statement). */
export const customerNumberRead = fixedRead((executor: Executor, customerId: string, productId: string) =>
  executor(CUSTOMER_PRODUCT_NUMBERS)
    .where('customer_id', customerId)
    .where('product_id', productId)
    .select('product_number'),
);

/** The product that has the customer's number `key`, if any. */
export async function productOfNumberKey(
  executor: Executor,
  customerId: string,
  key: string,
): Promise<Pick<NumberRow, 'product_id'> | undefined> {
  return executor(CUSTOMER_PRODUCT_NUMBERS)
    .where({ customer_id: customerId, number_key: key })
    .first<Pick<NumberRow, 'product_id'> | undefined>('product_id');
}

/** The customer's number of a product, if it has one. */
export async function numberRowOfProduct(
  executor: Executor,
  customerId: string,
  productId: string,
): Promise<Pick<NumberRow, 'id' | 'product_number'> | undefined> {
  return executor(CUSTOMER_PRODUCT_NUMBERS)
    .where({ customer_id: customerId, product_id: productId })
    .first<Pick<NumberRow, 'id' | 'product_number'> | undefined>('id', 'product_number');
}

/** The customer's numbers that have one of `keys` or belong to one of `productIds`. */
export async function numbersByKeysOrProducts(
  executor: Executor,
  customerId: string,
  keys: string[],
  productIds: string[],
): Promise<Array<Pick<NumberRow, 'id' | 'product_id' | 'product_number' | 'number_key'>>> {
  return executor(CUSTOMER_PRODUCT_NUMBERS)
    .where('customer_id', customerId)
    .where((q) => {
      q.whereIn('number_key', keys).orWhereIn('product_id', productIds);
    })
    .select<Array<Pick<NumberRow, 'id' | 'product_id' | 'product_number' | 'number_key'>>>(
      'id',
      'product_id',
      'product_number',
      'number_key',
    );
}

/** A number's columns as the views read them (VIEW_COLUMNS). */
export async function numberView(executor: Executor, id: string): Promise<NumberViewRow> {
  return executor(`${CUSTOMER_PRODUCT_NUMBERS} as cpn`).where('cpn.id', id).first<NumberViewRow>(VIEW_COLUMNS);
}

export async function insertNumbers(executor: Executor, rows: Array<Record<string, unknown>>): Promise<void> {
  await executor(CUSTOMER_PRODUCT_NUMBERS).insert(rows);
}

export async function updateNumber(executor: Executor, id: string, columns: Record<string, unknown>): Promise<void> {
  await executor(CUSTOMER_PRODUCT_NUMBERS).where({ id }).update(columns);
}

/** Deletes one of the customer's numbers; answers how many rows went (0 or 1). */
export async function deleteNumber(executor: Executor, customerId: string, id: string): Promise<number> {
  return executor(CUSTOMER_PRODUCT_NUMBERS).where({ id, customer_id: customerId }).delete();
}

/** The customer's numbers ordered by number. */
export async function numbersInNumberOrder(
  executor: Executor,
  customerId: string,
): Promise<Array<Pick<NumberRow, 'product_id' | 'product_number'>>> {
  return selectRows<Pick<NumberRow, 'product_id' | 'product_number'>>(
    executor(CUSTOMER_PRODUCT_NUMBERS)
      .where('customer_id', customerId)
      .orderBy('product_number')
      .select('product_id', 'product_number'),
  );
}

/** The products the customer has a number for: all, or those whose number row `narrow` keeps (criteria filters on its columns). */
export async function numberedProductIds(
  executor: Executor,
  customerId: string,
  narrow?: (query: Knex.QueryBuilder) => Knex.QueryBuilder,
): Promise<string[]> {
  const numbered = executor(CUSTOMER_PRODUCT_NUMBERS).where('customer_id', customerId);
  const rows = await selectRows<{ product_id: string }>((narrow ? narrow(numbered) : numbered).select('product_id'));
  return rows.map((row) => row.product_id);
}
