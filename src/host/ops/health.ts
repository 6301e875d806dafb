import express, { type Router } from 'express';
import { DB_RETRY_AFTER_SECONDS, type Db } from '../../lib/db.js';
import { pendingMigrations, type MigrationSet } from '../../host-kit/migrator.js';
import { withDeadline } from '../../lib/deadline.js';

/** Readiness fails when the database has not answered within this long. */
export const READY_DB_DEADLINE_MS = 1000;

export interface Health {
  /** /health/live, /health/ready and /health (= ready). */
  router: Router;
  /** From now on ready answers 503, so load balancers stop sending before the listener closes. */
  startDraining(): void;
  readonly draining: boolean;
}

type CheckResult = 'ok' | 'unreachable' | 'pending' | 'draining' | 'skipped';

/**
 * Probes for load balancers and orchestrators. Live: the process runs and its event loop answers
 * (never touches the database, so an outage does not get the process restarted). Ready: not draining,
 * the database answers `SELECT 1` within 1 s, and every migration this code knows has run (checked
 * until it is so once).
 */
export function createHealth(db: Db, migrationSets: MigrationSet[]): Health {
  let draining = false;
  const router = express.Router();
  // A migration that has run stays run: once a set is current, readiness stops reading its folder and
  // table on every probe (that cost /health more than its SELECT 1), and checks only the database.
  const current = new Set<MigrationSet>();

  async function readiness(): Promise<{ ready: boolean; checks: Record<string, CheckResult> }> {
    if (draining) return { ready: false, checks: { shutdown: 'draining', database: 'skipped', migrations: 'skipped' } };
    let database: CheckResult = 'ok';
    let migrations: CheckResult = 'ok';
    try {
      await withDeadline(
        (async () => {
          await db.raw('select 1');
          for (const set of migrationSets) {
            if (current.has(set)) continue;
            if ((await pendingMigrations(db, set)).length > 0) migrations = 'pending';
            else current.add(set);
          }
        })(),
        READY_DB_DEADLINE_MS,
      );
    } catch {
      database = 'unreachable';
      migrations = 'skipped';
    }
    return { ready: database === 'ok' && migrations === 'ok', checks: { shutdown: 'ok', database, migrations } };
  }

  router.get('/health/live', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  // Probes that arrive while a check runs share its answer: a burst of probes costs one SELECT 1.
  let running: ReturnType<typeof readiness> | null = null;
  const sharedReadiness = () =>
    (running ??= readiness().finally(() => {
      running = null;
    }));

  router.get(['/health/ready', '/health'], async (_req, res) => {
    const { ready, checks } = draining ? await readiness() : await sharedReadiness();
    res.set('Cache-Control', 'no-store');
    if (!ready) res.status(503).set('Retry-After', String(DB_RETRY_AFTER_SECONDS));
    res.json({ status: ready ? 'ok' : 'unavailable', checks });
  });

  return {
    router,
    startDraining() {
      draining = true;
    },
    get draining() {
      return draining;
    },
  };
}
