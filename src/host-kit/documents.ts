import type { Knex } from 'knex';
import { searchByCriteria, type CriteriaSpec } from '../lib/criteria.js';
import { selectRows, type Executor } from '../lib/db.js';
import { newId } from '../lib/ids.js';
import { fromDbTime, nowDb } from '../lib/time.js';
import type { DocumentSummary as ContractDocumentSummary, HostRuntime } from '../contract/index.js';
import { renderPdf } from './pdf.js';

/** A row of the document table (migrations/host/003; the Vendure adapter's suite_host_documents has the same columns). */
export interface DocumentRow {
  id: string;
  order_id: string | null;
  customer_id: string | null;
  type: string;
  document_number: string;
  file_name: string;
  mime_type: string;
  content: Buffer | Uint8Array;
  created_at: string | Date;
  updated_at: string | Date | null;
}

/** A document without its content, with the number of its order (SUMMARY_COLUMNS). */
type SummaryRow = Omit<DocumentRow, 'content' | 'updated_at'> & { order_number: string | null };

export type DocumentsApi = HostRuntime['documents'];

function safeFilePart(value: string): string {
  return (
    value
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'document'
  );
}

/** The fields plugins search documents by through the contract (`documents.search`); see DocumentScope. */
const DOCUMENT_SEARCH_CRITERIA: CriteriaSpec = {
  fields: {
    id: { column: 'documents.id', type: 'id' },
    type: { column: 'documents.type', type: 'string' },
    documentNumber: { column: 'documents.document_number', type: 'string' },
    fileName: { column: 'documents.file_name', type: 'string' },
    orderId: { column: 'documents.order_id', type: 'id' },
    orderNumber: { column: 'o.order_number', type: 'string' },
    createdAt: { column: 'documents.created_at', type: 'date' },
  },
  termColumns: ['documents.document_number', 'documents.file_name', 'o.order_number'],
  defaultSort: [
    { column: 'documents.created_at', order: 'desc' },
    { column: 'documents.id', order: 'desc' },
  ],
  idColumn: 'documents.id',
};

const SUMMARY_COLUMNS = [
  'documents.id',
  'documents.file_name',
  'documents.mime_type',
  'documents.type',
  'documents.document_number',
  'documents.customer_id',
  'documents.order_id',
  'documents.created_at',
  'o.order_number',
];

/**
 * Where documents live: the reference host's `documents` and `orders` tables, or another host's
 * (the Vendure adapter keeps documents in its own table and reads orders from Vendure's).
 */
export interface DocumentStoreTables {
  /** The documents table (the columns of DocumentRow). */
  table: string;
  /** The orders documents belong to, joined as `o`: `id`, `order_number`, `placed_by_type`, `placed_by_id`. */
  orders: (executor: Executor) => string | Knex.QueryBuilder;
}

function toSummary(row: SummaryRow): ContractDocumentSummary {
  return {
    id: row.id,
    fileName: row.file_name,
    mimeType: row.mime_type,
    type: row.type,
    documentNumber: row.document_number,
    customerId: row.customer_id ?? null,
    orderId: row.order_id ?? null,
    orderNumber: row.order_number ?? null,
    createdAt: fromDbTime(row.created_at)!,
  };
}

/** The contract's `documents` on a document table: PDFs rendered by renderPdf, searched with lib/criteria. */
export function createDocumentStore({ table, orders }: DocumentStoreTables): DocumentsApi {
  const documentsWithOrderNumber = (executor: Executor): Knex.QueryBuilder => {
    const source = orders(executor);
    return executor(`${table} as documents`).leftJoin(
      typeof source === 'string' ? `${source} as o` : source.as('o'),
      'o.id',
      'documents.order_id',
    );
  };
  return {
    async createPdf(executor, input) {
      const content = await renderPdf(input.title, input.lines);
      const id = newId();
      const base = `${safeFilePart(input.type)}-${safeFilePart(input.number)}`;
      const taken = await executor<DocumentRow>(table)
        .where({ file_name: `${base}.pdf` })
        .first('id');
      const fileName = taken ? `${base}-${id.slice(0, 8)}.pdf` : `${base}.pdf`;
      await executor(table).insert({
        id,
        order_id: input.orderId ?? null,
        customer_id: input.customerId,
        type: input.type,
        document_number: input.number,
        file_name: fileName,
        mime_type: 'application/pdf',
        content,
        created_at: nowDb(),
      });
      return { id, fileName };
    },

    async get(executor, id) {
      const row = await executor<DocumentRow>(table).where({ id }).first();
      if (!row) return null;
      return {
        id: row.id,
        fileName: row.file_name,
        mimeType: row.mime_type,
        content: Buffer.isBuffer(row.content) ? row.content : Buffer.from(row.content),
        customerId: row.customer_id ?? null,
        orderId: row.order_id ?? null,
        type: row.type,
        number: row.document_number,
        createdAt: fromDbTime(row.created_at)!,
      };
    },

    async getMeta(executor, ids) {
      const wanted = [...new Set(ids)];
      if (wanted.length === 0) return [];
      const byId = new Map<string, ContractDocumentSummary>();
      for (let i = 0; i < wanted.length; i += 500) {
        for (const row of await selectRows<SummaryRow>(
          documentsWithOrderNumber(executor)
            .whereIn('documents.id', wanted.slice(i, i + 500))
            .select(SUMMARY_COLUMNS),
        ))
          byId.set(row.id, toSummary(row));
      }
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    async search(executor, scope, criteria) {
      const base = documentsWithOrderNumber(executor).where('documents.customer_id', scope.customerId);
      const placedBy = scope.placedBy;
      if (placedBy)
        base.where((q) => {
          q.whereNull('documents.order_id').orWhere((own) => {
            own.where('o.placed_by_type', placedBy.type).where('o.placed_by_id', placedBy.id);
          });
        });
      const page = await searchByCriteria<SummaryRow>(base, criteria, DOCUMENT_SEARCH_CRITERIA, (qb) =>
        qb.select(SUMMARY_COLUMNS),
      );
      return { total: page.total, page: page.page, limit: page.limit, elements: page.rows.map(toSummary) };
    },
  };
}

export const documents: DocumentsApi = createDocumentStore({ table: 'documents', orders: () => 'orders' });

export interface DocumentSummary {
  id: string;
  fileName: string;
  type: string;
  documentNumber: string;
  createdAt: string;
}
