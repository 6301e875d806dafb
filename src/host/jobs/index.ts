import { newId } from '../../lib/ids.js';
import { writeJson } from '../../lib/db.js';
import { nowDb, toDbTime } from '../../lib/time.js';
import type { HostRuntime } from '../contract.js';
import type { HostInternals } from '../internals.js';

export interface JobsModule extends Pick<HostRuntime, 'jobs'> {
  /** Starts polling for due jobs and schedules in this process. */
  start(): void;
  stop(): Promise<void>;
  /** Runs every due job once (tests, CLI); returns how many ran. */
  runDue(): Promise<number>;
}

/** Jobs table and worker. (Stub: enqueue works; the worker is filled in by the jobs module.) */
export function createJobsModule(internals: HostInternals): JobsModule {
  return {
    jobs: {
      register: (name, handler) => void internals.registries.jobHandlers.set(name, handler),
      schedule: (name, everySeconds) => void internals.registries.jobSchedules.set(name, everySeconds),
      async enqueue(executor, name, payload, options = {}) {
        await executor('jobs')
          .insert({ id: newId(), name, payload: writeJson(payload), state: 'queued', run_at: toDbTime(options.runAt ?? new Date()), attempts: 0, max_attempts: 5, unique_key: options.uniqueKey ?? null, created_at: nowDb() })
          .onConflict('unique_key')
          .ignore();
      },
    },
    start() {},
    async stop() {},
    async runDue() {
      return 0;
    },
  };
}
