import type { Knex } from 'knex';

/**
 * Rule assignments of the partial assortments: one table per kind, primary key on the pair, so a
 * pair exists at most once however often (and however concurrently) it is posted.
 * The primary key (entity, rule) serves the visibility filter's per-entity lookups and the admin
 * list's order; the (rule, entity) index serves "which entities do these rules unlock".
 * rule_id has no foreign key on purpose: deleting a rule leaves its entities hidden (fail closed)
 * instead of making them visible to everyone. The entity ids are host ids: plain columns, no foreign
 * key (contract v2); the add-on deletes the rows on the host's delete events.
 */
const PARTIAL_ASSORTMENT_TABLES = [
  {
    table: 'suite_partial_assortment_category_rule',
    entityColumn: 'category_id',
    versionColumn: 'category_version_id',
    short: 'spa_category',
  },
  {
    table: 'suite_partial_assortment_landing_page_rule',
    entityColumn: 'landing_page_id',
    versionColumn: 'landing_page_version_id',
    short: 'spa_landing_page',
  },
  {
    table: 'suite_partial_assortment_product_rule',
    entityColumn: 'product_id',
    versionColumn: 'product_version_id',
    short: 'spa_product',
  },
] as const;

export async function up(knex: Knex): Promise<void> {
  for (const { table, entityColumn, versionColumn, short } of PARTIAL_ASSORTMENT_TABLES) {
    await knex.schema.createTable(table, (t) => {
      t.string(entityColumn, 32).notNullable();
      t.string(versionColumn, 32).notNullable();
      t.string('rule_id', 32).notNullable();
      t.datetime('created_at', { precision: 3, useTz: false }).notNullable();
      t.primary([entityColumn, 'rule_id'], `${short}_rule_pk`);
      t.index(['rule_id', entityColumn], `${short}_rule_rule_idx`);
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const { table } of [...PARTIAL_ASSORTMENT_TABLES].reverse()) await knex.schema.dropTableIfExists(table);
}
