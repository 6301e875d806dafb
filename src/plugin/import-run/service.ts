import type { HostRuntime } from '../../host/contract.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import {
  claimRun,
  finishRun,
  getRun,
  insertRun,
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
      runInBackground(id);
      return (await getRun(host.db, id))!;
    },
    get: (id: string) => getRun(host.db, id),
    /** The schedule's work: starts the runs left queued. */
    async startQueued(): Promise<void> {
      for (const id of await queuedRunIds(host.db, 10)) await run(id);
    },
  };
}
