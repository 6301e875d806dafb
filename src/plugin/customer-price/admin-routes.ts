import { defineAdminRoute, type HostRuntime } from '../../contract/index.js';
import { DEFAULT_LIMIT } from '../../lib/criteria.js';
import { inTransaction, isDuplicateKeyError, isForeignKeyError, readInt, type Trx } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { idSchema, newId } from '../../lib/ids.js';
import { ADMIN_API_BASE, jsonApiList } from '../../lib/json-api.js';
import { exactMinor, fromMinor } from '../../lib/money.js';
import { noContent, reply, type SchemaInput } from '../../lib/routes.js';
import { objectSchema, pathParams } from '../../lib/schemas.js';
import { fromDbTime, nowDb, toDbTime } from '../../lib/time.js';
import { importCustomerPrices, PRICE_IMPORT_RUN_KIND } from './import.js';
import { CHECKED_FILE_TTL_SECONDS, importRunResponse, type ImportRuns } from '../import-run/index.js';
import {
  ADMIN_MONEY_PRECISION,
  deletePrice,
  findPrice,
  findPriceByKey,
  insertPrices,
  pricePage,
  toRecord,
  updatePrice,
  type CustomerPriceRecord,
} from './repository.js';
import {
  adminListQuery,
  adminPriceList,
  adminSingle,
  adminUpsertBody,
  DEFAULT_MIN_QUANTITY,
  checkedImportResult,
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
    price_net: exactMinor(input.price, ADMIN_MONEY_PRECISION, '/price'),
    valid_from: validFrom,
    valid_until: validUntil,
    currency_iso: input.currency ?? null,
    list_price_net:
      input.listPrice === undefined || input.listPrice === null
        ? null
        : exactMinor(input.listPrice, ADMIN_MONEY_PRECISION, '/listPrice'),
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
  const existing = await findPriceByKey(trx, key, Object.keys(values));
  let id: string;
  if (existing) {
    id = existing.id;
    const changed = Object.entries(values).some(([column, value]) => sameValue(existing[column], value) === false);
    if (changed) await updatePrice(trx, id, { ...values, updated_at: now });
  } else {
    id = newId();
    await insertPrices(trx, [{ id, ...key, ...values, created_at: now }]);
  }
  const row = await findPrice(trx, id);
  return { record: toRecord(row!), created: !existing };
}

export function customerPriceAdminRoutes(host: HostRuntime) {
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
        const { total, rows } = await pricePage(
          host.db,
          { customerId, customerGroupId, productId },
          { limit, offset: (page - 1) * limit },
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
        const deleted = await deletePrice(host.db, params.id);
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

/**
 * The same import as a run: answered at once (202), written in batches, progress readable while it
 * runs — from the file in the body, or by reference to a file checked before (`checkSuiteCustomerPriceImport`
 * keeps it on the server for an hour), so a large file is sent once.
 */
export function customerPriceImportRunRoutes(host: HostRuntime, runs: ImportRuns) {
  const principal = (ctx: { principalType: string; principalId: string }) => `${ctx.principalType}:${ctx.principalId}`;
  return [
    defineAdminRoute({
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
        const run = await runs.start(PRICE_IMPORT_RUN_KIND, body, principal(ctx));
        return reply(202, { data: run });
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: '/_action/suite-customer-price/import-check',
      operationId: 'checkSuiteCustomerPriceImport',
      summary:
        'Checks a customer price CSV as the dry run does and keeps it on the server for an hour: the counts and `checkId`, the reference to import it by.',
      description: `Same columns, limits and refusals as \`importSuiteCustomerPrices\` with dryRun=true (nothing is written to the prices). The file is kept ${CHECKED_FILE_TTL_SECONDS / 60} minutes under a random id; \`POST /_action/suite-customer-price/import-run/{checkId}\` imports it as a run.`,
      tags: [TAG],
      auth: 'admin',
      permission: null,
      schemas: { bodyContentType: 'text/csv', body: { type: 'string' }, responses: { 200: checkedImportResult } },
      async handler({ ctx, body }) {
        const counts = await importCustomerPrices(host, body, { dryRun: true });
        const kept = await runs.keepChecked(PRICE_IMPORT_RUN_KIND, body, principal(ctx));
        return { ...counts, checkId: kept.id, expiresAt: kept.expiresAt };
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: '/_action/suite-customer-price/import-run/{checkId}',
      operationId: 'startSuiteCustomerPriceImportRunByReference',
      summary:
        'Starts the import of a file kept by `checkSuiteCustomerPriceImport` as a run: 202 with the run. An unknown, expired or already imported reference is a 404.',
      tags: [TAG],
      auth: 'admin',
      permission: null,
      schemas: {
        params: objectSchema({ checkId: idSchema }, ['checkId']),
        body: objectSchema({}),
        responses: { 202: importRunResponse },
      },
      async handler({ params }) {
        const run = await runs.startChecked(PRICE_IMPORT_RUN_KIND, params.checkId);
        if (!run) throw Errors.notFound('checked price file', params.checkId);
        return reply(202, { data: run });
      },
    }),
  ];
}
