import type { Knex } from 'knex';
import {
  createVersionTriggers,
  dropVersionTriggers,
  versionTriggersOn,
  type VersionTrigger,
} from '../../src/lib/migration-helpers.js';

/**
 * The products version: a counter in catalog_counters that moves on every write to what
 * a product read by id answers (src/host/catalog/product-cache.ts keeps those reads per process):
 * the products' rows (stock too: an order's decrement is an update), their category assignments
 * (and a category's delete, which removes them) and their tier prices. Triggers, not application code, move it, so every writer counts: an admin
 * route, a checkout, a data import or an operator's SQL alike.
 *
 * The counter row is locked from a transaction's first product write to its commit. A transaction
 * that writes several products on MySQL/MariaDB takes it first (`lockProductsVersion`,
 * src/host/catalog/catalog-version.ts: the checkout's stock decrements do), so that two of them
 * never wait on each other's products while one holds the counter.
 */
const BUMP = "update catalog_counters set value = value + 1 where name = 'products'";

const TRIGGERS: VersionTrigger[] = [
  ...versionTriggersOn(
    ['products', 'product_categories', 'product_tier_prices'],
    (table, event) => `products_version_${table}_${event}`,
  ),
  // A category's delete removes its product_categories rows by ON DELETE CASCADE, which fires no
  // trigger on MySQL/MariaDB: the category's own delete counts for them.
  { name: 'products_version_categories_delete', table: 'categories', event: 'delete' as const },
];

export async function up(knex: Knex): Promise<void> {
  await knex('catalog_counters').insert({ name: 'products', value: 1 }).onConflict('name').ignore();
  await createVersionTriggers(knex, TRIGGERS, BUMP);
}

export async function down(knex: Knex): Promise<void> {
  await dropVersionTriggers(knex, TRIGGERS);
  await knex('catalog_counters').where({ name: 'products' }).delete();
}
