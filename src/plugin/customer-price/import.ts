import type { HostRuntime } from '../../contract/index.js';
import { csvProblemsError, parseCsv, type CsvColumn, type CsvProblem } from '../../lib/csv.js';
import { inTransaction, isForeignKeyError, readInt, type Trx } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { nowDb } from '../../lib/time.js';
import { ADMIN_MONEY_PRECISION, insertPrices, pricesOfProducts, updatePrice } from './repository.js';
import { MAX_MIN_QUANTITY, MAX_PRICE } from './schemas.js';

export const PRICE_CSV_COLUMNS: CsvColumn[] = [
  { name: 'customer_number', aliases: ['customer', 'customer no'] },
  { name: 'customer_group_id', aliases: ['group_id', 'customer_group'] },
  { name: 'product_number', aliases: ['article_number', 'sku'], required: true },
  { name: 'min_quantity', aliases: ['quantity', 'from_quantity'] },
  { name: 'price', aliases: ['price_net', 'net_price'], required: true },
];
export const PRICE_CSV_MAX_BYTES = 5 * 1024 * 1024;
export const PRICE_CSV_MAX_ROWS = 50_000;
const CHUNK = 500;

interface PlannedPrice {
  line: number;
  customerId: string | null;
  customerGroupId: string | null;
  productId: string;
  minQuantity: number;
  priceNet: number;
}

/** '12.5', '12,50', '1200' → minor units; anything else (negative, 3 decimals, thousands separators) → null. */
export function parseAmount(text: string, precision: number): number | null {
  const match = /^(\d{1,12})(?:[.,](\d+))?$/.exec(text.trim());
  if (!match || (match[2] ?? '').length > precision) return null;
  return Number(match[1]) * 10 ** precision + Number((match[2] ?? '').padEnd(precision, '0') || 0);
}

/** What the file names, looked up in the host by number (customers, products) and id (groups). */
async function lookups(host: HostRuntime, trx: Trx, rows: Array<{ values: Record<string, string> }>) {
  const column = (name: string) => [...new Set(rows.map((r) => r.values[name]!.trim()).filter(Boolean))];
  const [customers, groups, products] = await Promise.all([
    host.customers.findByNumbers(trx, column('customer_number')),
    host.customerGroups.getMany(trx, column('customer_group_id')),
    host.catalog.productIdsByNumbers(trx, column('product_number')),
  ]);
  return {
    customers: new Map(customers.map((c) => [c.customerNumber, c.id])),
    groups: new Map(groups.map((g) => [g.id, g.id])),
    products: new Map(products.map((p) => [p.productNumber, p.id])),
  };
}

async function plan(host: HostRuntime, trx: Trx, rows: Array<{ line: number; values: Record<string, string> }>) {
  const problems: CsvProblem[] = [];
  const { customers, groups, products } = await lookups(host, trx, rows);
  const firstLineOf = new Map<string, number>();
  const planned: PlannedPrice[] = [];
  for (const { line, values } of rows) {
    const before = problems.length;
    const problem = (column: string, reason: string) => problems.push({ line, column, reason });
    const customerNumber = values.customer_number!.trim();
    const groupId = values.customer_group_id!.trim();
    let customerId: string | null = null;
    let customerGroupId: string | null = null;
    if ((customerNumber === '') === (groupId === ''))
      problem('customer_number', 'Give either customer_number or customer_group_id.');
    else if (customerNumber) {
      customerId = customers.get(customerNumber) ?? null;
      if (!customerId) problem('customer_number', `There is no customer "${customerNumber.slice(0, 64)}".`);
    } else {
      customerGroupId = groups.get(groupId) ?? null;
      if (!customerGroupId) problem('customer_group_id', `There is no customer group "${groupId.slice(0, 64)}".`);
    }
    const productNumber = values.product_number!.trim();
    const productId = products.get(productNumber) ?? null;
    if (!productNumber) problem('product_number', 'product_number is empty.');
    else if (!productId) problem('product_number', `There is no product "${productNumber.slice(0, 64)}".`);
    const quantityText = values.min_quantity!.trim();
    const minQuantity = quantityText === '' ? 1 : /^\d{1,7}$/.test(quantityText) ? Number(quantityText) : NaN;
    if (!(minQuantity >= 1 && minQuantity <= MAX_MIN_QUANTITY))
      problem(
        'min_quantity',
        `min_quantity must be a whole number from 1 to ${MAX_MIN_QUANTITY}, not "${quantityText.slice(0, 20)}".`,
      );
    const priceNet = parseAmount(values.price!, ADMIN_MONEY_PRECISION);
    if (priceNet === null || priceNet > MAX_PRICE * 10 ** ADMIN_MONEY_PRECISION)
      problem(
        'price',
        `price must be an amount like 12.50 with at most ${ADMIN_MONEY_PRECISION} decimals, not "${values.price!.trim().slice(0, 20)}".`,
      );
    if (problems.length > before) continue;
    const key = `${customerId ?? ''}|${customerGroupId ?? ''}|${productId}|${minQuantity}`;
    const first = firstLineOf.get(key);
    if (first !== undefined) {
      problem('product_number', `The same price (customer, product, min_quantity) is on line ${first} already.`);
      continue;
    }
    firstLineOf.set(key, line);
    planned.push({ line, customerId, customerGroupId, productId: productId!, minQuantity, priceNet: priceNet! });
  }
  return { planned, problems };
}

/** Existing prices of the products in the file, by key. */
async function existingPrices(trx: Trx, productIds: string[]): Promise<Map<string, { id: string; priceNet: number }>> {
  const existing = new Map<string, { id: string; priceNet: number }>();
  const unique = [...new Set(productIds)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    for (const row of await pricesOfProducts(trx, unique.slice(i, i + CHUNK)))
      existing.set(
        `${row.customer_id ?? ''}|${row.customer_group_id ?? ''}|${row.product_id}|${readInt(row.min_quantity)}`,
        { id: row.id, priceNet: readInt(row.price_net) },
      );
  }
  return existing;
}

/** Writes the planned prices (one key each): new ones inserted, changed ones updated; answers the counts. */
async function writePrices(trx: Trx, planned: PlannedPrice[], dryRun: boolean) {
  const existing = await existingPrices(
    trx,
    planned.map((p) => p.productId),
  );
  const now = nowDb();
  let created = 0;
  let updated = 0;
  const inserts: Array<Record<string, unknown>> = [];
  for (const p of planned) {
    const current = existing.get(`${p.customerId ?? ''}|${p.customerGroupId ?? ''}|${p.productId}|${p.minQuantity}`);
    if (dryRun) {
      if (!current) created++;
      else if (current.priceNet !== p.priceNet) updated++;
    } else if (!current) {
      inserts.push({
        id: newId(),
        customer_id: p.customerId,
        customer_group_id: p.customerGroupId,
        product_id: p.productId,
        min_quantity: p.minQuantity,
        price_net: p.priceNet,
        created_at: now,
      });
      created++;
    } else if (current.priceNet !== p.priceNet) {
      await updatePrice(trx, current.id, { price_net: p.priceNet, updated_at: now });
      updated++;
    }
  }
  for (let i = 0; i < inserts.length; i += CHUNK) await insertPrices(trx, inserts.slice(i, i + CHUNK));
  return { created, updated, unchanged: planned.length - created - updated };
}

function parsePrices(text: string) {
  return parseCsv(text, { columns: PRICE_CSV_COLUMNS, maxBytes: PRICE_CSV_MAX_BYTES, maxRows: PRICE_CSV_MAX_ROWS });
}

function deletedDuringImport(error: unknown): never {
  if (isForeignKeyError(error))
    throw Errors.conflict(
      'A customer, group or product of the file was deleted during the import; import the file again.',
    );
  throw error;
}

/** `dryRun`: check every row and count what the import would do, and write nothing (the console's preview). */
export async function importCustomerPrices(host: HostRuntime, text: string, options: { dryRun?: boolean } = {}) {
  const parsed = await parsePrices(text);
  return inTransaction(host.db, async (trx) => {
    const { planned, problems } = await plan(host, trx, parsed.rows);
    if (parsed.problems.length || problems.length) throw csvProblemsError([...parsed.problems, ...problems]);
    return { success: true as const, ...(await writePrices(trx, planned, options.dryRun ?? false)) };
  }).catch(deletedDuringImport);
}

/** The kind of the customer price import runs (src/plugin/import-run). */
export const PRICE_IMPORT_RUN_KIND = 'customer-prices';

/** Rows written per transaction by an import run. */
export const IMPORT_RUN_BATCH_ROWS = 1_000;

/**
 * The import of a run (src/plugin/import-run): the whole file is checked first (a bad row refuses
 * it, nothing written), then written `batchRows` rows per transaction, `progress` told after each.
 * A run that stops half-way has written whole batches; the file imported again completes it (a row
 * sets its key's price, so the rows already written count as unchanged).
 */
export async function importCustomerPricesInBatches(
  host: HostRuntime,
  text: string,
  progress: (done: number, total: number) => Promise<void>,
  batchRows = IMPORT_RUN_BATCH_ROWS,
) {
  const parsed = await parsePrices(text);
  const { planned, problems } = await inTransaction(host.db, (trx) => plan(host, trx, parsed.rows));
  if (parsed.problems.length || problems.length) throw csvProblemsError([...parsed.problems, ...problems]);
  const totals = { created: 0, updated: 0, unchanged: 0 };
  await progress(0, planned.length);
  for (let i = 0; i < planned.length; i += batchRows) {
    const counts = await inTransaction(host.db, (trx) =>
      writePrices(trx, planned.slice(i, i + batchRows), false),
    ).catch(deletedDuringImport);
    totals.created += counts.created;
    totals.updated += counts.updated;
    totals.unchanged += counts.unchanged;
    await progress(Math.min(i + batchRows, planned.length), planned.length);
  }
  return { success: true as const, ...totals };
}
