import { inTransaction, isDuplicateKeyError, readBool, readInt, type Executor, type Trx } from '../../lib/db.js';
import { AppError, Errors } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { jsonApiList, jsonApiListSchema, jsonApiPageQuery } from '../../lib/json-api.js';
import { noContent } from '../../lib/routes.js';
import { idParam, objectSchema, pathParams } from '../../lib/schemas.js';
import { nowDb } from '../../lib/time.js';
import { defineAdminRoute, type HostRuntime } from '../../contract/index.js';
import { emailTaken, TAG } from './context.js';
import {
  activityTypesPage,
  customerIdsAssignedTo,
  deleteAssignment,
  deleteRepresentative,
  findActivityType,
  findRepresentative,
  hasAssignment,
  insertActivityType,
  insertAssignment,
  insertRepresentative,
  loginEmailInUse,
  moveAssignment,
  representativesPage,
  toRepresentativeView,
  updateActivityType,
  updateRepresentative,
  type ActivityTypeChanges,
  type ActivityTypeRow,
  type RepresentativeChanges,
  type RepresentativeRow,
} from './repository.js';
import { emailSchema, nameSchema, passwordSchema, phoneSchema, representativeSchema } from './schemas.js';
import { activityTypeSchema } from './activities.js';

const PATH = '/suite-sales-representative';
const TYPE_PATH = '/suite-customer-activity-type';
const TYPE = 'suite_sales_representative';
const ACTIVITY_TYPE = 'suite_customer_activity_type';

const attributes = objectSchema(
  { ...representativeSchema.properties, customerIds: { type: 'array', items: { type: 'string' } } },
  [...representativeSchema.required, 'customerIds'],
);
const resource = objectSchema({ id: { type: 'string' }, type: { const: TYPE }, attributes }, [
  'id',
  'type',
  'attributes',
]);
const single = objectSchema({ data: resource }, ['data']);
const typeResource = objectSchema(
  { id: { type: 'string' }, type: { const: ACTIVITY_TYPE }, attributes: activityTypeSchema },
  ['id', 'type', 'attributes'],
);

async function toResource(executor: Executor, row: RepresentativeRow) {
  return {
    id: row.id,
    type: TYPE,
    attributes: { ...toRepresentativeView(row), customerIds: await customerIdsAssignedTo(executor, row.id) },
  };
}

async function existing(executor: Executor, id: string): Promise<RepresentativeRow> {
  const row = await findRepresentative(executor, id);
  if (!row) throw Errors.notFound('sales representative', id);
  return row;
}

/** Assigns customers to a representative; a customer assigned to someone else moves (one representative per customer). */
async function assign(host: HostRuntime, trx: Trx, representativeId: string, customerIds: string[]): Promise<void> {
  const unique = [...new Set(customerIds)];
  const found = new Set((await host.customers.getMany(trx, unique)).map((customer) => customer.id));
  const absent = unique.findIndex((id) => !found.has(id));
  if (absent >= 0)
    throw new AppError(404, 'SUITE__NOT_FOUND', `customer with id "${unique[absent]}" was not found.`, {
      pointer: `/customerIds/${customerIds.indexOf(unique[absent]!)}`,
      meta: { entity: 'customer' },
    });
  const now = nowDb();
  for (const customerId of unique) {
    if (await moveAssignment(trx, customerId, representativeId, now)) continue;
    if (await hasAssignment(trx, customerId)) continue;
    try {
      await insertAssignment(trx, {
        id: newId(),
        sales_representative_id: representativeId,
        customer_id: customerId,
        created_at: now,
      });
    } catch (error) {
      if (isDuplicateKeyError(error)) throw Errors.conflict();
      throw error;
    }
  }
}

const createBody = objectSchema(
  {
    email: emailSchema,
    password: passwordSchema,
    firstName: nameSchema,
    lastName: nameSchema,
    phone: phoneSchema,
    active: { type: 'boolean' },
    customerIds: { type: 'array', maxItems: 500, items: idParam },
  },
  ['email', 'password', 'firstName', 'lastName'],
);
const patchBody = objectSchema(
  {
    email: emailSchema,
    password: passwordSchema,
    firstName: nameSchema,
    lastName: nameSchema,
    phone: phoneSchema,
    active: { type: 'boolean' },
  },
  [],
  { minProperties: 1 },
);
const assignBody = objectSchema({ customerIds: { type: 'array', minItems: 1, maxItems: 500, items: idParam } }, [
  'customerIds',
]);
const typeProperties = {
  technicalName: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' },
  name: nameSchema,
  position: { type: 'integer', minimum: 0, maximum: 100000 },
  active: { type: 'boolean' },
} as const;
const typeCreateBody = objectSchema(typeProperties, ['technicalName', 'name']);
const typePatchBody = objectSchema(typeProperties, [], { minProperties: 1 });

async function uniqueEmail(host: HostRuntime, trx: Trx, email: string, exceptId?: string): Promise<string> {
  const normalised = email.trim().toLowerCase();
  if (await loginEmailInUse(host, trx, normalised, exceptId)) throw emailTaken();
  return normalised;
}

function typeResourceOf(row: ActivityTypeRow) {
  return {
    id: row.id,
    type: ACTIVITY_TYPE,
    attributes: {
      id: row.id,
      technicalName: row.technical_name,
      name: row.name,
      position: readInt(row.position),
      active: readBool(row.active),
    },
  };
}

const technicalNameTaken = () =>
  Errors.badRequest('SUITE__TECHNICAL_NAME_TAKEN', 'Another activity type has this technical name.', {
    pointer: '/technicalName',
  });

const tags = [TAG];

export function representativeAdminRoutes(host: HostRuntime) {
  return [
    ...representativeReadWriteRoutes(host),
    ...representativeChangeAndAssignRoutes(host),
    ...activityTypeAdminRoutes(host),
  ];
}

/** Sales representatives: the list, create, read. */
function representativeReadWriteRoutes(host: HostRuntime) {
  return [
    defineAdminRoute({
      method: 'GET',
      path: PATH,
      operationId: 'listSalesRepresentatives',
      summary: 'Sales representatives (JSON:API), by last name; term searches e-mail and name.',
      tags,
      auth: 'admin',
      permission: null,
      schemas: {
        query: objectSchema({ ...jsonApiPageQuery, term: { type: 'string', maxLength: 255 } }),
        responses: { 200: jsonApiListSchema(resource) },
      },
      async handler({ query }) {
        const { total, rows } = await representativesPage(host.db, query.term, query.limit, query.page);
        const data = [];
        for (const row of rows) data.push(await toResource(host.db, row));
        return jsonApiList(data, {
          path: PATH,
          page: query.page,
          limit: query.limit,
          total,
          filters: { term: query.term },
        });
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: PATH,
      operationId: 'createSalesRepresentative',
      summary:
        'Creates a representative login (the e-mail must not be used by any customer, employee or representative), optionally with assigned customers.',
      tags,
      auth: 'admin',
      permission: null,
      schemas: { body: createBody, responses: { 200: single } },
      async handler({ body }) {
        const passwordHash = await host.auth.hashPassword(body.password);
        return inTransaction(host.db, async (trx) => {
          const id = newId();
          try {
            await insertRepresentative(trx, {
              id,
              email: await uniqueEmail(host, trx, body.email),
              password_hash: passwordHash,
              first_name: body.firstName.trim(),
              last_name: body.lastName.trim(),
              phone: body.phone?.trim() || null,
              active: body.active ?? true,
              created_at: nowDb(),
            });
          } catch (error) {
            if (isDuplicateKeyError(error)) throw emailTaken();
            throw error;
          }
          if (body.customerIds?.length) await assign(host, trx, id, body.customerIds);
          return { data: await toResource(trx, await existing(trx, id)) };
        });
      },
    }),
    defineAdminRoute({
      method: 'GET',
      path: `${PATH}/{id}`,
      operationId: 'readSalesRepresentative',
      summary: 'One representative with the ids of the assigned customers.',
      tags,
      auth: 'admin',
      permission: null,
      schemas: { params: pathParams('id'), responses: { 200: single } },
      async handler({ params }) {
        return { data: await toResource(host.db, await existing(host.db, params.id)) };
      },
    }),
  ];
}

/** A sales representative: update, delete, assign and unassign customers. */
function representativeChangeAndAssignRoutes(host: HostRuntime) {
  return [
    defineAdminRoute({
      method: 'PATCH',
      path: `${PATH}/{id}`,
      operationId: 'updateSalesRepresentative',
      summary: 'Changes a representative; deactivating or setting a new password ends their sessions.',
      tags,
      auth: 'admin',
      permission: null,
      schemas: { params: pathParams('id'), body: patchBody, responses: { 200: single } },
      async handler({ params, body }) {
        const passwordHash = body.password ? await host.auth.hashPassword(body.password) : null;
        return inTransaction(host.db, async (trx) => {
          await existing(trx, params.id);
          const update: RepresentativeChanges = { updated_at: nowDb() };
          if (body.email !== undefined) update.email = await uniqueEmail(host, trx, body.email, params.id);
          if (passwordHash) update.password_hash = passwordHash;
          if (body.firstName !== undefined) update.first_name = body.firstName.trim();
          if (body.lastName !== undefined) update.last_name = body.lastName.trim();
          if (body.phone !== undefined) update.phone = body.phone?.trim() || null;
          if (body.active !== undefined) update.active = body.active;
          try {
            await updateRepresentative(trx, params.id, update);
          } catch (error) {
            if (isDuplicateKeyError(error)) throw emailTaken();
            throw error;
          }
          if (body.active === false || passwordHash)
            await host.auth.revokeActorSessions(trx, 'salesRepresentative', params.id);
          return { data: await toResource(trx, await existing(trx, params.id)) };
        });
      },
    }),
    defineAdminRoute({
      method: 'DELETE',
      path: `${PATH}/{id}`,
      operationId: 'deleteSalesRepresentative',
      summary:
        'Deletes a representative and their assignments; their sessions end, the activities they recorded stay with the customers.',
      tags,
      auth: 'admin',
      permission: null,
      schemas: { params: pathParams('id'), responses: { 204: null } },
      async handler({ params }) {
        await inTransaction(host.db, async (trx) => {
          await existing(trx, params.id);
          await host.auth.revokeActorSessions(trx, 'salesRepresentative', params.id);
          await deleteRepresentative(trx, params.id);
        });
        return noContent();
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: `${PATH}/{id}/customers`,
      operationId: 'assignSalesRepresentativeCustomers',
      summary:
        'Assigns customers to the representative; a customer looked after by another representative moves to this one.',
      tags,
      auth: 'admin',
      permission: null,
      schemas: { params: pathParams('id'), body: assignBody, responses: { 200: single } },
      async handler({ params, body }) {
        return inTransaction(host.db, async (trx) => {
          await existing(trx, params.id);
          await assign(host, trx, params.id, body.customerIds);
          return { data: await toResource(trx, await existing(trx, params.id)) };
        });
      },
    }),
    defineAdminRoute({
      method: 'DELETE',
      path: `${PATH}/{id}/customers/{customerId}`,
      operationId: 'unassignSalesRepresentativeCustomer',
      summary: 'Takes a customer away from the representative; their sessions acting for it end at the next request.',
      tags,
      auth: 'admin',
      permission: null,
      schemas: { params: pathParams('id', 'customerId'), responses: { 204: null } },
      async handler({ params }) {
        const removed = await deleteAssignment(host.db, params.id, params.customerId);
        if (!removed) throw Errors.notFound('assignment', params.customerId);
        return noContent();
      },
    }),
  ];
}

/** Customer activity types: the list, create, update. */
function activityTypeAdminRoutes(host: HostRuntime) {
  return [
    defineAdminRoute({
      method: 'GET',
      path: TYPE_PATH,
      operationId: 'listCustomerActivityTypes',
      summary: 'Customer activity types (JSON:API), in their order.',
      tags,
      auth: 'admin',
      permission: null,
      schemas: { query: objectSchema(jsonApiPageQuery), responses: { 200: jsonApiListSchema(typeResource) } },
      async handler({ query }) {
        const { total, rows } = await activityTypesPage(host.db, query.limit, query.page);
        return jsonApiList(rows.map(typeResourceOf), { path: TYPE_PATH, page: query.page, limit: query.limit, total });
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: TYPE_PATH,
      operationId: 'createCustomerActivityType',
      summary: 'Adds a customer activity type.',
      tags,
      auth: 'admin',
      permission: null,
      schemas: { body: typeCreateBody, responses: { 200: objectSchema({ data: typeResource }, ['data']) } },
      async handler({ body }) {
        const id = newId();
        try {
          await insertActivityType(host.db, {
            id,
            technical_name: body.technicalName,
            name: body.name.trim(),
            position: body.position ?? 0,
            active: body.active ?? true,
            created_at: nowDb(),
          });
        } catch (error) {
          if (isDuplicateKeyError(error)) throw technicalNameTaken();
          throw error;
        }
        return {
          data: typeResourceOf((await findActivityType(host.db, id))!),
        };
      },
    }),
    defineAdminRoute({
      method: 'PATCH',
      path: `${TYPE_PATH}/{id}`,
      operationId: 'updateCustomerActivityType',
      summary: 'Changes a customer activity type; an inactive type can no longer be chosen for new activities.',
      tags,
      auth: 'admin',
      permission: null,
      schemas: {
        params: pathParams('id'),
        body: typePatchBody,
        responses: { 200: objectSchema({ data: typeResource }, ['data']) },
      },
      async handler({ params, body }) {
        const update: ActivityTypeChanges = { updated_at: nowDb() };
        if (body.technicalName !== undefined) update.technical_name = body.technicalName;
        if (body.name !== undefined) update.name = body.name.trim();
        if (body.position !== undefined) update.position = body.position;
        if (body.active !== undefined) update.active = body.active;
        let changed: number;
        try {
          changed = await updateActivityType(host.db, params.id, update);
        } catch (error) {
          if (isDuplicateKeyError(error)) throw technicalNameTaken();
          throw error;
        }
        if (!changed) throw Errors.notFound('customer activity type', params.id);
        return {
          data: typeResourceOf((await findActivityType(host.db, params.id))!),
        };
      },
    }),
  ];
}
