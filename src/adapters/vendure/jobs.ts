import type { HostRuntime } from '../../host/contract.js';
import { createJobWorker, type JobWorker } from '../../lib/job-worker.js';
import type { AdapterState } from './state.js';

/**
 * The plugin's jobs on Vendure: lib/job-worker (the reference host's queue and worker) on the
 * adapter's `suite_host_jobs` / `suite_host_job_schedules`. It polls in every Vendure process that
 * starts the plugin (server and worker, unless `runJobs: false`): jobs are claimed with SKIP LOCKED
 * on MariaDB and a conditional update, schedules by a conditional update of next_run_at, so a job
 * or a scheduled run is done by one process however many poll.
 */
export function createVendureJobs(state: AdapterState): JobWorker<HostRuntime> {
  return createJobWorker<HostRuntime>({
    db: state.db,
    log: state.log,
    tables: { jobs: 'suite_host_jobs', schedules: 'suite_host_job_schedules' },
    handlers: state.registries.jobHandlers,
    schedules: state.registries.jobSchedules,
    runtime: () => state.runtime,
    // The outbox is checked on every poll (a read while idle) rather than as a schedule (a write every
    // few seconds), which Vendure's read-then-write transactions on SQLite would trip over (docs/vendure.md).
    onPoll: () => state.mail.sendQueued(),
  });
}
