import { criteriaSchema, type Criteria } from '../../lib/criteria.js';
import { Errors } from '../../lib/errors.js';
import { reply } from '../../lib/routes.js';
import { nullable, objectSchema } from '../../lib/schemas.js';
import { storeList, storeListResponse } from '../../lib/store-list.js';
import { dateTimeSchema } from '../../lib/time.js';
import { defineStoreRoute, type DocumentScope, type HostRuntime, type StoreContext } from '../../contract/index.js';
import { TAG } from './snippets.js';
import { declaredCustomer } from '../declared.js';

/** File names the host writes ('invoice-10001.pdf'): no path separators, no '..', no leading dot. */
export const FILE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]*(\\.[A-Za-z0-9_-]+)*$';

/** The document fields the list filters and sorts on (those of the host's `documents.search`). */
const DOCUMENT_FIELDS = ['id', 'type', 'documentNumber', 'fileName', 'orderId', 'orderNumber', 'createdAt'];

export const documentSchema = objectSchema(
  {
    id: { type: 'string' },
    type: { type: 'string' },
    documentNumber: { type: 'string' },
    fileName: { type: 'string' },
    mimeType: { type: 'string' },
    orderId: nullable({ type: 'string' }),
    orderNumber: nullable({ type: 'string' }),
    createdAt: dateTimeSchema,
    downloadPath: { type: 'string' },
  },
  ['id', 'type', 'documentNumber', 'fileName', 'mimeType', 'orderId', 'orderNumber', 'createdAt', 'downloadPath'],
);

/**
 * The customer's documents the caller may read: with orders.read-all all of them, else those of
 * orders they placed themselves plus documents that belong to no order (as the host's download route).
 */
function readableDocuments(ctx: StoreContext): DocumentScope {
  const customerId = declaredCustomer(ctx).id;
  return ctx.can('orders.read-all')
    ? { customerId }
    : { customerId, placedBy: { type: ctx.actor.type, id: ctx.actor.id ?? '' } };
}

export function documentRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/customer-documents/',
      operationId: 'listCustomerDocuments',
      summary:
        'The customer’s documents (invoices …), newest first, by criteria; employees without orders.read-all see their own orders’ documents.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'orders.read',
      schemas: { body: criteriaSchema(DOCUMENT_FIELDS), responses: { 200: storeListResponse(documentSchema) } },
      async handler({ ctx, body }) {
        const page = await host.documents.search(host.db, readableDocuments(ctx), body);
        return storeList(
          page.elements.map((document) => ({
            id: document.id,
            type: document.type,
            documentNumber: document.documentNumber,
            fileName: document.fileName,
            mimeType: document.mimeType,
            orderId: document.orderId,
            orderNumber: document.orderNumber,
            createdAt: document.createdAt,
            downloadPath: `/store-api/customer-document/${encodeURIComponent(document.fileName)}`,
          })),
          page,
        );
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/customer-document/{fileName}',
      operationId: 'downloadCustomerDocument',
      summary: 'One of the customer’s documents by file name, as PDF; another customer’s file is a 404.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'orders.read',
      schemas: {
        params: objectSchema(
          { fileName: { type: 'string', minLength: 1, maxLength: 191, pattern: FILE_NAME_PATTERN } },
          ['fileName'],
        ),
        responses: { 200: { contentType: 'application/pdf', description: 'The document' } },
      },
      async handler({ ctx, params }) {
        const criteria: Criteria = {
          filter: [{ type: 'equals', field: 'fileName', value: params.fileName }],
          limit: 1,
          'total-count-mode': 'none',
        };
        const [found] = (await host.documents.search(host.db, readableDocuments(ctx), criteria)).elements;
        const document = found ? await host.documents.get(host.db, found.id) : null;
        if (!document) throw Errors.notFound('document', params.fileName);
        return reply(200, document.content, {
          contentType: document.mimeType,
          headers: {
            'Content-Disposition': `attachment; filename="${document.fileName}"`,
            'Cache-Control': 'private, no-store',
          },
        });
      },
    }),
  ];
}
