import type { Knex } from 'knex';

/**
 * What a recurring order does when one of its products can no longer be ordered (decision 0041,
 * docs/recurring-orders.md): `leave-out` places the rest (what recurring orders did until now, so the
 * ones that exist keep it), `hold` places nothing and asks the buyer (the default for new ones, set
 * by the add-on when it creates one).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('suite_recurring_orders', (t) => {
    t.string('unavailable_products', 16).notNullable().defaultTo('leave-out');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('suite_recurring_orders', (t) => {
    t.dropColumn('unavailable_products');
  });
}
