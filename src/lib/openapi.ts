import type { ActorName, AnyRoute, ContentResponse } from './routes.js';
import { effectiveActors } from './pipeline.js';
import { pathParamNames } from './routes.js';
import { statusTitle } from './errors.js';

/** Success statuses are not errors: `statusTitle` names only the error statuses. */
const SUCCESS_DESCRIPTIONS: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content' };

export function responseDescription(status: number): string {
  return SUCCESS_DESCRIPTIONS[status] ?? statusTitle(status);
}

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
  serverUrl: string;
  securitySchemes: Record<string, unknown>;
  /** The security requirement of a route, from its `auth` value; null for public routes. */
  securityFor(route: AnyRoute): Array<Record<string, string[]>> | null;
  /** The API's actors per `auth` value (`ApiDefinition.actorsByAuth`): a route without `actors` admits these. */
  actorsByAuth: Record<string, readonly ActorName[]>;
}

const ACTOR_LABELS: Record<ActorName, string> = {
  guest: 'guests',
  customer: 'the customer login',
  employee: 'employees',
  salesRepresentative: 'sales representatives',
  admin: 'admin principals',
};

/** The sentence the description carries: who may call, as the pipeline enforces it. */
export function actorsSentence(actors: readonly ActorName[], needsCustomer: boolean): string {
  const labels = actors.map((actor) => ACTOR_LABELS[actor]);
  const list =
    labels.length <= 1 ? (labels[0] ?? 'nobody') : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
  return `Callable by ${list}${needsCustomer ? ', acting for a customer' : ''}.`;
}

const errorBodySchema = {
  type: 'object',
  required: ['errors'],
  properties: {
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['status', 'code', 'title'],
        properties: {
          status: { type: 'string' },
          code: { type: 'string' },
          title: { type: 'string' },
          detail: { type: 'string' },
          source: { type: 'object', properties: { pointer: { type: 'string' }, parameter: { type: 'string' } } },
          meta: { type: 'object' },
        },
      },
    },
  },
};

function isContent(value: unknown): value is ContentResponse {
  return typeof value === 'object' && value !== null && typeof (value as ContentResponse).contentType === 'string';
}

function queryParameters(schema: Record<string, unknown> | undefined) {
  const properties = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = (schema?.required ?? []) as string[];
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    description: (s.description as string | undefined) ?? undefined,
    schema: s,
  }));
}

/** OpenAPI 3.1 from the route declarations: the same objects that validate the requests. */
export function buildOpenApi(routes: AnyRoute[], info: OpenApiInfo): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const requestBodies: Record<string, unknown> = {};
  const sorted = [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const route of sorted) {
    const paramProps = (route.schemas.params?.properties ?? {}) as Record<string, unknown>;
    const parameters = [
      ...pathParamNames(route.path).map((name) => ({
        name,
        in: 'path',
        required: true,
        schema: paramProps[name] ?? { type: 'string' },
      })),
      ...queryParameters(route.schemas.query),
    ];
    const responses: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries(route.schemas.responses)) {
      const description = isContent(schema)
        ? (schema.description ?? responseDescription(Number(status)))
        : responseDescription(Number(status));
      if (schema === null) responses[status] = { description };
      else if (isContent(schema))
        responses[status] = {
          description,
          content: { [schema.contentType]: { schema: { type: 'string', format: 'binary' } } },
        };
      else responses[status] = { description, content: { 'application/json': { schema } } };
    }
    for (const status of ['400', '401', '403', '404', '429']) {
      if (!responses[status])
        responses[status] = {
          description: statusTitle(Number(status)),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
        };
    }
    const operation: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.summary,
      tags: route.tags,
      parameters,
      responses,
    };
    const actors = effectiveActors(route, info.actorsByAuth);
    const who = actorsSentence(actors, Boolean(route.needsCustomer));
    operation.description = route.description ? `${route.description}\n\n${who}` : who;
    operation['x-suite-actors'] = [...actors];
    if (route.needsCustomer) operation['x-suite-needs-customer'] = true;
    if (route.permission) operation['x-permission'] = route.permission;
    if (route.aliasOf) operation['x-suite-alias-of'] = route.aliasOf;
    const security = info.securityFor(route);
    operation.security = security ?? [];
    if (route.schemas.body) {
      const body = {
        required: true,
        content: { [route.schemas.bodyContentType ?? 'application/json']: { schema: route.schemas.body } },
      };
      if (route.schemas.bodyName) {
        requestBodies[route.schemas.bodyName] = body;
        operation.requestBody = { $ref: `#/components/requestBodies/${route.schemas.bodyName}` };
      } else operation.requestBody = body;
    }
    if (route.idempotent)
      (operation.parameters as unknown[]).push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: { type: 'string', maxLength: 255 },
      });
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    servers: [{ url: info.serverUrl }],
    paths,
    components: { schemas: { ErrorBody: errorBodySchema }, requestBodies, securitySchemes: info.securitySchemes },
  };
}

/** The parts of an OpenAPI operation the HTML page shows. */
interface OperationDoc {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  'x-permission'?: string;
  requestBody?: unknown;
  responses?: unknown;
}

/**
 * The human-readable page beside an OpenAPI document: an operation index grouped by tag (method,
 * path, summary; each a link to its section), then every operation with its permission, request
 * body and responses, each section linking back to the index. No scripts: the page works as plain HTML.
 */
export function renderOpenApiHtml(document: Record<string, unknown>): string {
  const escape = (s: string) =>
    s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  const anchor = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '-');
  const info = document.info as { title: string; version: string; description: string };
  const groups = new Map<string, Array<{ method: string; path: string; op: OperationDoc; id: string }>>();
  for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, OperationDoc>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags?.[0] ?? 'Other';
      const id = anchor(op.operationId || `${method}-${path}`);
      const group = groups.get(tag) ?? [];
      group.push({ method, path, op, id });
      groups.set(tag, group);
    }
  }
  const tags = [...groups.keys()].sort((a, b) => a.localeCompare(b));
  const count = [...groups.values()].reduce((sum, ops) => sum + ops.length, 0);
  const index = tags
    .map((tag) => {
      const items = groups
        .get(tag)!
        .map(
          ({ method, path, op, id }) =>
            `<li><a href="#${id}"><code>${method.toUpperCase()} ${escape(path)}</code></a> ${escape(op.summary ?? '')}</li>`,
        )
        .join('');
      return `<li><a href="#tag-${anchor(tag)}">${escape(tag)}</a> (${groups.get(tag)!.length})<ul>${items}</ul></li>`;
    })
    .join('\n');
  const sections = tags.map((tag) => {
    const rows = groups.get(tag)!.map(({ method, path, op, id }) => {
      const body = op.requestBody
        ? `<details><summary>request body</summary><pre>${escape(JSON.stringify(op.requestBody, null, 2))}</pre></details>`
        : '';
      const responses = `<details><summary>responses</summary><pre>${escape(JSON.stringify(op.responses, null, 2))}</pre></details>`;
      // The route's description and the pipeline's sentence on who may call it, one paragraph each.
      const description =
        typeof op.description === 'string'
          ? op.description
              .split(/\n\s*\n/)
              .filter((part) => part.trim())
              .map((part) => `<p>${escape(part)}</p>`)
              .join('')
          : '';
      return `<section id="${id}"><h3><code>${method.toUpperCase()} ${escape(path)}</code></h3><p>${escape(op.summary ?? '')}${op['x-permission'] ? ` — permission <code>${escape(op['x-permission'])}</code>` : ''}</p>${description}${body}${responses}<p class="top"><a href="#operations">Back to the index</a></p></section>`;
    });
    return `<h2 id="tag-${anchor(tag)}">${escape(tag)}</h2>\n${rows.join('\n')}`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(info.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}section{border-top:1px solid #ddd;padding:.5rem 0}pre{background:#f6f6f6;padding:.5rem;overflow:auto}nav ul ul{font-size:.9rem;margin:.25rem 0 .75rem}nav li{margin:.15rem 0}h2{margin-top:2rem}.top{font-size:.85rem}</style>
</head><body><h1>${escape(info.title)} <small>${escape(info.version)}</small></h1><p>${escape(info.description)}</p><p><a href="openapi3.json">openapi3.json</a></p>
<nav id="operations" aria-label="Operations"><h2>Operations (${count})</h2><ul>${index}</ul></nav>
<main>${sections.join('\n')}</main></body></html>`;
}
