import { newId, ID_PATTERN } from '../../lib/ids.js';
import { Errors } from '../../lib/errors.js';
import { exactMinor, fromMinor, toMinor } from '../../lib/money.js';
import { selectRow, selectRows } from '../../lib/db.js';
import { objectSchema } from '../../lib/schemas.js';
import { hashPassword } from '../../host-kit/passwords.js';
import { revokeActorSessions } from '../auth/sessions.js';
import { nextCustomerNumber } from '../customer/customer-repository.js';
import { lockProductsVersion } from '../catalog/catalog-version.js';
import { categoryIdsOf, tierPricesOf } from '../catalog/product-repository.js';
import { conditionDefs, conditionDepth, MAX_CONDITION_DEPTH } from '../catalog/rule-engine.js';
import { ADMIN_MONEY_PRECISION, Entity, type EntityDef, type RelationDef } from './entity-definition.js';
import type { SalesChannelRow } from '../customer/rows.js';

const idSchema = { type: 'string', pattern: ID_PATTERN };
const stringList = { type: 'array', items: { type: 'string' } };

const product: EntityDef = {
  name: 'product',
  type: 'product',
  label: 'product',
  table: 'products',
  versioned: true,
  fields: {
    productNumber: {
      column: 'product_number',
      kind: 'string',
      required: true,
      maxLength: 64,
      unique: 'SUITE__DUPLICATE_PRODUCT_NUMBER',
    },
    name: { column: 'name', kind: 'string', required: true },
    description: { column: 'description', kind: 'text', nullable: true },
    stock: { column: 'stock', kind: 'integer', minimum: 0, default: 0 },
    active: { column: 'active', kind: 'boolean', default: true },
    taxRate: { column: 'tax_rate_bp', kind: 'percentBp', default: 19 },
    price: { column: 'price_net', kind: 'money', required: true },
    manufacturer: { column: 'manufacturer', kind: 'string', nullable: true },
    ean: { column: 'ean', kind: 'string', nullable: true, maxLength: 64 },
    /** The main product of a variant (one level: a variant has no variants). */
    parentId: { column: 'parent_id', kind: 'id', nullable: true, references: 'products', default: null },
  },
  relations: {
    /** The property values that make a variant what it is (its colour and size). */
    optionIds: propertyOptionRelation('product_options', '/optionIds'),
    /** The property values that describe the product (what similar products compare). */
    propertyIds: propertyOptionRelation('product_properties', '/propertyIds'),
    categoryIds: {
      schema: { type: 'array', maxItems: 100, uniqueItems: true, items: idSchema },
      readSchema: stringList,
      load: categoryIdsOf,
      async check(trx, value) {
        const ids = value as string[];
        const found = ids.length ? await trx('categories').whereIn('id', ids).pluck('id') : [];
        const missing = ids.find((id) => !found.includes(id));
        if (missing)
          throw Errors.badRequest('SUITE__UNKNOWN_REFERENCE', `No category with id "${missing}".`, {
            pointer: '/categoryIds',
          });
      },
      async save(trx, id, value) {
        await trx('product_categories').where({ product_id: id }).delete();
        const ids = value as string[];
        if (ids.length)
          await trx('product_categories').insert(
            ids.map((categoryId) => ({ product_id: id, category_id: categoryId })),
          );
      },
    },
    tierPrices: {
      schema: {
        type: 'array',
        maxItems: 50,
        items: objectSchema(
          {
            minQuantity: { type: 'integer', minimum: 1, maximum: 1000000 },
            price: { type: 'number', minimum: 0, maximum: 1e10 },
          },
          ['minQuantity', 'price'],
        ),
      },
      readSchema: {
        type: 'array',
        items: objectSchema({ minQuantity: { type: 'integer' }, price: { type: 'number' } }, ['minQuantity', 'price']),
      },
      async load(executor, ids) {
        const tiers = await tierPricesOf(executor, ids);
        return new Map(
          [...tiers].map(([id, list]) => [
            id,
            list.map((t) => ({ minQuantity: t.minQuantity, price: fromMinor(t.priceNet, ADMIN_MONEY_PRECISION) })),
          ]),
        );
      },
      check(_trx, value) {
        // More decimals than prices have are refused, not rounded (decision 0046).
        (value as Array<{ price: number }>).forEach((t, i) =>
          exactMinor(t.price, ADMIN_MONEY_PRECISION, `/tierPrices/${i}/price`),
        );
        const quantities = (value as Array<{ minQuantity: number }>).map((t) => t.minQuantity);
        if (new Set(quantities).size !== quantities.length)
          throw Errors.badRequest('SUITE__DUPLICATE_TIER_QUANTITY', 'Two tier prices have the same minimum quantity.', {
            pointer: '/tierPrices',
          });
      },
      async save(trx, id, value) {
        await trx('product_tier_prices').where({ product_id: id }).delete();
        const tiers = value as Array<{ minQuantity: number; price: number }>;
        if (tiers.length)
          await trx('product_tier_prices').insert(
            tiers.map((t) => ({
              id: newId(),
              product_id: id,
              min_quantity: t.minQuantity,
              price_net: toMinor(t.price, ADMIN_MONEY_PRECISION),
            })),
          );
      },
    },
  },
  extraCriteriaFields: {
    categoryId: {
      column: 'product_categories.category_id',
      type: 'id',
      via: { table: 'product_categories', foreignKey: 'product_categories.product_id', localKey: 'products.id' },
    },
  },
  termFields: ['name', 'productNumber'],
  defaultSort: 'productNumber',
  visibility: ['active', 'parentId'],
  deletedEvent: 'product.deleted',
  // The products version's row first (see lockProductsVersion): the same lock order as a checkout's stock decrements.
  beforeDelete: (trx) => lockProductsVersion(trx),
  async beforeWrite({ trx, id, input }) {
    await lockProductsVersion(trx);
    const parentId = input.parentId as string | null | undefined;
    if (!parentId) return;
    const parent = await selectRow<{ parent_id: string | null }>(
      trx('products').where({ id: parentId }).first('parent_id'),
    );
    if (parentId === id || parent?.parent_id)
      throw Errors.badRequest(
        'SUITE__INVALID_PARENT_PRODUCT',
        'A variant belongs to a main product, which is not a variant itself.',
        { pointer: '/parentId' },
      );
    if (await trx('products').where({ parent_id: id }).first('id'))
      throw Errors.badRequest('SUITE__INVALID_PARENT_PRODUCT', 'A product with variants cannot become a variant.', {
        pointer: '/parentId',
      });
  },
  // parent_id has no foreign key: the variants go with their main product here, and are announced with it.
  async idsDeletedWith(trx, id) {
    const variants = (await trx('products').where({ parent_id: id }).pluck('id')) as string[];
    if (variants.length) await trx('products').whereIn('id', variants).delete();
    return [id, ...variants];
  },
};

/** Property values of a product in one association table (product_options, product_properties). */
function propertyOptionRelation(table: 'product_options' | 'product_properties', pointer: string): RelationDef {
  return {
    schema: { type: 'array', maxItems: 100, uniqueItems: true, items: idSchema },
    readSchema: stringList,
    async load(executor, ids) {
      const byProduct = new Map<string, string[]>(ids.map((id) => [id, []]));
      if (ids.length === 0) return byProduct;
      const rows = await selectRows<{ product_id: string; option_id: string }>(
        executor(table).whereIn('product_id', ids).orderBy('option_id').select('product_id', 'option_id'),
      );
      for (const row of rows) byProduct.get(row.product_id)?.push(row.option_id);
      return byProduct;
    },
    async check(trx, value) {
      const ids = value as string[];
      const found = ids.length ? await trx('property_group_options').whereIn('id', ids).pluck('id') : [];
      const missing = ids.find((id) => !found.includes(id));
      if (missing)
        throw Errors.badRequest('SUITE__UNKNOWN_REFERENCE', `No property option with id "${missing}".`, { pointer });
    },
    async save(trx, id, value) {
      await trx(table).where({ product_id: id }).delete();
      const ids = value as string[];
      if (ids.length) await trx(table).insert(ids.map((optionId) => ({ product_id: id, option_id: optionId })));
    },
  };
}

const propertyGroup: EntityDef = {
  name: 'property-group',
  type: 'property_group',
  label: 'property group',
  table: 'property_groups',
  fields: {
    name: { column: 'name', kind: 'string', required: true },
    position: { column: 'position', kind: 'integer', minimum: 0, default: 0 },
  },
  termFields: ['name'],
  defaultSort: 'position',
};

const propertyOption: EntityDef = {
  name: 'property-group-option',
  type: 'property_group_option',
  label: 'property group option',
  table: 'property_group_options',
  fields: {
    groupId: { column: 'group_id', kind: 'id', required: true, references: 'property_groups' },
    name: { column: 'name', kind: 'string', required: true },
    position: { column: 'position', kind: 'integer', minimum: 0, default: 0 },
  },
  termFields: ['name'],
  defaultSort: 'position',
};

const category: EntityDef = {
  name: 'category',
  type: 'category',
  label: 'category',
  table: 'categories',
  versioned: true,
  fields: {
    parentId: { column: 'parent_id', kind: 'id', nullable: true, references: 'categories', default: null },
    name: { column: 'name', kind: 'string', required: true },
    position: { column: 'position', kind: 'integer', minimum: 0, default: 0 },
    active: { column: 'active', kind: 'boolean', default: true },
    cmsPageId: { column: 'cms_page_id', kind: 'id', nullable: true, references: 'cms_pages' },
  },
  termFields: ['name'],
  defaultSort: 'position',
  visibility: ['active', 'parentId'],
  deletedEvent: 'category.deleted',
  // parent_id cascades: the sub-tree goes with the category.
  async idsDeletedWith(trx, id) {
    const ids = [id];
    for (let level = [id]; level.length && ids.length < 100000;) {
      level = (await trx('categories').whereIn('parent_id', level).pluck('id')) as string[];
      ids.push(...level);
    }
    return ids;
  },
  async beforeWrite({ trx, id, input }) {
    let parent = input.parentId as string | null | undefined;
    for (let hops = 0; parent && hops < 1000; hops++) {
      if (parent === id)
        throw Errors.badRequest('SUITE__CATEGORY_CYCLE', 'A category cannot be placed below itself.', {
          pointer: '/parentId',
        });
      parent =
        (await trx<{ id: string; parent_id: string | null }>('categories').where({ id: parent }).first('parent_id'))
          ?.parent_id ?? null;
    }
  },
};

const landingPage: EntityDef = {
  name: 'landing-page',
  type: 'landing_page',
  label: 'landing page',
  table: 'landing_pages',
  versioned: true,
  fields: {
    name: { column: 'name', kind: 'string', required: true },
    url: {
      column: 'url',
      kind: 'string',
      required: true,
      unique: 'SUITE__DUPLICATE_URL',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9._~/-]+$' },
    },
    active: { column: 'active', kind: 'boolean', default: true },
    cmsPageId: { column: 'cms_page_id', kind: 'id', nullable: true, references: 'cms_pages' },
  },
  termFields: ['name', 'url'],
  defaultSort: 'name',
  visibility: ['active'],
  deletedEvent: 'landing_page.deleted',
};

const rule: EntityDef = {
  name: 'rule',
  type: 'rule',
  label: 'rule',
  table: 'rules',
  fields: {
    name: { column: 'name', kind: 'string', required: true },
    priority: { column: 'priority', kind: 'integer', default: 0 },
    conditions: {
      column: 'conditions',
      kind: 'json',
      required: true,
      schema: { $ref: '#/$defs/condition' },
      readSchema: { type: 'object' },
    },
  },
  defs: conditionDefs,
  termFields: ['name'],
  defaultSort: 'name',
  visibility: 'all',
  beforeWrite({ input }) {
    if ('conditions' in input && conditionDepth(input.conditions) > MAX_CONDITION_DEPTH)
      throw Errors.badRequest(
        'SUITE__CONDITIONS_TOO_DEEP',
        `Conditions may be nested at most ${MAX_CONDITION_DEPTH} levels deep.`,
        { pointer: '/conditions' },
      );
  },
};

const customer: EntityDef = {
  name: 'customer',
  type: 'customer',
  label: 'customer',
  table: 'customers',
  fields: {
    salesChannelId: { column: 'sales_channel_id', kind: 'id', references: 'sales_channels' },
    groupId: { column: 'group_id', kind: 'id', nullable: true, references: 'customer_groups' },
    customerNumber: {
      column: 'customer_number',
      kind: 'string',
      maxLength: 64,
      unique: 'SUITE__DUPLICATE_CUSTOMER_NUMBER',
      schema: { type: 'string', minLength: 1, maxLength: 64 },
    },
    email: { column: 'email', kind: 'email', required: true, unique: 'SUITE__DUPLICATE_EMAIL' },
    password: { column: 'password_hash', kind: 'password', required: true, writeOnly: true },
    firstName: { column: 'first_name', kind: 'string', required: true },
    lastName: { column: 'last_name', kind: 'string', required: true },
    company: { column: 'company', kind: 'string', nullable: true },
    tags: {
      column: 'tags',
      kind: 'json',
      default: [],
      schema: {
        type: 'array',
        maxItems: 100,
        uniqueItems: true,
        items: { type: 'string', minLength: 1, maxLength: 64 },
      },
      readSchema: stringList,
      noFilter: true,
    },
    active: { column: 'active', kind: 'boolean', default: true },
  },
  termFields: ['email', 'customerNumber', 'lastName', 'company'],
  defaultSort: 'customerNumber',
  deletedEvent: 'customer.deleted',
  async beforeWrite({ trx, input, columns, existing }) {
    if (!existing) {
      if (!columns.sales_channel_id) {
        const channel = await trx<SalesChannelRow>('sales_channels').orderBy('created_at').orderBy('id').first('id');
        if (!channel)
          throw Errors.badRequest('SUITE__NO_SALES_CHANNEL', 'Create a sales channel first.', {
            pointer: '/salesChannelId',
          });
        columns.sales_channel_id = channel.id;
      }
      columns.customer_number ??= await nextCustomerNumber(trx);
    }
    if (typeof input.password === 'string') columns.password_hash = await hashPassword(input.password);
  },
  async afterWrite({ trx, id, input, existing }) {
    // A new password or a deactivation ends the customer's sessions at once.
    if (existing && (typeof input.password === 'string' || input.active === false))
      await revokeActorSessions(trx, 'customer', id);
  },
};

const customerGroup: EntityDef = {
  name: 'customer-group',
  type: 'customer_group',
  label: 'customer group',
  table: 'customer_groups',
  fields: { name: { column: 'name', kind: 'string', required: true } },
  termFields: ['name'],
  defaultSort: 'name',
  deletedEvent: 'customer_group.deleted',
};

async function refuseLastActiveSalesChannel(trx: import('../../lib/db.js').Trx, id: string): Promise<void> {
  const others = await trx<SalesChannelRow>('sales_channels').where({ active: true }).whereNot({ id }).first('id');
  if (!others)
    throw Errors.badRequest('SUITE__LAST_SALES_CHANNEL', 'The shop needs at least one active sales channel.');
}

const salesChannel: EntityDef = {
  name: 'sales-channel',
  type: 'sales_channel',
  label: 'sales channel',
  table: 'sales_channels',
  fields: {
    name: { column: 'name', kind: 'string', required: true },
    accessKey: { column: 'access_key', kind: 'string', readOnly: true },
    currencyIso: {
      column: 'currency_iso',
      kind: 'string',
      required: true,
      schema: { type: 'string', pattern: '^[A-Z]{3}$' },
    },
    currencyPrecision: { column: 'currency_precision', kind: 'integer', minimum: 0, maximum: 4, default: 2 },
    languageCode: {
      column: 'language_code',
      kind: 'string',
      required: true,
      schema: { type: 'string', pattern: '^[a-z]{2,3}(-[A-Za-z]{2,4})?$' },
    },
    timeZone: { column: 'time_zone', kind: 'string', required: true, maxLength: 64 },
    domains: {
      column: 'domains',
      kind: 'json',
      default: [],
      schema: {
        type: 'array',
        maxItems: 20,
        items: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 255 },
      },
      readSchema: stringList,
      noFilter: true,
    },
    active: { column: 'active', kind: 'boolean', default: true },
    /** The seller's postal address as printed on invoices, one line per line. */
    sellerAddress: { column: 'seller_address', kind: 'text', nullable: true, maxLength: 1000 },
    vatId: { column: 'vat_id', kind: 'string', nullable: true, maxLength: 64 },
  },
  termFields: ['name'],
  defaultSort: 'name',
  async beforeWrite({ trx, id, input, columns, existing }) {
    if (typeof input.timeZone === 'string') {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: input.timeZone });
      } catch {
        throw Errors.badRequest('SUITE__INVALID_TIME_ZONE', `"${input.timeZone}" is not an IANA time zone.`, {
          pointer: '/timeZone',
        });
      }
    }
    if (!existing) columns.access_key = `SWSC${newId().slice(0, 24).toUpperCase()}`;
    else if (input.active === false) await refuseLastActiveSalesChannel(trx, id);
  },
  async beforeDelete(trx, row) {
    await refuseLastActiveSalesChannel(trx, String(row.id));
  },
};

export const ADMIN_ENTITIES: Entity[] = [
  product,
  category,
  landingPage,
  rule,
  customer,
  customerGroup,
  salesChannel,
  propertyGroup,
  propertyOption,
].map((def) => new Entity(def));
