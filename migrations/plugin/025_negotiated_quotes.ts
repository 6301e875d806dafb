import type { Knex } from 'knex';
import { dateTime, idColumn, jsonText } from '../../src/lib/migration-helpers.js';

/**
 * Negotiated quotes (decision 0022, docs/negotiated-quotes.md): an offer's current version and
 * whole-offer discount, the kinds of positions (product, free text, heading), optional positions the
 * customer ticks, per-line discounts; the frozen versions each side handed over, the message thread
 * with each reader's last read message, and the validity the expiry reminder was sent for.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('b2b_offers', (t) => {
    t.integer('version').notNullable().defaultTo(1);
    /** Whole-offer discount in basis points (1250 = 12.5 %), applied to every priced line. */
    t.integer('discount_bp').notNullable().defaultTo(0);
    /** The valid_until the expiry reminder was mailed for: once per validity, across workers. */
    dateTime(t, 'expiry_reminder_for').nullable();
  });
  await knex.schema.alterTable('b2b_offer_line_items', (t) => {
    /** 'product', 'text' (a free-text position: a service, freight), 'heading' (never ordered). */
    t.string('kind', 16).notNullable().defaultTo('product');
    t.boolean('optional').notNullable().defaultTo(false);
    /** For optional positions: whether the customer ticked it. */
    t.boolean('selected').notNullable().defaultTo(true);
    t.integer('discount_bp').notNullable().defaultTo(0);
    /** The offered unit price before discounts; null: unit_net (no discount). */
    t.bigInteger('base_unit_net').nullable();
  });
  await knex.schema.alterTable('b2b_offer_documents', (t) => {
    t.integer('version').nullable();
  });
  await knex.schema.createTable('b2b_offer_versions', (t) => {
    idColumn(t).primary();
    idColumn(t, 'offer_id').notNullable();
    t.integer('version').notNullable();
    /** 'customer' or 'sales': who handed this version over. */
    t.string('side', 16).notNullable();
    t.string('author_type', 32).notNullable();
    idColumn(t, 'author_id').nullable();
    t.string('author_name', 255).notNullable();
    jsonText(t, 'snapshot').notNullable();
    dateTime(t, 'created_at').notNullable();
    t.unique(['offer_id', 'version'], { indexName: 'b2b_offer_versions_uq' });
    t.foreign('offer_id', 'b2b_offer_versions_offer_fk').references('b2b_offers.id').onDelete('CASCADE');
  });
  await knex.schema.createTable('b2b_offer_messages', (t) => {
    idColumn(t).primary();
    idColumn(t, 'offer_id').notNullable();
    /** 1, 2, … per offer (written under the offer's row lock): what "read up to" counts. */
    t.integer('seq').notNullable();
    t.string('side', 16).notNullable();
    t.string('author_type', 32).notNullable();
    idColumn(t, 'author_id').nullable();
    t.string('author_name', 255).notNullable();
    t.text('body').notNullable();
    t.integer('offer_version').notNullable();
    dateTime(t, 'created_at').notNullable();
    t.unique(['offer_id', 'seq'], { indexName: 'b2b_offer_messages_seq_uq' });
    t.foreign('offer_id', 'b2b_offer_messages_offer_fk').references('b2b_offers.id').onDelete('CASCADE');
  });
  await knex.schema.createTable('b2b_offer_message_reads', (t) => {
    idColumn(t, 'offer_id').notNullable();
    t.string('reader_type', 32).notNullable();
    idColumn(t, 'reader_id').notNullable();
    t.integer('last_seq').notNullable();
    dateTime(t, 'updated_at').notNullable();
    t.primary(['offer_id', 'reader_type', 'reader_id'], 'b2b_offer_message_reads_pk');
    t.foreign('offer_id', 'b2b_offer_message_reads_offer_fk').references('b2b_offers.id').onDelete('CASCADE');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['b2b_offer_message_reads', 'b2b_offer_messages', 'b2b_offer_versions'])
    await knex.schema.dropTableIfExists(table);
  await knex.schema.alterTable('b2b_offer_documents', (t) => {
    t.dropColumn('version');
  });
  await knex.schema.alterTable('b2b_offer_line_items', (t) => {
    for (const column of ['kind', 'optional', 'selected', 'discount_bp', 'base_unit_net']) t.dropColumn(column);
  });
  await knex.schema.alterTable('b2b_offers', (t) => {
    for (const column of ['version', 'discount_bp', 'expiry_reminder_for']) t.dropColumn(column);
  });
}
