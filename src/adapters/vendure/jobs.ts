import type { HostRuntime } from '../../contract/index.js';
import { createJobWorker, type JobWorker } from '../../lib/job-worker.js';
import type { AdapterState } from './state.js';

/**
 * The plugin's jobs on Vendure: lib/job-worker (the reference host's queue and worker) on the
 * adapter's `suite_host_jobs` / `suite_host_job_schedules`, without its polling loop: the rows are the
 * outbox Vendure's JobQueue is fed from, and a delivery runs one row (`runOne`, job-queue.ts); the
 * schedules are Vendure ScheduledTasks. `runDue` (tests, operators) still runs what is due at once:
 * jobs are claimed with SKIP LOCKED on MariaDB/PostgreSQL and a conditional update, schedules by a
 * conditional update of next_run_at, so a job or a scheduled run is done by one process however many run.
 */
export function createVendureJobs(state: AdapterState): JobWorker<HostRuntime> {
  return createJobWorker<HostRuntime>({
    db: state.db,
    log: state.log,
    tables: { jobs: 'suite_host_jobs', schedules: 'suite_host_job_schedules' },
    handlers: state.registries.jobHandlers,
    schedules: state.registries.jobSchedules,
    runtime: () => state.runtime,
    // runDue sends the mail outbox too (what the poller did on every poll).
    onPoll: () => state.mail.sendQueued(),
  });
}
