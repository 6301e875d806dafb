import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { parseDatabaseUrl } from '../../lib/db.js';
import type { Logger } from '../../contract/index.js';

/** What a web process tells the primary once it listens: the port and the banner to print once. */
export interface ListeningMessage {
  type: 'suite:listening';
  port: number;
  banner: string[];
}

export function isListeningMessage(message: unknown): message is ListeningMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'suite:listening';
}

/**
 * How many web processes to run: WEB_CONCURRENCY, by default one per core on MySQL/MariaDB and one on
 * SQLite. SQLite is one file with one writer, so more than one process there is refused.
 */
export function webConcurrency(env: NodeJS.ProcessEnv, databaseUrl: string): number {
  const sqlite = parseDatabaseUrl(databaseUrl).dialect === 'sqlite';
  const raw = env.WEB_CONCURRENCY;
  if (raw === undefined || raw === '') return sqlite ? 1 : availableParallelism();
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`WEB_CONCURRENCY must be a whole number of processes, 1 or more (got "${raw}")`);
  if (sqlite && count > 1) {
    throw new Error(
      `WEB_CONCURRENCY=${count} needs MySQL/MariaDB: SQLite is single-process (set WEB_CONCURRENCY=1 or use a MariaDB DATABASE_URL)`,
    );
  }
  return count;
}

export interface ClusterOptions {
  processes: number;
  /** The primary exits at the latest this long after SIGTERM/SIGINT (the workers' own grace plus a margin). */
  graceMs: number;
  log: Logger;
  /** Receives the first web process's banner once all processes listen. */
  onListening(message: ListeningMessage): void;
  /** Back-off before restarting a crashed process: first delay, doubled per crash in a row, capped. */
  restartDelayMs?: { first: number; max: number };
  exit?: (code: number) => void;
}

/** A process that lived this long before crashing counts as healthy: the back-off starts over. */
const HEALTHY_AFTER_MS = 30000;

/**
 * The primary of cluster mode. It forks the web processes one after the other (the first one migrates
 * and seeds, the next ones find nothing to do, so they never race for the migration lock), prints the
 * banner once all listen, restarts a
 * process that dies with a growing delay (so a crash loop does not spin), and on SIGTERM/SIGINT passes
 * the signal on to every process, whose own graceful shutdown drains it, then exits 0 when all did.
 *
 * A process that dies before the first one listened is a startup failure (it printed why): the primary
 * exits 1 instead of restarting it.
 */
export function runClusterPrimary(options: ClusterOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const backoff = options.restartDelayMs ?? { first: 250, max: 30000 };
  const startedAt = new Map<Worker, number>();
  const listening = new Set<Worker>();
  let started = false;
  let firstListening: ListeningMessage | null = null;
  let stopping = false;
  let crashesInARow = 0;
  let failedExits = 0;

  const fork = (): Promise<Worker> =>
    new Promise((resolve) => {
      const worker = cluster.fork();
      startedAt.set(worker, Date.now());
      const onMessage = (message: unknown) => {
        if (!isListeningMessage(message)) return;
        worker.off('message', onMessage);
        listening.add(worker);
        options.log.info({ pid: worker.process.pid }, 'cluster: web process listens');
        if (!started) {
          started = true;
          firstListening = message;
        }
        resolve(worker);
      };
      worker.on('message', onMessage);
      // A worker that exits before it listens resolves too; the exit handler decides what that means.
      worker.once('exit', () => resolve(worker));
    });

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? Date.now());
    startedAt.delete(worker);
    const wasListening = listening.delete(worker);
    if (stopping) {
      // A process still starting when the signal came had no requests to finish: the signal just ends it.
      if (code !== 0 && wasListening) failedExits += 1;
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        options.log.info(
          { failedExits },
          failedExits === 0
            ? 'cluster: all processes shut down cleanly'
            : 'cluster: some processes did not shut down cleanly',
        );
        exit(failedExits === 0 ? 0 : 1);
      }
      return;
    }
    if (!started) {
      // Startup failed (port taken, database unreachable, bad configuration): the process said why.
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGKILL');
      exit(code === 0 || code === null ? 1 : code);
      return;
    }
    crashesInARow = lived >= HEALTHY_AFTER_MS ? 1 : crashesInARow + 1;
    const delay = Math.min(backoff.max, backoff.first * 2 ** (crashesInARow - 1));
    options.log.error(
      { pid: worker.process.pid, code, signal, livedMs: lived, restartInMs: delay },
      'cluster: a web process died; restarting it',
    );
    setTimeout(() => {
      if (!stopping) void fork();
    }, delay).unref();
  });

  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    options.log.info(
      { signal, processes: Object.keys(cluster.workers ?? {}).length },
      'cluster: passing the signal on to every web process',
    );
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    setTimeout(() => {
      options.log.error({ signal }, 'cluster: grace period over: killing the processes still running');
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      exit(1);
    }, options.graceMs).unref();
    if (Object.keys(cluster.workers ?? {}).length === 0) exit(0);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  void (async () => {
    for (let i = 0; i < options.processes && !stopping; i += 1) {
      // One that dies while starting is restarted by the exit handler (or ends the start-up, if it was the first).
      await fork();
    }
    if (stopping || !firstListening) return;
    const pids = Object.values(cluster.workers ?? {}).map((worker) => worker?.process.pid);
    options.log.info({ processes: options.processes, pids }, 'cluster: all web processes listen');
    options.onListening(firstListening);
  })();
}
