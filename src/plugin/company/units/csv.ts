import { defineStoreRoute, type HostRuntime } from '../../../contract/index.js';
import { csvProblemsError, parseCsv, toCsv, type CsvColumn, type CsvProblem } from '../../../lib/csv.js';
import { inTransaction, type Trx } from '../../../lib/db.js';
import { newId } from '../../../lib/ids.js';
import { reply } from '../../../lib/routes.js';
import { objectSchema } from '../../../lib/schemas.js';
import { declaredCustomer } from '../../declared.js';
import { listEmployees } from '../employee-directory.js';
import { insertUnit, lockCompanyUnits, memberships, putMember, unitRows, type UnitRow } from './repository.js';
import { MANAGE, READ, TAG } from './schemas.js';
import { depthFirst } from './directory.js';

/** A unit in a CSV file is named by its path from the top: "Sales > North > Field team". */
export const PATH_SEPARATOR = ' > ';
export const UNIT_CSV_COLUMNS: CsvColumn[] = [{ name: 'path', aliases: ['unit', 'unit path'], required: true }];
export const MEMBER_CSV_COLUMNS: CsvColumn[] = [
  { name: 'email', aliases: ['mail', 'employee'], required: true },
  { name: 'unit_path', aliases: ['unit', 'path'], required: true },
  { name: 'manager', aliases: ['is manager'] },
];
export const UNIT_CSV_MAX_BYTES = 2 * 1024 * 1024;
export const UNIT_CSV_MAX_ROWS = 10_000;

const TRUE = new Set(['1', 'true', 'yes', 'y', 'ja', 'x']);
const FALSE = new Set(['', '0', 'false', 'no', 'n', 'nein']);

const common = { tags: [TAG], auth: 'login' as const, needsCustomer: true };
const importResult = objectSchema(
  { success: { const: true }, created: { type: 'integer', minimum: 0 }, unchanged: { type: 'integer', minimum: 0 } },
  ['success', 'created', 'unchanged'],
);
const csvBody = { bodyContentType: 'text/csv', body: { type: 'string' } } as const;

function pathsOf(rows: UnitRow[]): Map<string, string> {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const paths = new Map<string, string>();
  const pathOf = (row: UnitRow): string => {
    const known = paths.get(row.id);
    if (known !== undefined) return known;
    const parent = row.parent_id ? byId.get(row.parent_id) : undefined;
    const path = parent ? `${pathOf(parent)}${PATH_SEPARATOR}${row.name}` : row.name;
    paths.set(row.id, path);
    return path;
  };
  for (const row of rows) pathOf(row);
  return paths;
}

const splitPath = (path: string) => path.split(PATH_SEPARATOR.trim()).map((part) => part.trim());
const pathKey = (parts: string[]) => parts.map((p) => p.toLowerCase()).join('\u0000');

/** Creates the units along every path that does not exist yet; nothing is renamed, moved or deleted. */
async function importUnits(
  trx: Trx,
  customerId: string,
  rows: Array<{ line: number; values: Record<string, string> }>,
) {
  const existing = await lockCompanyUnits(trx, customerId);
  const idByKey = new Map<string, string>();
  for (const [id, path] of pathsOf(existing)) idByKey.set(pathKey(splitPath(path)), id);
  const problems: CsvProblem[] = [];
  const planned: Array<{ line: number; parts: string[] }> = [];
  for (const { line, values } of rows) {
    const parts = splitPath(values.path ?? '');
    if (parts.some((p) => p === ''))
      problems.push({
        line,
        column: 'path',
        reason: `"${(values.path ?? '').slice(0, 80)}" has an empty unit name; separate names with "${PATH_SEPARATOR.trim()}".`,
      });
    else if (parts.some((p) => p.length > 255))
      problems.push({ line, column: 'path', reason: 'A unit name is longer than 255 characters.' });
    else planned.push({ line, parts });
  }
  if (problems.length) return { problems, created: 0, unchanged: 0 };
  let created = 0;
  let unchanged = 0;
  for (const { parts } of planned) {
    let parentId: string | null = null;
    let isNew = false;
    for (let depth = 1; depth <= parts.length; depth++) {
      const key = pathKey(parts.slice(0, depth));
      let id = idByKey.get(key);
      if (!id) {
        id = await insertUnit(trx, customerId, parts[depth - 1]!, parentId, newId());
        idByKey.set(key, id);
        created++;
        isNew = true;
      }
      parentId = id;
    }
    if (!isNew) unchanged++;
  }
  return { problems, created, unchanged };
}

async function importMembers(
  trx: Trx,
  customerId: string,
  rows: Array<{ line: number; values: Record<string, string> }>,
) {
  const units = await lockCompanyUnits(trx, customerId);
  const idByKey = new Map<string, string>();
  for (const [id, path] of pathsOf(units)) idByKey.set(pathKey(splitPath(path)), id);
  const employeeByEmail = new Map((await listEmployees(trx, customerId)).map((e) => [e.email.toLowerCase(), e.id]));
  const current = new Map(
    (await memberships(trx, customerId)).map((m) => [`${m.unitId}/${m.employeeId}`, m.isManager]),
  );
  const problems: CsvProblem[] = [];
  const planned: Array<{ unitId: string; employeeId: string; isManager: boolean }> = [];
  for (const { line, values } of rows) {
    const before = problems.length;
    const email = (values.email ?? '').trim().toLowerCase();
    const employeeId = employeeByEmail.get(email);
    if (!employeeId)
      problems.push({ line, column: 'email', reason: `"${email.slice(0, 80)}" is no employee of the company.` });
    const unitId = idByKey.get(pathKey(splitPath(values.unit_path ?? '')));
    if (!unitId)
      problems.push({
        line,
        column: 'unit_path',
        reason: `The unit "${(values.unit_path ?? '').slice(0, 120)}" does not exist; import the units first.`,
      });
    const manager = (values.manager ?? '').trim().toLowerCase();
    if (!TRUE.has(manager) && !FALSE.has(manager))
      problems.push({
        line,
        column: 'manager',
        reason: `manager must be true or false, not "${manager.slice(0, 20)}".`,
      });
    if (problems.length === before)
      planned.push({ unitId: unitId!, employeeId: employeeId!, isManager: TRUE.has(manager) });
  }
  if (problems.length) return { problems, created: 0, unchanged: 0 };
  let created = 0;
  let unchanged = 0;
  for (const row of planned) {
    const was = current.get(`${row.unitId}/${row.employeeId}`);
    if (was === row.isManager) {
      unchanged++;
      continue;
    }
    await putMember(trx, customerId, row.unitId, row.employeeId, row.isManager);
    current.set(`${row.unitId}/${row.employeeId}`, row.isManager);
    created++;
  }
  return { problems, created, unchanged };
}

const limits = `Limits: ${UNIT_CSV_MAX_BYTES} bytes, ${UNIT_CSV_MAX_ROWS} rows (413). Separator , or ;. All rows or none; every bad row is reported (400, meta.line).`;

export function unitCsvRoutes(host: HostRuntime) {
  const importRoute = (
    path: string,
    operationId: string,
    summary: string,
    columns: CsvColumn[],
    run: typeof importUnits,
  ) =>
    defineStoreRoute({
      ...common,
      method: 'POST',
      path,
      operationId,
      summary,
      description: limits,
      permission: MANAGE,
      schemas: { ...csvBody, responses: { 200: importResult } },
      async handler({ ctx, body }) {
        const customer = declaredCustomer(ctx);
        const parsed = await parseCsv(body, { columns, maxBytes: UNIT_CSV_MAX_BYTES, maxRows: UNIT_CSV_MAX_ROWS });
        return inTransaction(host.db, async (trx) => {
          const result = await run(trx, customer.id, parsed.rows);
          if (parsed.problems.length || result.problems.length)
            throw csvProblemsError([...parsed.problems, ...result.problems]);
          return { success: true as const, created: result.created, unchanged: result.unchanged };
        });
      },
    });
  return [
    importRoute(
      '/b2b/organisation-unit-import',
      'importOrganisationUnits',
      `Imports units from CSV (header: path, e.g. "Sales${PATH_SEPARATOR}North"): every unit along each path that does not exist is created.`,
      UNIT_CSV_COLUMNS,
      importUnits,
    ),
    importRoute(
      '/b2b/organisation-unit-member-import',
      'importOrganisationUnitMembers',
      'Imports memberships from CSV (header: email, unit_path, manager): adds employees to units or sets the manager flag; nobody is taken out.',
      MEMBER_CSV_COLUMNS,
      importMembers,
    ),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/b2b/organisation-unit-export',
      operationId: 'exportOrganisationUnits',
      summary: 'The unit tree as CSV (one path per unit, depth first); the file re-imports unchanged.',
      permission: READ,
      schemas: { body: objectSchema({}), responses: { 200: { contentType: 'text/csv', description: 'path' } } },
      async handler({ ctx, headers }) {
        const units = await unitRows(host.db, declaredCustomer(ctx).id);
        const paths = pathsOf(units);
        headers.setHeader('Content-Disposition', 'attachment; filename="organisation-units.csv"');
        return reply(
          200,
          await toCsv(
            ['path'],
            depthFirst(units, (row) => row.parent_id).map((row) => [paths.get(row.id)]),
          ),
          { contentType: 'text/csv; charset=utf-8' },
        );
      },
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/b2b/organisation-unit-member-export',
      operationId: 'exportOrganisationUnitMembers',
      summary: 'Every membership as CSV (email, unit_path, manager); the file re-imports unchanged.',
      permission: READ,
      schemas: {
        body: objectSchema({}),
        responses: { 200: { contentType: 'text/csv', description: 'email, unit_path, manager' } },
      },
      async handler({ ctx, headers }) {
        const customerId = declaredCustomer(ctx).id;
        const units = await unitRows(host.db, customerId);
        const paths = pathsOf(units);
        const emails = new Map((await listEmployees(host.db, customerId)).map((e) => [e.id, e.email]));
        const rows = (await memberships(host.db, customerId))
          .map((m) => [emails.get(m.employeeId) ?? '', paths.get(m.unitId) ?? '', m.isManager ? 'true' : 'false'])
          .sort((a, b) => a[1]!.localeCompare(b[1]!) || a[0]!.localeCompare(b[0]!));
        headers.setHeader('Content-Disposition', 'attachment; filename="organisation-unit-members.csv"');
        return reply(200, await toCsv(['email', 'unit_path', 'manager'], rows), {
          contentType: 'text/csv; charset=utf-8',
        });
      },
    }),
  ];
}
