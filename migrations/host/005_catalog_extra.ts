import type { Knex } from 'knex';

/** A counter every process reads: bumped by writes that change visibility or rules, so caches keyed on it expire everywhere. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('catalog_counters', (t) => {
    t.string('name', 64).primary();
    t.bigInteger('value').notNullable().defaultTo(0);
  });
  await knex('catalog_counters').insert({ name: 'visibility', value: 1 });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('catalog_counters');
}
