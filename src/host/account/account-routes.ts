import { Errors } from '../../lib/errors.js';

import { objectSchema, emptyBody, looseObject, successResponse, nullable } from '../../lib/schemas.js';
import type { RouteInput } from '../../lib/routes.js';
import type { StoreContext, StoreRoute } from '../../contract/index.js';
import type { HostInternals } from '../internals.js';
import { revokeSession } from '../auth/sessions.js';
import { CONTEXT_TOKEN_HEADER } from '../auth/store-context.js';
import { listAddresses } from '../customer/customer-repository.js';
import type { CustomerRow } from '../customer/rows.js';
import { passwordLogin } from './password-login.js';

const customerSchema = objectSchema(
  {
    id: { type: 'string' },
    customerNumber: { type: 'string' },
    email: { type: 'string' },
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    company: nullable({ type: 'string' }),
    groupId: nullable({ type: 'string' }),
    tags: { type: 'array', items: { type: 'string' } },
    active: { type: 'boolean' },
    salesChannelId: { type: 'string' },
  },
  ['id', 'customerNumber', 'email', 'firstName', 'lastName'],
);

export function contextView(ctx: StoreContext) {
  return {
    token: ctx.token,
    salesChannel: ctx.salesChannel,
    customer: ctx.customer,
    actor: ctx.actor,
    employee: ctx.employee,
    salesRepresentative: ctx.salesRepresentative,
    permissions: ctx.permissions === 'all' ? ['*'] : [...ctx.permissions].sort(),
  };
}

const customerResponse = { ...customerSchema, additionalProperties: true };
/** What the platform's clients send when they read the customer: a criteria body whose includes and associations shape the platform's answer. */
const customerReadBody = objectSchema({ includes: { type: 'object' }, associations: { type: 'object' } });

export function accountRoutes(internals: HostInternals): StoreRoute[] {
  const loginName = { type: 'string', minLength: 3, maxLength: 255 };
  const readCustomer = async (ctx: StoreContext) => {
    if (!ctx.customer) throw Errors.unauthorized();
    const customerRow = await internals
      .db<CustomerRow>('customers')
      .where({ id: ctx.customer.id })
      .first('default_billing_address_id', 'default_shipping_address_id');
    return {
      ...ctx.customer,
      defaultBillingAddressId: customerRow?.default_billing_address_id ?? null,
      defaultShippingAddressId: customerRow?.default_shipping_address_id ?? null,
      addresses: await listAddresses(internals.db, ctx.customer.id),
    };
  };
  return [
    {
      method: 'POST',
      path: '/account/login',
      operationId: 'login',
      summary:
        "Log in with e-mail (or `username`, the shop platform's name for it) and password (customer, employee or sales representative).",
      tags: ['Account'],
      auth: 'public',
      permission: null,
      rateLimit: { name: 'login', limit: 10, windowSeconds: 60, by: ['ip', 'body.email|username'] },
      schemas: {
        body: objectSchema(
          { email: loginName, username: loginName, password: { type: 'string', minLength: 1, maxLength: 1024 } },
          ['password'],
          { oneOf: [{ required: ['email'] }, { required: ['username'] }] },
        ),
        responses: { 200: objectSchema({ contextToken: { type: 'string' } }, ['contextToken']) },
      },
      async handler({
        ctx,
        body,
        headers,
      }: RouteInput<StoreContext, { email?: string; username?: string; password: string }, unknown, unknown>) {
        const result = await passwordLogin(
          internals,
          ctx.salesChannel,
          String(body.email ?? body.username),
          body.password,
        );
        if (!result)
          throw Errors.unauthorized('The e-mail address or password is wrong.', 'SUITE__INVALID_CREDENTIALS');
        headers.setHeader(CONTEXT_TOKEN_HEADER, result.token);
        return { contextToken: result.token };
      },
    },
    {
      method: 'POST',
      path: '/account/logout',
      operationId: 'logout',
      summary: 'Ends the session; the context token stops working at once.',
      tags: ['Account'],
      auth: 'login',
      permission: null,
      schemas: { body: emptyBody, responses: { 200: successResponse } },
      async handler({ ctx, headers }) {
        if (ctx.sessionId) await revokeSession(internals.db, ctx.sessionId);
        headers.removeHeader(CONTEXT_TOKEN_HEADER);
        return { success: true };
      },
    },
    {
      method: 'GET',
      path: '/context',
      operationId: 'readContext',
      summary: 'The caller: sales channel, customer, actor, employee, sales representative and permissions.',
      tags: ['Account'],
      auth: 'public',
      permission: null,
      schemas: { responses: { 200: looseObject } },
      handler({ ctx }) {
        return Promise.resolve(contextView(ctx));
      },
    },
    {
      method: 'GET',
      path: '/account/customer',
      operationId: 'readCustomer',
      summary: 'The business account the caller acts for, with its addresses.',
      tags: ['Account'],
      auth: 'login',
      permission: null,
      schemas: { responses: { 200: customerResponse } },
      handler: ({ ctx }) => readCustomer(ctx),
    },
    {
      method: 'POST',
      path: '/account/customer',
      operationId: 'readCustomerPost',
      summary:
        "The same as GET /account/customer: the shop platform's Store API reads the customer with a POST (its criteria body: includes and associations are accepted and ignored).",
      tags: ['Account'],
      auth: 'login',
      permission: null,
      schemas: { body: customerReadBody, responses: { 200: customerResponse } },
      handler: ({ ctx }) => readCustomer(ctx),
    },
  ];
}
