import type { Knex } from 'knex';
import { binary, idColumn, timestamps } from '../../src/lib/migration-helpers.js';

/**
 * The contract's documents (PDFs the plugin creates: offers …) inside a Vendure shop: the reference
 * host's `documents` columns. `order_id` and `customer_id` are the plugin's ids of Vendure's orders
 * and customers (no foreign keys into Vendure's tables).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('suite_host_documents', (t) => {
    idColumn(t).primary();
    idColumn(t, 'order_id').nullable();
    idColumn(t, 'customer_id').nullable();
    t.string('type', 32).notNullable();
    t.string('document_number', 64).notNullable();
    t.string('file_name', 191).notNullable().unique();
    t.string('mime_type', 64).notNullable();
    binary(knex, t, 'content').notNullable();
    timestamps(t);
    t.index(['order_id']);
    t.index(['customer_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('suite_host_documents');
}
