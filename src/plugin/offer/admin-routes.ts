import { defineAdminRoute, type HostRuntime } from '../../contract/index.js';
import { jsonApiList, jsonApiListSchema, jsonApiPageQuery } from '../../lib/json-api.js';
import { objectSchema } from '../../lib/schemas.js';
import { fromDbTime, nowDb } from '../../lib/time.js';
import { adminOfferPage, effectiveStatus } from './repository.js';
import { OFFER_STATUSES } from './states.js';

const time = { type: 'string', format: 'date-time' } as const;

const offerResource = objectSchema(
  {
    id: { type: 'string' },
    type: { const: 'suite_offer' },
    attributes: objectSchema(
      {
        offerNumber: { type: 'string' },
        customerId: { type: 'string' },
        status: { enum: [...OFFER_STATUSES] },
        subject: { type: 'string' },
        requestedByName: { type: 'string' },
        currency: { type: 'string' },
        createdAt: time,
      },
      ['offerNumber', 'customerId', 'status', 'subject', 'requestedByName', 'currency', 'createdAt'],
    ),
  },
  ['id', 'type', 'attributes'],
);

/**
 * The operator's read of offers across all customers (the console's start page counts the
 * requested ones). Pricing and mailing offers stays with the sales representatives' Store API.
 */
export function offerAdminRoutes(host: HostRuntime) {
  return [
    defineAdminRoute({
      method: 'GET',
      path: '/suite-offer',
      operationId: 'listOffersAdmin',
      summary:
        'Offers of all customers, oldest first (JSON:API, paged; filter by status as the API shows it: an open offer past its validity is `expired`).',
      tags: ['Offers'],
      auth: 'admin',
      permission: null,
      schemas: {
        query: objectSchema({ ...jsonApiPageQuery, status: { enum: [...OFFER_STATUSES] } }),
        responses: { 200: jsonApiListSchema(offerResource) },
      },
      async handler({ query }) {
        const now = nowDb();
        const { total, rows } = await adminOfferPage(host.db, query.status, now, query.page, query.limit);
        return jsonApiList(
          rows.map((row) => ({
            id: row.id,
            type: 'suite_offer' as const,
            attributes: {
              offerNumber: row.offer_number,
              customerId: row.customer_id,
              status: effectiveStatus(row, now),
              subject: row.subject,
              requestedByName: row.requested_by_name,
              currency: row.currency_iso,
              createdAt: fromDbTime(row.created_at)!,
            },
          })),
          {
            path: '/suite-offer',
            page: query.page,
            limit: query.limit,
            total,
            filters: { status: query.status },
          },
        );
      },
    }),
  ];
}
