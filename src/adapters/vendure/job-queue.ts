import type { Knex } from 'knex';
import { ScheduledTask, type JobQueue, type JobQueueService } from '@vendure/core';
import { forUpdateSkipLocked, inTransaction, selectRows, type Executor } from '../../lib/db.js';
import { errorText } from '../../lib/job-claim.js';
import { STALE_JOB_SECONDS } from '../../lib/job-worker.js';
import { STALE_SENDING_SECONDS } from '../../lib/mail-outbox.js';
import { addSeconds, now, nowDb, toDbTime } from '../../lib/time.js';
import type { AdminRoute } from '../../contract/index.js';
import type { AdapterState } from './state.js';

/**
 * The plugin's work on Vendure's JobQueue (decision 0058). The plugin's rows stay the outbox: a mail
 * (`suite_host_mail_outbox`) or a job (`suite_host_jobs`) is written in the transaction of the change
 * that causes it. The relay hands each committed row to the queue `suite-b2b-jobs` (job data: the
 * row's id) — after the commit of the transaction that wrote it, and by the scheduled sweep for
 * whatever that missed (a process gone between commit and hand-over, a row written in Vendure's own
 * transaction, a retry come due, a sender that died). The queue's process function runs where the
 * shop's JobQueueStrategy processes jobs (its worker processes): it claims the row with the
 * conditional update the poller used (so a second delivery of the same row does nothing, and a row
 * whose worker died is claimed again once its lease ran out), runs it and records the outcome.
 * The plugin's schedules (`jobs.schedule`) are ScheduledTasks on Vendure's scheduler: once per
 * period across all workers (the SchedulerStrategy's lock), each run handed to the queue as well.
 */
export const SUITE_QUEUE = 'suite-b2b-jobs';

/** A job of the queue: a row of the outbox or of the job table by id, or a scheduled run of a schedule by name. */
export type SuiteQueueJob =
  { kind: 'mail'; id: string } | { kind: 'job'; id: string } | { kind: 'schedule'; name: string };

/** The sweep's ScheduledTask id, and how often it runs. */
export const SWEEP_TASK = 'suite-b2b-outbox-sweep';
const SWEEP_EVERY_SECONDS = 10;
/** A row handed over this long ago and still not done is handed over again (a queue that lost it: a killed worker on the database queue). */
export const HANDOVER_LEASE_SECONDS = 10 * 60;
const BATCH = 100;

interface OutboxSpec {
  kind: 'mail' | 'job';
  table: string;
  /** When a queued row is due (null: now, mail only). */
  due: string;
  running: string;
  staleSeconds: number;
}

const OUTBOXES: OutboxSpec[] = [
  {
    kind: 'mail',
    table: 'suite_host_mail_outbox',
    due: 'next_attempt_at',
    running: 'sending',
    staleSeconds: STALE_SENDING_SECONDS,
  },
  { kind: 'job', table: 'suite_host_jobs', due: 'run_at', running: 'running', staleSeconds: STALE_JOB_SECONDS },
];

/**
 * Rows to hand over now: queued and due, not handed over since they came due (a retry moves the due
 * time past the last hand-over) or longer ago than the lease; and rows a dead sender left claimed,
 * not handed over since that claim.
 */
function readyToHandOver(q: Knex.QueryBuilder, spec: OutboxSpec): void {
  const at = nowDb();
  const leaseBefore = toDbTime(addSeconds(now(), -HANDOVER_LEASE_SECONDS));
  const staleBefore = toDbTime(addSeconds(now(), -spec.staleSeconds));
  q.where((queued) => {
    queued
      .where('state', 'queued')
      .where((due) => {
        due.where(spec.due, '<=', at);
        if (spec.kind === 'mail') due.orWhereNull(spec.due);
      })
      .where((handed) => {
        handed
          .whereNull('handed_over_at')
          .orWhereRaw('?? < ??', ['handed_over_at', spec.due])
          .orWhere('handed_over_at', '<', leaseBefore);
      });
  }).orWhere((stale) => {
    stale
      .where('state', spec.running)
      .where('locked_at', '<', staleBefore)
      .where((handed) => {
        handed
          .whereNull('handed_over_at')
          .orWhereRaw('?? < ??', ['handed_over_at', 'locked_at'])
          .orWhere('handed_over_at', '<', leaseBefore);
      });
  });
}

/** Marks up to BATCH ready rows as handed over (SKIP LOCKED, then a conditional update) and answers their ids. */
async function takeBatch(state: AdapterState, spec: OutboxSpec): Promise<string[]> {
  const stamp = nowDb();
  return inTransaction(state.db, async (trx) => {
    const candidates = await selectRows<{ id: string }>(
      forUpdateSkipLocked(
        trx(spec.table)
          .select('id')
          .where((q) => readyToHandOver(q, spec))
          .orderBy('created_at')
          .orderBy('id')
          .limit(BATCH),
        trx,
      ),
    );
    if (candidates.length === 0) return [];
    const ids = candidates.map((row) => row.id);
    await trx(spec.table)
      .whereIn('id', ids)
      .where((q) => readyToHandOver(q, spec))
      .update({ handed_over_at: stamp });
    // Two relays marking in the same millisecond may both read a row here: it is then delivered twice,
    // and the second delivery's claim finds it taken.
    const mine = await selectRows<{ id: string }>(
      trx(spec.table).whereIn('id', ids).where('handed_over_at', stamp).select('id'),
    );
    return mine.map((row) => row.id);
  });
}

/**
 * Hands every ready row of the outbox and the job table to the queue; answers how many. Runs after a
 * commit that wrote rows, and as the sweep. Without a queue (before Vendure started, `runJobs: false`) it does nothing.
 */
export async function handOver(state: AdapterState): Promise<number> {
  const queue = state.jobQueue;
  if (!queue) return 0;
  let handed = 0;
  for (const spec of OUTBOXES) {
    for (let round = 0; round < 50; round++) {
      const ids = await takeBatch(state, spec);
      for (const id of ids) await queue.add({ kind: spec.kind, id }, { retries: 3 });
      handed += ids.length;
      if (ids.length < BATCH) break;
    }
  }
  return handed;
}

/**
 * The operator's retry of a failed mail or job (host-kit's ops routes) queues the row again; here it
 * is handed to the queue at once, as a new row would be (there is no poll to find it).
 */
export function requeuedToTheQueue(state: AdapterState, routes: AdminRoute[]): AdminRoute[] {
  const tables: Record<string, string> = { retryMailOutbox: 'suite_host_mail_outbox', retryJob: 'suite_host_jobs' };
  return routes.map((route) => {
    const table = route.operationId ? tables[route.operationId] : undefined;
    if (!table) return route;
    return {
      ...route,
      async handler(input) {
        const answer: unknown = await route.handler(input);
        if (state.jobQueue) {
          const { id } = input.params as { id: string };
          await state.db(table).where({ id }).update({ handed_over_at: null });
          await handOver(state);
        }
        return answer;
      },
    } as AdminRoute;
  });
}

/** The outermost transaction of `executor` (a knex savepoint's parent's …), whose commit makes its rows visible. */
function outermost(executor: Executor): Knex.Transaction | null {
  let trx = (executor as Knex.Transaction).isTransaction ? (executor as Knex.Transaction) : null;
  while (trx) {
    const parent = (trx as unknown as { parentTransaction?: Knex.Transaction }).parentTransaction;
    if (!parent) break;
    trx = parent;
  }
  return trx;
}

/**
 * The relay after commit: `state.mail.enqueue` and `jobs.enqueue` hand what they wrote to the queue
 * once the outermost knex transaction they wrote in has committed (at once without a transaction).
 * Hand-overs asked for while one runs are joined into one more run. A row written in a savepoint of
 * Vendure's own transaction (inVendureTransaction) is not visible yet when the savepoint ends: the
 * sweep hands it over once Vendure has committed.
 */
export function relayAfterCommit(state: AdapterState): void {
  let running: Promise<void> | null = null;
  let again = false;
  const kick = () => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await handOver(state);
      } while (again);
    })()
      .catch((error: unknown) =>
        state.log.warn({ err: errorText(error) }, 'hand-over to the job queue failed; the sweep retries'),
      )
      .finally(() => {
        running = null;
      });
  };
  const afterCommit = (executor: Executor) => {
    if (!state.jobQueue) return;
    const trx = outermost(executor);
    if (!trx) setImmediate(kick);
    else trx.executionPromise.then(kick, () => undefined);
  };
  const { mail, jobs } = state;
  const enqueueMail = mail.enqueue;
  mail.enqueue = async (executor, queued) => {
    await enqueueMail(executor, queued);
    afterCommit(executor);
  };
  const enqueueJob = jobs.jobs.enqueue.bind(jobs.jobs);
  jobs.jobs.enqueue = async (executor, name, payload, options) => {
    await enqueueJob(executor, name, payload, options);
    afterCommit(executor);
  };
}

/**
 * The queue's process function: runs in the processes where the shop's JobQueueStrategy processes
 * `suite-b2b-jobs` (Vendure's workers). A row that cannot be claimed (done, claimed by a live worker,
 * rolled back, not committed yet) is no error: the job completes and the row is left to its owner or the sweep.
 */
export async function processQueueJob(state: AdapterState, job: SuiteQueueJob): Promise<void> {
  if (job.kind === 'mail') {
    if (state.mail.sendOne) await state.mail.sendOne(job.id);
    else await state.mail.sendQueued();
  } else if (job.kind === 'job') {
    await state.jobs.runOne(job.id);
  } else {
    try {
      await state.jobs.runHandler(job.name, {});
    } catch (error) {
      // As before on the poller: a scheduled run that failed is logged; the next period runs again.
      state.log.error({ job: job.name, err: errorText(error) }, 'scheduled job failed');
    }
  }
}

/** Creates the queue in this process (server and worker alike: every process adds, the workers process). */
export async function createSuiteQueue(
  service: JobQueueService,
  state: () => AdapterState | null,
): Promise<JobQueue<SuiteQueueJob>> {
  return service.createQueue<SuiteQueueJob>({
    name: SUITE_QUEUE,
    process: async (job) => {
      const current = state();
      if (!current) throw new Error('Suite B2B is not configured in this process');
      await processQueueJob(current, job.data);
    },
  });
}

/**
 * A cron pattern (with seconds) that runs every `seconds`: a pattern fires on the clock's divisions,
 * so an interval that does not divide its minute, hour or day runs at the next shorter one that does
 * (more often, never less: the plugin's scheduled handlers look at what is due and are idempotent).
 */
export function cronEvery(seconds: number): string {
  const divides = (unit: number, n: number) => n >= 1 && unit % n === 0;
  const fitting = (unit: number, n: number) => {
    let k = Math.max(1, Math.min(unit, Math.floor(n)));
    while (!divides(unit, k)) k--;
    return k;
  };
  if (seconds < 60) return `*/${fitting(60, seconds)} * * * * *`;
  if (seconds < 3600) return `0 */${fitting(60, seconds / 60)} * * * *`;
  if (seconds < 86400) return `0 0 */${fitting(24, seconds / 3600)} * * *`;
  return '0 0 0 * * *';
}

/**
 * Vendure ScheduledTasks for the plugin's schedules (each run handed to the queue) and for the
 * sweep (which only hands rows over: cheap, run by the scheduler itself).
 */
export function suiteScheduledTasks(state: () => AdapterState | null, schedules: Map<string, number>): ScheduledTask[] {
  const tasks = [...schedules].map(
    ([name, everySeconds]) =>
      new ScheduledTask({
        id: `suite-b2b:${name}`,
        description: `Suite B2B: the plugin's scheduled job "${name}" (every ${everySeconds} s), run on the job queue ${SUITE_QUEUE}`,
        schedule: cronEvery(everySeconds),
        execute: async () => {
          const queue = state()?.jobQueue;
          if (!queue) return { handedOver: false };
          await queue.add({ kind: 'schedule', name }, { retries: 0 });
          return { handedOver: true };
        },
      }),
  );
  tasks.push(
    new ScheduledTask({
      id: SWEEP_TASK,
      description: `Suite B2B: hands the plugin's committed mails and jobs to the job queue ${SUITE_QUEUE} that the hand-over after commit missed, and retries come due`,
      schedule: cronEvery(SWEEP_EVERY_SECONDS),
      execute: async () => {
        const current = state();
        return { handedOver: current ? await handOver(current) : 0 };
      },
    }),
  );
  return tasks;
}
