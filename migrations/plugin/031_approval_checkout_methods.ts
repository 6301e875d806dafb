import type { Knex } from 'knex';

/**
 * The delivery and payment method the buyer chose when asking for approval (docs/approval-rules.md):
 * the approved order is placed with them. Null: the checkout's default for the buyer.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('suite_order_approvals', (t) => {
    t.string('payment_method', 64).nullable();
    t.string('shipping_method', 64).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('suite_order_approvals', (t) => {
    t.dropColumn('payment_method');
    t.dropColumn('shipping_method');
  });
}
