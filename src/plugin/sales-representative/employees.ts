import { escapeLike, searchByCriteria, type Criteria, type CriteriaSpec } from '../../lib/criteria.js';
import { likeSql } from '../../lib/db.js';
import type { CustomerRef, HostRuntime } from '../../host/contract.js';
import { EMPLOYEES, LINKS, selectEmployeeColumns, toEmployeeView } from '../employee/repository.js';
import { storeList } from '../../lib/store-list.js';

/** An employee row as the employee add-on reads it, with the customer of the link. */
type LinkedEmployeeRow = Parameters<typeof toEmployeeView>[0] & { customer_id: string };

/** Case-insensitive substring match, as the term's LIKE is on every database (likeSql). */
export function containsText(value: string | null, term: string): boolean {
  return value !== null && value.toLowerCase().includes(term.toLowerCase());
}

/**
 * Employees linked to any of `customers`, one entry per employee–customer link. The term searches
 * the employee's columns of `spec` and the customer's company name (matched on the customers
 * already read, so no host table is joined).
 */
export async function employeesOfLinks(
  host: HostRuntime,
  customers: CustomerRef[],
  criteria: Criteria,
  spec: CriteriaSpec,
) {
  const companyOf = new Map(customers.map((customer) => [customer.id, customer.company]));
  const base = host
    .db(`${LINKS} as ec`)
    .join(`${EMPLOYEES} as e`, 'e.id', 'ec.employee_id')
    .leftJoin('b2b_employee_roles as r', 'r.id', 'ec.role_id')
    .whereIn('ec.customer_id', [...companyOf.keys()]);
  const { term: rawTerm, ...withoutTerm } = criteria;
  const term = rawTerm?.trim();
  if (term) {
    const pattern = `%${escapeLike(term)}%`;
    const ofMatchingCompany = customers
      .filter((customer) => containsText(customer.company, term))
      .map((customer) => customer.id);
    base.where((q) => {
      for (const column of spec.termColumns ?? []) q.orWhereRaw(likeSql(q), [column, pattern]);
      if (ofMatchingCompany.length) q.orWhereIn('ec.customer_id', ofMatchingCompany);
    });
  }
  const page = await searchByCriteria<LinkedEmployeeRow>(base, withoutTerm, spec, (qb) =>
    selectEmployeeColumns(host.db, qb).select('ec.customer_id'),
  );
  return storeList(
    page.rows.map((row) => ({
      ...toEmployeeView(row),
      customerId: row.customer_id,
      company: companyOf.get(row.customer_id) ?? null,
    })),
    page,
  );
}
