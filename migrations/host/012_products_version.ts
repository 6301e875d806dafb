import type { Knex } from 'knex';
import { dialectOf } from '../../src/lib/db.js';

/**
 * The products version (issue 12): a counter in catalog_counters that moves on every write to what
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

const TRIGGERS = [
  ...['products', 'product_categories', 'product_tier_prices'].flatMap((table) =>
    (['insert', 'update', 'delete'] as const).map((event) => ({ name: `products_version_${table}_${event}`, table, event })),
  ),
  // A category's delete removes its product_categories rows by ON DELETE CASCADE, which fires no
  // trigger on MySQL/MariaDB: the category's own delete counts for them.
  { name: 'products_version_categories_delete', table: 'categories', event: 'delete' as const },
];

function createTrigger(knex: Knex, { name, table, event }: (typeof TRIGGERS)[number]): string {
  if (dialectOf(knex) === 'sqlite') return `create trigger ${name} after ${event} on ${table} for each row begin ${BUMP}; end`;
  return `create trigger ${name} after ${event} on ${table} for each row ${BUMP}`;
}

export async function up(knex: Knex): Promise<void> {
  // MySQL/MariaDB commit each DDL statement: a run that stopped half-way is run again from the top.
  await knex('catalog_counters').insert({ name: 'products', value: 1 }).onConflict('name').ignore();
  for (const trigger of TRIGGERS) {
    await knex.raw(`drop trigger if exists ${trigger.name}`);
    await knex.raw(createTrigger(knex, trigger));
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const trigger of TRIGGERS) await knex.raw(`drop trigger if exists ${trigger.name}`);
  await knex('catalog_counters').where({ name: 'products' }).delete();
}
