import type { Knex } from 'knex';

// Plugin migrations use knex only (no host helpers): ids are 32 hex chars, times DATETIME(3) UTC strings.
const id = (t: Knex.CreateTableBuilder, name = 'id') => t.string(name, 32);
const time = (t: Knex.CreateTableBuilder, name: string) => t.datetime(name, { precision: 3, useTz: false });
const stamps = (t: Knex.CreateTableBuilder) => {
  time(t, 'created_at').notNullable();
  time(t, 'updated_at').nullable();
};

/** `occupies_seat`: a participant in this status takes one of the event's seats. */
const SYSTEM_STATUSES = [
  { technical_name: 'registered', name: 'Registered', occupies_seat: true },
  { technical_name: 'waiting', name: 'Waiting list', occupies_seat: false },
  { technical_name: 'excluded', name: 'Excluded', occupies_seat: false },
  { technical_name: 'canceled', name: 'Canceled', occupies_seat: false },
  { technical_name: 'not_participated', name: 'Not participated', occupies_seat: true },
  { technical_name: 'participated', name: 'Participated', occupies_seat: true },
];

export async function up(knex: Knex): Promise<void> {
  /** Formats, venues, speakers and difficulty levels, maintained by sales staff. */
  await knex.schema.createTable('b2b_event_specifications', (t) => {
    id(t).primary();
    t.string('type', 32).notNullable();
    t.string('name', 255).notNullable();
    t.text('description', 'mediumtext').nullable();
    t.integer('position').notNullable().defaultTo(0);
    stamps(t);
    t.index(['type', 'position', 'name'], 'b2b_event_spec_type_idx');
  });
  await knex.schema.createTable('b2b_events', (t) => {
    id(t).primary();
    id(t, 'product_id').notNullable();
    t.string('name', 255).notNullable();
    t.string('language', 16).notNullable();
    id(t, 'format_id').nullable().references('b2b_event_specifications.id');
    id(t, 'difficulty_level_id').nullable().references('b2b_event_specifications.id');
    id(t, 'venue_id').nullable().references('b2b_event_specifications.id');
    t.text('description', 'mediumtext').nullable();
    time(t, 'starts_at').notNullable();
    time(t, 'ends_at').notNullable();
    /** null: no limit */
    t.integer('participant_limit').nullable();
    /** null: registration closes when the event starts */
    time(t, 'registration_deadline').nullable();
    t.boolean('waiting_list').notNullable().defaultTo(false);
    t.string('status', 64).notNullable();
    id(t, 'created_by_id').nullable();
    stamps(t);
    t.index(['product_id']);
    t.index(['status', 'starts_at'], 'b2b_events_status_start_idx');
    t.index(['starts_at'], 'b2b_events_start_idx');
  });
  await knex.schema.createTable('b2b_event_speakers', (t) => {
    id(t, 'event_id').notNullable().references('b2b_events.id').onDelete('CASCADE');
    id(t, 'speaker_id').notNullable().references('b2b_event_specifications.id');
    t.integer('position').notNullable().defaultTo(0);
    t.primary(['event_id', 'speaker_id']);
    t.index(['speaker_id']);
  });
  /** The participant statuses; operators add their own through the Admin API. */
  await knex.schema.createTable('b2b_event_participant_statuses', (t) => {
    t.string('technical_name', 64).primary();
    t.string('name', 255).notNullable();
    t.boolean('occupies_seat').notNullable().defaultTo(false);
    t.boolean('system').notNullable().defaultTo(false);
    t.integer('position').notNullable().defaultTo(0);
    stamps(t);
  });
  await knex.schema.createTable('b2b_event_participants', (t) => {
    id(t).primary();
    id(t, 'event_id').notNullable().references('b2b_events.id').onDelete('CASCADE');
    id(t, 'customer_id').notNullable();
    id(t, 'employee_id').nullable().references('b2b_employees.id').onDelete('SET NULL');
    t.string('first_name', 255).notNullable();
    t.string('last_name', 255).notNullable();
    t.string('email', 255).notNullable();
    t.string('status', 64).notNullable().references('b2b_event_participant_statuses.technical_name');
    id(t, 'order_id').nullable();
    id(t, 'order_line_item_id').nullable();
    /** Order of the waiting list: assigned under the event's row lock. */
    t.integer('waiting_position').nullable();
    t.text('notes', 'mediumtext').nullable();
    /** JSON array of {name, url, note}: document information sales staff keep. */
    t.text('documents', 'longtext').notNullable();
    /** Set by the conditional write that claims the reminder, so it goes out once. */
    time(t, 'reminder_sent_at').nullable();
    t.string('created_by_type', 32).notNullable();
    id(t, 'created_by_id').nullable();
    stamps(t);
    t.index(['event_id', 'status'], 'b2b_event_part_event_status_idx');
    t.index(['event_id', 'waiting_position'], 'b2b_event_part_waiting_idx');
    t.index(['customer_id', 'created_at'], 'b2b_event_part_customer_idx');
    t.index(['event_id', 'email'], 'b2b_event_part_email_idx');
    t.index(['order_id'], 'b2b_event_part_order_idx');
  });
  await knex.schema.createTable('b2b_event_circular_mails', (t) => {
    id(t).primary();
    id(t, 'event_id').notNullable().references('b2b_events.id').onDelete('CASCADE');
    t.string('subject', 255).notNullable();
    t.text('message', 'mediumtext').notNullable();
    t.text('statuses').notNullable();
    t.integer('recipient_count').notNullable();
    id(t, 'sent_by_id').nullable();
    time(t, 'created_at').notNullable();
    t.index(['event_id', 'created_at'], 'b2b_event_circ_event_idx');
  });
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  await knex('b2b_event_participant_statuses').insert(
    SYSTEM_STATUSES.map((status, index) => ({ ...status, system: true, position: index + 1, created_at: now })),
  );
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'b2b_event_circular_mails',
    'b2b_event_participants',
    'b2b_event_participant_statuses',
    'b2b_event_speakers',
    'b2b_events',
    'b2b_event_specifications',
  ])
    await knex.schema.dropTableIfExists(table);
}
