import type { HostRuntime } from '../../contract/index.js';
import type { HostInternals } from '../internals.js';
import { createJobWorker, type JobWorker } from '../../lib/job-worker.js';

export { JOB_DEFAULT_MAX_ATTEMPTS, STALE_JOB_SECONDS, type RunDueOptions } from '../../lib/job-worker.js';

export type JobsModule = JobWorker<HostRuntime> & Pick<HostRuntime, 'jobs'>;

/** The reference host's job queue: lib/job-worker on `jobs` and `job_schedules`. */
export function createJobsModule(internals: HostInternals): JobsModule {
  return createJobWorker<HostRuntime>({
    db: internals.db,
    log: internals.log,
    tables: { jobs: 'jobs', schedules: 'job_schedules' },
    handlers: internals.registries.jobHandlers,
    schedules: internals.registries.jobSchedules,
    runtime: () => internals.runtime,
  });
}
