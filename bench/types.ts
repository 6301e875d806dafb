import type { Knex } from 'knex';

/** One request autocannon fires repeatedly. */
export interface BenchRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Bodies sent in turn instead of `body` (e.g. different products, so no cart line hits its quantity limit). */
  bodies?: string[];
  /** Headers of several callers (e.g. buyers' context tokens) sent in turn, on top of `headers`: concurrent requests then act for different callers. */
  callers?: Array<Record<string, string>>;
}

export interface BenchEnv {
  db: Knex;
  /** number of products / orders the run was asked for */
  size: { products: number; orders: number };
  /** the app's base URL (the server is already listening when `requests` is called) */
  baseUrl: string;
  /** logs in through the Store API and returns a context token */
  login(email: string, password: string): Promise<string>;
  /** an Admin API bearer token */
  adminToken(): Promise<string>;
}

/** The example Vendure shop (examples/vendure-shop) the Vendure scenarios run against, a separate process on its own database. */
export interface VendureBenchEnv {
  /** the shop's base URL (Shop API at /shop-api, the plugin's Store API at /store-api) */
  baseUrl: string;
  /** logs a customer in through Vendure's Shop API and returns the Vendure session token (bearer) */
  login(email: string, password: string): Promise<string>;
  /** logs the superadmin in through Vendure's Admin API and returns the session token (bearer) */
  adminLogin(): Promise<string>;
}

/** One side of a Vendure comparison: a request to the example shop and what runs before each of its fires. */
export interface VendureSide {
  label: string;
  request: BenchRequest;
  before?: () => Promise<void>;
}

/**
 * Two requests to the example Vendure shop fired in alternating rounds: the
 * plugin's cost inside Vendure as `measured`'s req/s over `against`'s (the median of the rounds'
 * ratios), with the target that ratio should reach. Named "vendure …" as well; BENCH_ONLY selects them too.
 */
export interface VendureComparison {
  name: string;
  target: number;
  sides(env: VendureBenchEnv): Promise<{ measured: VendureSide; against: VendureSide }>;
}

/**
 * A load scenario. `seed` runs before the servers start (bulk inserts, idempotent for a size);
 * `requests` gives the app request and the SQL the bare-express baseline runs for the same data.
 */
export interface BenchScenario {
  name: string;
  seed(env: Omit<BenchEnv, 'baseUrl' | 'login' | 'adminToken'>): Promise<void>;
  requests(env: BenchEnv): Promise<{ app: BenchRequest; baselineSql: Array<{ sql: string; bindings: unknown[] }> }>;
  /**
   * The same plugin route inside the example Vendure shop: the table then shows its req/s and the
   * ratio to the reference host's (`app`) measured in the same run.
   */
  vendure?(env: VendureBenchEnv): Promise<BenchRequest>;
}

export async function insertInBatches(
  db: Knex | Knex.Transaction,
  table: string,
  rows: Array<Record<string, unknown>>,
  batchSize = 500,
): Promise<void> {
  for (let i = 0; i < rows.length; i += batchSize) await db(table).insert(rows.slice(i, i + batchSize));
}
