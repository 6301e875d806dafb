import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { DEFAULT_DATABASE_URL, DEFAULT_DB_TIMEOUTS, parseDatabaseUrl, type DbTimeouts } from '../lib/db.js';

export interface HostConfig {
  port: number;
  databaseUrl: string;
  appSecret: string;
  publicUrl: string;
  mailerUrl: string | null;
  adminClientId: string | null;
  adminClientSecret: string | null;
  logLevel: string;
  varDir: string;
  /** Run job workers in this process (off for processes that only serve requests). */
  workers: boolean;
  /** Hold handlers to their response schemas (tests). */
  validateResponses: boolean;
  /** Store API context token lifetime in seconds. */
  contextTokenTtl: number;
  adminTokenTtl: number;
  /** How long a product listing's total may be reused for the same visibility version, rule set and filters (0: never). */
  listingTotalCacheSeconds: number;
  /** Connect, pool acquire and statement limits: a silent database answers 503, never a hang. */
  dbTimeouts: DbTimeouts;
  /** Bearer token that opens /metrics; without it /metrics is off. */
  metricsToken: string | null;
  /** After SIGTERM, /health/ready answers 503 this long before the listener closes (load balancers notice). */
  shutdownReadyDelayMs: number;
  /** After SIGTERM, the process exits at the latest this long after the signal. */
  shutdownGraceMs: number;
}

function millis(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a whole number of milliseconds (got "${raw}")`);
  return value;
}

/**
 * Reads the environment (documented in the README). On the embedded SQLite default, APP_SECRET is
 * generated once and kept under var/, so `npm start` needs nothing; elsewhere it is required.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<HostConfig> = {}): HostConfig {
  const varDir = resolve(overrides.varDir ?? env.VAR_DIR ?? 'var');
  const databaseUrl = overrides.databaseUrl ?? env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const target = parseDatabaseUrl(databaseUrl);
  let appSecret = overrides.appSecret ?? env.APP_SECRET ?? '';
  if (!appSecret) {
    if (target.dialect !== 'sqlite')
      throw new Error('APP_SECRET is required when DATABASE_URL is not the embedded SQLite database');
    mkdirSync(varDir, { recursive: true });
    const file = join(varDir, 'app-secret');
    if (!existsSync(file)) writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
    appSecret = readFileSync(file, 'utf8').trim();
  }
  if (appSecret.length < 32) throw new Error('APP_SECRET must be at least 32 characters');
  const port = Number(overrides.port ?? env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number (got "${env.PORT}")`);
  return {
    port,
    databaseUrl,
    appSecret,
    publicUrl: (overrides.publicUrl ?? env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    mailerUrl: overrides.mailerUrl !== undefined ? overrides.mailerUrl : (env.MAILER_URL ?? null),
    adminClientId: overrides.adminClientId ?? env.ADMIN_CLIENT_ID ?? null,
    adminClientSecret: overrides.adminClientSecret ?? env.ADMIN_CLIENT_SECRET ?? null,
    logLevel: overrides.logLevel ?? env.LOG_LEVEL ?? 'info',
    varDir,
    workers: overrides.workers ?? env.WORKERS !== '0',
    validateResponses: overrides.validateResponses ?? env.VALIDATE_RESPONSES === '1',
    contextTokenTtl: overrides.contextTokenTtl ?? 7 * 24 * 3600,
    adminTokenTtl: overrides.adminTokenTtl ?? 600,
    listingTotalCacheSeconds: overrides.listingTotalCacheSeconds ?? Number(env.LISTING_TOTAL_CACHE_SECONDS ?? 10),
    dbTimeouts: overrides.dbTimeouts ?? {
      connectMs: millis(env, 'DB_CONNECT_TIMEOUT_MS', DEFAULT_DB_TIMEOUTS.connectMs),
      acquireMs: millis(env, 'DB_ACQUIRE_TIMEOUT_MS', DEFAULT_DB_TIMEOUTS.acquireMs),
      statementMs: millis(env, 'DB_STATEMENT_TIMEOUT_MS', DEFAULT_DB_TIMEOUTS.statementMs),
    },
    metricsToken: overrides.metricsToken !== undefined ? overrides.metricsToken : env.METRICS_TOKEN || null,
    shutdownReadyDelayMs: overrides.shutdownReadyDelayMs ?? millis(env, 'SHUTDOWN_READY_DELAY_MS', 5000),
    shutdownGraceMs: overrides.shutdownGraceMs ?? millis(env, 'SHUTDOWN_GRACE_MS', 25000),
  };
}
