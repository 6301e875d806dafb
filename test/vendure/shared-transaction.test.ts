import { expect } from 'chai';
import { RequestContext, TransactionalConnection } from '@vendure/core';
import { TRANSACTION_MANAGER_KEY } from '@vendure/core/dist/common/constants.js';
import { DataSource } from 'typeorm';

/**
 * src/adapters/vendure/shared-transaction.ts is the adapter's one patch of Vendure's internals
 * (Vendure offers no supported way to run its services inside another connection's transaction). It
 * relies on the shapes below; this test fails when the installed Vendure (peerDependencies: the
 * tested range) or its TypeORM changes one of them.
 */
describe("Vendure: the shapes shared-transaction.ts relies on (Vendure's transaction manager key, TypeORM's query runners)", () => {
  it("Vendure's TransactionalConnection takes a request context's transaction manager from TRANSACTION_MANAGER_KEY", () => {
    expect(typeof TRANSACTION_MANAGER_KEY).to.equal('symbol');
    const ctx = RequestContext.empty();
    const manager = { marker: 'the plugin transaction' };
    (ctx as unknown as Record<symbol, unknown>)[TRANSACTION_MANAGER_KEY] = manager;
    const connection = Object.create(TransactionalConnection.prototype) as {
      getTransactionManager(ctx: RequestContext): unknown;
    };
    expect(connection.getTransactionManager(ctx)).to.equal(manager);
    // copy() keeps it (the adapter copies its base context before setting the key; Vendure copies contexts too).
    expect(connection.getTransactionManager(ctx.copy())).to.equal(manager);
  });

  for (const options of [
    { type: 'better-sqlite3' as const, database: ':memory:' },
    { type: 'mariadb' as const, host: '127.0.0.1', username: 'root', database: 'unused' },
    { type: 'postgres' as const, host: '127.0.0.1', username: 'postgres', database: 'unused' },
  ])
    it(`TypeORM's ${options.type} query runner has the fields and methods the patch sets`, async () => {
      const source = new DataSource(options);
      const created = source.driver.createQueryRunner('master') as unknown as Record<string, unknown> & {
        constructor: new (driver: unknown) => Record<string, unknown>;
      };
      const runner = options.type === 'better-sqlite3' ? new created.constructor(source.driver) : created;
      expect(runner.isTransactionActive, 'isTransactionActive').to.equal(false);
      expect(runner.transactionDepth, 'transactionDepth').to.equal(0);
      expect(runner.isReleased, 'isReleased').to.equal(false);
      expect(runner.connect, 'connect').to.be.a('function');
      expect(runner.release, 'release').to.be.a('function');
      expect((runner.broadcaster as { broadcast?: unknown }).broadcast, 'broadcaster.broadcast').to.be.a('function');
      expect(source.createEntityManager(runner as never).queryRunner).to.equal(runner);
      if (options.type !== 'better-sqlite3') {
        // A runner given a connection before it connected uses it (the knex transaction's).
        const held = { held: true };
        runner.databaseConnection = held;
        expect(await (runner.connect as () => Promise<unknown>)()).to.equal(held);
      }
    });
});
