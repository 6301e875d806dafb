import { parseString, writeToString } from 'fast-csv';
import { AppError, statusTitle, type ErrorObject } from './errors.js';

/**
 * The one CSV helper: parsing with header validation, line numbers and limits;
 * writing RFC 4180 with formula-injection neutralisation. Imports report every bad row and write
 * nothing unless all rows are good.
 */

export interface CsvColumn {
  /** The canonical header name written on export, e.g. 'first_name'. */
  name: string;
  /** Other spellings accepted on import, e.g. 'First name', 'firstName'. */
  aliases?: string[];
  required?: boolean;
}

export interface CsvParseOptions {
  columns: CsvColumn[];
  /** Byte limit of the whole text (413 above it). */
  maxBytes: number;
  /** Data row limit (413 above it). */
  maxRows: number;
  /** Header columns that are not declared: refused (default) or ignored. */
  unknownColumns?: 'refuse' | 'ignore';
  /** Strip the leading ' that `toCsv` adds to neutralise formulas, so an export re-imports unchanged (default true). */
  restoreNeutralised?: boolean;
}

export interface CsvRow {
  /** The physical line (1-based, the header is line 1) where the record starts. */
  line: number;
  /** Values by canonical column name; absent columns are ''. */
  values: Record<string, string>;
}

export interface CsvProblem {
  line: number;
  column?: string;
  reason: string;
}

const FORMULA_START = /^'*[=+\-@\t\r]/;
const NEUTRALISED = /^'+[=+\-@\t\r]/;

/** Header matching ignores case, spaces, dashes and underscores: 'E-Mail', 'e_mail' and 'email' are one name. */
export function normaliseHeader(name: string): string {
  return name
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_\-.]+/g, '');
}

/** A cell a spreadsheet would run as a formula gets a leading '; values that already start with quotes before such a character get one more, so the mapping is reversible. */
export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

export function restoreCell(value: string): string {
  return NEUTRALISED.test(value) ? value.slice(1) : value;
}

/** 400 listing every problem: one error object per bad row, with its line in `meta.line` and `source.pointer`. */
export function csvProblemsError(problems: CsvProblem[], code = 'SUITE__CSV_INVALID_ROWS'): AppError {
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  const details: ErrorObject[] = sorted.slice(0, 1000).map((p) => ({
    status: '400',
    code,
    title: statusTitle(400),
    detail: `Line ${p.line}: ${p.reason}`,
    source: { pointer: `/line/${p.line}${p.column ? `/${p.column}` : ''}` },
    meta: { line: p.line, ...(p.column ? { column: p.column } : {}) },
  }));
  return new AppError(400, code, details[0]?.detail ?? 'The CSV file is not valid.', { details });
}

function tooLarge(detail: string): AppError {
  return new AppError(413, 'SUITE__CSV_TOO_LARGE', detail);
}

function readRecords(
  text: string,
  maxRows: number,
): Promise<{ records: Array<{ line: number; cells: string[] }>; error: CsvProblem | null }> {
  return new Promise((resolve) => {
    const records: Array<{ line: number; cells: string[] }> = [];
    let nextLine = 1;
    let settled = false;
    const finish = (error: CsvProblem | null) => {
      if (settled) return;
      settled = true;
      resolve({ records, error });
    };
    const delimiter = detectDelimiter(text);
    const stream = parseString(text, { headers: false, ignoreEmpty: false, trim: false, delimiter });
    stream
      .on('data', (cells: string[]) => {
        const line = nextLine;
        // A quoted cell may span lines; the next record starts after them.
        nextLine += 1 + cells.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);
        if (cells.length === 0 || (cells.length === 1 && cells[0] === '')) return;
        records.push({ line, cells });
        if (records.length > maxRows + 1) {
          stream.destroy();
          finish(null);
        }
      })
      .on('error', (error: Error) =>
        finish({
          line: nextLine,
          reason: `The CSV cannot be read here: ${error.message.replace(/( in line:| at ')[\s\S]*$/, '').slice(0, 200)}`,
        }),
      )
      .on('end', () => finish(null));
  });
}

/** ';' when the header line has more semicolons than commas (spreadsheets in many locales), else ','. */
function detectDelimiter(text: string): ',' | ';' {
  const firstLine = text.slice(0, Math.max(0, text.search(/\r?\n/)) || text.length);
  const count = (c: string) => firstLine.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/**
 * Parses a CSV text whose first line is a header. Throws 413 above the limits, and 400 when the
 * header is wrong or the text cannot be read; returns the data rows with their line numbers (a
 * row with the wrong number of cells is a problem of that row).
 */
export async function parseCsv(
  text: string,
  options: CsvParseOptions,
): Promise<{ rows: CsvRow[]; problems: CsvProblem[] }> {
  if (Buffer.byteLength(text, 'utf8') > options.maxBytes)
    throw tooLarge(`The CSV file is larger than ${options.maxBytes} bytes.`);
  const source = text.replace(/^\uFEFF/, '');
  if (source.trim() === '')
    throw csvProblemsError(
      [{ line: 1, reason: 'The file is empty; the first line must be the header.' }],
      'SUITE__CSV_INVALID_HEADER',
    );
  const { records, error } = await readRecords(source, options.maxRows);
  if (records.length > options.maxRows + 1) throw tooLarge(`The CSV file has more than ${options.maxRows} rows.`);
  const [header, ...data] = records;
  if (!header)
    throw csvProblemsError(
      [error ?? { line: 1, reason: 'The first line must be the header.' }],
      'SUITE__CSV_INVALID_HEADER',
    );

  const byName = new Map<string, CsvColumn>();
  for (const column of options.columns)
    for (const name of [column.name, ...(column.aliases ?? [])]) byName.set(normaliseHeader(name), column);
  const headerProblems: CsvProblem[] = [];
  const positions: Array<CsvColumn | null> = [];
  const seen = new Set<string>();
  for (const cell of header.cells) {
    const column = byName.get(normaliseHeader(cell.trim())) ?? null;
    if (!column) {
      if (options.unknownColumns !== 'ignore')
        headerProblems.push({
          line: header.line,
          reason: `Unknown column "${cell.trim().slice(0, 100)}"; expected: ${options.columns.map((c) => c.name).join(', ')}.`,
        });
      positions.push(null);
    } else if (seen.has(column.name)) {
      headerProblems.push({
        line: header.line,
        column: column.name,
        reason: `The column "${column.name}" appears twice.`,
      });
      positions.push(null);
    } else {
      seen.add(column.name);
      positions.push(column);
    }
  }
  for (const column of options.columns)
    if (column.required && !seen.has(column.name))
      headerProblems.push({
        line: header.line,
        column: column.name,
        reason: `The required column "${column.name}" is missing.`,
      });
  if (headerProblems.length) throw csvProblemsError(headerProblems, 'SUITE__CSV_INVALID_HEADER');

  const restore = options.restoreNeutralised !== false;
  const rows: CsvRow[] = [];
  const problems: CsvProblem[] = [];
  for (const record of data) {
    if (record.cells.length !== header.cells.length) {
      problems.push({
        line: record.line,
        reason: `Expected ${header.cells.length} fields, found ${record.cells.length}.`,
      });
      continue;
    }
    const values: Record<string, string> = Object.fromEntries(options.columns.map((c) => [c.name, '']));
    record.cells.forEach((cell, i) => {
      const column = positions[i];
      if (column) values[column.name] = restore ? restoreCell(cell) : cell;
    });
    rows.push({ line: record.line, values });
  }
  if (error) problems.push(error);
  return { rows, problems };
}

export type CsvCell = string | number | boolean | null | undefined;

/** RFC 4180: CRLF line ends, quotes where needed (doubled inside), every text cell neutralised against formula injection. */
export async function toCsv(header: string[], rows: CsvCell[][]): Promise<string> {
  const cell = (value: CsvCell) => (value === null || value === undefined ? '' : neutraliseCell(String(value)));
  return writeToString([header.map(cell), ...rows.map((row) => row.map(cell))], {
    rowDelimiter: '\r\n',
    includeEndRowDelimiter: true,
    quoteColumns: false,
  });
}
