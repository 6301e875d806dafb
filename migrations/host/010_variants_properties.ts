import type { Knex } from 'knex';
import { idColumn, timestamps } from '../../src/lib/migration-helpers.js';

/**
 * Variants and properties, as the shop platform models them:
 * - a variant is a product with `parent_id` naming its main product (one level; it keeps its own
 *   number, price, stock and visibility);
 * - property groups (colour, size) hold options (red, XL);
 * - `product_options`: the options that make a variant what it is (its colour and size);
 * - `product_properties`: the options that describe a product (its material, its colour) — what
 *   "similar products" compare.
 * `parent_id` is a plain indexed column (no foreign key: adding one to an existing SQLite table
 * rebuilds it); deleting a product deletes its variants (the admin entity does it, and announces them).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('products', (t) => {
    idColumn(t, 'parent_id').nullable();
    t.index(['parent_id']);
  });
  await knex.schema.createTable('property_groups', (t) => {
    idColumn(t).primary();
    t.string('name', 255).notNullable();
    t.integer('position').notNullable().defaultTo(0);
    timestamps(t);
  });
  await knex.schema.createTable('property_group_options', (t) => {
    idColumn(t).primary();
    idColumn(t, 'group_id').notNullable().references('property_groups.id').onDelete('CASCADE');
    t.string('name', 255).notNullable();
    t.integer('position').notNullable().defaultTo(0);
    timestamps(t);
    t.index(['group_id', 'position']);
  });
  for (const table of ['product_options', 'product_properties']) {
    await knex.schema.createTable(table, (t) => {
      idColumn(t, 'product_id').notNullable().references('products.id').onDelete('CASCADE');
      idColumn(t, 'option_id').notNullable().references('property_group_options.id').onDelete('CASCADE');
      t.primary(['product_id', 'option_id']);
      t.index(['option_id', 'product_id']);
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['product_properties', 'product_options', 'property_group_options', 'property_groups'])
    await knex.schema.dropTableIfExists(table);
  await knex.schema.alterTable('products', (t) => {
    t.dropIndex(['parent_id']);
    t.dropColumn('parent_id');
  });
}
