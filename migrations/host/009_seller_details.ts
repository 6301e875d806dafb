import type { Knex } from 'knex';

/** What an invoice says about the seller: the sales channel's postal address and VAT id (its name is the shop name). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sales_channels', (t) => {
    t.text('seller_address').nullable();
    t.string('vat_id', 64).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sales_channels', (t) => {
    t.dropColumn('seller_address');
    t.dropColumn('vat_id');
  });
}
