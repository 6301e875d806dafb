import type { Knex } from 'knex';
import { createRowVersionTrigger, dropVersionTriggers } from '../../src/lib/migration-helpers.js';

/**
 * Each approval's version: `suite_order_approvals.version` moves on every update of the
 * approval's row, by a trigger, so a process may keep the approval summaries the list answers
 * (src/plugin/order-approval/summary-cache.ts) while the version it reads with the page stays.
 * The list's line counts are read with the page, not kept, so line writes need no trigger.
 */
const TRIGGER = 'suite_order_approvals_row_version';

export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasColumn('suite_order_approvals', 'version')))
    await knex.schema.alterTable('suite_order_approvals', (t) => {
      t.bigInteger('version').notNullable().defaultTo(1);
    });
  await createRowVersionTrigger(knex, 'suite_order_approvals', TRIGGER);
}

export async function down(knex: Knex): Promise<void> {
  await dropVersionTriggers(knex, [{ name: TRIGGER, table: 'suite_order_approvals', event: 'update' }]);
  if (await knex.schema.hasColumn('suite_order_approvals', 'version'))
    await knex.schema.alterTable('suite_order_approvals', (t) => {
      t.dropColumn('version');
    });
}
