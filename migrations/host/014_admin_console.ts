import type { Knex } from 'knex';
import { dateTime, idColumn } from '../../src/lib/migration-helpers.js';

/**
 * The operator's console (/b2b-admin): an admin user's role and the console's cookie
 * sessions. `admin_users.read_only`: a read-only operator sees every console page but every change
 * is refused (the Admin API's bearer tokens are not affected: the role is the console's). A session
 * row is found by the SHA-256 of the cookie's random token (the token itself is never stored) and
 * holds the session's CSRF token; logging out deletes it, deleting the admin user deletes it too.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('admin_users', (t) => {
    t.boolean('read_only').notNullable().defaultTo(false);
  });
  await knex.schema.createTable('admin_console_sessions', (t) => {
    idColumn(t).primary();
    t.string('token_hash', 64).notNullable().unique();
    idColumn(t, 'admin_user_id').notNullable().references('id').inTable('admin_users').onDelete('CASCADE');
    t.string('csrf_token', 64).notNullable();
    dateTime(t, 'created_at').notNullable();
    dateTime(t, 'expires_at').notNullable();
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('admin_console_sessions');
  await knex.schema.alterTable('admin_users', (t) => {
    t.dropColumn('read_only');
  });
}
