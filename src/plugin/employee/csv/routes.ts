import { inTransaction, readBool, type Trx } from '../../../lib/db.js';
import { csvProblemsError, parseCsv, toCsv, type CsvColumn, type CsvProblem } from '../../../lib/csv.js';
import { newId } from '../../../lib/ids.js';
import { reply } from '../../../lib/routes.js';
import { objectSchema } from '../../../lib/schemas.js';
import { nowDb } from '../../../lib/time.js';
import { defineStoreRoute, type HostRuntime, type StoreContext } from '../../../contract/index.js';
import { normaliseEmail, TAG } from '../common.js';
import { createInvitation } from '../invitation/service.js';
import { holdsAll } from '../permissions.js';
import {
  allEmployeesOfCustomer,
  employeeEmailsAmong,
  employeesLinkedElsewhere,
  insertEmployeeLink,
  insertEmployeeRecord,
  rolePermissionsOf,
  updateEmployeeLink,
  updateEmployeeRecord,
  type EmployeeRow,
} from '../repository.js';
import { allRolesOfCustomer, toRoleView, type RoleView } from '../role/repository.js';
import { declaredCustomer } from '../../declared.js';

export const EMPLOYEE_CSV_COLUMNS: CsvColumn[] = [
  { name: 'email', aliases: ['mail', 'email address'], required: true },
  { name: 'first_name', aliases: ['forename', 'given name'], required: true },
  { name: 'last_name', aliases: ['surname', 'family name'], required: true },
  { name: 'department' },
  { name: 'role', aliases: ['role name'] },
  { name: 'active' },
];
export const EMPLOYEE_CSV_MAX_BYTES = 2 * 1024 * 1024;
export const EMPLOYEE_CSV_MAX_ROWS = 10_000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TRUE = new Set(['1', 'true', 'yes', 'y', 'ja', 'x']);
const FALSE = new Set(['0', 'false', 'no', 'n', 'nein']);

interface PlannedRow {
  line: number;
  email: string;
  firstName: string;
  lastName: string;
  department: string | null;
  role: RoleView | null;
  active: boolean;
}

const importResult = objectSchema(
  {
    success: { const: true },
    created: { type: 'integer', minimum: 0 },
    updated: { type: 'integer', minimum: 0 },
    unchanged: { type: 'integer', minimum: 0 },
  },
  ['success', 'created', 'updated', 'unchanged'],
);

/** Checks every row against the database inside the import's transaction; returns the problems of all bad rows. */
async function planImport(
  host: HostRuntime,
  trx: Trx,
  ctx: StoreContext,
  customerId: string,
  rows: Array<{ line: number; values: Record<string, string> }>,
) {
  const problems: CsvProblem[] = [];
  const roles = new Map<string, RoleView>();
  for (const row of await allRolesOfCustomer(trx, customerId)) roles.set(row.name.toLowerCase(), toRoleView(row));
  const existing = new Map<string, EmployeeRow>();
  for (const row of await allEmployeesOfCustomer(trx, customerId)) existing.set(row.email, row);
  const firstLineOf = new Map<string, number>();
  const planned: PlannedRow[] = [];

  for (const { line, values } of rows) {
    const problem = (column: string, reason: string) => problems.push({ line, column, reason });
    const before = problems.length;
    const email = normaliseEmail(values.email ?? '');
    if (!EMAIL.test(email) || email.length > 255) problem('email', `"${email.slice(0, 80)}" is not an e-mail address.`);
    else if (firstLineOf.has(email)) problem('email', `${email} appears on line ${firstLineOf.get(email)} already.`);
    else firstLineOf.set(email, line);
    const text = (column: string, required: boolean) => {
      const value = (values[column] ?? '').trim();
      if (required && value === '') problem(column, `${column} is empty.`);
      if (value.length > 255) problem(column, `${column} is longer than 255 characters.`);
      return value;
    };
    const firstName = text('first_name', true);
    const lastName = text('last_name', true);
    const department = text('department', false) || null;
    const roleName = (values.role ?? '').trim();
    const role = roleName ? (roles.get(roleName.toLowerCase()) ?? null) : null;
    if (roleName && !role) problem('role', `The role "${roleName.slice(0, 80)}" does not exist.`);
    else if (role && !holdsAll(ctx, role.permissions))
      problem('role', `You cannot give the role "${role.name}": it holds permissions you do not have.`);
    const activeText = (values.active ?? '').trim().toLowerCase();
    const active = activeText === '' || TRUE.has(activeText);
    if (activeText !== '' && !TRUE.has(activeText) && !FALSE.has(activeText))
      problem('active', `active must be true or false, not "${activeText.slice(0, 20)}".`);
    const current = existing.get(email);
    if (current && !holdsAll(ctx, rolePermissionsOf(current)))
      problem('email', `You cannot change ${email}: their role holds permissions you do not have.`);
    if (current && !active && ctx.employee?.id === current.id)
      problem('active', 'You cannot deactivate your own login.');
    if (problems.length === before) planned.push({ line, email, firstName, lastName, department, role, active });
  }

  const newRows = planned.filter((p) => !existing.has(p.email));
  for (let i = 0; i < newRows.length; i += 500) {
    const chunk = newRows.slice(i, i + 500);
    const taken = new Set(
      await employeeEmailsAmong(
        trx,
        chunk.map((p) => p.email),
      ),
    );
    for (const p of chunk) {
      if (taken.has(p.email) || (await host.customers.findByEmail(trx, p.email)))
        problems.push({
          line: p.line,
          column: 'email',
          reason: `${p.email} has a login already; invite the person instead.`,
        });
    }
  }
  const sharedIds = new Set(
    await employeesLinkedElsewhere(
      trx,
      [...existing.values()].map((e) => e.id),
      customerId,
    ),
  );
  for (const p of planned) {
    const current = existing.get(p.email);
    if (
      current &&
      sharedIds.has(current.id) &&
      (current.first_name !== p.firstName || current.last_name !== p.lastName)
    )
      problems.push({
        line: p.line,
        column: 'first_name',
        reason: `${p.email} also works for another customer; only they can change their name.`,
      });
  }
  return { planned, existing, problems };
}

export function employeeCsvRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/employee-import',
      operationId: 'importEmployees',
      summary:
        'Imports employees from CSV (header: email, first_name, last_name, department, role, active): all rows or none.',
      description:
        'Rows are matched by e-mail: known employees are updated, new ones created and invited by mail. Every bad row is reported (400, one error per row with meta.line). ' +
        `Limits: ${EMPLOYEE_CSV_MAX_BYTES} bytes, ${EMPLOYEE_CSV_MAX_ROWS} rows (413). Separator , or ;. Nothing is deleted.`,
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'employee.manage',
      schemas: { bodyContentType: 'text/csv', body: { type: 'string' }, responses: { 200: importResult } },
      async handler({ ctx, body }) {
        const customer = declaredCustomer(ctx);
        const parsed = await parseCsv(body, {
          columns: EMPLOYEE_CSV_COLUMNS,
          maxBytes: EMPLOYEE_CSV_MAX_BYTES,
          maxRows: EMPLOYEE_CSV_MAX_ROWS,
        });
        return inTransaction(host.db, async (trx) => {
          const { planned, existing, problems } = await planImport(host, trx, ctx, customer.id, parsed.rows);
          if (parsed.problems.length || problems.length) throw csvProblemsError([...parsed.problems, ...problems]);
          const now = nowDb();
          let created = 0;
          let updated = 0;
          const revoke: string[] = [];
          for (const p of planned) {
            const current = existing.get(p.email);
            if (!current) {
              const id = newId();
              await insertEmployeeRecord(trx, {
                id,
                email: p.email,
                password_hash: null,
                first_name: p.firstName,
                last_name: p.lastName,
                active: true,
                created_at: now,
              });
              await insertEmployeeLink(trx, {
                id: newId(),
                employee_id: id,
                customer_id: customer.id,
                role_id: p.role?.id ?? null,
                department: p.department,
                active: p.active,
                created_at: now,
              });
              await createInvitation(host, trx, ctx, customer.id, {
                email: p.email,
                firstName: p.firstName,
                lastName: p.lastName,
                department: p.department,
                roleId: p.role?.id ?? null,
                employeeId: id,
              });
              created++;
              continue;
            }
            const personal = current.first_name !== p.firstName || current.last_name !== p.lastName;
            const wasActive = readBool(current.link_active);
            const link =
              (current.department ?? null) !== p.department ||
              (current.role_id ?? null) !== (p.role?.id ?? null) ||
              wasActive !== p.active;
            if (personal)
              await updateEmployeeRecord(trx, current.id, {
                first_name: p.firstName,
                last_name: p.lastName,
                updated_at: now,
              });
            if (link)
              await updateEmployeeLink(trx, current.link_id, {
                department: p.department,
                role_id: p.role?.id ?? null,
                active: p.active,
                updated_at: now,
              });
            if (wasActive && !p.active) revoke.push(current.id);
            if (personal || link) updated++;
          }
          for (const id of revoke) await host.auth.revokeActorSessions(trx, 'employee', id);
          return { success: true as const, created, updated, unchanged: planned.length - created - updated };
        });
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/employee-export',
      operationId: 'exportEmployees',
      summary:
        'All employees of the customer as CSV (RFC 4180, formula injection neutralised); the file re-imports unchanged.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'employee.read',
      schemas: {
        body: objectSchema({}),
        responses: {
          200: { contentType: 'text/csv', description: 'email, first_name, last_name, department, role, active' },
        },
      },
      async handler({ ctx, headers }) {
        const customer = declaredCustomer(ctx);
        const rows = await allEmployeesOfCustomer(host.db, customer.id, true);
        const csv = await toCsv(
          EMPLOYEE_CSV_COLUMNS.map((c) => c.name),
          rows.map((r) => [
            r.email,
            r.first_name,
            r.last_name,
            r.department ?? '',
            r.role_name ?? '',
            readBool(r.link_active) ? 'true' : 'false',
          ]),
        );
        headers.setHeader('Content-Disposition', 'attachment; filename="employees.csv"');
        return reply(200, csv, { contentType: 'text/csv; charset=utf-8' });
      },
    }),
  ];
}
