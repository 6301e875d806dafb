import type { Knex } from 'knex';
import { dateTime, idColumn, jsonText } from '../../src/lib/migration-helpers.js';

/**
 * The last attachments of organisation units (decision 0036): the payment and shipping methods a
 * unit's buyers may use (docs/organisation-units.md, "Checkout methods") and payment terms per unit
 * (docs/payment-on-account.md). Both are settings of the unit and go with it (cascade): deleting a
 * unit with `moveTo` moves its members under the target's settings.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('b2b_unit_checkout_methods', (t) => {
    idColumn(t, 'unit_id').notNullable().references('b2b_organisation_units.id').onDelete('CASCADE');
    /** 'payment' or 'shipping' */
    t.string('kind', 16).notNullable();
    idColumn(t, 'customer_id').notNullable().index();
    /** The allowed technical names, a JSON array (never empty: no row means no restriction). */
    jsonText(t, 'technical_names').notNullable();
    dateTime(t, 'updated_at').notNullable();
    t.primary(['unit_id', 'kind']);
  });
  await knex.schema.createTable('suite_unit_payment_terms', (t) => {
    idColumn(t, 'unit_id').notNullable().primary().references('b2b_organisation_units.id').onDelete('CASCADE');
    idColumn(t, 'customer_id').notNullable().index();
    t.integer('days_net').notNullable();
    t.integer('discount_bp').notNullable().defaultTo(0);
    t.integer('discount_days').notNullable().defaultTo(0);
    dateTime(t, 'created_at').notNullable();
    dateTime(t, 'updated_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('suite_unit_payment_terms');
  await knex.schema.dropTableIfExists('b2b_unit_checkout_methods');
}
