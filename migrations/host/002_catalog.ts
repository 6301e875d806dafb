import type { Knex } from 'knex';
import { idColumn, jsonText, money, timestamps } from '../../src/lib/migration-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('cms_pages', (t) => {
    idColumn(t).primary();
    t.string('name', 255).notNullable();
    t.string('title', 255).notNullable();
    /** Sections as JSON: [{type:'text'|'image'|'product-listing', ...}] rendered with Handlebars. */
    jsonText(t, 'sections').notNullable();
    timestamps(t);
  });
  await knex.schema.createTable('categories', (t) => {
    idColumn(t).primary();
    idColumn(t, 'version_id').notNullable();
    idColumn(t, 'parent_id').nullable().references('categories.id').onDelete('CASCADE');
    t.string('name', 255).notNullable();
    t.integer('position').notNullable().defaultTo(0);
    t.boolean('active').notNullable().defaultTo(true);
    idColumn(t, 'cms_page_id').nullable().references('cms_pages.id').onDelete('SET NULL');
    timestamps(t);
    t.index(['parent_id', 'position']);
  });
  await knex.schema.createTable('landing_pages', (t) => {
    idColumn(t).primary();
    idColumn(t, 'version_id').notNullable();
    t.string('name', 255).notNullable();
    t.string('url', 255).notNullable().unique();
    t.boolean('active').notNullable().defaultTo(true);
    idColumn(t, 'cms_page_id').nullable().references('cms_pages.id').onDelete('SET NULL');
    timestamps(t);
  });
  await knex.schema.createTable('products', (t) => {
    idColumn(t).primary();
    idColumn(t, 'version_id').notNullable();
    t.string('product_number', 64).notNullable().unique();
    t.string('name', 255).notNullable();
    t.text('description').nullable();
    t.integer('stock').notNullable().defaultTo(0);
    t.boolean('active').notNullable().defaultTo(true);
    /** Tax rate in hundredths of a percent (1900 = 19 %), so no float ever reaches a sum. */
    t.integer('tax_rate_bp').notNullable().defaultTo(1900);
    money(t, 'price_net').notNullable();
    t.string('manufacturer', 255).nullable();
    t.string('ean', 64).nullable();
    timestamps(t);
    t.index(['active', 'name']);
  });
  /** Tier prices: the net unit price from a minimum quantity up. */
  await knex.schema.createTable('product_tier_prices', (t) => {
    idColumn(t).primary();
    idColumn(t, 'product_id').notNullable().references('products.id').onDelete('CASCADE');
    t.integer('min_quantity').notNullable();
    money(t, 'price_net').notNullable();
    t.unique(['product_id', 'min_quantity']);
  });
  await knex.schema.createTable('product_categories', (t) => {
    idColumn(t, 'product_id').notNullable().references('products.id').onDelete('CASCADE');
    idColumn(t, 'category_id').notNullable().references('categories.id').onDelete('CASCADE');
    t.primary(['product_id', 'category_id']);
    t.index(['category_id', 'product_id']);
  });
  await knex.schema.createTable('rules', (t) => {
    idColumn(t).primary();
    t.string('name', 255).notNullable();
    t.integer('priority').notNullable().defaultTo(0);
    /** A condition tree as JSON: {type:'andContainer'|'orContainer', children:[…]} or a leaf {type, operator, value}. */
    jsonText(t, 'conditions').notNullable();
    timestamps(t);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'rules',
    'product_categories',
    'product_tier_prices',
    'products',
    'landing_pages',
    'categories',
    'cms_pages',
  ])
    await knex.schema.dropTableIfExists(table);
}
