import type { Knex } from 'knex';
import { defineAdminRoute, type AdminRoute } from '../contract/index.js';
import { readInt, selectRow, selectRows } from '../lib/db.js';
import { AppError, Errors } from '../lib/errors.js';
import { jsonApiList, jsonApiListSchema, jsonApiPageQuery } from '../lib/json-api.js';
import { noContent } from '../lib/routes.js';
import { objectSchema, pathParams } from '../lib/schemas.js';
import { fromDbTime, nowDb } from '../lib/time.js';

const TAGS = ['Operations'];
const time = { type: 'string', format: 'date-time' } as const;
const nullableTime = { type: ['string', 'null'], format: 'date-time' } as const;
const nullableText = { type: ['string', 'null'] } as const;
const MAIL_STATES = ['queued', 'sending', 'sent', 'failed'] as const;
const JOB_STATES = ['queued', 'running', 'done', 'failed'] as const;

const mailResource = objectSchema(
  {
    id: { type: 'string' },
    type: { const: 'mail_outbox' },
    attributes: objectSchema(
      {
        template: { type: 'string' },
        recipient: { type: 'string' },
        state: { enum: [...MAIL_STATES] },
        attempts: { type: 'integer' },
        lastError: nullableText,
        createdAt: time,
        sentAt: nullableTime,
      },
      ['template', 'recipient', 'state', 'attempts', 'lastError', 'createdAt', 'sentAt'],
    ),
  },
  ['id', 'type', 'attributes'],
);

const jobResource = objectSchema(
  {
    id: { type: 'string' },
    type: { const: 'job' },
    attributes: objectSchema(
      {
        name: { type: 'string' },
        state: { enum: [...JOB_STATES] },
        attempts: { type: 'integer' },
        maxAttempts: { type: 'integer' },
        lastError: nullableText,
        runAt: time,
        createdAt: time,
        finishedAt: nullableTime,
      },
      ['name', 'state', 'attempts', 'maxAttempts', 'lastError', 'runAt', 'createdAt', 'finishedAt'],
    ),
  },
  ['id', 'type', 'attributes'],
);

interface MailRow {
  id: string;
  template: string;
  recipient: string;
  state: (typeof MAIL_STATES)[number];
  attempts: unknown;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

interface JobRow {
  id: string;
  name: string;
  state: (typeof JOB_STATES)[number];
  attempts: unknown;
  max_attempts: unknown;
  last_error: string | null;
  run_at: string;
  created_at: string;
  finished_at: string | null;
}

async function page<T>(base: Knex.QueryBuilder, columns: string[], query: { page: number; limit: number }) {
  const [count] = await selectRows<{ n: unknown }>(base.clone().count({ n: '*' }));
  const rows = await selectRows<T>(
    base
      .clone()
      .select(...columns)
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }])
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
  );
  return { rows, total: readInt(count?.n) };
}

/** The tables of the shared outbox and job queue (src/lib/mail-outbox.ts, src/lib/job-worker.ts) on a host. */
export interface OpsTables {
  mails: string;
  jobs: string;
}

/** The code of a retry or discard of a mail or job that has not failed (queued, being sent, sent or done). */
export const NOT_FAILED = 'SUITE__NOT_FAILED';

/**
 * A change to a failed row only: a conditional update/delete; 0 rows is a 404 (no such row) or a
 * 400 (the row is not failed — the worker owns it, or it went out).
 */
async function onFailed(
  db: Knex,
  table: string,
  id: string,
  what: 'mail' | 'job',
  change: (q: Knex.QueryBuilder) => Promise<number>,
) {
  const changed = await change(db(table).where({ id, state: 'failed' }));
  if (changed > 0) return;
  const row = await selectRow<{ state: string }>(db(table).where({ id }).first('state'));
  if (!row) throw Errors.notFound(what, id);
  throw new AppError(400, NOT_FAILED, `Only a failed ${what} can be retried or discarded; this one is ${row.state}.`);
}

/**
 * The operator's views of the outbox and job queue (the console's Failed mails / Failed jobs pages
 * and start page), newest first, and for a failed row: **retry** (queued again with its attempts
 * reset; the worker picks it up at its next poll) or **discard** (deleted). Both hosts declare them
 * on their tables (decisions 0031, 0035).
 */
export function opsRoutes(db: Knex, tables: OpsTables): AdminRoute[] {
  const params = pathParams('id');
  return [
    defineAdminRoute({
      method: 'GET',
      path: '/mail-outbox',
      operationId: 'listMailOutbox',
      summary: 'Mails of the outbox, newest first (JSON:API, paged; filter by state, e.g. `failed`).',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: {
        query: objectSchema({ ...jsonApiPageQuery, state: { enum: [...MAIL_STATES] } }),
        responses: { 200: jsonApiListSchema(mailResource) },
      },
      async handler({ query }) {
        const base = db(tables.mails);
        if (query.state) base.where({ state: query.state });
        const { rows, total } = await page<MailRow>(
          base,
          ['id', 'template', 'recipient', 'state', 'attempts', 'last_error', 'created_at', 'sent_at'],
          query,
        );
        return jsonApiList(
          rows.map((row) => ({
            id: row.id,
            type: 'mail_outbox' as const,
            attributes: {
              template: row.template,
              recipient: row.recipient,
              state: row.state,
              attempts: readInt(row.attempts),
              lastError: row.last_error,
              createdAt: fromDbTime(row.created_at)!,
              sentAt: fromDbTime(row.sent_at),
            },
          })),
          { path: '/mail-outbox', page: query.page, limit: query.limit, total, filters: { state: query.state } },
        );
      },
    }),
    defineAdminRoute({
      method: 'GET',
      path: '/jobs',
      operationId: 'listJobs',
      summary: 'Jobs of the queue, newest first (JSON:API, paged; filter by state, e.g. `failed`).',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: {
        query: objectSchema({ ...jsonApiPageQuery, state: { enum: [...JOB_STATES] } }),
        responses: { 200: jsonApiListSchema(jobResource) },
      },
      async handler({ query }) {
        const base = db(tables.jobs);
        if (query.state) base.where({ state: query.state });
        const { rows, total } = await page<JobRow>(
          base,
          ['id', 'name', 'state', 'attempts', 'max_attempts', 'last_error', 'run_at', 'created_at', 'finished_at'],
          query,
        );
        return jsonApiList(
          rows.map((row) => ({
            id: row.id,
            type: 'job' as const,
            attributes: {
              name: row.name,
              state: row.state,
              attempts: readInt(row.attempts),
              maxAttempts: readInt(row.max_attempts),
              lastError: row.last_error,
              runAt: fromDbTime(row.run_at)!,
              createdAt: fromDbTime(row.created_at)!,
              finishedAt: fromDbTime(row.finished_at),
            },
          })),
          { path: '/jobs', page: query.page, limit: query.limit, total, filters: { state: query.state } },
        );
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: '/_action/mail-outbox/{id}/retry',
      operationId: 'retryMailOutbox',
      summary:
        "Queues a failed mail again with its attempts reset (sent at the worker's next poll); 400 for a mail that has not failed.",
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: { params, body: objectSchema({}), responses: { 204: null } },
      async handler({ params: p }) {
        await onFailed(db, tables.mails, p.id, 'mail', (q) =>
          q.update({ state: 'queued', attempts: 0, next_attempt_at: null, locked_by: null, locked_at: null }),
        );
        return noContent();
      },
    }),
    defineAdminRoute({
      method: 'DELETE',
      path: '/mail-outbox/{id}',
      operationId: 'discardMailOutbox',
      summary: 'Deletes a failed mail from the outbox (it is never sent); 400 for a mail that has not failed.',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: { params, responses: { 204: null } },
      async handler({ params: p }) {
        await onFailed(db, tables.mails, p.id, 'mail', (q) => q.delete());
        return noContent();
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: '/_action/jobs/{id}/retry',
      operationId: 'retryJob',
      summary: 'Queues a failed job again with its attempts reset, to run now; 400 for a job that has not failed.',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: { params, body: objectSchema({}), responses: { 204: null } },
      async handler({ params: p }) {
        await onFailed(db, tables.jobs, p.id, 'job', (q) =>
          q.update({
            state: 'queued',
            attempts: 0,
            run_at: nowDb(),
            finished_at: null,
            locked_by: null,
            locked_at: null,
          }),
        );
        return noContent();
      },
    }),
    defineAdminRoute({
      method: 'DELETE',
      path: '/jobs/{id}',
      operationId: 'discardJob',
      summary: 'Deletes a failed job from the queue (it never runs again); 400 for a job that has not failed.',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: { params, responses: { 204: null } },
      async handler({ params: p }) {
        await onFailed(db, tables.jobs, p.id, 'job', (q) => q.delete());
        return noContent();
      },
    }),
  ];
}
