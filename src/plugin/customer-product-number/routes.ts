import { defineStoreRoute, type HostRuntime } from '../../contract/index.js';
import { searchByCriteria } from '../../lib/criteria.js';
import { inTransaction, isDuplicateKeyError, isForeignKeyError } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { pathParams, successResponse } from '../../lib/schemas.js';
import { nowDb } from '../../lib/time.js';
import { importCustomerProductNumbers } from './import.js';
import { narrowByProductFields } from '../product-fields.js';
import {
  deleteNumber,
  insertNumbers,
  numberKey,
  numberRowOfProduct,
  numbersQuery,
  numberView,
  productOfNumberKey,
  toViews,
  updateNumber,
  VIEW_COLUMNS,
  type NumberViewRow,
} from './repository.js';
import {
  importResult,
  numberCriteriaBody,
  numberCriteriaSpec,
  numberList,
  numberProductFields,
  TAG,
  upsertBody,
  upsertResponse,
} from './schemas.js';
import { storeList } from '../../lib/store-list.js';
import { declaredCustomer } from '../declared.js';

const MANAGE = 'customer-product-number.manage';

export const numberTaken = (number: string, pointer: string) =>
  Errors.badRequest(
    'SUITE__CUSTOMER_PRODUCT_NUMBER_TAKEN',
    `The customer product number "${number}" belongs to another product already.`,
    { pointer },
  );

export function customerProductNumberRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/customer-product-number',
      operationId: 'saveCustomerProductNumber',
      summary: "Sets the customer's own number for a product (creates it, or replaces the product's number).",
      description:
        'The product must be one the caller may see (else 404). A number another product of the customer has is a 400 (SUITE__CUSTOMER_PRODUCT_NUMBER_TAKEN).',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: MANAGE,
      schemas: { body: upsertBody, responses: { 200: upsertResponse } },
      async handler({ ctx, body }) {
        const customer = declaredCustomer(ctx);
        const productId = body.productId;
        const number = body.customerProductNumber.trim();
        const key = numberKey(number);
        // Rules are read on the root connection: before the transaction, or SQLite's one connection waits on itself.
        await ctx.ruleIds();
        try {
          return await inTransaction(host.db, async (trx) => {
            if ((await host.catalog.visibleProducts(trx, ctx, [productId])).length === 0)
              throw Errors.notFound('Product', productId);
            const owner = await productOfNumberKey(trx, customer.id, key);
            if (owner && owner.product_id !== productId) throw numberTaken(number, '/customerProductNumber');
            const existing = await numberRowOfProduct(trx, customer.id, productId);
            const now = nowDb();
            let id: string;
            if (existing) {
              id = existing.id;
              if (existing.product_number !== number)
                await updateNumber(trx, id, { product_number: number, number_key: key, updated_at: now });
            } else {
              id = newId();
              await insertNumbers(trx, [
                {
                  id,
                  customer_id: customer.id,
                  product_id: productId,
                  product_number: number,
                  number_key: key,
                  created_at: now,
                },
              ]);
            }
            const row = await numberView(trx, id);
            const [customerProductNumber] = await toViews(host, trx, [row]);
            return { success: true as const, customerProductNumber };
          });
        } catch (error) {
          if (isDuplicateKeyError(error)) throw Errors.conflict();
          // The product was deleted between the check and the write.
          if (isForeignKeyError(error)) throw Errors.notFound('Product', productId);
          throw error;
        }
      },
    }),
    defineStoreRoute({
      method: 'DELETE',
      path: '/b2b/customer-product-number/{id}',
      operationId: 'deleteCustomerProductNumber',
      summary: 'Deletes one of the customer’s product numbers.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: MANAGE,
      schemas: { params: pathParams('id'), responses: { 200: successResponse } },
      async handler({ ctx, params }) {
        const customer = declaredCustomer(ctx);
        const deleted = await deleteNumber(host.db, customer.id, params.id);
        if (deleted === 0) throw Errors.notFound('Customer product number', params.id);
        return { success: true };
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/customer-product-numbers',
      operationId: 'listCustomerProductNumbers',
      summary:
        "The customer's product numbers (criteria), with the shop's product number and name; only products the caller may see.",
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { body: numberCriteriaBody, responses: { 200: numberList } },
      async handler({ ctx, body }) {
        const customer = declaredCustomer(ctx);
        const query = numbersQuery(host.db, customer.id);
        const list = await narrowByProductFields(host, ctx, query, body, numberCriteriaSpec, numberProductFields);
        const page = await searchByCriteria<NumberViewRow>(query, list.criteria, numberCriteriaSpec, (qb) =>
          list.order(qb.select(VIEW_COLUMNS)),
        );
        return storeList(await toViews(host, host.db, page.rows), page);
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/customer-product-number-import',
      operationId: 'importCustomerProductNumbers',
      summary:
        'Imports customer product numbers from CSV (header: product_number, customer_product_number; separator , or ;): all rows or none.',
      description:
        'productNumber/customerProductNumber (any case, - or _ ignored) are accepted as header names too. A row sets the number of its product; numbers not in the file stay. ' +
        'Every bad row is reported (400, one error per row with meta.line): unknown or hidden product, empty or too long number, a product or number twice in the file, a number another product keeps. ' +
        'Row limit: the plugin setting customerProductNumberImportMaxRows; size limit 5 MB (413).',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: MANAGE,
      schemas: { bodyContentType: 'text/csv', body: { type: 'string' }, responses: { 200: importResult } },
      handler: ({ ctx, body }) => importCustomerProductNumbers(host, ctx, body),
    }),
  ];
}
