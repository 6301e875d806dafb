import { mkdirSync, rmSync } from 'node:fs';
import knexFactory from 'knex';
import { parseDatabaseUrl } from '../../src/lib/db.js';
import { projectPath } from '../../src/host-kit/paths.js';

/**
 * The test database: a fresh SQLite file per run, or a fresh `<db>_suite_test_<pid>` database on the
 * MySQL/MariaDB or PostgreSQL server DATABASE_URL names (the named database itself is never touched).
 */
export async function prepareTestDatabase(): Promise<string> {
  return prepareDatabase('');
}

/** Another empty database of this test process beside the test database (migration tests); remove it with cleanupTestDatabase. */
export async function prepareScratchDatabase(label: string): Promise<string> {
  return prepareDatabase(`_${label}`);
}

async function prepareDatabase(nameSuffix: string): Promise<string> {
  const url = process.env.DATABASE_URL;
  if (!url || parseDatabaseUrl(url).dialect === 'sqlite') {
    const dir = projectPath('var', 'test');
    mkdirSync(dir, { recursive: true });
    const file = `${dir}/suite-${process.pid}${nameSuffix}.sqlite`;
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    return `sqlite:${file}`;
  }
  const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
  // One database per test process, so parallel runs on one server never clobber each other.
  const testDb = `${parsed.pathname.replace(/^\//, '') || 'suite'}_suite_test_${process.pid}${nameSuffix}`;
  const admin = serverAdmin(parsed);
  if (parseDatabaseUrl(url).dialect === 'postgres') {
    await admin.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [testDb]);
    await admin.raw("CREATE DATABASE ?? ENCODING 'UTF8' TEMPLATE template0", [testDb]);
    // A test database need not survive a crash: commits return before the WAL reaches the disk.
    await admin.raw('ALTER DATABASE ?? SET synchronous_commit = off', [testDb]);
  } else {
    await admin.raw(`DROP DATABASE IF EXISTS \`${testDb}\``);
    await admin.raw(`CREATE DATABASE \`${testDb}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  }
  await admin.destroy();
  parsed.pathname = `/${testDb}`;
  return parsed.toString();
}

/** A connection to the server without a database of ours (PostgreSQL: its maintenance database `postgres`). */
function serverAdmin(parsed: URL) {
  const postgres = parsed.protocol === 'postgres:' || parsed.protocol === 'postgresql:';
  return knexFactory({
    client: postgres ? 'pg' : 'mysql2',
    connection: {
      host: parsed.hostname,
      port: Number(parsed.port || (postgres ? 5432 : 3306)),
      user: decodeURIComponent(parsed.username),
      password: decodeURIComponent(parsed.password),
      ...(postgres ? { database: 'postgres' } : {}),
    },
  });
}

export async function cleanupTestDatabase(url: string): Promise<void> {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    return;
  }
  const parsed = new URL(url);
  const testDb = parsed.pathname.replace(/^\//, '');
  const admin = serverAdmin(parsed);
  if (parseDatabaseUrl(url).dialect === 'postgres')
    await admin.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [testDb]);
  else await admin.raw(`DROP DATABASE IF EXISTS \`${testDb}\``);
  await admin.destroy();
}

/**
 * The statement and lock-wait limit of the test apps (the shared app, app processes, Vendure shops): the
 * concurrency tests queue 20–40 requests on one row lock on a 2-core machine that runs four test processes,
 * where a 3 s wait (the default) can run out and answer 503; the outage tests start apps of their own with the
 * default.
 */
export const CONCURRENCY_STATEMENT_MS = 15000;
