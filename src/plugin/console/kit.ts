import type {
  ConsoleCallInput,
  ConsoleContext,
  ConsolePage,
  ConsolePageResult,
  HostRuntime,
  StorefrontUpload,
} from '../../contract/index.js';
import { AppError } from '../../lib/errors.js';
import type { AnswerOf, CallableRoute, CallArgs } from '../../lib/routes.js';
import { sentenceOfRule } from '../../lib/validation-sentences.js';

/** The console part of the contract, present (registerConsole checks it once). */
export type HostConsole = NonNullable<HostRuntime['console']>;

/** A JSON:API list as the Admin API answers it. */
export interface JsonApiDocument<A> {
  data: Array<{ id: string; type: string; attributes: A }>;
  meta: { total: number };
}

/** What a form shows after the API refused it: messages next to their fields, and the others above the form. */
export interface FormErrors {
  fields: Record<string, string>;
  general: string[];
}

/** Console list pages show this many rows. */
export const PAGE_SIZE = 25;

/** Everything a console page module needs: the host, its console, and a helper to call the Admin API. */
export interface ConsoleKit {
  host: HostRuntime;
  console: HostConsole;
  /**
   * Runs a declared Admin API route in-process for the operator and answers its body:
   * `kit.call(ctx, routes.listSuiteQuantityRules, { query })`, the input and answer typed from the
   * route (an add-on's declaration, or one of the host's HOST_ADMIN_ROUTES).
   */
  call<R extends CallableRoute>(ctx: ConsoleContext, route: R, ...input: CallArgs<R>): Promise<AnswerOf<R>>;
  /** A console URL: kit.href('/customer-prices', { page: 2 }). */
  href(path: string, query?: Record<string, string | number | undefined | null>): string;
}

export function createConsoleKit(host: HostRuntime, console: HostConsole): ConsoleKit {
  return {
    host,
    console,
    async call(ctx, route, ...[input]) {
      return (await console.call(ctx, route, input as ConsoleCallInput | undefined)).body;
    },
    href(path, query = {}) {
      const kept = Object.entries(query).flatMap(([name, value]): Array<[string, string]> =>
        value === undefined || value === null || value === '' ? [] : [[name, String(value)]],
      );
      const search = new URLSearchParams(kept).toString();
      return `${console.basePath}${path === '/' ? '' : path}${search ? `?${search}` : ''}`;
    },
  };
}

/**
 * The API's refusal as a form shows it: an error with a JSON pointer to a body field (`/price`)
 * goes next to that field, the others above the form. A 401/403/404/5xx is not a form problem:
 * it is thrown on for the console's error page.
 */
export function formErrorsOf(
  error: unknown,
  fieldOfPointer: (pointer: string) => string | null = (pointer) => pointer.split('/')[1] ?? null,
): FormErrors {
  if (!(error instanceof AppError) || ![400, 409, 413, 422].includes(error.status)) throw error;
  const result: FormErrors = { fields: {}, general: [] };
  for (const problem of error.toBody().errors) {
    // A schema refusal ("/email must match format \"email\".") is said as a sentence about the field.
    const message =
      (problem.code === 'SUITE__INVALID_INPUT' ? sentenceOfRule(problem.meta) : null) ??
      problem.detail ??
      problem.title;
    const field = problem.source?.pointer ? fieldOfPointer(problem.source.pointer) : null;
    if (field && !(field in result.fields)) result.fields[field] = message;
    // One sentence per field: the schema's other complaints about it ("must be null" of a nullable type) add nothing.
    else if (field && problem.code === 'SUITE__INVALID_INPUT') continue;
    else if (!field || result.fields[field] !== message) result.general.push(message);
  }
  return result;
}

export function noErrors(): FormErrors {
  return { fields: {}, general: [] };
}

/** A string form or query value, trimmed ('' when absent or not a string). */
export function text(source: Record<string, unknown>, name: string): string {
  const value = source[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** The page number of a list's query: a whole number from 1, anything else is page 1 (a console link never answers 400). */
export function pageOf(query: Record<string, unknown>): number {
  const value = Number(text(query, 'page'));
  return Number.isInteger(value) && value >= 1 && value <= 100_000 ? value : 1;
}

/** The paging bar of a list page: previous/next links that keep the list's filters. */
export function paging(
  kit: ConsoleKit,
  path: string,
  filters: Record<string, string | undefined>,
  page: number,
  total: number,
  limit = PAGE_SIZE,
) {
  const pages = Math.max(1, Math.ceil(total / limit));
  return {
    page,
    pages,
    total,
    previous: page > 1 ? kit.href(path, { ...filters, page: Math.min(page - 1, pages) }) : null,
    next: page < pages ? kit.href(path, { ...filters, page: page + 1 }) : null,
  };
}

/** A page declaration with the handler's result type spelled out once. */
export function consolePage(page: ConsolePage): ConsolePage {
  return page;
}

export type { ConsoleContext, ConsolePageResult };

/** The CSV of an import form: a chosen file (`file`), else the pasted text (`csv`). */
export function csvOfForm(form: Record<string, unknown>): string {
  const file = form.file as StorefrontUpload | undefined;
  if (file && typeof file === 'object' && Buffer.isBuffer(file.content)) return file.content.toString('utf8');
  return typeof form.csv === 'string' ? form.csv : '';
}

/** The name of the file chosen in an import form's file input (`file`), or null when the lines were pasted. */
export function uploadedFileName(form: Record<string, unknown>): string | null {
  const file = form.file as StorefrontUpload | undefined;
  return file && typeof file === 'object' && Buffer.isBuffer(file.content) ? file.fileName || 'the file' : null;
}

/** A CSV import's refusal as the import pages list it: one entry per bad line (meta.line), the others as they are. */
export function importProblemsOf(error: unknown): Array<{ line: number | null; message: string }> {
  if (!(error instanceof AppError) || ![400, 409, 413].includes(error.status)) throw error;
  return error.toBody().errors.map((problem) => ({
    line: typeof problem.meta?.line === 'number' ? problem.meta.line : null,
    message: problem.detail ?? problem.title,
  }));
}

/** A list page's sort choices: each a label and the Admin API's `sort` value (the first is the default). */
export interface SortChoice {
  value: string;
  label: string;
}

/** The chosen sort of a list's query (an unknown value is the default) and the choices for the `sort` partial. */
export function sortOf<const C extends readonly [SortChoice, ...SortChoice[]]>(
  query: Record<string, unknown>,
  choices: C,
) {
  const chosen = choices.find((c) => c.value === text(query, 'sort')) ?? choices[0];
  return {
    chosen,
    /** For the paging links: the default sort stays out of the URL. */
    param: chosen === choices[0] ? undefined : chosen.value,
    choices: choices.map((c) => ({ ...c, selected: c === chosen })),
  };
}

/** The console's 404 page for an id that names nothing (or is no id): "There is no such <what>." */
export function notFoundPage(what: string) {
  return { template: 'error', status: 404, data: { title: 'Not found', message: `There is no such ${what}.` } };
}
