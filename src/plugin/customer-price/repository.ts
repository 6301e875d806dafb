import type { Knex } from 'knex';
import { marks, readInt, selectRaw, selectRow, selectRows, type Executor } from '../../lib/db.js';
import { fromDbTime } from '../../lib/time.js';

export const CUSTOMER_PRICES = 'suite_customer_prices';
/** The Admin API speaks money with two decimals, as the host's Admin API does for product prices. */
export const ADMIN_MONEY_PRECISION = 2;

export type PriceScope = 'customer' | 'customerGroup';

export interface CustomerPriceRecord {
  id: string;
  customerId: string | null;
  customerGroupId: string | null;
  productId: string;
  minQuantity: number;
  /** net unit price, minor units */
  priceNet: number;
  /** UTC ISO-8601; null: open */
  validFrom: string | null;
  validUntil: string | null;
  /** the currency the price is in; null: the sales channel's */
  currencyIso: string | null;
  /** pseudo (strike-through) net unit price, minor units */
  listPriceNet: number | null;
  createdAt: string;
  updatedAt: string | null;
}

/** A row of suite_customer_prices as the drivers answer it (numbers may come back as strings). */
export interface CustomerPriceRow {
  id: string;
  customer_id: string | null;
  customer_group_id: string | null;
  product_id: string;
  min_quantity: unknown;
  price_net: unknown;
  valid_from: string | null;
  valid_until: string | null;
  currency_iso: string | null;
  list_price_net: unknown;
  created_at: string;
  updated_at: string | null;
}

export function toRecord(row: CustomerPriceRow): CustomerPriceRecord {
  return {
    id: row.id,
    customerId: row.customer_id ?? null,
    customerGroupId: row.customer_group_id ?? null,
    productId: row.product_id,
    minQuantity: readInt(row.min_quantity),
    priceNet: readInt(row.price_net),
    validFrom: fromDbTime(row.valid_from),
    validUntil: fromDbTime(row.valid_until),
    currencyIso: row.currency_iso ?? null,
    listPriceNet: row.list_price_net === null || row.list_price_net === undefined ? null : readInt(row.list_price_net),
    createdAt: fromDbTime(row.created_at)!,
    updatedAt: fromDbTime(row.updated_at),
  };
}

/** When and where a price applies: `at` (DB time) within its period, in its currency (or any when it names none). */
export interface Applicability {
  at: string;
  currencyIso: string;
}

/** The prices that apply at `?` (valid from, until) in the currency `?` (or naming none), as SQL text: applicabilityBindings answers its bindings. */
const APPLICABLE_SQL =
  '(valid_from is null or valid_from <= ?) and (valid_until is null or valid_until > ?) and (currency_iso is null or currency_iso = ?)';

function applicabilityBindings(when: Applicability): string[] {
  return [when.at, when.at, when.currencyIso];
}

/** A price row that applies now, as the price provider reads it (customer's or group's). */
export interface ApplicablePrice {
  /** the customer's own row, or its group's */
  scope: PriceScope;
  productId: string;
  minQuantity: number;
  priceNet: number;
  listPriceNet: number | null;
}

type ApplicableRow = Pick<
  CustomerPriceRow,
  'customer_id' | 'product_id' | 'min_quantity' | 'price_net' | 'list_price_net'
>;

const APPLICABLE_COLUMNS = 'customer_id, product_id, min_quantity, price_net, list_price_net';

/**
 * A read of a customer's rows and its group's for some products, each arm by its unique key (owner,
 * product, min_quantity), as one UNION ALL (the customer's arm alone without a group): `columns`, and
 * `conditions` after the key. Bindings per arm: the owner, the product ids, then the conditions'.
 */
function ownerPricesSql(hasGroup: boolean, productCount: number, columns: string, conditions = ''): string {
  const products = productCount === 1 ? 'product_id = ?' : `product_id in (${marks(productCount)})`;
  const arm = (ownerColumn: string) =>
    `select ${columns} from ${CUSTOMER_PRICES} where ${ownerColumn} = ? and ${products}${conditions}`;
  return hasGroup ? `${arm('customer_id')} union all ${arm('customer_group_id')}` : arm('customer_id');
}

function toApplicable(row: ApplicableRow, customerId: string): ApplicablePrice {
  return {
    scope: row.customer_id === customerId ? 'customer' : 'customerGroup',
    productId: row.product_id,
    minQuantity: readInt(row.min_quantity),
    priceNet: readInt(row.price_net),
    listPriceNet: row.list_price_net === null || row.list_price_net === undefined ? null : readInt(row.list_price_net),
  };
}

/**
 * The rows of a customer and of its group for some products that apply now, with a minimum quantity
 * not above `maxQuantity`: one statement (the customer's rows and the group's, each by its unique key,
 * as one UNION ALL). `pickPrice` chooses among them.
 */
export async function applicablePrices(
  executor: Executor,
  customerId: string,
  groupId: string | null,
  productIds: string[],
  maxQuantity: number,
  when: Applicability,
): Promise<ApplicablePrice[]> {
  if (productIds.length === 0) return [];
  // SQL text, not a knex builder: priced on every listing page and product price request, where
  // building it cost more CPU than running it.
  const tail = [...productIds, maxQuantity, ...applicabilityBindings(when)];
  const sql = ownerPricesSql(
    groupId !== null,
    productIds.length,
    APPLICABLE_COLUMNS,
    ` and min_quantity <= ? and ${APPLICABLE_SQL}`,
  );
  const rows = await selectRaw<ApplicableRow>(
    executor,
    sql,
    groupId ? [customerId, ...tail, groupId, ...tail] : [customerId, ...tail],
  );
  return rows.map((row) => toApplicable(row, customerId));
}

/** A price row of a customer or its group, whatever its period, quantity and currency: what a process keeps (price-cache.ts). */
export interface StoredPrice extends ApplicablePrice {
  /** epoch ms; null: open */
  validFrom: number | null;
  validUntil: number | null;
  currencyIso: string | null;
}

type StoredRow = ApplicableRow & Pick<CustomerPriceRow, 'valid_from' | 'valid_until' | 'currency_iso'>;

const epochMs = (value: string | null) =>
  value === null || value === undefined ? null : Date.parse(fromDbTime(value)!);

/** Every row of a customer and of its group for some products (periods, quantities and currencies applied later: `applies`), in one statement. */
export async function storedPrices(
  executor: Executor,
  customerId: string,
  groupId: string | null,
  productIds: string[],
): Promise<StoredPrice[]> {
  if (productIds.length === 0) return [];
  const sql = ownerPricesSql(
    groupId !== null,
    productIds.length,
    `${APPLICABLE_COLUMNS}, valid_from, valid_until, currency_iso`,
  );
  const rows = await selectRaw<StoredRow>(
    executor,
    sql,
    groupId ? [customerId, ...productIds, groupId, ...productIds] : [customerId, ...productIds],
  );
  return rows.map((row) => ({
    ...toApplicable(row, customerId),
    validFrom: epochMs(row.valid_from),
    validUntil: epochMs(row.valid_until),
    currencyIso: row.currency_iso ?? null,
  }));
}

/** What APPLICABLE_SQL and the quantity bound decide in the database, for a kept row: `atMs` within its period, its currency, a minimum quantity not above `maxQuantity`. */
export function applies(price: StoredPrice, atMs: number, currencyIso: string, maxQuantity: number): boolean {
  return (
    price.minQuantity <= maxQuantity &&
    (price.validFrom === null || price.validFrom <= atMs) &&
    (price.validUntil === null || price.validUntil > atMs) &&
    (price.currencyIso === null || price.currencyIso === currencyIso)
  );
}

/**
 * The price for a quantity among a product's applicable rows: the customer's row with the highest
 * minimum quantity not above it (an expired "from 10" leaves the quantity to the "from 1"), else the
 * group's row chosen alike, else null.
 */
export function pickPrice(rows: Iterable<ApplicablePrice>, quantity: number): ApplicablePrice | null {
  let own: ApplicablePrice | null = null;
  let group: ApplicablePrice | null = null;
  for (const row of rows) {
    if (row.minQuantity > quantity) continue;
    if (row.scope === 'customer') {
      if (!own || row.minQuantity > own.minQuantity) own = row;
    } else if (!group || row.minQuantity > group.minQuantity) group = row;
  }
  return own ?? group;
}

/** Whether a customer and its group have any price at all (one cheap query saves one per product for most customers). */
export async function pricesPresent(
  executor: Executor,
  customerId: string,
  groupId: string | null,
): Promise<{ customer: boolean; group: boolean }> {
  const exists = (column: string, value: string) =>
    executor(CUSTOMER_PRICES).where(column, value).select(executor.raw('1')).limit(1);
  const row = await selectRow<{ c: unknown; g: unknown }>(
    executor
      .select({
        c: exists('customer_id', customerId),
        g: groupId ? exists('customer_group_id', groupId) : executor.raw('NULL'),
      })
      .first(),
  );
  return { customer: row?.c !== null && row?.c !== undefined, group: row?.g !== null && row?.g !== undefined };
}

/** Minimum quantities at which a customer's (or its group's) price changes, per product: the breakpoints of a tier table. */
export async function priceBreakpoints(
  executor: Executor,
  customerId: string,
  groupId: string | null,
  productIds: string[],
  when: Applicability,
): Promise<Map<string, number[]>> {
  const result = new Map<string, number[]>();
  if (productIds.length === 0) return result;
  const rows = await selectRows<Pick<CustomerPriceRow, 'product_id' | 'min_quantity'>>(
    executor(CUSTOMER_PRICES)
      .whereRaw(APPLICABLE_SQL, applicabilityBindings(when))
      .whereIn('product_id', productIds)
      .where((q) => {
        q.where('customer_id', customerId);
        if (groupId) q.orWhere('customer_group_id', groupId);
      })
      .select('product_id', 'min_quantity'),
  );
  for (const row of rows)
    result.set(row.product_id, [...(result.get(row.product_id) ?? []), readInt(row.min_quantity)]);
  return result;
}

/** Customers, customer groups or products were deleted by the host (contract events): their prices go with them. */
export async function deletePricesOf(
  executor: Executor,
  column: 'customer_id' | 'customer_group_id' | 'product_id',
  ids: string[],
): Promise<void> {
  await executor(CUSTOMER_PRICES).whereIn(column, ids).delete();
}

/** The unique key of a price: its owner (customer or group), product and minimum quantity. */
export interface PriceKey {
  customer_id: string | null;
  customer_group_id: string | null;
  product_id: string;
  min_quantity: number;
}

/** The price with `key`: its id and the `columns` asked for, as stored; undefined when there is none. */
export async function findPriceByKey(
  executor: Executor,
  key: PriceKey,
  columns: string[],
): Promise<(Record<string, unknown> & { id: string }) | undefined> {
  return selectRow<Record<string, unknown> & { id: string }>(
    executor(CUSTOMER_PRICES)
      .where(key)
      .first('id', ...columns),
  );
}

export async function findPrice(executor: Executor, id: string): Promise<CustomerPriceRow | undefined> {
  return selectRow<CustomerPriceRow>(executor(CUSTOMER_PRICES).where({ id }).first());
}

export async function insertPrices(executor: Executor, rows: Array<Record<string, unknown>>): Promise<void> {
  await executor(CUSTOMER_PRICES).insert(rows);
}

export async function updatePrice(executor: Executor, id: string, columns: Record<string, unknown>): Promise<void> {
  await executor(CUSTOMER_PRICES).where({ id }).update(columns);
}

/** Deletes one price; answers how many rows went (0 or 1). */
export async function deletePrice(executor: Executor, id: string): Promise<number> {
  return executor(CUSTOMER_PRICES).where({ id }).delete();
}

/** A page of prices (oldest first), optionally of one customer, customer group or product, and how many there are in all. */
export async function pricePage(
  executor: Executor,
  filters: { customerId?: string; customerGroupId?: string; productId?: string },
  page: { limit: number; offset: number },
): Promise<{ total: number; rows: CustomerPriceRow[] }> {
  const base = executor(CUSTOMER_PRICES);
  if (filters.customerId) base.where('customer_id', filters.customerId);
  if (filters.customerGroupId) base.where('customer_group_id', filters.customerGroupId);
  if (filters.productId) base.where('product_id', filters.productId);
  const [count] = await selectRows<{ n: unknown }>(base.clone().count({ n: '*' }));
  const rows = await selectRows<CustomerPriceRow>(
    base.clone().orderBy('created_at').orderBy('id').limit(page.limit).offset(page.offset).select('*'),
  );
  return { total: readInt(count?.n), rows };
}

/** What the import compares a row of the file with: an existing price's id and net price. */
export type StoredPriceOfKey = Pick<
  CustomerPriceRow,
  'id' | 'customer_id' | 'customer_group_id' | 'product_id' | 'min_quantity' | 'price_net'
>;

/** Every price of some products (any owner), with its key and net price. */
export async function pricesOfProducts(executor: Executor, productIds: string[]): Promise<StoredPriceOfKey[]> {
  return selectRows<StoredPriceOfKey>(
    executor(CUSTOMER_PRICES)
      .whereIn('product_id', productIds)
      .select('id', 'customer_id', 'customer_group_id', 'product_id', 'min_quantity', 'price_net'),
  );
}

/**
 * The prices of a customer and of its group that are current or coming (not expired at `now`), in
 * `currencyIso` or naming none: the rows of the Store API's list (alias `cp`), for criteria to narrow.
 */
export function storePricesQuery(
  executor: Executor,
  customer: { id: string; groupId: string | null },
  now: string,
  currencyIso: string,
): Knex.QueryBuilder {
  const base = executor(`${CUSTOMER_PRICES} as cp`).where((q) => {
    q.where('cp.customer_id', customer.id);
    if (customer.groupId) q.orWhere('cp.customer_group_id', customer.groupId);
  });
  base.where((q) => {
    q.whereNull('cp.valid_until').orWhere('cp.valid_until', '>', now);
  });
  base.where((q) => {
    q.whereNull('cp.currency_iso').orWhere('cp.currency_iso', currencyIso);
  });
  return base;
}
