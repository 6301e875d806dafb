import type { Knex } from 'knex';
import type { Executor } from '../../lib/db.js';
import { readBool, selectRow, selectRows } from '../../lib/db.js';
import type { CustomerRef, ProductRecord, SalesChannel } from '../../contract/index.js';
import {
  Channel,
  Customer,
  CustomerGroup,
  Product,
  ProductTranslation,
  ProductVariant,
  ProductVariantPrice,
  ProductVariantTranslation,
  StockLevel,
  TaxRate,
  User,
} from '@vendure/core';
import { toVendureIds, versionId, type IdMapper } from './ids.js';
import { column, columns, junction, selectAs, table } from './vendure-schema.js';

/**
 * Reads of Vendure's own tables with knex, through the executor the plugin hands in: inside a
 * plugin transaction they run on its connection (on SQLite, a second connection would wait for the
 * plugin's write lock). Writes to Vendure's data go through Vendure's services instead.
 * Ids cross in the plugin's form (see ids.ts): every function here takes and answers plugin ids.
 * Table and column names come from Vendure's entity metadata (vendure-schema.ts), never from strings.
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

/** An OrderLine row as the adapter reads it: its columns with the variant's SKU (a left join of ProductVariant). */
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
    executor(table(Channel))
      .where(column(Channel, 'code'), DEFAULT_CHANNEL_CODE)
      .first(
        selectAs(
          Channel,
          undefined,
          'id',
          'code',
          'defaultCurrencyCode',
          'defaultLanguageCode',
          'defaultTaxZoneId',
          'pricesIncludeTax',
        ),
      ),
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
  return executor(table(Customer, 'c'))
    .leftJoin(table(User, 'u'), column(User, 'id', 'u'), column(Customer, 'user', 'c'))
    .select(
      ...selectAs(Customer, 'c', 'id', 'firstName', 'lastName', 'emailAddress', 'deletedAt'),
      `${column(Customer, 'user', 'c')} as userId`,
      ...selectAs(User, 'u', 'verified'),
    );
}

async function toCustomerRefs(
  ids: IdMapper,
  executor: Executor,
  rows: CustomerRow[],
  salesChannelId: string,
): Promise<CustomerRef[]> {
  if (rows.length === 0) return [];
  const groupsOf = junction(Customer, 'groups');
  const groups = await inChunks(
    rows.map((r) => String(r.id)),
    (chunk) =>
      selectRows<{ customerId: string | number; customerGroupId: string | number }>(
        executor(groupsOf.table)
          .whereIn(groupsOf.owner, chunk)
          .orderBy(groupsOf.inverse)
          .select(`${groupsOf.owner} as customerId`, `${groupsOf.inverse} as customerGroupId`),
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
    selectRows<CustomerRow>(
      customerSelect(executor)
        .whereIn(column(Customer, 'id', 'c'), chunk)
        .whereNull(column(Customer, 'deletedAt', 'c')),
    ),
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
      .whereRaw('lower(??) = ?', [column(Customer, 'emailAddress', 'c'), email.trim().toLowerCase()])
      .whereNull(column(Customer, 'deletedAt', 'c'))
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
    executor(table(Customer))
      .where(column(Customer, 'user'), vendureUserId)
      .whereNull(column(Customer, 'deletedAt'))
      .first(selectAs(Customer, undefined, 'id')),
  );
  return row ? ids.toPlugin(row.id) : null;
}

/** Plugin ids of the customer's Vendure customer groups. */
export async function customerGroupIds(ids: IdMapper, executor: Executor, pluginCustomerId: string): Promise<string[]> {
  const customerId = ids.toVendure(pluginCustomerId);
  if (!customerId) return [];
  const groupsOf = junction(Customer, 'groups');
  const rows = await selectRows<{ customerGroupId: string | number }>(
    executor(groupsOf.table).where(groupsOf.owner, customerId).select(`${groupsOf.inverse} as customerGroupId`),
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
      executor(table(CustomerGroup))
        .whereIn(column(CustomerGroup, 'id'), chunk)
        .select(selectAs(CustomerGroup, undefined, 'id', 'name')),
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
    selectRows<VariantRow>(variantSelect(executor, channel).whereIn(column(ProductVariant, 'id', 'v'), chunk)),
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
    selectRows<VariantRow>(variantSelect(executor, channel).whereIn(column(ProductVariant, 'sku', 'v'), chunk)),
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
  const v = columns(ProductVariant, 'v');
  const p = columns(Product, 'p');
  const vt = columns(ProductVariantTranslation, 'vt');
  const pt = columns(ProductTranslation, 'pt');
  const pr = columns(ProductVariantPrice, 'pr');
  return executor(table(ProductVariant, 'v'))
    .join(table(Product, 'p'), p('id'), v('productId'))
    .leftJoin(table(ProductVariantTranslation, 'vt'), function () {
      this.on(vt('base'), v('id')).andOnVal(vt('languageCode'), channel.defaultLanguageCode);
    })
    .leftJoin(table(ProductTranslation, 'pt'), function () {
      this.on(pt('base'), p('id')).andOnVal(pt('languageCode'), channel.defaultLanguageCode);
    })
    .leftJoin(table(ProductVariantPrice, 'pr'), function () {
      this.on(pr('variant'), v('id'))
        .andOnVal(pr('channelId'), channel.id)
        .andOnVal(pr('currencyCode'), channel.defaultCurrencyCode);
    })
    .whereNull(v('deletedAt'))
    .whereNull(p('deletedAt'));
}

function variantSelect(executor: Executor, channel: ChannelRow) {
  return liveVariants(executor, channel).select(
    ...selectAs(ProductVariant, 'v', 'id', 'sku', 'enabled', 'updatedAt', 'productId', 'taxCategoryId'),
    `${column(Product, 'enabled', 'p')} as productEnabled`,
    `${column(ProductVariantTranslation, 'name', 'vt')} as variantName`,
    `${column(ProductTranslation, 'name', 'pt')} as productName`,
    ...selectAs(ProductTranslation, 'pt', 'description'),
    ...selectAs(ProductVariantPrice, 'pr', 'price'),
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
        executor(table(TaxRate))
          .whereIn(column(TaxRate, 'category'), categories)
          .where(column(TaxRate, 'zone'), channel.defaultTaxZoneId)
          .where(column(TaxRate, 'enabled'), true)
          .select(`${column(TaxRate, 'category')} as categoryId`, ...selectAs(TaxRate, undefined, 'value')),
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
      executor(table(StockLevel))
        .whereIn(column(StockLevel, 'productVariantId'), chunk)
        .groupBy(column(StockLevel, 'productVariantId'))
        .select(selectAs(StockLevel, undefined, 'productVariantId'))
        .sum({ onHand: column(StockLevel, 'stockOnHand') })
        .sum({ allocated: column(StockLevel, 'stockAllocated') }),
    ),
  );
  return new Map(rows.map((r) => [String(r.productVariantId), Number(r.onHand ?? 0) - Number(r.allocated ?? 0)]));
}
