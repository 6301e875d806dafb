import type { Knex } from 'knex';

// Plugin migrations use knex only (no host helpers): ids are 32 hex chars, times DATETIME(3) UTC strings, money BIGINT minor units.
const id = (t: Knex.CreateTableBuilder, name = 'id') => t.string(name, 32);
const time = (t: Knex.CreateTableBuilder, name: string) => t.datetime(name, { precision: 3, useTz: false });

/** The offer statuses with the flags the service reads to decide who may do what in each. */
const STATES = [
  {
    technicalName: 'requested',
    name: 'Requested',
    salesEdit: true,
    accept: false,
    decline: true,
    extension: false,
    final: false,
  },
  {
    technicalName: 'draft',
    name: 'Draft',
    salesEdit: true,
    accept: false,
    decline: true,
    extension: false,
    final: false,
  },
  { technicalName: 'open', name: 'Open', salesEdit: true, accept: true, decline: true, extension: true, final: false },
  {
    technicalName: 'accepted',
    name: 'Accepted',
    salesEdit: false,
    accept: false,
    decline: false,
    extension: false,
    final: true,
  },
  {
    technicalName: 'declined',
    name: 'Declined',
    salesEdit: false,
    accept: false,
    decline: false,
    extension: false,
    final: true,
  },
  {
    technicalName: 'expired',
    name: 'Expired',
    salesEdit: true,
    accept: false,
    decline: true,
    extension: true,
    final: false,
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('b2b_offer_states', (t) => {
    id(t).primary();
    t.string('technical_name', 32).notNullable().unique('b2b_offer_states_name_uq');
    t.string('name', 255).notNullable();
    t.integer('position').notNullable();
    t.boolean('allows_sales_edit').notNullable();
    t.boolean('allows_accept').notNullable();
    t.boolean('allows_decline').notNullable();
    t.boolean('allows_extension_request').notNullable();
    t.boolean('is_final').notNullable();
    time(t, 'created_at').notNullable();
  });
  await knex.schema.createTable('b2b_offers', (t) => {
    id(t).primary();
    t.string('offer_number', 32).notNullable().unique('b2b_offers_number_uq');
    id(t, 'customer_id').notNullable();
    id(t, 'sales_channel_id').notNullable();
    t.string('status', 32).notNullable();
    /** 'cart', 'items' (chosen line items) */
    t.string('source', 16).notNullable();
    t.string('requested_by_type', 32).notNullable();
    id(t, 'requested_by_id').nullable();
    t.string('requested_by_name', 255).notNullable();
    t.string('requested_by_email', 255).nullable();
    /** Who priced or sent it last; no foreign key, so the history survives a deleted representative. */
    id(t, 'sales_representative_id').nullable();
    t.string('subject', 255).notNullable();
    t.string('commission', 255).notNullable();
    t.text('customer_comment').nullable();
    t.text('sales_comment').nullable();
    id(t, 'billing_address_id').nullable();
    id(t, 'shipping_address_id').nullable();
    t.string('currency_iso', 3).notNullable();
    t.bigInteger('net_total').notNullable();
    t.bigInteger('tax_total').notNullable();
    t.bigInteger('total').notNullable();
    time(t, 'valid_until').nullable();
    time(t, 'sent_at').nullable();
    time(t, 'accepted_at').nullable();
    time(t, 'declined_at').nullable();
    t.text('decline_comment').nullable();
    time(t, 'extension_requested_at').nullable();
    t.text('extension_comment').nullable();
    id(t, 'order_id').nullable();
    t.string('order_number', 32).nullable();
    time(t, 'created_at').notNullable();
    time(t, 'updated_at').nullable();
    t.foreign('status', 'b2b_offers_status_fk').references('b2b_offer_states.technical_name');
    t.index(['customer_id', 'created_at'], 'b2b_offers_customer_idx');
    t.index(['status', 'valid_until'], 'b2b_offers_expiry_idx');
  });
  await knex.schema.createTable('b2b_offer_line_items', (t) => {
    id(t).primary();
    id(t, 'offer_id').notNullable();
    t.string('type', 32).notNullable();
    id(t, 'product_id').nullable();
    t.string('product_number', 64).nullable();
    t.string('label', 255).notNullable();
    t.integer('quantity').notNullable();
    /** The customer's price when the line was added: what the offered price is compared with. */
    t.bigInteger('list_unit_net').notNullable();
    t.bigInteger('unit_net').notNullable();
    t.bigInteger('total_net').notNullable();
    t.integer('tax_rate_bp').notNullable();
    t.text('comment').nullable();
    /** The client's id of the chosen line item (offer item request). */
    t.string('source_line_item_id', 64).nullable();
    t.text('payload', 'longtext').notNullable();
    t.integer('position').notNullable();
    time(t, 'created_at').notNullable();
    t.foreign('offer_id', 'b2b_offer_lines_offer_fk').references('b2b_offers.id').onDelete('CASCADE');
    t.index(['offer_id', 'position'], 'b2b_offer_lines_offer_idx');
    t.index(['product_id'], 'b2b_offer_lines_product_idx');
  });
  await knex.schema.createTable('b2b_offer_documents', (t) => {
    id(t, 'offer_id').notNullable();
    id(t, 'document_id').notNullable();
    time(t, 'created_at').notNullable();
    t.primary(['offer_id', 'document_id'], 'b2b_offer_documents_pk');
    t.unique(['document_id'], 'b2b_offer_documents_document_uq');
    t.foreign('offer_id', 'b2b_offer_documents_offer_fk').references('b2b_offers.id').onDelete('CASCADE');
  });

  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  await knex('b2b_offer_states').insert(
    STATES.map((state, index) => ({
      id: `0000000000000000000000000000f${String(index + 1).padStart(3, '0')}`,
      technical_name: state.technicalName,
      name: state.name,
      position: index + 1,
      allows_sales_edit: state.salesEdit,
      allows_accept: state.accept,
      allows_decline: state.decline,
      allows_extension_request: state.extension,
      is_final: state.final,
      created_at: now,
    })),
  );
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['b2b_offer_documents', 'b2b_offer_line_items', 'b2b_offers', 'b2b_offer_states'])
    await knex.schema.dropTableIfExists(table);
}
