import { newId } from './ids.js';
import { classifyDbError, readJson, writeJson, type Db, type Executor } from './db.js';
import type { Knex } from 'knex';
import { addSeconds, fromDbTime, now as currentTime, nowDb, toDbTime } from './time.js';
import { claimRows, errorText, newWorkerId, retryDelaySeconds } from './job-claim.js';

/** Rows of jobs and job_schedules (migrations/host/004, 007) as the drivers return them. */
interface JobRow {
  id: string;
  name: string;
  payload: string;
  state: string;
  attempts: number | string;
  max_attempts: number | string;
}
interface JobScheduleRow {
  name: string;
  interval_seconds: number | string;
  next_run_at: string | Date;
}

export interface RunDueOptions {
  /**
   * 'all' (default): every schedule runs now, claimed as usual; 'due': only schedules whose time has
   * come (the poller).
   */
  schedules?: 'all' | 'due';
  /** Only these schedules (the mail sender for a test delivering its mail); the others do not run. */
  only?: string[];
}

/** One run of a job as its handler is given it (the contract's JobContext): `host` is what the host hands its plugins. */
export interface JobRun<Runtime> {
  name: string;
  /** The queued job's row id; null for a scheduled run. */
  id: string | null;
  /** From 1: the row's attempts, counting this claim; 1 for a scheduled run. */
  attempt: number;
  payload: Record<string, unknown>;
  host: Runtime;
}

/** A job's handler (the contract's JobHandler). */
export type JobWorkerHandler<Runtime> = (job: JobRun<Runtime>) => Promise<void>;

export interface JobWorkerOptions<Runtime> {
  db: Db;
  log: { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
  /** The queue and schedule tables (columns of migrations/host/004 + 007). */
  tables: { jobs: string; schedules: string };
  /** Handlers and schedules by job name (the host's registries; the worker adds 'jobs.cleanup'). */
  handlers: Map<string, JobWorkerHandler<Runtime>>;
  schedules: Map<string, number>;
  runtime(): Runtime;
  /**
   * Work done on every poll without a schedule row (a schedule's run is a write; an idle check of
   * an outbox is a read): where another connection's read-then-write transactions share an SQLite
   * file, fewer writes mean fewer of SQLite's immediate "database is locked" refusals.
   */
  onPoll?: () => Promise<unknown>;
}

export interface JobWorker<Runtime> {
  jobs: {
    register(name: string, handler: JobWorkerHandler<Runtime>): void;
    schedule(name: string, everySeconds: number): void;
    enqueue(
      executor: Executor,
      name: string,
      payload: Record<string, unknown>,
      options?: { runAt?: Date; uniqueKey?: string },
    ): Promise<void>;
  };
  /** Starts polling for due jobs and schedules in this process. */
  start(): void;
  /** Stops polling and waits for running handlers. */
  stop(): Promise<void>;
  /** Runs every due job once (tests, CLI); returns how many jobs and schedules ran. */
  runDue(options?: RunDueOptions): Promise<number>;
  /**
   * Runs the queued job `id` if it can be claimed now (due, or stale in 'running'), as the poller
   * would: a host whose own queue delivers job ids (Vendure's JobQueue) calls this once per delivery.
   * false: not claimable (done, claimed by a live worker, unknown, or not committed yet): nothing ran.
   */
  runOne(id: string): Promise<boolean>;
  /** Runs the handler registered under `name` now, without any claim (a scheduled run another scheduler claimed). */
  runHandler(name: string, payload: Record<string, unknown>): Promise<void>;
  readonly workerId: string;
}

export const JOB_DEFAULT_MAX_ATTEMPTS = 5;
const POLL_INTERVAL_MS = 500;
const BATCH_SIZE = 5;
/** A job still 'running' after this long belongs to a crashed or stuck worker and is claimed again. */
export const STALE_JOB_SECONDS = 15 * 60;
/** Done jobs without a unique key are deleted after this long (keys stay, so a keyed job is never queued twice). */
const DONE_JOB_RETENTION_DAYS = 7;

/** What the worker's parts share: its options, its id, and the schedule rows it knows exist. */
interface WorkerContext<Runtime> {
  options: JobWorkerOptions<Runtime>;
  workerId: string;
  knownScheduleRows: Set<string>;
}

async function ensureScheduleRows<Runtime>(ctx: WorkerContext<Runtime>): Promise<void> {
  const { db, schedules } = ctx.options;
  const missing = [...schedules.keys()].filter((name) => !ctx.knownScheduleRows.has(name));
  if (missing.length === 0) return;
  await db(ctx.options.tables.schedules)
    .insert(missing.map((name) => ({ name, interval_seconds: schedules.get(name), next_run_at: nowDb() })))
    .onConflict('name')
    .ignore();
  for (const name of missing) ctx.knownScheduleRows.add(name);
}

async function run<Runtime>(
  options: JobWorkerOptions<Runtime>,
  name: string,
  id: string | null,
  attempt: number,
  payload: Record<string, unknown>,
): Promise<void> {
  const handler = options.handlers.get(name);
  if (!handler) throw new Error(`no handler registered for job "${name}"`);
  await handler({ name, id, attempt, payload, host: options.runtime() });
}

/** A scheduled run (or one another scheduler claimed): no row, the first attempt. */
function runHandler<Runtime>(
  options: JobWorkerOptions<Runtime>,
  name: string,
  payload: Record<string, unknown>,
): Promise<void> {
  return run(options, name, null, 1, payload);
}

async function runSchedules<Runtime>(
  ctx: WorkerContext<Runtime>,
  mode: 'all' | 'due',
  only?: string[],
): Promise<number> {
  const { db, log, schedules } = ctx.options;
  const SCHEDULES = ctx.options.tables.schedules;
  if (schedules.size === 0) return 0;
  await ensureScheduleRows(ctx);
  const rows = await db<JobScheduleRow>(SCHEDULES).whereIn('name', [...schedules.keys()]);
  let ran = 0;
  for (const row of rows) {
    const now = new Date();
    if (only && !only.includes(row.name)) continue;
    if (mode === 'due' && new Date(fromDbTime(row.next_run_at)!) > now) continue;
    const interval = schedules.get(row.name)!;
    // Whoever moves next_run_at on from the value it read owns this run; every other process sees 0 rows.
    const claimed = await db(SCHEDULES)
      .where({ name: row.name, next_run_at: row.next_run_at })
      .update({ next_run_at: toDbTime(addSeconds(now, interval)), interval_seconds: interval });
    if (claimed !== 1) continue;
    ran++;
    try {
      await runHandler(ctx.options, row.name, {});
    } catch (error) {
      log.error({ job: row.name, err: errorText(error) }, 'scheduled job failed');
    }
  }
  return ran;
}

async function runJob<Runtime>(ctx: WorkerContext<Runtime>, job: JobRow): Promise<void> {
  const { db, log } = ctx.options;
  const JOBS = ctx.options.tables.jobs;
  const mine = { id: job.id, state: 'running', locked_by: ctx.workerId };
  try {
    await run(ctx.options, job.name, job.id, Number(job.attempts), readJson<Record<string, unknown>>(job.payload, {}));
    await db(JOBS)
      .where(mine)
      .update({ state: 'done', locked_by: null, locked_at: null, last_error: null, finished_at: nowDb() });
  } catch (error) {
    const attempts = Number(job.attempts);
    const lastError = errorText(error);
    if (attempts >= Number(job.max_attempts)) {
      await db(JOBS)
        .where(mine)
        .update({ state: 'failed', locked_by: null, locked_at: null, last_error: lastError, finished_at: nowDb() });
      log.error({ job: job.name, jobId: job.id, attempts, err: lastError }, 'job failed for good');
    } else {
      const runAt = toDbTime(addSeconds(new Date(), retryDelaySeconds(attempts)));
      await db(JOBS)
        .where(mine)
        .update({ state: 'queued', locked_by: null, locked_at: null, last_error: lastError, run_at: runAt });
      log.warn({ job: job.name, jobId: job.id, attempts, retryAt: runAt, err: lastError }, 'job failed; will retry');
    }
  }
}

/** Due queued jobs and stale running ones, of the names this process can run (during a rolling deploy, old workers leave new jobs alone). */
function claimable(q: Knex.QueryBuilder, names: string[]): void {
  const now = nowDb();
  const staleBefore = toDbTime(addSeconds(currentTime(), -STALE_JOB_SECONDS));
  q.whereIn('name', names).where((w) => {
    w.where((due) => {
      due.where('state', 'queued').where('run_at', '<=', now);
    }).orWhere((stale) => {
      stale.where('state', 'running').where('locked_at', '<', staleBefore);
    });
  });
}

async function runQueuedJobs<Runtime>(ctx: WorkerContext<Runtime>, keepGoing: () => boolean): Promise<number> {
  let ran = 0;
  // Bounded, so handlers that keep enqueueing immediate work cannot hold one call forever.
  for (let round = 0; round < 100 && keepGoing(); round++) {
    const names = [...ctx.options.handlers.keys()];
    if (names.length === 0) break;
    const claimed = await claimRows<JobRow>(
      ctx.options.db,
      {
        table: ctx.options.tables.jobs,
        orderBy: 'run_at',
        runningState: 'running',
        claimable: (q) => claimable(q, names),
      },
      ctx.workerId,
      BATCH_SIZE,
    );
    if (claimed.length === 0) break;
    await Promise.all(claimed.map((job) => runJob(ctx, job)));
    ran += claimed.length;
  }
  return ran;
}

/** runOne: claims the job `id` if it is claimable now and runs it. */
async function runOneJob<Runtime>(ctx: WorkerContext<Runtime>, id: string): Promise<boolean> {
  const names = [...ctx.options.handlers.keys()];
  const [job] = await claimRows<JobRow>(
    ctx.options.db,
    {
      table: ctx.options.tables.jobs,
      orderBy: 'run_at',
      runningState: 'running',
      claimable: (q) => {
        q.where('id', id).where((w) => claimable(w, names));
      },
    },
    ctx.workerId,
    1,
  );
  if (!job) return false;
  await runJob(ctx, job);
  return true;
}

async function deleteOldDoneJobs(db: Db, jobsTable: string): Promise<void> {
  const before = toDbTime(addSeconds(new Date(), -DONE_JOB_RETENTION_DAYS * 86400));
  await db(jobsTable).where({ state: 'done' }).whereNull('unique_key').where('finished_at', '<', before).delete();
}

async function enqueueJob(
  executor: Executor,
  jobsTable: string,
  name: string,
  payload: Record<string, unknown>,
  options: { runAt?: Date; uniqueKey?: string },
): Promise<void> {
  await executor(jobsTable)
    .insert({
      id: newId(),
      name,
      payload: writeJson(payload),
      state: 'queued',
      run_at: toDbTime(options.runAt ?? new Date()),
      attempts: 0,
      max_attempts: JOB_DEFAULT_MAX_ATTEMPTS,
      unique_key: options.uniqueKey ?? null,
      created_at: nowDb(),
    })
    .onConflict('unique_key')
    .ignore();
}

/** A poll's failure is logged; an outage or a busy database is expected to pass (due jobs stay queued). */
function logPollFailure(log: JobWorkerOptions<unknown>['log'], error: unknown): void {
  const kind = classifyDbError(error);
  if (kind === 'unavailable') log.warn({ err: errorText(error) }, 'job worker: database unavailable, retrying');
  else if (kind === 'contention') log.warn({ err: errorText(error) }, 'job worker: database busy, retrying');
  else log.error({ err: errorText(error) }, 'job worker poll failed');
}

/**
 * The job queue and its worker, shared by both hosts (the reference host's `jobs`/`job_schedules`,
 * the Vendure adapter's `suite_host_jobs`/`suite_host_job_schedules`). Any number of processes may
 * run workers: jobs are claimed with SKIP LOCKED and a conditional update, schedules with a conditional update of next_run_at.
 */
export function createJobWorker<Runtime>(options: JobWorkerOptions<Runtime>): JobWorker<Runtime> {
  const { db, log, handlers, schedules } = options;
  const JOBS = options.tables.jobs;
  const ctx: WorkerContext<Runtime> = { options, workerId: newWorkerId(), knownScheduleRows: new Set() };
  let timer: NodeJS.Timeout | null = null;
  let stopped = true;
  let tick: Promise<unknown> = Promise.resolve();

  schedules.set('jobs.cleanup', 3600);
  handlers.set('jobs.cleanup', () => deleteOldDoneJobs(db, JOBS));

  async function poll(): Promise<void> {
    try {
      await runSchedules(ctx, 'due');
      await runQueuedJobs(ctx, () => !stopped);
      if (!stopped) await options.onPoll?.();
    } catch (error) {
      // The next poll tries again, nothing is lost.
      logPollFailure(log, error);
    }
  }

  function scheduleNext(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      tick = poll().then(scheduleNext);
    }, POLL_INTERVAL_MS);
    timer.unref();
  }

  return {
    workerId: ctx.workerId,
    jobs: {
      register: (name, handler) => void handlers.set(name, handler),
      schedule(name, everySeconds) {
        if (!Number.isInteger(everySeconds) || everySeconds < 1)
          throw new Error(`schedule "${name}": everySeconds must be a positive integer`);
        schedules.set(name, everySeconds);
      },
      enqueue: (executor, name, payload, enqueueOptions = {}) =>
        enqueueJob(executor, JOBS, name, payload, enqueueOptions),
    },
    start() {
      if (!stopped) return;
      stopped = false;
      scheduleNext();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await tick;
    },
    runOne: (id) => runOneJob(ctx, id),
    runHandler: (name, payload) => runHandler(options, name, payload),
    async runDue(runOptions = {}) {
      const ran = await runSchedules(ctx, runOptions.schedules ?? 'all', runOptions.only);
      const total = ran + (await runQueuedJobs(ctx, () => true));
      await options.onPoll?.();
      return total;
    },
  };
}
