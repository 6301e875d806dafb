import type { Knex } from 'knex';
import { readInt, selectRows } from '../../lib/db.js';
import { jsonApiList, jsonApiListSchema, jsonApiPageQuery } from '../../lib/json-api.js';
import { objectSchema } from '../../lib/schemas.js';
import { fromDbTime } from '../../lib/time.js';
import { defineAdminRoute, type AdminRoute } from '../contract.js';

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

/**
 * Read-only views of the reference host's mail outbox and job queue for the operator (the console's
 * start page counts the failed ones), newest first. Nothing here retries or deletes.
 */
export function opsRoutes(db: Knex): AdminRoute[] {
  return [
    defineAdminRoute({
      method: 'GET',
      path: '/mail-outbox',
      operationId: 'listMailOutbox',
      summary: 'Mails of the outbox, newest first (JSON:API, paged; filter by state, e.g. `failed`). Read-only.',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: {
        query: objectSchema({ ...jsonApiPageQuery, state: { enum: [...MAIL_STATES] } }),
        responses: { 200: jsonApiListSchema(mailResource) },
      },
      async handler({ query }) {
        const base = db('mail_outbox');
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
      summary: 'Jobs of the queue, newest first (JSON:API, paged; filter by state, e.g. `failed`). Read-only.',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: {
        query: objectSchema({ ...jsonApiPageQuery, state: { enum: [...JOB_STATES] } }),
        responses: { 200: jsonApiListSchema(jobResource) },
      },
      async handler({ query }) {
        const base = db('jobs');
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
  ];
}
