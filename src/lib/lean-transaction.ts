import makeKnex from 'knex/lib/knex-builder/make-knex.js';

/**
 * Top-level transactions without knex's per-transaction machinery. For every transaction knex
 * builds a full knex instance (a hundred properties defined one by one), a client with four event
 * forwarders, and sends BEGIN, COMMIT and each statement through a chain of promises per step:
 * on SQLite about 60 µs per transaction where BEGIN and COMMIT take 10, on MariaDB about 150 µs
 * of the app's CPU — a tenth of a cart add. A LeanTransaction holds one pooled connection, runs
 * BEGIN/COMMIT/ROLLBACK on it through its dialect, and hands the work a transactor that inherits
 * knex's methods from one template per client and has only its own context (client, user params).
 *
 * What the work sees is knex's transactor: `trx(table)`, `trx.raw`, `isTransaction`,
 * `isCompleted()`, `commit()`/`rollback()`, `executionPromise`, and `trx.transaction()` opening a
 * knex savepoint on the same connection. The query events reach the root knex as knex's forwarders
 * send them (statement counts in tests, the plugin query guard); a statement on a transaction that
 * has ended is refused as knex refuses it; a work that returns no promise ends the transaction
 * itself with commit() or rollback(). Nested transactions, transactions on a given connection
 * and those with options (isolation level, read-only, SQLite's foreign-key pragma) stay knex's.
 */

/** How a dialect runs the control statements on the transaction's connection. */
export interface LeanTransactionDialect<Connection> {
  /** BEGIN;, COMMIT; or ROLLBACK, with the query event knex would send. */
  control(client: TransactionClient<Connection>, connection: Connection, sql: string): Promise<unknown> | void;
  /** Whether the connection may still be inside the transaction (SQLite knows; a server connection is assumed to be). */
  mayBeInTransaction(connection: Connection): boolean;
  /** A connection that could not be rolled back is never lent again. */
  discard(connection: Connection, error: unknown): void;
}

export interface TransactionConfig {
  userParams?: Record<string, unknown>;
  doNotRejectOnRollback?: boolean;
  connection?: unknown;
  enforceForeignCheck?: boolean | null;
  isolationLevel?: string;
  readOnly?: boolean;
}

/** The knex client a transaction starts from (its pool, its query path and its event listeners). */
export interface RootClient<Connection> {
  transacting?: boolean;
  acquireConnection(): Promise<Connection>;
  releaseConnection(connection: Connection): Promise<unknown>;
  query(connection: Connection, obj: unknown): Promise<unknown>;
  listenerCount(event: string): number;
  emit(event: string, ...args: unknown[]): boolean;
}

/** The transaction's client: the root client with the transaction's connection. */
export type TransactionClient<Connection> = RootClient<Connection> & { transacting: true; [IN_TRANSACTION]: LeanTransaction<Connection> };

/** A knex instance (a function with knex's methods and a `context`) that transactors inherit from. */
type TransactorTemplate = ((...args: unknown[]) => unknown) & { context: object };

const TRANSACTOR_TEMPLATE = Symbol('transactor template');
const IN_TRANSACTION = Symbol('lean transaction');

/** Whether knex's own Transaction must run this one (see the module comment). */
export function isLeanTransaction(client: { transacting?: boolean }, container: unknown, config: TransactionConfig | undefined, outerTx: unknown): boolean {
  if (typeof container !== 'function' || outerTx || client.transacting) return false;
  return !config || (!config.connection && config.enforceForeignCheck == null && !config.isolationLevel && !config.readOnly);
}

/** The lean transaction a client (or a transactor's client) belongs to, if any. */
export function leanTransactionOf<Connection>(client: object): LeanTransaction<Connection> | undefined {
  return (client as { [IN_TRANSACTION]?: LeanTransaction<Connection> })[IN_TRANSACTION];
}

export function completedTransactionError(): Error {
  return new Error('Transaction query already complete, run with DEBUG=knex:tx for more info');
}

/** Runs `container` in a lean transaction of `root` (the root client's `transaction()` when isLeanTransaction). */
export async function runLeanTransaction<Connection>(
  root: RootClient<Connection>,
  dialect: LeanTransactionDialect<Connection>,
  container: (trx: unknown) => unknown,
  config: TransactionConfig = {},
): Promise<unknown> {
  const template = ((root as { [TRANSACTOR_TEMPLATE]?: TransactorTemplate })[TRANSACTOR_TEMPLATE] ??= transactorTemplate(root));
  const connection = await root.acquireConnection();
  try {
    const transaction = new LeanTransaction(root, dialect, template, connection, config.userParams ?? {}, config.doNotRejectOnRollback ?? true);
    await transaction.begin();
    let result: unknown;
    try {
      result = container(transaction.transactor);
      if (!isThenable(result)) return await transaction.execution;
      result = await result;
    } catch (error) {
      if (transaction.completed) throw error;
      await transaction.rollback(error);
      throw error;
    }
    // An explicit commit() or rollback() in the container decided already.
    if (transaction.completed) return await transaction.execution;
    await transaction.commit(result);
    return result;
  } finally {
    await root.releaseConnection(connection);
  }
}

type Outcome = { value: unknown } | { error: unknown };

interface Settled {
  promise: Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

function settled(): Settled {
  let resolve!: (value: unknown) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Nobody need wait for it: a rollback must not become an unhandled rejection.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

let transactionIds = 0;

export class LeanTransaction<Connection> {
  completed = false;
  readonly id = `lean-trx${++transactionIds}`;
  readonly client: TransactionClient<Connection>;
  readonly transactor: TransactorTemplate;
  /** knex's nested transactions (savepoints) queue on their outer transaction's last child. */
  _lastChild: Promise<unknown> = Promise.resolve();
  private ended: Settled | null = null;
  private outcome: Outcome | null = null;

  constructor(
    root: RootClient<Connection>,
    private readonly dialect: LeanTransactionDialect<Connection>,
    template: TransactorTemplate,
    readonly connection: Connection,
    userParams: Record<string, unknown>,
    private readonly doNotRejectOnRollback: boolean,
  ) {
    this.client = transactionClient(root, this);
    this.transactor = transactorOf(template, this, userParams);
  }

  isCompleted(): boolean {
    return this.completed;
  }

  /** Settles with the transaction: the committed value, or the rollback's error (knex's `executionPromise`). */
  get execution(): Promise<unknown> {
    if (!this.ended) {
      this.ended = settled();
      if (this.outcome) this.settle(this.outcome);
    }
    return this.ended.promise;
  }

  async begin(): Promise<void> {
    await this.dialect.control(this.client, this.connection, 'BEGIN;');
  }

  /** COMMIT; a COMMIT that fails rolls back and throws (knex would leave the transaction open). */
  async commit(value: unknown): Promise<void> {
    if (this.completed) return;
    this.completed = true;
    try {
      await this.dialect.control(this.client, this.connection, 'COMMIT;');
    } catch (error) {
      await this.abandon();
      this.settle({ error });
      throw error;
    }
    this.settle({ value });
  }

  /** ROLLBACK, unless the database rolled back already (some errors end the transaction themselves). */
  async rollback(error: unknown): Promise<void> {
    if (this.completed) return;
    this.completed = true;
    await this.abandon();
    if (error === undefined && this.doNotRejectOnRollback) this.settle({ value: undefined });
    else this.settle({ error: error ?? new Error('Transaction rejected with non-error: undefined') });
  }

  private settle(outcome: Outcome): void {
    this.outcome = outcome;
    if (!this.ended) return;
    if ('error' in outcome) this.ended.reject(outcome.error);
    else this.ended.resolve(outcome.value);
  }

  private async abandon(): Promise<void> {
    if (!this.dialect.mayBeInTransaction(this.connection)) return;
    try {
      await this.dialect.control(this.client, this.connection, 'ROLLBACK');
    } catch (error) {
      if (this.dialect.mayBeInTransaction(this.connection)) this.dialect.discard(this.connection, error);
    }
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * The root client with the transaction's connection. It inherits the root's event listeners, so
 * the transaction's query events reach the root knex as knex's forwarders would send them.
 */
function transactionClient<Connection>(root: RootClient<Connection>, transaction: LeanTransaction<Connection>): TransactionClient<Connection> {
  const client = Object.create(root) as TransactionClient<Connection>;
  const connection = transaction.connection;
  client.transacting = true;
  client[IN_TRANSACTION] = transaction;
  client.acquireConnection = () => Promise.resolve(connection);
  client.releaseConnection = () => Promise.resolve();
  // knex's runner path: every statement on MySQL/MariaDB; on SQLite statement lists, timeouts, savepoints.
  client.query = (conn, obj) => {
    if (transaction.completed) return Promise.reject(completedTransactionError());
    if (conn !== connection) return Promise.reject(new Error('Invalid connection for transaction query.'));
    return root.query.call(client, conn, obj);
  };
  return client;
}

/**
 * A knex instance for transactors to inherit from: its query methods and accessors read
 * `this.context`, which each transactor has of its own (its client, user params, savepoints).
 */
function transactorTemplate(root: object): TransactorTemplate {
  // A client of its own for the template's event wiring (makeKnex adds listeners to it), never for statements.
  const wiring = Object.create(root, { _events: { value: Object.create(null) as object, writable: true }, _eventsCount: { value: 0, writable: true } }) as object;
  const template = makeKnex(wiring) as TransactorTemplate;
  const own = (trx: unknown) => (trx as { [IN_TRANSACTION]: LeanTransaction<unknown> })[IN_TRANSACTION];
  Object.defineProperties(template, {
    isTransaction: { value: true },
    commit: {
      async value(this: unknown, value?: unknown) {
        await own(this).commit(value);
        return value;
      },
    },
    rollback: {
      async value(this: unknown, error?: unknown) {
        await own(this).rollback(error);
      },
    },
    savepoint: {
      value(this: { transaction(container: unknown, options: unknown): unknown }, container: unknown, options?: unknown) {
        return this.transaction(container, options);
      },
    },
    isCompleted: {
      value(this: unknown) {
        return own(this).completed;
      },
    },
    executionPromise: {
      get(this: unknown) {
        return own(this).execution;
      },
    },
  });
  (template.context as Record<string, unknown>).withUserParams = () => {
    throw new Error('Cannot set user params on a transaction - it can only inherit params from main knex instance');
  };
  return template;
}

function transactorOf<Connection>(template: TransactorTemplate, transaction: LeanTransaction<Connection>, userParams: Record<string, unknown>): TransactorTemplate {
  const context = Object.create(template.context) as {
    client: TransactionClient<Connection>;
    userParams: Record<string, unknown>;
    queryBuilder(): { table(name: string, options?: unknown): unknown };
    transaction(container: unknown, options?: { doNotRejectOnRollback?: boolean }): unknown;
    _transaction(container: unknown, options: unknown, outerTx: unknown): unknown;
  };
  context.client = transaction.client;
  context.userParams = userParams;
  // knex's savepoint, on this transaction's client and connection, queued after its earlier ones.
  context.transaction = function (container, options = {}) {
    return this._transaction(container, { ...options, doNotRejectOnRollback: options.doNotRejectOnRollback ?? true }, transaction);
  };
  const transactor = function (tableName?: string, options?: unknown) {
    const builder = context.queryBuilder();
    return tableName ? builder.table(tableName, options) : builder;
  } as unknown as TransactorTemplate & { [IN_TRANSACTION]: LeanTransaction<Connection>; _events: unknown; _eventsCount: number };
  Object.setPrototypeOf(transactor, template);
  transactor.context = context;
  transactor[IN_TRANSACTION] = transaction;
  // Listeners on a transactor are its own, not the template's.
  transactor._events = undefined;
  transactor._eventsCount = 0;
  return transactor;
}
