import type { Knex } from 'knex';
import { searchByCriteria, type Criteria, type CriteriaSpec } from '../../lib/criteria.js';
import type { HostRuntime } from '../../host/contract.js';
import { EMPLOYEES, LINKS, selectEmployeeColumns, toEmployeeView } from '../employee/repository.js';

/** Employees linked to any of `customerIds` (a subquery), one entry per employee–customer link. */
export async function employeesOfLinks(host: HostRuntime, customerIds: Knex.QueryBuilder, criteria: Criteria, spec: CriteriaSpec) {
  const base = host.db(`${LINKS} as ec`)
    .join(`${EMPLOYEES} as e`, 'e.id', 'ec.employee_id')
    .join('customers as c', 'c.id', 'ec.customer_id')
    .leftJoin('b2b_employee_roles as r', 'r.id', 'ec.role_id')
    .whereIn('ec.customer_id', customerIds);
  const page = await searchByCriteria<Record<string, any>>(base, criteria, spec, (qb) => selectEmployeeColumns(host.db, qb).select('ec.customer_id', 'c.company'));
  return { total: page.total, data: page.rows.map((row) => ({ ...toEmployeeView(row), customerId: row.customer_id as string, company: (row.company as string | null) ?? null })) };
}
