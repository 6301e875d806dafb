import { defineAdminRoute, type HostRuntime } from '../../contract/index.js';
import { idParam, objectSchema } from '../../lib/schemas.js';
import { importCustomerProductNumbersFor } from './import.js';
import { importResult } from './schemas.js';

/** The operator's import of a customer's product numbers (the console's page), beside the customer's own Store API import. */
export function customerProductNumberAdminRoutes(host: HostRuntime) {
  return [
    defineAdminRoute({
      method: 'POST',
      path: '/suite-customer-product-number/import',
      operationId: 'importSuiteCustomerProductNumbers',
      summary:
        "Imports a customer's product numbers from CSV (header: product_number, customer_product_number; separator , or ;): all rows or none.",
      description:
        'The same file, checks and messages as the customer’s own import (POST /store-api/b2b/customer-product-number-import), for any product of the catalog. ' +
        'Every bad row is reported (400, one error per row with meta.line); an unknown customer is a 404. ' +
        'Row limit: the plugin setting customerProductNumberImportMaxRows; size limit 5 MB (413). ' +
        'With dryRun=true the file is checked and counted the same way, and nothing is written (a preview).',
      tags: ['Customer product numbers'],
      auth: 'admin',
      permission: null,
      schemas: {
        query: objectSchema(
          {
            customerId: idParam,
            dryRun: { type: 'boolean', default: false, description: 'Check and count only; write nothing.' },
          },
          ['customerId'],
        ),
        bodyContentType: 'text/csv',
        body: { type: 'string' },
        responses: { 200: importResult },
      },
      handler: ({ body, query }) =>
        importCustomerProductNumbersFor(host, query.customerId, body, { dryRun: query.dryRun }),
    }),
  ];
}
