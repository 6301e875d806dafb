import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../../lib/db.js';
import { nowDb } from '../../lib/time.js';
import { routePatternOf } from './request-log.js';
import { withDeadline } from '../../lib/deadline.js';

/** A scrape's database queries give up after this long; the gauges then keep their last values and `suite_database_up` is 0. */
const SCRAPE_DB_DEADLINE_MS = 1000;

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

export interface AppMetrics {
  /** Records a finished request's duration by method, route pattern and status (called by the request logger). */
  observe(req: Request, res: Response, seconds: number): void;
  /** GET /metrics: off without METRICS_TOKEN, otherwise `Authorization: Bearer <METRICS_TOKEN>`. */
  endpoint: RequestHandler;
  registry: Registry;
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Prometheus metrics of one app (its own registry, so several apps in one process do not mix). */
export function createMetrics(db: Db, metricsToken: string | null): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'suite_' });
  const requestDuration = new Histogram({
    name: 'suite_http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const pool = () => (db.client as unknown as { pool?: TarnPool }).pool;
  new Gauge({
    name: 'suite_db_pool_connections_in_use',
    help: 'Database connections lent out by the pool',
    registers: [registry],
    collect() {
      this.set(pool()?.numUsed() ?? 0);
    },
  });
  new Gauge({
    name: 'suite_db_pool_connections_idle',
    help: 'Open database connections waiting in the pool',
    registers: [registry],
    collect() {
      this.set(pool()?.numFree() ?? 0);
    },
  });
  new Gauge({
    name: 'suite_db_pool_acquires_waiting',
    help: 'Requests waiting for a database connection',
    registers: [registry],
    collect() {
      this.set(pool()?.numPendingAcquires() ?? 0);
    },
  });
  const databaseUp = new Gauge({
    name: 'suite_database_up',
    help: '1 when the database answered this scrape within 1 s, else 0',
    registers: [registry],
  });
  const jobs = new Gauge({
    name: 'suite_jobs',
    help: 'Rows of the job queue by state (queued = depth, failed = gave up after all attempts)',
    labelNames: ['state'],
    registers: [registry],
  });
  const jobsDue = new Gauge({
    name: 'suite_job_queue_due',
    help: 'Queued jobs whose time has come (waiting for a worker)',
    registers: [registry],
  });
  const outbox = new Gauge({
    name: 'suite_mail_outbox',
    help: 'Rows of the mail outbox by state (queued + sending = depth)',
    labelNames: ['state'],
    registers: [registry],
  });

  async function refreshDatabaseGauges(): Promise<void> {
    try {
      const [jobRows, dueRow, mailRows] = await withDeadline(
        Promise.all([
          db('jobs').select('state').count({ n: '*' }).groupBy('state'),
          db('jobs').where('state', 'queued').where('run_at', '<=', nowDb()).count({ n: '*' }).first(),
          db('mail_outbox').select('state').count({ n: '*' }).groupBy('state'),
        ]),
        SCRAPE_DB_DEADLINE_MS,
      );
      for (const state of ['queued', 'running', 'done', 'failed']) jobs.set({ state }, 0);
      for (const row of jobRows as Array<{ state: string; n: number | string }>)
        jobs.set({ state: row.state }, Number(row.n));
      jobsDue.set(Number(dueRow?.n ?? 0));
      for (const state of ['queued', 'sending', 'sent', 'failed']) outbox.set({ state }, 0);
      for (const row of mailRows as Array<{ state: string; n: number | string }>)
        outbox.set({ state: row.state }, Number(row.n));
      databaseUp.set(1);
    } catch {
      databaseUp.set(0);
    }
  }

  return {
    registry,
    observe(req: Request, res: Response, seconds: number) {
      requestDuration.observe(
        { method: req.method, route: routePatternOf(req, res), status: String(res.statusCode) },
        seconds,
      );
    },
    async endpoint(req: Request, res: Response, next) {
      if (!metricsToken) return next();
      const auth = req.get('authorization') ?? '';
      if (!auth.startsWith('Bearer ') || !sameSecret(auth.slice('Bearer '.length), metricsToken)) {
        res.status(401).set('WWW-Authenticate', 'Bearer').type('text').send('A valid metrics token is required.\n');
        return;
      }
      await refreshDatabaseGauges();
      res.type(registry.contentType).send(await registry.metrics());
    },
  };
}
