import type { Executor } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { fromDbTime, nowDb } from '../../lib/time.js';
import type { HostRuntime } from '../contract.js';
import { renderPdf } from './pdf.js';

export type DocumentsApi = HostRuntime['documents'];

function safeFilePart(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'document';
}

export const documents: DocumentsApi = {
  async createPdf(executor, input) {
    const content = await renderPdf(input.title, input.lines);
    const id = newId();
    const base = `${safeFilePart(input.type)}-${safeFilePart(input.number)}`;
    const taken = await executor('documents').where({ file_name: `${base}.pdf` }).first('id');
    const fileName = taken ? `${base}-${id.slice(0, 8)}.pdf` : `${base}.pdf`;
    await executor('documents').insert({
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
    const row = await executor('documents').where({ id }).first();
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
};

export interface DocumentSummary {
  id: string;
  fileName: string;
  type: string;
  documentNumber: string;
  createdAt: string;
}

/** The documents of many orders, without their content. */
export async function documentsOfOrders(executor: Executor, orderIds: string[]): Promise<Map<string, DocumentSummary[]>> {
  const byOrder = new Map<string, DocumentSummary[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await executor('documents')
    .whereIn('order_id', orderIds)
    .orderBy('created_at')
    .orderBy('id')
    .select('id', 'order_id', 'file_name', 'type', 'document_number', 'created_at');
  for (const row of rows) {
    const list = byOrder.get(row.order_id) ?? [];
    list.push({ id: row.id, fileName: row.file_name, type: row.type, documentNumber: row.document_number, createdAt: fromDbTime(row.created_at)! });
    byOrder.set(row.order_id, list);
  }
  return byOrder;
}
