import { inTransaction, readJson, writeJson, type Executor } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import {
  jsonApiList,
  jsonApiListSchema,
  jsonApiPageQuery,
  jsonApiSortOf,
  jsonApiSortQuery,
} from '../../../lib/json-api.js';
import { idParam, nullable, objectSchema, pathParams } from '../../../lib/schemas.js';
import { fromDbTime, nowDb } from '../../../lib/time.js';
import { defineAdminRoute, defineStoreRoute, type HostRuntime } from '../../../contract/index.js';
import { emailSchema, nameSchema, normaliseEmail } from '../common.js';
import { MAIL } from '../mail.js';
import { isEmployeeEmail } from '../repository.js';
import {
  accountRequestsPage,
  decideOpenAccountRequest,
  findAccountRequest,
  insertAccountRequest,
  type AccountRequestRow,
} from './repository.js';

const TAGS = ['Account requests'];
const TYPE = 'b2b_account_request';
const ADMIN_PATH = '/b2b-account-request';

const shortText = (max: number) => ({ type: 'string', maxLength: max }) as const;
const addressSchema = objectSchema({
  street: shortText(255),
  zipcode: shortText(32),
  city: shortText(255),
  countryCode: { type: 'string', pattern: '^[A-Z]{2}$' },
});

const requestBody = objectSchema(
  {
    company: nameSchema,
    firstName: nameSchema,
    lastName: nameSchema,
    email: emailSchema,
    phone: shortText(64),
    vatId: shortText(64),
    address: addressSchema,
    message: shortText(5000),
  },
  ['company', 'firstName', 'lastName', 'email'],
);

const attributesSchema = objectSchema(
  {
    salesChannelId: { type: 'string' },
    status: { enum: ['open', 'accepted', 'declined'] },
    company: { type: 'string' },
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    email: { type: 'string' },
    phone: nullable({ type: 'string' }),
    vatId: nullable({ type: 'string' }),
    address: nullable({ type: 'object' }),
    message: nullable({ type: 'string' }),
    customerId: nullable({ type: 'string' }),
    decisionComment: nullable({ type: 'string' }),
    decidedAt: nullable({ type: 'string', format: 'date-time' }),
    createdAt: { type: 'string', format: 'date-time' },
  },
  ['salesChannelId', 'status', 'company', 'firstName', 'lastName', 'email', 'customerId', 'createdAt'],
);
const resourceSchema = objectSchema({ id: { type: 'string' }, type: { const: TYPE }, attributes: attributesSchema }, [
  'id',
  'type',
  'attributes',
]);

async function findRequest(executor: Executor, id: string): Promise<AccountRequestRow> {
  const row = await findAccountRequest(executor, id);
  if (!row) throw Errors.notFound('account request', id);
  return row;
}

function toResource(row: AccountRequestRow) {
  return {
    id: row.id,
    type: TYPE,
    attributes: {
      salesChannelId: row.sales_channel_id,
      status: row.status,
      company: row.company,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      phone: row.phone ?? null,
      vatId: row.vat_id ?? null,
      address: readJson<Record<string, unknown> | null>(row.address, null),
      message: row.message ?? null,
      customerId: row.customer_id ?? null,
      decisionComment: row.decision_comment ?? null,
      decidedAt: fromDbTime(row.decided_at),
      createdAt: fromDbTime(row.created_at)!,
    },
  };
}

export function accountRequestStoreRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/account-request',
      operationId: 'requestBusinessAccount',
      summary:
        'A prospective business customer asks for an account; the operator accepts or declines it through the Admin API. A confirmation is mailed.',
      tags: TAGS,
      auth: 'public',
      permission: null,
      rateLimit: [
        { name: 'account-request-ip', limit: 10, windowSeconds: 3600, by: ['ip'] },
        { name: 'account-request-email', limit: 3, windowSeconds: 3600, by: ['body.email'] },
      ],
      schemas: { body: requestBody, responses: { 200: objectSchema({}) } },
      async handler({ ctx, body }) {
        const email = normaliseEmail(body.email);
        await inTransaction(host.db, async (trx) => {
          await insertAccountRequest(trx, {
            id: newId(),
            sales_channel_id: ctx.salesChannel.id,
            status: 'open',
            company: body.company.trim(),
            first_name: body.firstName.trim(),
            last_name: body.lastName.trim(),
            email,
            phone: body.phone ?? null,
            vat_id: body.vatId ?? null,
            address: body.address ? writeJson(body.address) : null,
            message: body.message ?? null,
            created_at: nowDb(),
          });
          await host.mail.enqueue(trx, {
            template: MAIL.accountRequestReceived,
            to: email,
            salesChannelId: ctx.salesChannel.id,
            data: { firstName: body.firstName, lastName: body.lastName, company: body.company },
          });
        });
        return {};
      },
    }),
  ];
}

export function accountRequestAdminRoutes(host: HostRuntime) {
  return [...accountRequestReadRoutes(host), ...accountRequestDecisionRoutes(host)];
}

/** Account requests: the list and one request. */
function accountRequestReadRoutes(host: HostRuntime) {
  return [
    defineAdminRoute({
      method: 'GET',
      path: ADMIN_PATH,
      operationId: 'listAccountRequests',
      summary: 'Business account requests, newest first unless sorted (JSON:API; filter by status).',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: {
        query: objectSchema({
          ...jsonApiPageQuery,
          ...jsonApiSortQuery(['createdAt', 'company'], 'newest first'),
          status: { enum: ['open', 'accepted', 'declined'] },
        }),
        responses: { 200: jsonApiListSchema(resourceSchema) },
      },
      async handler({ query }) {
        const sort = jsonApiSortOf(query.sort ?? '-createdAt');
        const { rows, total } = await accountRequestsPage(host.db, {
          status: query.status,
          sortBy: sort.field === 'company' ? 'company' : 'created_at',
          order: sort.order,
          limit: query.limit,
          offset: (query.page - 1) * query.limit,
        });
        return jsonApiList(rows.map(toResource), {
          path: ADMIN_PATH,
          page: query.page,
          limit: query.limit,
          total,
          filters: { status: query.status, sort: query.sort },
        });
      },
    }),
    defineAdminRoute({
      method: 'GET',
      path: `${ADMIN_PATH}/{id}`,
      operationId: 'readAccountRequest',
      summary: 'One business account request.',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: { params: pathParams('id'), responses: { 200: objectSchema({ data: resourceSchema }, ['data']) } },
      async handler({ params }) {
        return { data: toResource(await findRequest(host.db, params.id)) };
      },
    }),
  ];
}

/** An account request accepted or declined. */
function accountRequestDecisionRoutes(host: HostRuntime) {
  const decisionBody = objectSchema({ comment: shortText(1024) });
  const openRequest = async (trx: Executor, id: string) => {
    const row = await findRequest(trx, id);
    if (row.status !== 'open')
      throw Errors.badRequest('SUITE__ACCOUNT_REQUEST_DECIDED', `The request was ${row.status} already.`);
    return row;
  };

  return [
    defineAdminRoute({
      method: 'POST',
      path: `/_action${ADMIN_PATH}/{id}/accept`,
      operationId: 'acceptAccountRequest',
      summary:
        'Accepts a request: creates the customer (without a password; they log in by a mailed login link) and mails them.',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: {
        params: pathParams('id'),
        body: objectSchema({ groupId: nullable(idParam), comment: shortText(1024) }),
        responses: { 200: objectSchema({ data: resourceSchema }, ['data']) },
      },
      async handler({ params, body }) {
        const row = await inTransaction(host.db, async (trx) => {
          const request = await openRequest(trx, params.id);
          if (await host.customers.findByEmail(trx, request.email))
            throw Errors.badRequest('SUITE__EMAIL_TAKEN', 'A customer with this e-mail address exists already.');
          if (await isEmployeeEmail(trx, request.email))
            throw Errors.badRequest('SUITE__EMAIL_TAKEN', 'An employee login uses this e-mail address already.');
          const salesChannel = await host.customers.salesChannel(trx, request.sales_channel_id);
          if (!salesChannel)
            throw Errors.badRequest(
              'SUITE__SALES_CHANNEL_GONE',
              'The request’s sales channel does not exist any more.',
            );
          if (body.groupId && (await host.customerGroups.getMany(trx, [body.groupId])).length === 0)
            throw Errors.badRequest('SUITE__INVALID_INPUT', `Customer group "${body.groupId}" does not exist.`, {
              pointer: '/groupId',
            });
          const customer = await host.customers.create(trx, {
            salesChannelId: salesChannel.id,
            email: request.email,
            password: null,
            firstName: request.first_name,
            lastName: request.last_name,
            company: request.company,
            groupId: body.groupId ?? null,
          });
          const now = nowDb();
          const claimed = await decideOpenAccountRequest(trx, request.id, {
            status: 'accepted',
            customer_id: customer.id,
            decision_comment: body.comment ?? null,
            decided_at: now,
            updated_at: now,
          });
          if (claimed !== 1) throw Errors.conflict();
          await host.mail.enqueue(trx, {
            template: MAIL.accountRequestAccepted,
            to: request.email,
            salesChannelId: salesChannel.id,
            data: {
              firstName: request.first_name,
              lastName: request.last_name,
              company: request.company,
              email: request.email,
              loginUrl: host.storefront.url(salesChannel, '/account/login'),
            },
          });
          return findRequest(trx, request.id);
        });
        return { data: toResource(row) };
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: `/_action${ADMIN_PATH}/{id}/decline`,
      operationId: 'declineAccountRequest',
      summary: 'Declines a request.',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: {
        params: pathParams('id'),
        body: decisionBody,
        responses: { 200: objectSchema({ data: resourceSchema }, ['data']) },
      },
      async handler({ params, body }) {
        const row = await inTransaction(host.db, async (trx) => {
          const request = await openRequest(trx, params.id);
          const now = nowDb();
          const claimed = await decideOpenAccountRequest(trx, request.id, {
            status: 'declined',
            decision_comment: body.comment ?? null,
            decided_at: now,
            updated_at: now,
          });
          if (claimed !== 1) throw Errors.conflict();
          return findRequest(trx, request.id);
        });
        return { data: toResource(row) };
      },
    }),
  ];
}
