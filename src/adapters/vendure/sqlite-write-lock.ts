import type { DataSource, EntitySubscriberInterface, TransactionStartEvent } from 'typeorm';

/** One of the adapter's own tables (migrations/vendure), there before Vendure's DataSource starts. */
const LOCK_TABLE = 'suite_host_migrations';

/**
 * On SQLite Vendure's TypeORM connection and the plugin's knex are two connections on one WAL file.
 * Vendure's transactions read, then write; begun deferred (TypeORM's `BEGIN TRANSACTION`), such a
 * transaction fails at once ("database is locked": SQLite's snapshot rule, no busy wait) when the
 * plugin's connection wrote in between (the job worker sending mail, a Store API write).
 *
 * This TypeORM subscriber (`afterTransactionStart`, TypeORM's public transaction events; added to the
 * DataSource's `subscribers` as Vendure adds its own TransactionSubscriber) takes the write lock as the first statement of each of Vendure's
 * transactions: a write that changes nothing on the adapter's own table. Taken before any read, it
 * waits for the lock under the connection's `busy_timeout`, as `BEGIN IMMEDIATE` does (decision
 * 0057; it replaced a rewrite of better-sqlite3's `prepare`). A lock not had within the busy timeout
 * leaves the transaction deferred, as TypeORM began it.
 */
export class SqliteWriteLockAtBegin implements EntitySubscriberInterface {
  async afterTransactionStart(event: TransactionStartEvent): Promise<void> {
    try {
      await event.queryRunner.query(`DELETE FROM ${LOCK_TABLE} WHERE 1 = 0`);
    } catch {
      // busy past the timeout: the transaction goes on deferred (TypeORM's own behaviour)
    }
  }
}

/** Adds the subscriber to Vendure's DataSource on SQLite (better-sqlite3), once; other databases wait for row locks. */
export function takeWriteLockAtBegin(dataSource: DataSource): void {
  if (dataSource.options.type !== 'better-sqlite3') return;
  if (dataSource.subscribers.some((subscriber) => subscriber instanceof SqliteWriteLockAtBegin)) return;
  dataSource.subscribers.push(new SqliteWriteLockAtBegin());
}
