import type { Knex } from 'knex';

// Plugin migrations use knex only (no host helpers): ids are 32 hex chars, times DATETIME(3) UTC strings.
const id = (t: Knex.CreateTableBuilder, name = 'id') => t.string(name, 32);
const time = (t: Knex.CreateTableBuilder, name: string) => t.datetime(name, { precision: 3, useTz: false });
const stamps = (t: Knex.CreateTableBuilder) => {
  time(t, 'created_at').notNullable();
  time(t, 'updated_at').nullable();
};

export async function up(knex: Knex): Promise<void> {
  /** A person who buys for one or more customers; logs in with this e-mail. */
  await knex.schema.createTable('b2b_employees', (t) => {
    id(t).primary();
    t.string('email', 255).notNullable().unique();
    t.string('password_hash', 255).nullable();
    t.string('first_name', 255).notNullable();
    t.string('last_name', 255).notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    stamps(t);
  });
  /** Roles belong to one customer; `permissions` is a JSON array of permission keys. */
  await knex.schema.createTable('b2b_employee_roles', (t) => {
    id(t).primary();
    id(t, 'customer_id').notNullable();
    t.string('name', 255).notNullable();
    t.string('description', 1024).nullable();
    t.text('permissions', 'longtext').notNullable();
    /** Orders of employees with this role need approval (read by the order-approval add-on). */
    t.boolean('requires_approval').notNullable().defaultTo(false);
    stamps(t);
    t.unique(['customer_id', 'name']);
  });
  /** The employee–customer link: one role per link; deactivating the link locks the employee out of that customer. */
  await knex.schema.createTable('b2b_employee_customers', (t) => {
    id(t).primary();
    id(t, 'employee_id').notNullable().references('b2b_employees.id').onDelete('CASCADE');
    id(t, 'customer_id').notNullable();
    id(t, 'role_id').nullable().references('b2b_employee_roles.id');
    t.string('department', 255).nullable();
    t.boolean('active').notNullable().defaultTo(true);
    stamps(t);
    t.unique(['employee_id', 'customer_id']);
    t.index(['customer_id', 'created_at']);
    t.index(['role_id']);
  });
  await knex.schema.createTable('b2b_employee_invitations', (t) => {
    id(t).primary();
    id(t, 'customer_id').notNullable();
    id(t, 'sales_channel_id').notNullable();
    t.string('email', 255).notNullable();
    t.string('first_name', 255).nullable();
    t.string('last_name', 255).nullable();
    t.string('department', 255).nullable();
    id(t, 'role_id').nullable().references('b2b_employee_roles.id').onDelete('SET NULL');
    /** Set when the employee record exists already (POST /b2b/employee/add): accepting sets the password. */
    id(t, 'employee_id').nullable().references('b2b_employees.id').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.string('status', 16).notNullable();
    time(t, 'expires_at').notNullable();
    time(t, 'accepted_at').nullable();
    stamps(t);
    t.unique(['customer_id', 'email']);
  });
  /** One-time secrets sent by mail (password-less login, password recovery); only their hash is kept. */
  await knex.schema.createTable('b2b_login_tokens', (t) => {
    id(t).primary();
    t.string('purpose', 32).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.string('actor_type', 32).notNullable();
    id(t, 'actor_id').notNullable();
    id(t, 'sales_channel_id').notNullable();
    time(t, 'expires_at').notNullable();
    time(t, 'used_at').nullable();
    time(t, 'created_at').notNullable();
    t.index(['actor_type', 'actor_id']);
  });
  /** A prospective business customer's request, for the operator to accept or decline. */
  await knex.schema.createTable('b2b_account_requests', (t) => {
    id(t).primary();
    id(t, 'sales_channel_id').notNullable();
    t.string('status', 16).notNullable();
    t.string('company', 255).notNullable();
    t.string('first_name', 255).notNullable();
    t.string('last_name', 255).notNullable();
    t.string('email', 255).notNullable();
    t.string('phone', 64).nullable();
    t.string('vat_id', 64).nullable();
    t.text('address', 'longtext').nullable();
    t.text('message').nullable();
    id(t, 'customer_id').nullable();
    t.string('decision_comment', 1024).nullable();
    time(t, 'decided_at').nullable();
    stamps(t);
    t.index(['status', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'b2b_account_requests',
    'b2b_login_tokens',
    'b2b_employee_invitations',
    'b2b_employee_customers',
    'b2b_employee_roles',
    'b2b_employees',
  ])
    await knex.schema.dropTableIfExists(table);
}
