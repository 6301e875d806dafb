import { defineAdminRoute } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { idSchema } from '../../lib/ids.js';
import { objectSchema, pathParams } from '../../lib/schemas.js';
import type { ImportRuns } from './service.js';

const nullableTime = { type: ['string', 'null'] } as const;

export const importRunSchema = objectSchema(
  {
    id: idSchema,
    kind: { type: 'string' },
    state: {
      enum: ['checked', 'queued', 'running', 'done', 'failed'],
      description: '`checked`: a file kept after its check, waiting to be imported by reference.',
    },
    totalRows: { type: ['integer', 'null'], description: 'Known once the file is checked.' },
    doneRows: { type: 'integer', description: 'Rows written so far.' },
    result: { type: ['object', 'null'], additionalProperties: true, description: 'The import answer once done.' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: true,
        properties: {
          code: { type: 'string' },
          title: { type: 'string' },
          detail: { type: 'string' },
          meta: { type: 'object', additionalProperties: true, properties: { line: { type: 'integer' } } },
        },
      },
      description: 'Why it failed: the rows the check refused (meta.line), as the synchronous import names them.',
    },
    startedBy: { type: ['string', 'null'] },
    createdAt: { type: 'string' },
    startedAt: nullableTime,
    finishedAt: nullableTime,
  },
  [
    'id',
    'kind',
    'state',
    'totalRows',
    'doneRows',
    'result',
    'errors',
    'startedBy',
    'createdAt',
    'startedAt',
    'finishedAt',
  ],
);

export const importRunResponse = objectSchema({ data: importRunSchema }, ['data']);

export function importRunRoutes(runs: ImportRuns) {
  return [
    defineAdminRoute({
      method: 'GET',
      path: '/suite-import-run/{id}',
      operationId: 'readSuiteImportRun',
      summary: 'An import run: its state and progress (rows done of the total), and its result or errors.',
      tags: ['Import runs'],
      auth: 'admin',
      permission: null,
      schemas: { params: pathParams('id'), responses: { 200: importRunResponse } },
      async handler({ params }) {
        const run = await runs.get(params.id);
        if (!run) throw Errors.notFound('Import run', params.id);
        return { data: run };
      },
    }),
  ];
}
