import { readInt, readJson, selectRow, selectRows, writeJson, type Executor } from '../../lib/db.js';
import { fromDbTime, nowDb } from '../../lib/time.js';

export const IMPORT_RUNS = 'suite_import_runs';

export type ImportRunState = 'checked' | 'queued' | 'running' | 'done' | 'failed';

interface ImportRunRow {
  id: string;
  kind: string;
  state: ImportRunState;
  total_rows: unknown;
  done_rows: unknown;
  result: unknown;
  errors: unknown;
  started_by: string | null;
  created_at: string | Date;
  started_at: string | Date | null;
  finished_at: string | Date | null;
}

/** A run as the Admin API answers it (the file itself is never answered). */
export interface ImportRunView {
  id: string;
  kind: string;
  state: ImportRunState;
  totalRows: number | null;
  doneRows: number;
  result: Record<string, unknown> | null;
  errors: Array<Record<string, unknown>>;
  startedBy: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

const VIEW_COLUMNS = [
  'id',
  'kind',
  'state',
  'total_rows',
  'done_rows',
  'result',
  'errors',
  'started_by',
  'created_at',
  'started_at',
  'finished_at',
];

function toView(row: ImportRunRow): ImportRunView {
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    totalRows: row.total_rows === null ? null : readInt(row.total_rows),
    doneRows: readInt(row.done_rows),
    result: readJson<Record<string, unknown> | null>(row.result, null),
    errors: readJson<Array<Record<string, unknown>>>(row.errors, []),
    startedBy: row.started_by,
    createdAt: fromDbTime(row.created_at)!,
    startedAt: fromDbTime(row.started_at),
    finishedAt: fromDbTime(row.finished_at),
  };
}

export async function insertRun(
  executor: Executor,
  run: { id: string; kind: string; payload: string; startedBy: string | null; state?: 'checked' | 'queued' },
): Promise<void> {
  await executor(IMPORT_RUNS).insert({
    id: run.id,
    kind: run.kind,
    state: run.state ?? 'queued',
    done_rows: 0,
    payload: run.payload,
    started_by: run.startedBy,
    created_at: nowDb(),
  });
}

export async function getRun(executor: Executor, id: string): Promise<ImportRunView | null> {
  const row = await selectRow<ImportRunRow>(executor(IMPORT_RUNS).where({ id }).first(VIEW_COLUMNS));
  return row ? toView(row) : null;
}

/** Claims a queued run (a conditional write: one worker per run) and answers its kind and file. */
export async function claimRun(executor: Executor, id: string): Promise<{ kind: string; payload: string } | null> {
  const claimed = await executor(IMPORT_RUNS)
    .where({ id, state: 'queued' })
    .update({ state: 'running', started_at: nowDb() });
  if (claimed === 0) return null;
  const row = await selectRow<{ kind: string; payload: string | null }>(
    executor(IMPORT_RUNS).where({ id }).first('kind', 'payload'),
  );
  return row ? { kind: row.kind, payload: row.payload ?? '' } : null;
}

/**
 * Queues a checked file kept since `notBefore` or later (a conditional write: an expired, unknown or
 * already started file queues nothing); answers whether it was queued.
 */
export async function queueCheckedRun(
  executor: Executor,
  id: string,
  kind: string,
  notBefore: string,
): Promise<boolean> {
  const queued = await executor(IMPORT_RUNS)
    .where({ id, kind, state: 'checked' })
    .where('created_at', '>=', notBefore)
    .update({ state: 'queued' });
  return queued > 0;
}

/** Drops checked files kept since before `before` that were never imported. */
export async function purgeCheckedRuns(executor: Executor, before: string): Promise<number> {
  return executor(IMPORT_RUNS).where({ state: 'checked' }).where('created_at', '<', before).delete();
}

/** Queued runs nobody claimed, oldest first (their process ended before starting them). */
export async function queuedRunIds(executor: Executor, limit: number): Promise<string[]> {
  return selectRows<string>(
    executor(IMPORT_RUNS).where({ state: 'queued' }).orderBy('created_at').orderBy('id').limit(limit).pluck('id'),
  );
}

export async function recordProgress(executor: Executor, id: string, done: number, total: number): Promise<void> {
  await executor(IMPORT_RUNS).where({ id, state: 'running' }).update({ done_rows: done, total_rows: total });
}

/** Ends a run; the file is dropped (it is no longer needed and may be large). */
export async function finishRun(
  executor: Executor,
  id: string,
  outcome: { state: 'done' | 'failed'; result?: Record<string, unknown>; errors?: Array<Record<string, unknown>> },
): Promise<void> {
  await executor(IMPORT_RUNS)
    .where({ id })
    .update({
      state: outcome.state,
      result: outcome.result ? writeJson(outcome.result) : null,
      errors: outcome.errors ? writeJson(outcome.errors) : null,
      payload: null,
      finished_at: nowDb(),
    });
}
