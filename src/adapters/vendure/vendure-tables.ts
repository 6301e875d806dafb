import type { Knex } from 'knex';
import type { Executor } from '../../lib/db.js';
import { readBool, selectRow, selectRows } from '../../lib/db.js';
import type { CustomerRef, ProductRecord, SalesChannel } from '../../host/contract.js';
import { toVendureIds, versionId, type IdMapper } from './ids.js';

/**
 * Reads of Vendure's own tables with knex, through the executor the plugin hands in: inside a
 * plugin transaction they run on its connection (on SQLite, a second connection would wait for the
 * plugin's write lock). Writes to Vendure's data go through Vendure's services instead.
 * Ids cross in the plugin's form (see ids.ts): every function here takes and answers plugin ids.
 */
export const DEFAULT_CHANNEL_CODE = '__default_channel__';

const LOOKUP_CHUNK = 500;

async function inChunks<T>(values: string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const unique = [...new Set(values)];
  const out: T[] = [];
  for (let i = 0; i < unique.length; i += LOOKUP_CHUNK) out.push(...(await read(unique.slice(i, i + LOOKUP_CHUNK))));
  return out;
}

export interface ChannelRow {
  /** Vendure's id (for joins); SalesChannel.id is the plugin form. */
  id: string;
  code: string;
  defaultCurrencyCode: string;
  defaultLanguageCode: string;
  defaultTaxZoneId: string | null;
  /**
   * The channel's `pricesIncludeTax`: its variant prices (and, following it, the plugin's customer
   * prices, decision 0032) are entered with tax; the adapter answers the contract net prices.
   */
  pricesIncludeTax: boolean;
}

interface VendureChannelRow {
  id: string | number;
  code: string;
  defaultCurrencyCode: string;
  defaultLanguageCode: string;
  defaultTaxZoneId: string | number | null;
  pricesIncludeTax: unknown;
}

/** A customer joined with its user (customerSelect). */
interface CustomerRow {
  id: string | number;
  firstName: string | null;
  lastName: string | null;
  emailAddress: string;
  deletedAt: unknown;
  userId: string | number | null;
  verified: unknown;
}

/** A variant joined with its product, translations and channel price (variantSelect). */
interface VariantRow {
  id: string | number;
  sku: string;
  enabled: unknown;
  updatedAt: unknown;
  productId: string | number;
  taxCategoryId: string | number | null;
  productEnabled: unknown;
  variantName: string | null;
  productName: string | null;
  description: string | null;
  price: unknown;
}

/** An `order_line` row as the adapter reads it: its columns with the variant's SKU (a left join of product_variant). */
export interface OrderLineRow {
  id: string | number;
  productVariantId: string | number;
  quantity: unknown;
  listPrice: unknown;
  listPriceIncludesTax: unknown;
  taxLines: unknown;
  sku: string | null;
}

export async function defaultChannel(executor: Executor): Promise<ChannelRow> {
  const row = await selectRow<VendureChannelRow>(
    executor('channel')
      .where({ code: DEFAULT_CHANNEL_CODE })
      .first('id', 'code', 'defaultCurrencyCode', 'defaultLanguageCode', 'defaultTaxZoneId', 'pricesIncludeTax'),
  );
  if (!row) throw new Error('Vendure has no default channel yet (has Vendure started?)');
  return {
    ...row,
    id: String(row.id),
    defaultTaxZoneId: row.defaultTaxZoneId == null ? null : String(row.defaultTaxZoneId),
    pricesIncludeTax: readBool(row.pricesIncludeTax),
  };
}

/**
 * The net of a price in the channel's terms: as entered on a channel whose prices include tax
 * (Vendure's `pricesIncludeTax`), at the product's tax rate (basis points), rounded to the minor unit.
 */
export function netOfChannelPrice(price: number, pricesIncludeTax: boolean, taxRateBp: number): number {
  return pricesIncludeTax ? Math.round((price * 10000) / (10000 + taxRateBp)) : price;
}

export function toSalesChannel(ids: IdMapper, channel: ChannelRow, domains: string[]): SalesChannel {
  return {
    id: ids.toPlugin(channel.id),
    name: channel.code === DEFAULT_CHANNEL_CODE ? 'Default channel' : channel.code,
    currencyIso: channel.defaultCurrencyCode,
    currencyPrecision: 2,
    languageCode: channel.defaultLanguageCode,
    timeZone: 'UTC',
    domains,
  };
}

function customerSelect(executor: Executor) {
  return executor('customer as c')
    .leftJoin('user as u', 'u.id', 'c.userId')
    .select('c.id', 'c.firstName', 'c.lastName', 'c.emailAddress', 'c.deletedAt', 'c.userId', 'u.verified');
}

async function toCustomerRefs(
  ids: IdMapper,
  executor: Executor,
  rows: CustomerRow[],
  salesChannelId: string,
): Promise<CustomerRef[]> {
  if (rows.length === 0) return [];
  const groups = await inChunks(
    rows.map((r) => String(r.id)),
    (chunk) =>
      selectRows<{ customerId: string | number; customerGroupId: string | number }>(
        executor('customer_groups_customer_group')
          .whereIn('customerId', chunk)
          .orderBy('customerGroupId')
          .select('customerId', 'customerGroupId'),
      ),
  );
  const groupOf = new Map<string, string>();
  for (const g of groups)
    if (!groupOf.has(String(g.customerId))) groupOf.set(String(g.customerId), ids.toPlugin(g.customerGroupId));
  return rows.map((row) => ({
    id: ids.toPlugin(row.id),
    salesChannelId,
    // Vendure has no customer number: the id stands for it (documented in docs/vendure.md).
    customerNumber: String(row.id),
    email: String(row.emailAddress).toLowerCase(),
    firstName: row.firstName ?? '',
    lastName: row.lastName ?? '',
    company: null,
    groupId: groupOf.get(String(row.id)) ?? null,
    tags: [],
    // A guest customer (no user) cannot log in; a deleted one is gone.
    active: row.deletedAt == null && row.userId != null && readBool(row.verified),
  }));
}

export async function customersByIds(
  ids: IdMapper,
  executor: Executor,
  pluginIds: string[],
  salesChannelId: string,
): Promise<CustomerRef[]> {
  const rows = await inChunks(toVendureIds(ids, pluginIds), (chunk) =>
    selectRows<CustomerRow>(customerSelect(executor).whereIn('c.id', chunk).whereNull('c.deletedAt')),
  );
  const byId = new Map((await toCustomerRefs(ids, executor, rows, salesChannelId)).map((c) => [c.id, c]));
  return pluginIds.flatMap((id) => byId.get(id) ?? []);
}

export async function customerByEmail(
  ids: IdMapper,
  executor: Executor,
  email: string,
  salesChannelId: string,
): Promise<CustomerRef | null> {
  const rows = await selectRows<CustomerRow>(
    customerSelect(executor)
      .whereRaw('lower(??) = ?', ['c.emailAddress', email.trim().toLowerCase()])
      .whereNull('c.deletedAt')
      .limit(1),
  );
  return (await toCustomerRefs(ids, executor, rows, salesChannelId))[0] ?? null;
}

/** The plugin id of the (not deleted) customer of a Vendure user id. */
export async function customerIdOfUser(
  ids: IdMapper,
  executor: Executor,
  vendureUserId: string,
): Promise<string | null> {
  const row = await selectRow<{ id: string | number }>(
    executor('customer').where({ userId: vendureUserId }).whereNull('deletedAt').first('id'),
  );
  return row ? ids.toPlugin(row.id) : null;
}

/** Plugin ids of the customer's Vendure customer groups. */
export async function customerGroupIds(ids: IdMapper, executor: Executor, pluginCustomerId: string): Promise<string[]> {
  const customerId = ids.toVendure(pluginCustomerId);
  if (!customerId) return [];
  const rows = await selectRows<{ customerGroupId: string | number }>(
    executor('customer_groups_customer_group').where({ customerId }).select('customerGroupId'),
  );
  return rows.map((r) => ids.toPlugin(r.customerGroupId));
}

export async function customerGroupsByIds(
  ids: IdMapper,
  executor: Executor,
  pluginIds: string[],
): Promise<Array<{ id: string; name: string }>> {
  const rows = await inChunks(toVendureIds(ids, pluginIds), (chunk) =>
    selectRows<{ id: string | number; name: string }>(
      executor('customer_group').whereIn('id', chunk).select('id', 'name'),
    ),
  );
  const byId = new Map(rows.map((r) => [ids.toPlugin(r.id), { id: ids.toPlugin(r.id), name: String(r.name) }]));
  return pluginIds.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The plugin's "product" is Vendure's ProductVariant: the thing with a SKU (product number) and a
 * price that goes into an order line. Name and description come from the variant's and product's
 * translation in the channel's language; the price is the variant's price in the channel's currency.
 */
export async function variantsByIds(
  ids: IdMapper,
  executor: Executor,
  pluginIds: string[],
  channel: ChannelRow,
): Promise<ProductRecord[]> {
  const rows = await inChunks(toVendureIds(ids, pluginIds), (chunk) =>
    selectRows<VariantRow>(variantSelect(executor, channel).whereIn('v.id', chunk)),
  );
  return orderAs(pluginIds, await toProductRecords(ids, executor, rows, channel));
}

export async function variantsBySkus(
  ids: IdMapper,
  executor: Executor,
  skus: string[],
  channel: ChannelRow,
): Promise<ProductRecord[]> {
  const rows = await inChunks(skus, (chunk) =>
    selectRows<VariantRow>(variantSelect(executor, channel).whereIn('v.sku', chunk)),
  );
  return toProductRecords(ids, executor, rows, channel);
}

function orderAs(ids: string[], records: ProductRecord[]): ProductRecord[] {
  const byId = new Map(records.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The channel's live variants (`v`) with their product (`p`), both translations in the channel's
 * language (`vt`, `pt`) and the price in its currency (`pr`); callers choose the columns.
 */
export function liveVariants(executor: Executor, channel: ChannelRow): Knex.QueryBuilder {
  return executor('product_variant as v')
    .join('product as p', 'p.id', 'v.productId')
    .leftJoin('product_variant_translation as vt', function () {
      this.on('vt.baseId', 'v.id').andOnVal('vt.languageCode', channel.defaultLanguageCode);
    })
    .leftJoin('product_translation as pt', function () {
      this.on('pt.baseId', 'p.id').andOnVal('pt.languageCode', channel.defaultLanguageCode);
    })
    .leftJoin('product_variant_price as pr', function () {
      this.on('pr.variantId', 'v.id')
        .andOnVal('pr.channelId', channel.id)
        .andOnVal('pr.currencyCode', channel.defaultCurrencyCode);
    })
    .whereNull('v.deletedAt')
    .whereNull('p.deletedAt');
}

function variantSelect(executor: Executor, channel: ChannelRow) {
  return liveVariants(executor, channel).select(
    'v.id',
    'v.sku',
    'v.enabled',
    'v.updatedAt',
    'v.productId',
    'v.taxCategoryId',
    'p.enabled as productEnabled',
    'vt.name as variantName',
    'pt.name as productName',
    'pt.description',
    'pr.price',
  );
}

async function toProductRecords(
  ids: IdMapper,
  executor: Executor,
  rows: VariantRow[],
  channel: ChannelRow,
): Promise<ProductRecord[]> {
  const taxRates = new Map<string, number>();
  if (channel.defaultTaxZoneId) {
    const categories = [
      ...new Set(
        rows
          .map((r) => r.taxCategoryId)
          .filter((id) => id != null)
          .map(String),
      ),
    ];
    if (categories.length > 0) {
      const rates = await selectRows<{ categoryId: string | number; value: unknown }>(
        executor('tax_rate')
          .whereIn('categoryId', categories)
          .where({ zoneId: channel.defaultTaxZoneId, enabled: true })
          .select('categoryId', 'value'),
      );
      for (const rate of rates) taxRates.set(String(rate.categoryId), Math.round(Number(rate.value) * 100));
    }
  }
  const stock = await stockOf(
    executor,
    rows.map((r) => String(r.id)),
  );
  return rows.map((row) => {
    const taxRateBp = taxRates.get(String(row.taxCategoryId)) ?? 0;
    return {
      id: ids.toPlugin(row.id),
      versionId: versionId(row.updatedAt),
      productNumber: String(row.sku),
      name: String(row.variantName ?? row.productName ?? row.sku),
      description: row.description ?? null,
      stock: stock.get(String(row.id)) ?? 0,
      active: readBool(row.enabled) && readBool(row.productEnabled),
      taxRateBp,
      // A channel whose prices include tax keeps gross variant prices: the contract's is net.
      priceNet: netOfChannelPrice(Number(row.price ?? 0), channel.pricesIncludeTax, taxRateBp),
      manufacturer: null,
      ean: null,
      categoryIds: [],
    };
  });
}

async function stockOf(executor: Executor, variantIds: string[]): Promise<Map<string, number>> {
  const rows = await inChunks(variantIds, (chunk) =>
    selectRows<{ productVariantId: string | number; onHand: unknown; allocated: unknown }>(
      executor('stock_level')
        .whereIn('productVariantId', chunk)
        .groupBy('productVariantId')
        .select('productVariantId')
        .sum({ onHand: 'stockOnHand' })
        .sum({ allocated: 'stockAllocated' }),
    ),
  );
  return new Map(rows.map((r) => [String(r.productVariantId), Number(r.onHand ?? 0) - Number(r.allocated ?? 0)]));
}
