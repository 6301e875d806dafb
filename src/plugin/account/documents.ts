import type { Knex } from 'knex';
import { criteriaSchema, searchByCriteria, type Criteria, type CriteriaSpec } from '../../lib/criteria.js';
import { Errors } from '../../lib/errors.js';
import { reply } from '../../lib/routes.js';
import { listResponse, nullable, objectSchema } from '../../lib/schemas.js';
import { dateTimeSchema, fromDbTime } from '../../lib/time.js';
import type { HostRuntime, StoreContext, StoreRoute } from '../../host/contract.js';
import { requireCustomer } from './checkout-settings.js';
import { TAG } from './snippets.js';

/** File names the host writes ('invoice-10001.pdf'): no path separators, no '..', no leading dot. */
export const FILE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]*(\\.[A-Za-z0-9_-]+)*$';

const documentCriteria: CriteriaSpec = {
  fields: {
    id: { column: 'd.id', type: 'id' },
    type: { column: 'd.type', type: 'string' },
    documentNumber: { column: 'd.document_number', type: 'string' },
    fileName: { column: 'd.file_name', type: 'string' },
    orderId: { column: 'd.order_id', type: 'id' },
    orderNumber: { column: 'o.order_number', type: 'string' },
    createdAt: { column: 'd.created_at', type: 'date' },
  },
  termColumns: ['d.document_number', 'd.file_name', 'o.order_number'],
  defaultSort: [
    { column: 'd.created_at', order: 'desc' },
    { column: 'd.id', order: 'desc' },
  ],
  idColumn: 'd.id',
};

const documentSchema = objectSchema(
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
function readableDocuments(host: HostRuntime, ctx: StoreContext): Knex.QueryBuilder {
  const customer = requireCustomer(ctx);
  const query = host.db('documents as d').leftJoin('orders as o', 'o.id', 'd.order_id').where('d.customer_id', customer.id);
  if (!ctx.can('orders.read-all'))
    query.where((q) => q.whereNull('d.order_id').orWhere((own) => own.where('o.placed_by_type', ctx.actor.type).where('o.placed_by_id', ctx.actor.id ?? '')));
  return query;
}

export function documentRoutes(host: HostRuntime): StoreRoute[] {
  return [
    {
      method: 'POST',
      path: '/customer-documents/',
      operationId: 'listCustomerDocuments',
      summary: 'The customer’s documents (invoices …), newest first, by criteria; employees without orders.read-all see their own orders’ documents.',
      tags: [TAG],
      auth: 'login',
      permission: 'orders.read',
      schemas: { body: criteriaSchema(Object.keys(documentCriteria.fields)), responses: { 200: listResponse(documentSchema) } },
      async handler({ ctx, body }) {
        const page = await searchByCriteria<Record<string, any>>(readableDocuments(host, ctx), body as Criteria, documentCriteria, (qb) =>
          qb.select('d.id', 'd.type', 'd.document_number', 'd.file_name', 'd.mime_type', 'd.order_id', 'd.created_at', 'o.order_number'),
        );
        return {
          total: page.total,
          data: page.rows.map((row) => ({
            id: row.id,
            type: row.type,
            documentNumber: row.document_number,
            fileName: row.file_name,
            mimeType: row.mime_type,
            orderId: row.order_id ?? null,
            orderNumber: row.order_number ?? null,
            createdAt: fromDbTime(row.created_at)!,
            downloadPath: `/store-api/customer-document/${encodeURIComponent(row.file_name)}`,
          })),
        };
      },
    },
    {
      method: 'GET',
      path: '/customer-document/{fileName}',
      operationId: 'downloadCustomerDocument',
      summary: 'One of the customer’s documents by file name, as PDF; another customer’s file is a 404.',
      tags: [TAG],
      auth: 'login',
      permission: 'orders.read',
      schemas: {
        params: objectSchema({ fileName: { type: 'string', minLength: 1, maxLength: 191, pattern: FILE_NAME_PATTERN } }, ['fileName']),
        responses: { 200: { contentType: 'application/pdf', description: 'The document' } },
      },
      async handler({ ctx, params }) {
        const row = await readableDocuments(host, ctx).where('d.file_name', params.fileName).first('d.id');
        const document = row ? await host.documents.get(host.db, row.id) : null;
        if (!document) throw Errors.notFound('document', params.fileName);
        return reply(200, document.content, {
          contentType: document.mimeType,
          headers: { 'Content-Disposition': `attachment; filename="${document.fileName}"`, 'Cache-Control': 'private, no-store' },
        });
      },
    },
  ];
}
