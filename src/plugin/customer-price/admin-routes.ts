import { defineAdminRoute, type AdminRoute, type HostRuntime } from '../../host/contract.js';
import { DEFAULT_LIMIT } from '../../lib/criteria.js';
import {
  inTransaction,
  isDuplicateKeyError,
  isForeignKeyError,
  readInt,
  selectRow,
  selectRows,
  type Trx,
} from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { ADMIN_API_BASE, jsonApiList } from '../../lib/json-api.js';
import { fromMinor, toMinor } from '../../lib/money.js';
import { noContent, reply, type SchemaInput } from '../../lib/routes.js';
import { objectSchema, pathParams } from '../../lib/schemas.js';
import { fromDbTime, nowDb, toDbTime } from '../../lib/time.js';
import { importCustomerPrices, PRICE_IMPORT_RUN_KIND } from './import.js';
import { importRunResponse } from '../import-run/routes.js';
import type { ImportRuns } from '../import-run/service.js';
import {
  ADMIN_MONEY_PRECISION,
  CUSTOMER_PRICES,
  toRecord,
  type CustomerPriceRecord,
  type CustomerPriceRow,
} from './repository.js';
import {
  adminListQuery,
  adminPriceList,
  adminSingle,
  adminUpsertBody,
  DEFAULT_MIN_QUANTITY,
  importResult,
  RESOURCE_TYPE,
  TAG,
} from './schemas.js';

const BASE = '/suite-customer-price';

export function toResource(record: CustomerPriceRecord) {
  return {
    id: record.id,
    type: RESOURCE_TYPE,
    attributes: {
      customerId: record.customerId,
      customerGroupId: record.customerGroupId,
      productId: record.productId,
      minQuantity: record.minQuantity,
      price: fromMinor(record.priceNet, ADMIN_MONEY_PRECISION),
      validFrom: record.validFrom,
      validUntil: record.validUntil,
      currency: record.currencyIso,
      listPrice: record.listPriceNet === null ? null : fromMinor(record.listPriceNet, ADMIN_MONEY_PRECISION),
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    },
  };
}

/** The upsert body (its schema's type). */
type UpsertInput = SchemaInput<typeof adminUpsertBody>;

/** The columns a price sets (the upsert replaces them all: absent optional fields are null). */
function priceValues(input: UpsertInput): Record<string, string | number | null> {
  const validFrom = input.validFrom ? toDbTime(input.validFrom) : null;
  const validUntil = input.validUntil ? toDbTime(input.validUntil) : null;
  if (validFrom && validUntil && validUntil <= validFrom)
    throw Errors.badRequest('SUITE__INVALID_VALIDITY_PERIOD', 'validUntil must be after validFrom.', {
      pointer: '/validUntil',
    });
  return {
    price_net: toMinor(input.price, ADMIN_MONEY_PRECISION),
    valid_from: validFrom,
    valid_until: validUntil,
    currency_iso: input.currency ?? null,
    list_price_net:
      input.listPrice === undefined || input.listPrice === null
        ? null
        : toMinor(input.listPrice, ADMIN_MONEY_PRECISION),
  };
}

/** A stored value against a value to write (numbers come back as numbers or strings, times as strings). */
function sameValue(stored: unknown, value: string | number | null): boolean {
  if (stored === null || stored === undefined || value === null) return (stored ?? null) === value;
  if (typeof value === 'number') return readInt(stored) === value;
  return typeof stored === 'string' && fromDbTime(stored) === fromDbTime(value);
}

/** Insert or update the price of one (customer or group, product, minimum quantity); answers whether it was new. */
async function upsert(
  host: HostRuntime,
  trx: Trx,
  input: UpsertInput,
): Promise<{ record: CustomerPriceRecord; created: boolean }> {
  if (input.customerId && !(await host.customers.get(trx, input.customerId)))
    throw Errors.badRequest('SUITE__CUSTOMER_PRICE_CUSTOMER_NOT_FOUND', `There is no customer "${input.customerId}".`, {
      pointer: '/customerId',
    });
  if (input.customerGroupId && (await host.customerGroups.getMany(trx, [input.customerGroupId])).length === 0)
    throw Errors.badRequest(
      'SUITE__CUSTOMER_PRICE_GROUP_NOT_FOUND',
      `There is no customer group "${input.customerGroupId}".`,
      { pointer: '/customerGroupId' },
    );
  if ((await host.catalog.products(trx, [input.productId])).length === 0)
    throw Errors.badRequest('SUITE__CUSTOMER_PRICE_PRODUCT_NOT_FOUND', `There is no product "${input.productId}".`, {
      pointer: '/productId',
    });
  const key = {
    customer_id: input.customerId ?? null,
    customer_group_id: input.customerGroupId ?? null,
    product_id: input.productId,
    min_quantity: input.minQuantity ?? DEFAULT_MIN_QUANTITY,
  };
  const values = priceValues(input);
  const now = nowDb();
  const existing = await selectRow<Record<string, unknown> & { id: string }>(
    trx(CUSTOMER_PRICES)
      .where(key)
      .first('id', ...Object.keys(values)),
  );
  let id: string;
  if (existing) {
    id = existing.id;
    const changed = Object.entries(values).some(([column, value]) => sameValue(existing[column], value) === false);
    if (changed)
      await trx(CUSTOMER_PRICES)
        .where({ id })
        .update({ ...values, updated_at: now });
  } else {
    id = newId();
    await trx(CUSTOMER_PRICES).insert({ id, ...key, ...values, created_at: now });
  }
  const row = await selectRow<CustomerPriceRow>(trx(CUSTOMER_PRICES).where({ id }).first());
  return { record: toRecord(row!), created: !existing };
}

export function customerPriceAdminRoutes(host: HostRuntime): AdminRoute[] {
  return [
    defineAdminRoute({
      method: 'GET',
      path: BASE,
      operationId: 'listSuiteCustomerPrices',
      summary: 'Lists customer prices (JSON:API), optionally of one customer, customer group or product.',
      tags: [TAG],
      auth: 'admin',
      permission: null,
      schemas: { query: adminListQuery, responses: { 200: adminPriceList } },
      async handler({ query }) {
        const { limit = DEFAULT_LIMIT, page = 1, customerId, customerGroupId, productId } = query;
        const base = host.db(CUSTOMER_PRICES);
        if (customerId) base.where('customer_id', customerId);
        if (customerGroupId) base.where('customer_group_id', customerGroupId);
        if (productId) base.where('product_id', productId);
        const [count] = await selectRows<{ n: unknown }>(base.clone().count({ n: '*' }));
        const total = readInt(count?.n);
        const rows = await selectRows<CustomerPriceRow>(
          base
            .clone()
            .orderBy('created_at')
            .orderBy('id')
            .limit(limit)
            .offset((page - 1) * limit)
            .select('*'),
        );
        return jsonApiList(
          rows.map((row) => toResource(toRecord(row))),
          { path: BASE, page, limit, total, filters: { customerId, customerGroupId, productId } },
        );
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: BASE,
      operationId: 'upsertSuiteCustomerPrice',
      summary:
        'Sets the net unit price of a product for a customer (or a customer group) from a minimum quantity up: 201 when new, 200 when it replaced a price.',
      description: 'Exactly one of customerId and customerGroupId. An unknown customer, group or product is a 400.',
      tags: [TAG],
      auth: 'admin',
      permission: null,
      schemas: {
        body: adminUpsertBody,
        bodyName: 'SuiteCustomerPrice',
        responses: { 200: adminSingle, 201: adminSingle },
      },
      async handler({ body }) {
        const run = () => inTransaction(host.db, (trx) => upsert(host, trx, body));
        let result: Awaited<ReturnType<typeof run>>;
        try {
          result = await run();
        } catch (error) {
          if (isForeignKeyError(error)) throw Errors.conflict('The customer, group or product was deleted meanwhile.');
          // A concurrent request inserted the same key first: this one updates it.
          if (!isDuplicateKeyError(error)) throw error;
          result = await run();
        }
        const data = toResource(result.record);
        return result.created
          ? reply(201, { data }, { headers: { Location: `${ADMIN_API_BASE}${BASE}/${data.id}` } })
          : { data };
      },
    }),
    defineAdminRoute({
      method: 'DELETE',
      path: `${BASE}/{id}`,
      operationId: 'deleteSuiteCustomerPrice',
      summary: 'Deletes a customer price.',
      tags: [TAG],
      auth: 'admin',
      permission: null,
      schemas: { params: pathParams('id'), responses: { 204: null } },
      async handler({ params }) {
        const deleted = await host.db(CUSTOMER_PRICES).where({ id: params.id }).delete();
        if (deleted === 0) throw Errors.notFound('Customer price', params.id);
        return noContent();
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: `${BASE}/import`,
      operationId: 'importSuiteCustomerPrices',
      summary:
        'Imports customer prices from CSV (customer_number or customer_group_id, product_number, min_quantity, price): all rows or none.',
      description:
        'Separator , or ; (detected from the header). Decimal separator . or ,. A row sets the price of its key (customer or group, product, minimum quantity); prices not in the file stay. ' +
        'Every bad row is reported (400, one error per row with meta.line). Limits: 5 MB, 50,000 rows (413). ' +
        'With dryRun=true the file is checked and counted the same way, and nothing is written (a preview).',
      tags: [TAG],
      auth: 'admin',
      permission: null,
      schemas: {
        query: objectSchema({
          dryRun: { type: 'boolean', default: false, description: 'Check and count only; write nothing.' },
        }),
        bodyContentType: 'text/csv',
        body: { type: 'string' },
        responses: { 200: importResult },
      },
      handler: ({ body, query }) => importCustomerPrices(host, body, { dryRun: query.dryRun }),
    }),
  ];
}

/** The same import as a run: answered at once (202), written in batches, progress readable while it runs. */
export function customerPriceImportRunRoute(runs: ImportRuns): AdminRoute {
  return defineAdminRoute({
    method: 'POST',
    path: '/_action/suite-customer-price/import-run',
    operationId: 'startSuiteCustomerPriceImportRun',
    summary:
      'Starts a customer price import from CSV as a run: 202 with the run; GET /suite-import-run/{id} shows its progress.',
    description:
      "The file is the synchronous import's (same columns, limits and checks). The whole file is checked first: a bad row fails the run with every bad row in `errors` (meta.line) and nothing written. " +
      'Then it is written 1,000 rows per transaction; `doneRows` of `totalRows` tells how far. A run stopped half-way has written whole batches: import the file again to complete it.',
    tags: [TAG],
    auth: 'admin',
    permission: null,
    schemas: { bodyContentType: 'text/csv', body: { type: 'string' }, responses: { 202: importRunResponse } },
    async handler({ ctx, body }) {
      const run = await runs.start(PRICE_IMPORT_RUN_KIND, body, `${ctx.principalType}:${ctx.principalId}`);
      return reply(202, { data: run });
    },
  });
}
