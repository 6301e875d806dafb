import type { HostRuntime } from '../../contract/index.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { toDbTime } from '../../lib/time.js';
import {
  claimRun,
  finishRun,
  getRun,
  insertRun,
  purgeCheckedRuns,
  queueCheckedRun,
  queuedRunIds,
  recordProgress,
  type ImportRunView,
} from './repository.js';

/**
 * Runs one kind of import: checks the whole file first (a bad row refuses it, nothing written,
 * thrown as the API's 400), then writes it in batches, reporting the rows done after each.
 */
export type ImportRunner = (
  payload: string,
  progress: (done: number, total: number) => Promise<void>,
) => Promise<Record<string, unknown>>;

export type ImportRuns = ReturnType<typeof createImportRuns>;

/** How long a checked file is kept for "Import now" (then it is dropped and must be checked again). */
export const CHECKED_FILE_TTL_SECONDS = 60 * 60;

const checkedSince = () => toDbTime(new Date(Date.now() - CHECKED_FILE_TTL_SECONDS * 1000));

/**
 * Import runs: a long import answers at once (202 with the run) and is written in the background,
 * its progress readable while it runs (`GET /suite-import-run/{id}`). The process that took the file
 * starts it right away; a run whose process ended before starting it is picked up by the schedule
 * (`import-run.start-queued`). A run is claimed by a conditional write, so it runs once.
 */
export function createImportRuns(host: HostRuntime) {
  const runners = new Map<string, ImportRunner>();

  async function run(id: string): Promise<void> {
    const claimed = await claimRun(host.db, id);
    if (!claimed) return;
    const runner = runners.get(claimed.kind);
    try {
      if (!runner) throw new Error(`no importer for "${claimed.kind}"`);
      const result = await runner(claimed.payload, (done, total) => recordProgress(host.db, id, done, total));
      await finishRun(host.db, id, { state: 'done', result });
    } catch (error) {
      const errors =
        error instanceof AppError
          ? (error.toBody().errors as unknown as Array<Record<string, unknown>>)
          : [{ status: '500', code: 'SUITE__IMPORT_FAILED', detail: 'The import stopped; import the file again.' }];
      if (!(error instanceof AppError)) host.log.error({ err: error, importRun: id }, 'import run failed');
      await finishRun(host.db, id, { state: 'failed', errors });
    }
  }

  function runInBackground(id: string): void {
    setImmediate(() => {
      run(id).catch((error: unknown) => host.log.error({ err: error, importRun: id }, 'import run not finished'));
    });
  }

  return {
    register(kind: string, runner: ImportRunner): void {
      runners.set(kind, runner);
    },
    /** Queues the file and starts it in this process; answers the queued run. */
    async start(kind: string, payload: string, startedBy: string | null): Promise<ImportRunView> {
      const id = newId();
      await insertRun(host.db, { id, kind, payload, startedBy });
      // Read before the run starts: the answer is the run as queued, not whatever the background run reached.
      const queued = (await getRun(host.db, id))!;
      runInBackground(id);
      return queued;
    },
    /**
     * Keeps a file that passed its check, for an import by reference (`startChecked`): answers its id
     * (random, 128 bits: the reference is not guessable) and until when it is kept.
     */
    async keepChecked(
      kind: string,
      payload: string,
      startedBy: string | null,
    ): Promise<{ id: string; expiresAt: string }> {
      const id = newId();
      await insertRun(host.db, { id, kind, payload, startedBy, state: 'checked' });
      return { id, expiresAt: new Date(Date.now() + CHECKED_FILE_TTL_SECONDS * 1000).toISOString() };
    },
    /** Starts the import of a kept checked file; null when it is unknown, expired or started already. */
    async startChecked(kind: string, id: string): Promise<ImportRunView | null> {
      if (!(await queueCheckedRun(host.db, id, kind, checkedSince()))) return null;
      const queued = await getRun(host.db, id);
      runInBackground(id);
      return queued;
    },
    get: (id: string) => getRun(host.db, id),
    /** The schedule's work: starts the runs left queued, and drops checked files nobody imported in time. */
    async startQueued(): Promise<void> {
      await purgeCheckedRuns(host.db, checkedSince());
      for (const id of await queuedRunIds(host.db, 10)) await run(id);
    },
  };
}
