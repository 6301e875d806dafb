import type { RequestContext, TransactionalConnection } from '@vendure/core';
import { TRANSACTION_MANAGER_KEY } from '@vendure/core/dist/common/constants.js';
import { connectionHeldBy, type Trx } from '../../lib/db.js';

/** Where a Vendure RequestContext keeps its transaction's entity manager (events.ts reads it too). */
export { TRANSACTION_MANAGER_KEY };

type DataSource = TransactionalConnection['rawConnection'];
type QueryRunner = ReturnType<DataSource['createQueryRunner']>;

/** The parts of TypeORM's query runners that are protected in its typings and set here. */
interface OpenRunner {
  isTransactionActive: boolean;
  transactionDepth: number;
  isReleased: boolean;
  databaseConnection: unknown;
  manager: QueryRunner['manager'];
  connect(): Promise<unknown>;
  release(): Promise<void>;
  broadcaster: { broadcast(event: 'AfterTransactionCommit' | 'AfterTransactionRollback'): Promise<void> };
}

/**
 * The adapter's one patch of Vendure internals (Vendure offers no supported way to run its services
 * in another connection's transaction): the only import from `@vendure/core/dist` and the only writes
 * to protected TypeORM fields. test/vendure/shared-transaction.test.ts fails when the shapes relied
 * on change; package.json's peerDependencies name the Vendure range it was tested with.
 *
 * A Vendure RequestContext whose database work joins the plugin's open transaction: a TypeORM query
 * runner of Vendure's own driver (better-sqlite3, mysql2 or pg; so Vendure's entities and SQL are Vendure's) on the connection
 * the knex transaction holds, marked as inside a transaction already, so Vendure's own
 * `withTransaction` becomes a savepoint. Vendure's services (OrderService …) then write through it,
 * and what they write commits or rolls back with the plugin's rows (an approval's claim, the
 * order-placed hooks) — one transaction, on SQLite (where a second writing connection would wait
 * for the plugin's lock), MariaDB and PostgreSQL alike.
 *
 * Vendure's EventBus holds the events published with this context until the runner's transaction
 * ends: they are let go once the knex transaction has committed (or are dropped on rollback), and
 * their subscribers then run on Vendure's own connection.
 */
export async function vendureContextInTransaction(
  connection: TransactionalConnection,
  base: RequestContext,
  trx: Trx,
): Promise<RequestContext> {
  const source = connection.rawConnection;
  const raw = await connectionHeldBy(trx);
  let runner: OpenRunner;
  const type = source.options.type;
  if (type === 'mariadb' || type === 'mysql' || type === 'postgres') {
    // A fresh runner that has not connected yet: it takes the transaction's connection as its own.
    runner = source.createQueryRunner('master') as unknown as OpenRunner;
    runner.databaseConnection = raw;
    // The connection goes back to knex's pool with the transaction, not to TypeORM's.
    runner.release = () => {
      runner.isReleased = true;
      return Promise.resolve();
    };
  } else if (type === 'better-sqlite3') {
    // TypeORM keeps one runner for SQLite; a second instance of its class runs on the knex handle.
    const RunnerClass = (
      source.driver.createQueryRunner('master') as unknown as { constructor: new (driver: unknown) => OpenRunner }
    ).constructor;
    runner = new RunnerClass(source.driver);
    runner.manager = source.createEntityManager(runner as unknown as QueryRunner);
    runner.connect = () => Promise.resolve(raw);
  } else {
    throw new Error(
      `Suite B2B on Vendure places orders on better-sqlite3, mariadb/mysql and postgres databases (got "${String(type)}")`,
    );
  }
  runner.isTransactionActive = true;
  runner.transactionDepth = 1;
  const end = async (event: 'AfterTransactionCommit' | 'AfterTransactionRollback') => {
    runner.isTransactionActive = false;
    runner.transactionDepth = 0;
    await runner.broadcaster.broadcast(event);
    await runner.release();
  };
  // (end() only flips flags and notifies Vendure's subscribers; the transaction's outcome is the caller's.)
  trx.executionPromise
    .then(
      () => end('AfterTransactionCommit'),
      () => end('AfterTransactionRollback'),
    )
    .catch(() => undefined);
  const ctx = base.copy();
  (ctx as unknown as Record<symbol, unknown>)[TRANSACTION_MANAGER_KEY] = runner.manager;
  return ctx;
}
