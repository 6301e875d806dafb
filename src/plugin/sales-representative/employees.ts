import type { Criteria, CriteriaSpec } from '../../lib/criteria.js';
import type { CustomerRef, HostRuntime } from '../../contract/index.js';
import { toEmployeeView } from '../employee/index.js';
import { storeList } from '../../lib/store-list.js';
import { searchLinkedEmployees } from './repository.js';

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
  const { term: rawTerm, ...withoutTerm } = criteria;
  const term = rawTerm?.trim();
  const page = await searchLinkedEmployees(
    host.db,
    [...companyOf.keys()],
    withoutTerm,
    spec,
    term
      ? {
          text: term,
          customerIdsOfTerm: customers
            .filter((customer) => containsText(customer.company, term))
            .map((customer) => customer.id),
        }
      : undefined,
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
