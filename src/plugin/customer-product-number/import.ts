import type { HostRuntime, StoreContext } from '../../contract/index.js';
import { csvProblemsError, parseCsv, type CsvColumn, type CsvProblem } from '../../lib/csv.js';
import { inTransaction, isForeignKeyError, type Trx } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { nowDb } from '../../lib/time.js';
import {
  insertNumbers,
  numberKey,
  numbersByKeysOrProducts,
  productsByNumber,
  updateNumber,
  visibleProductsByNumber,
} from './repository.js';
import { MAX_NUMBER_LENGTH } from './schemas.js';
import { declaredCustomer } from '../declared.js';

export const NUMBER_CSV_COLUMNS: CsvColumn[] = [
  { name: 'product_number', aliases: ['article_number', 'sku'], required: true },
  { name: 'customer_product_number', aliases: ['customer_number', 'own_number'], required: true },
];
export const NUMBER_CSV_MAX_BYTES = 5 * 1024 * 1024;
const CHUNK = 500;

interface Planned {
  line: number;
  productId: string;
  number: string;
  key: string;
}

/** Product ids by the file's product numbers (unknown ones absent): the customer's visible products, or any (the operator). */
type ProductLookup = (trx: Trx, productNumbers: string[]) => Promise<Map<string, string>>;

async function plan(
  trx: Trx,
  lookup: ProductLookup,
  customerId: string,
  rows: Array<{ line: number; values: Record<string, string> }>,
) {
  const problems: CsvProblem[] = [];
  const products = await lookup(
    trx,
    rows.map((r) => r.values.product_number ?? ''),
  );
  const lineOfProduct = new Map<string, number>();
  const lineOfKey = new Map<string, number>();
  const planned: Planned[] = [];
  for (const { line, values } of rows) {
    const before = problems.length;
    const problem = (column: string, reason: string) => problems.push({ line, column, reason });
    const productNumber = (values.product_number ?? '').trim();
    const productId = products.get(productNumber);
    if (!productNumber) problem('product_number', 'product_number is empty.');
    else if (!productId) problem('product_number', `There is no product "${productNumber.slice(0, 64)}".`);
    else if (lineOfProduct.has(productId))
      problem(
        'product_number',
        `The product "${productNumber.slice(0, 64)}" is on line ${lineOfProduct.get(productId)} already.`,
      );
    const number = (values.customer_product_number ?? '').trim();
    const key = numberKey(number);
    if (!number) problem('customer_product_number', 'customer_product_number is empty.');
    else if (number.length > MAX_NUMBER_LENGTH)
      problem('customer_product_number', `customer_product_number is longer than ${MAX_NUMBER_LENGTH} characters.`);
    else if (lineOfKey.has(key))
      problem('customer_product_number', `The number "${number}" is on line ${lineOfKey.get(key)} already.`);
    if (problems.length > before) continue;
    lineOfProduct.set(productId!, line);
    lineOfKey.set(key, line);
    planned.push({ line, productId: productId!, number, key });
  }
  // A number may move between products of the file; it may not take one a product outside the file keeps.
  const existing = new Map<string, { id: string; number: string; key: string }>();
  const ownerOfKey = new Map<string, string>();
  const keys = planned.map((p) => p.key);
  const productIds = planned.map((p) => p.productId);
  for (let i = 0; i < Math.max(keys.length, productIds.length); i += CHUNK) {
    const rows = await numbersByKeysOrProducts(
      trx,
      customerId,
      keys.slice(i, i + CHUNK),
      productIds.slice(i, i + CHUNK),
    );
    for (const row of rows) {
      existing.set(row.product_id, { id: row.id, number: row.product_number, key: row.number_key });
      ownerOfKey.set(row.number_key, row.product_id);
    }
  }
  for (const p of planned) {
    const owner = ownerOfKey.get(p.key);
    if (owner && owner !== p.productId && !lineOfProduct.has(owner))
      problems.push({
        line: p.line,
        column: 'customer_product_number',
        reason: `The number "${p.number}" belongs to another product, which the file does not change.`,
      });
  }
  return { planned, existing, problems };
}

/** The customer's own import (Store API): products the customer may see. */
export async function importCustomerProductNumbers(host: HostRuntime, ctx: StoreContext, text: string) {
  const customer = declaredCustomer(ctx);
  await ctx.ruleIds();
  return importNumbers(host, customer.id, text, (trx, numbers) => visibleProductsByNumber(host, ctx, numbers, trx));
}

/**
 * The operator's import for a customer (Admin API): any product of the catalog. `dryRun`: check
 * every line and count what the import would do, and write nothing (the console's preview).
 */
export async function importCustomerProductNumbersFor(
  host: HostRuntime,
  customerId: string,
  text: string,
  options: { dryRun?: boolean } = {},
) {
  if (!(await host.customers.get(host.db, customerId))) throw Errors.notFound('customer', customerId);
  return importNumbers(host, customerId, text, (trx, numbers) => productsByNumber(host, numbers, trx), options);
}

async function importNumbers(
  host: HostRuntime,
  customerId: string,
  text: string,
  lookup: ProductLookup,
  options: { dryRun?: boolean } = {},
) {
  const maxRows = Number(await host.config.get<number>('customerProductNumberImportMaxRows'));
  const parsed = await parseCsv(text, { columns: NUMBER_CSV_COLUMNS, maxBytes: NUMBER_CSV_MAX_BYTES, maxRows });
  return inTransaction(host.db, async (trx) => {
    const { planned, existing, problems } = await plan(trx, lookup, customerId, parsed.rows);
    if (parsed.problems.length || problems.length) throw csvProblemsError([...parsed.problems, ...problems]);
    const now = nowDb();
    const changed = planned.filter((p) => existing.get(p.productId)?.number !== p.number);
    const updates = changed.filter((p) => existing.has(p.productId));
    if (options.dryRun)
      return {
        success: true as const,
        created: changed.length - updates.length,
        updated: updates.length,
        unchanged: planned.length - changed.length,
      };
    // Two steps, so numbers can swap between products without a moment where one key is held twice.
    for (const p of updates)
      await updateNumber(trx, existing.get(p.productId)!.id, { number_key: `~${existing.get(p.productId)!.id}` });
    for (const p of updates)
      await updateNumber(trx, existing.get(p.productId)!.id, {
        product_number: p.number,
        number_key: p.key,
        updated_at: now,
      });
    const inserts = changed
      .filter((p) => !existing.has(p.productId))
      .map((p) => ({
        id: newId(),
        customer_id: customerId,
        product_id: p.productId,
        product_number: p.number,
        number_key: p.key,
        created_at: now,
      }));
    for (let i = 0; i < inserts.length; i += CHUNK) await insertNumbers(trx, inserts.slice(i, i + CHUNK));
    return {
      success: true as const,
      created: inserts.length,
      updated: updates.length,
      unchanged: planned.length - changed.length,
    };
  }).catch((error: unknown) => {
    if (isForeignKeyError(error))
      throw Errors.conflict('A product of the file was deleted during the import; import the file again.');
    throw error;
  });
}
