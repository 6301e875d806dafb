import type { Knex } from 'knex';
import { dialectOf } from '../../src/lib/db.js';

/**
 * Contract v2: the plugin keeps host ids (of a customer, customer group, address, product, category,
 * landing page, order, document) as plain indexed columns, without foreign keys to host tables;
 * what a cascade did, the add-ons now do on the host's contract events.
 *
 * Migrations 001–010 no longer create those foreign keys, so a fresh database never has them. A
 * database migrated before has them: this migration drops every foreign key on a column listed
 * here and makes sure each listed column leads an index. It reads the actual schema, so it is
 * idempotent and safe to re-run after an interruption.
 *
 * SQLite cannot drop a foreign key: knex rebuilds the table (create, copy, drop, rename, indexes).
 * That must run outside a transaction with `foreign_keys` off — inside one, the pragma is ignored
 * and dropping a rebuilt parent table (suite_budgets, b2b_offers …) would cascade-delete its
 * children. Hence `transaction: false`; knex wraps each rebuild in its own transaction with the
 * pragma off.
 */
export const config = { transaction: false };

/** Every host-id column of a plugin table that had a foreign key to a host table (contract v1). */
export const HOST_ID_COLUMNS: Record<string, string[]> = {
  suite_partial_assortment_category_rule: ['category_id'],
  suite_partial_assortment_landing_page_rule: ['landing_page_id'],
  suite_partial_assortment_product_rule: ['product_id'],
  b2b_employee_roles: ['customer_id'],
  b2b_employee_customers: ['customer_id'],
  b2b_employee_invitations: ['customer_id'],
  suite_budgets: ['customer_id'],
  suite_budget_orders: ['order_id'],
  suite_order_approval_settings: ['customer_id'],
  suite_order_approvals: ['customer_id'],
  b2b_sales_representative_customers: ['customer_id'],
  b2b_customer_activities: ['customer_id', 'order_id'],
  b2b_express_checkout_settings: ['customer_id', 'default_billing_address_id', 'default_shipping_address_id'],
  suite_customer_prices: ['customer_id', 'customer_group_id', 'product_id'],
  suite_product_lists: ['customer_id'],
  suite_product_list_items: ['product_id'],
  suite_customer_product_numbers: ['customer_id', 'product_id'],
  b2b_events: ['product_id'],
  b2b_event_participants: ['customer_id', 'order_id'],
  b2b_offers: ['customer_id', 'order_id'],
  b2b_offer_documents: ['document_id'],
};

const isSqlite = (knex: Knex) => dialectOf(knex) === 'sqlite';

/** Foreign keys of `table` on the given columns: constraint name (MySQL) and column. */
async function foreignKeysOn(
  knex: Knex,
  table: string,
  columns: string[],
): Promise<Array<{ name: string | null; column: string }>> {
  if (isSqlite(knex)) {
    const rows = (await knex.raw(`PRAGMA foreign_key_list(\`${table}\`)`)) as Array<{ from: string }>;
    return rows.filter((r) => columns.includes(r.from)).map((r) => ({ name: null, column: r.from }));
  }
  if (dialectOf(knex) === 'postgres') {
    const { rows } = (await knex.raw(
      `SELECT tc.constraint_name AS name, kcu.column_name AS "column" FROM information_schema.table_constraints tc
        JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
        WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema() AND tc.table_name = ?`,
      [table],
    )) as { rows: Array<{ name: string; column: string }> };
    return rows.filter((r) => columns.includes(r.column));
  }
  const [rows] = (await knex.raw(
    `SELECT CONSTRAINT_NAME AS name, COLUMN_NAME AS \`column\` FROM information_schema.KEY_COLUMN_USAGE
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND REFERENCED_TABLE_NAME IS NOT NULL`,
    [table],
  )) as [Array<{ name: string; column: string }>];
  return rows.filter((r) => columns.includes(r.column));
}

/** Columns of `table` that lead (are the first column of) some index, the primary key included. */
async function leadingIndexColumns(knex: Knex, table: string): Promise<Set<string>> {
  if (isSqlite(knex)) {
    const leading = new Set<string>();
    for (const index of (await knex.raw(`PRAGMA index_list(\`${table}\`)`)) as Array<{ name: string }>) {
      const [first] = (await knex.raw(`PRAGMA index_info(\`${index.name}\`)`)) as Array<{ name: string }>;
      if (first) leading.add(first.name);
    }
    return leading;
  }
  if (dialectOf(knex) === 'postgres') {
    const { rows } = (await knex.raw(
      `SELECT a.attname AS "column" FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = i.indkey[0]
        WHERE c.relname = ? AND c.relnamespace = current_schema()::regnamespace`,
      [table],
    )) as { rows: Array<{ column: string }> };
    return new Set(rows.map((r) => r.column));
  }
  const [rows] = (await knex.raw(
    'SELECT COLUMN_NAME AS `column` FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND SEQ_IN_INDEX = 1',
    [table],
  )) as [Array<{ column: string }>];
  return new Set(rows.map((r) => r.column));
}

export async function up(knex: Knex): Promise<void> {
  for (const [table, columns] of Object.entries(HOST_ID_COLUMNS)) {
    const foreignKeys = await foreignKeysOn(knex, table, columns);
    if (foreignKeys.length && isSqlite(knex)) {
      const doomed = [...new Set(foreignKeys.map((fk) => fk.column))];
      await knex.schema.alterTable(table, (t) => {
        t.dropForeign(doomed);
      });
    }
    // MySQL/MariaDB keep the index a foreign key created, so its column stays indexed (PostgreSQL never made one: added below).
    if (dialectOf(knex) === 'mysql')
      for (const fk of foreignKeys) await knex.raw('ALTER TABLE ?? DROP FOREIGN KEY ??', [table, fk.name!]);
    if (dialectOf(knex) === 'postgres')
      for (const fk of foreignKeys) await knex.raw('ALTER TABLE ?? DROP CONSTRAINT ??', [table, fk.name!]);

    const indexed = await leadingIndexColumns(knex, table);
    for (const column of columns.filter((c) => !indexed.has(c)))
      await knex.schema.alterTable(table, (t) => {
        t.index([column], `${table}_${column}_idx`);
      });
  }
}

/** The foreign keys are not restored: the add-ons clean up on the host's events now, and a cascade besides would be a second, untested path. */
export async function down(): Promise<void> {}
