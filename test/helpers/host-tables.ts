import { createDb } from '../../src/lib/db.js';
import { HOST_MIGRATIONS, migrateFolder } from '../../src/host-kit/migrator.js';

let tables: Promise<ReadonlySet<string>> | null = null;

/**
 * The host's tables, as the host migrations create them: they run on an in-memory SQLite database
 * (a few milliseconds), so helpers, loops and later renames in the migrations are all accounted for.
 */
export function hostTableNames(): Promise<ReadonlySet<string>> {
  tables ??= (async () => {
    const db = createDb('sqlite::memory:');
    try {
      await migrateFolder(db, HOST_MIGRATIONS, 'knex_migrations');
      const names = (await db('sqlite_master').where({ type: 'table' }).pluck('name')) as string[];
      return new Set(names.filter((name) => !name.startsWith('sqlite_') && !name.startsWith('knex_migrations')));
    } finally {
      await db.destroy();
    }
  })();
  return tables;
}
