import type { Knex } from 'knex';

// Plugin migrations use knex only (no host helpers): ids are 32 hex chars, times DATETIME(3) UTC strings.
const id = (t: Knex.CreateTableBuilder, name = 'id') => t.string(name, 32);
const time = (t: Knex.CreateTableBuilder, name: string) => t.datetime(name, { precision: 3, useTz: false });
const stamps = (t: Knex.CreateTableBuilder) => {
  time(t, 'created_at').notNullable();
  time(t, 'updated_at').nullable();
};

const DEFAULT_ACTIVITY_TYPES = [
  { technicalName: 'call', name: 'Phone call', position: 1 },
  { technicalName: 'visit', name: 'Customer visit', position: 2 },
  { technicalName: 'email', name: 'E-mail', position: 3 },
  { technicalName: 'meeting', name: 'Meeting', position: 4 },
  { technicalName: 'note', name: 'Note', position: 5 },
];

export async function up(knex: Knex): Promise<void> {
  /** A login that looks after assigned customers; its e-mail is unique among representatives (and kept free of customer and employee logins by the service). */
  await knex.schema.createTable('b2b_sales_representatives', (t) => {
    id(t).primary();
    t.string('email', 255).notNullable().unique();
    t.string('password_hash', 255).notNullable();
    t.string('first_name', 255).notNullable();
    t.string('last_name', 255).notNullable();
    t.string('phone', 64).nullable();
    t.boolean('active').notNullable().defaultTo(true);
    stamps(t);
  });
  /** A customer has at most one representative (unique customer_id): assigning it to another moves it. */
  await knex.schema.createTable('b2b_sales_representative_customers', (t) => {
    id(t).primary();
    id(t, 'sales_representative_id')
      .notNullable()
      .references('b2b_sales_representatives.id')
      .withKeyName('b2b_src_representative_fk')
      .onDelete('CASCADE');
    id(t, 'customer_id').notNullable();
    time(t, 'created_at').notNullable();
    t.unique(['customer_id'], { indexName: 'b2b_src_customer_unique' });
    t.index(['sales_representative_id', 'created_at'], 'b2b_src_representative_index');
  });
  await knex.schema.createTable('b2b_customer_activity_types', (t) => {
    id(t).primary();
    t.string('technical_name', 64).notNullable().unique();
    t.string('name', 255).notNullable();
    t.integer('position').notNullable().defaultTo(0);
    t.boolean('active').notNullable().defaultTo(true);
    stamps(t);
  });
  /** What a representative did with a customer (call, visit …); belongs to the customer, so a successor sees it. */
  await knex.schema.createTable('b2b_customer_activities', (t) => {
    id(t).primary();
    id(t, 'customer_id').notNullable();
    id(t, 'type_id').notNullable().references('b2b_customer_activity_types.id').withKeyName('b2b_activity_type_fk');
    id(t, 'sales_representative_id')
      .nullable()
      .references('b2b_sales_representatives.id')
      .withKeyName('b2b_activity_representative_fk')
      .onDelete('SET NULL');
    /** The customer's contact person, if it was one of its employees. */
    id(t, 'employee_id')
      .nullable()
      .references('b2b_employees.id')
      .withKeyName('b2b_activity_employee_fk')
      .onDelete('SET NULL');
    id(t, 'order_id').nullable();
    t.string('subject', 255).notNullable();
    t.text('comment').nullable();
    time(t, 'activity_date').notNullable();
    time(t, 'follow_up_date').nullable();
    stamps(t);
    t.index(['customer_id', 'activity_date'], 'b2b_activity_customer_index');
    t.index(['sales_representative_id', 'activity_date'], 'b2b_activity_representative_index');
    t.index(['type_id'], 'b2b_activity_type_index');
  });
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  await knex('b2b_customer_activity_types').insert(
    DEFAULT_ACTIVITY_TYPES.map((type, index) => ({
      id: `00000000000000000000000000ac7${String(index + 1).padStart(3, '0')}`,
      technical_name: type.technicalName,
      name: type.name,
      position: type.position,
      active: true,
      created_at: now,
    })),
  );
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'b2b_customer_activities',
    'b2b_customer_activity_types',
    'b2b_sales_representative_customers',
    'b2b_sales_representatives',
  ])
    await knex.schema.dropTableIfExists(table);
}
