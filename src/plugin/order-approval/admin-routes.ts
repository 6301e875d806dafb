import { defineAdminRoute, type HostRuntime } from '../../contract/index.js';
import { readInt } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { jsonApiList, jsonApiListSchema, jsonApiPageQuery } from '../../lib/json-api.js';
import { fromMinor } from '../../lib/money.js';
import { idParam, objectSchema, pathParams } from '../../lib/schemas.js';
import { fromDbTime, toDbTime } from '../../lib/time.js';
import { adminApprovalPage, APPROVAL_MODES, loadSettings } from './repository.js';

const TAGS = ['Companies'];
const time = { type: 'string', format: 'date-time' } as const;
const STATUSES = ['pending', 'approved', 'declined', 'ordering', 'ordered'] as const;

const approvalResource = objectSchema(
  {
    id: { type: 'string' },
    type: { const: 'suite_order_approval' },
    attributes: objectSchema(
      {
        approvalNumber: { type: 'string' },
        customerId: { type: 'string' },
        requesterName: { type: 'string' },
        status: { enum: [...STATUSES] },
        total: { type: 'number' },
        currency: { type: 'string' },
        createdAt: time,
      },
      ['approvalNumber', 'customerId', 'requesterName', 'status', 'total', 'currency', 'createdAt'],
    ),
  },
  ['id', 'type', 'attributes'],
);

/**
 * The operator's read of order approvals (the console): a company's approval settings, and the
 * approvals across all companies — the start page counts those pending since before a time.
 * Deciding stays with the company's approvers in the storefront.
 */
export function orderApprovalAdminRoutes(host: HostRuntime) {
  return [
    defineAdminRoute({
      method: 'GET',
      path: '/suite-company/{customerId}/order-approval-settings',
      operationId: 'readCompanyApprovalSettings',
      summary:
        "A customer's approval settings: who approves (the company's administrators and every employee whose role may approve, only the administrators, or n of the named approvers).",
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: {
        params: pathParams('customerId'),
        responses: {
          200: objectSchema(
            {
              data: objectSchema(
                {
                  mode: { enum: [...APPROVAL_MODES] },
                  approverEmployeeIds: { type: 'array', items: { type: 'string' } },
                  nValue: { type: 'integer' },
                },
                ['mode', 'approverEmployeeIds', 'nValue'],
              ),
            },
            ['data'],
          ),
        },
      },
      async handler({ params }) {
        if (!(await host.customers.get(host.db, params.customerId)))
          throw Errors.notFound('customer', params.customerId);
        return { data: await loadSettings(host.db, params.customerId) };
      },
    }),
    defineAdminRoute({
      method: 'GET',
      path: '/suite-order-approval',
      operationId: 'listOrderApprovalsAdmin',
      summary:
        'Order approvals of all customers, oldest first (JSON:API, paged; filter by status, customer, and created before a time).',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: {
        query: objectSchema({
          ...jsonApiPageQuery,
          status: { enum: [...STATUSES] },
          customerId: idParam,
          createdBefore: time,
        }),
        responses: { 200: jsonApiListSchema(approvalResource) },
      },
      async handler({ query }) {
        const { total, rows } = await adminApprovalPage(
          host.db,
          {
            status: query.status,
            customerId: query.customerId,
            createdBefore: query.createdBefore ? toDbTime(query.createdBefore) : undefined,
          },
          query.page,
          query.limit,
        );
        const customers = new Map(
          (await host.customers.getMany(host.db, [...new Set(rows.map((row) => row.customer_id))])).map((customer) => [
            customer.id,
            customer,
          ]),
        );
        const precisionOf = async (customerId: string) => {
          const customer = customers.get(customerId);
          return customer
            ? ((await host.customers.salesChannel(host.db, customer.salesChannelId))?.currencyPrecision ?? 2)
            : 2;
        };
        const data = [];
        for (const row of rows)
          data.push({
            id: row.id,
            type: 'suite_order_approval' as const,
            attributes: {
              approvalNumber: row.approval_number,
              customerId: row.customer_id,
              requesterName: row.requester_name,
              status: row.status,
              total: fromMinor(readInt(row.total), await precisionOf(row.customer_id)),
              currency: row.currency_iso,
              createdAt: fromDbTime(row.created_at)!,
            },
          });
        return jsonApiList(data, {
          path: '/suite-order-approval',
          page: query.page,
          limit: query.limit,
          total,
          filters: { status: query.status, customerId: query.customerId, createdBefore: query.createdBefore },
        });
      },
    }),
  ];
}
