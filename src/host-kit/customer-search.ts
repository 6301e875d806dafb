import type { CriteriaSpec } from '../lib/criteria.js';

/** The fields plugins search customers by through the contract (`customers.search`); see CustomerScope. */
export const CUSTOMER_SEARCH_CRITERIA: CriteriaSpec = {
  fields: {
    id: { column: 'customers.id', type: 'id' },
    customerNumber: { column: 'customers.customer_number', type: 'string' },
    company: { column: 'customers.company', type: 'string' },
    email: { column: 'customers.email', type: 'string' },
    firstName: { column: 'customers.first_name', type: 'string' },
    lastName: { column: 'customers.last_name', type: 'string' },
    groupId: { column: 'customers.group_id', type: 'id' },
  },
  termColumns: [
    'customers.company',
    'customers.customer_number',
    'customers.email',
    'customers.first_name',
    'customers.last_name',
  ],
  defaultSort: [
    { column: 'customers.company', order: 'asc' },
    { column: 'customers.id', order: 'asc' },
  ],
  idColumn: 'customers.id',
};
