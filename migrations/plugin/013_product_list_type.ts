import type { Knex } from 'knex';

/** A product list's optional type (the real product's clients send one when creating a list). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('suite_product_lists', (t) => {
    t.string('type', 64).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('suite_product_lists', (t) => {
    t.dropColumn('type');
  });
}
