import type { Knex } from 'knex';
import { MIGRATION_BACKFILL } from '../../src/lib/db.js';
import { idColumn } from '../../src/lib/migration-helpers.js';

/**
 * Flat with data (a page as fast at 1,000,000 orders as at 1,000): the totals of the two lists that grow with a company's history are
 * kept as counters, written in the same transaction as the rows they count, so a page no longer
 * runs count(*) over every approval of the customer or every order of the budget.
 *
 * - `suite_order_approval_counts` (customer_id → approvals): the customer's approvals. Bumped by
 *   the approval insert (repository `insertApproval`), removed with the customer's approvals.
 * - `suite_budgets.order_count`: the budget's rows in `suite_budget_orders`. Bumped by the
 *   order-placed hook under the budget row lock it already holds; the usage rows go only with the
 *   budget itself (foreign key), and so does the counter.
 *
 * The list indexes end in the tie-breaker of the lists' sort (`created_at desc, id desc`,
 * `placed_at desc, order_id desc`), so SQLite, whose secondary indexes carry the rowid and not
 * the text primary key, reads a page in index order without sorting the customer's rows.
 * (InnoDB appends the primary key to every secondary index, so MariaDB read the old ones that way.)
 * The budget orders index also carries `amount`, so the used amount of a period (a sum over the
 * period's rows) is read from the index alone instead of one table lookup per row.
 */
export async function up(knex: Knex): Promise<void> {
  // MySQL/MariaDB commit each DDL statement: a run that stopped half-way (a backfill outlasting a
  // connection, a restart) leaves the table or column behind, so each step checks before it creates,
  // and the backfills recompute from the rows.
  if (!(await knex.schema.hasTable('suite_order_approval_counts')))
    await knex.schema.createTable('suite_order_approval_counts', (t) => {
      idColumn(t, 'customer_id').primary();
      t.bigInteger('approvals').notNullable().defaultTo(0);
    });
  await knex('suite_order_approval_counts').delete();
  await knex.raw(
    `${MIGRATION_BACKFILL} insert into suite_order_approval_counts (customer_id, approvals) select customer_id, count(*) from suite_order_approvals group by customer_id`,
  );

  if (!(await knex.schema.hasColumn('suite_budgets', 'order_count')))
    await knex.schema.alterTable('suite_budgets', (t) => {
      t.bigInteger('order_count').notNullable().defaultTo(0);
    });
  await knex.raw(
    `${MIGRATION_BACKFILL} update suite_budgets set order_count = (select count(*) from suite_budget_orders o where o.budget_id = suite_budgets.id)`,
  );

  await knex.schema.alterTable('suite_order_approvals', (t) => {
    t.index(['customer_id', 'created_at', 'id'], 'suite_order_approvals_list_idx');
  });
  await knex.schema.alterTable('suite_order_approvals', (t) => {
    t.dropIndex(['customer_id', 'created_at'], 'suite_order_approvals_created_idx');
  });
  await knex.schema.alterTable('suite_budget_orders', (t) => {
    t.index(['budget_id', 'placed_at', 'order_id', 'amount'], 'suite_budget_orders_list_idx');
  });
  await knex.schema.alterTable('suite_budget_orders', (t) => {
    t.dropIndex(['budget_id', 'placed_at'], 'suite_budget_orders_period_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('suite_budget_orders', (t) => {
    t.index(['budget_id', 'placed_at'], 'suite_budget_orders_period_idx');
  });
  await knex.schema.alterTable('suite_budget_orders', (t) => {
    t.dropIndex(['budget_id', 'placed_at', 'order_id', 'amount'], 'suite_budget_orders_list_idx');
  });
  await knex.schema.alterTable('suite_order_approvals', (t) => {
    t.index(['customer_id', 'created_at'], 'suite_order_approvals_created_idx');
  });
  await knex.schema.alterTable('suite_order_approvals', (t) => {
    t.dropIndex(['customer_id', 'created_at', 'id'], 'suite_order_approvals_list_idx');
  });
  await knex.schema.alterTable('suite_budgets', (t) => {
    t.dropColumn('order_count');
  });
  await knex.schema.dropTable('suite_order_approval_counts');
}
