import { criteriaSchema, MAX_LIMIT, type Criteria } from '../../lib/criteria.js';
import { inTransaction, isForeignKeyError, readBool, readInt, type Executor } from '../../lib/db.js';
import { AppError, Errors } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { SchemaInput } from '../../lib/routes.js';
import { emptyBody, idParam, nullable, objectSchema, pathParams, successResponse } from '../../lib/schemas.js';
import { storeList, storeListOf, storeListResponse } from '../../lib/store-list.js';
import { dateTimeSchema, fromDbTime, nowDb } from '../../lib/time.js';
import { storableTime } from './dates.js';
import { defineStoreRoute, type HostRuntime, type StoreContext } from '../../contract/index.js';
import { TAG } from './context.js';
import { isLinked } from '../employee/index.js';
import {
  activeActivityTypes,
  activityCountsByType,
  activityCriteria,
  assignedCustomerIds,
  deleteActivity,
  findActivity,
  findActivityType,
  insertActivity,
  isAssigned,
  searchActivities,
  searchActivityTypes,
  updateActivity,
  type ActivityRow,
  type ActivityTypeRow,
} from './repository.js';
import { pagingQuery } from './schemas.js';
import { declaredRepresentative } from '../declared.js';

const text = { type: 'string' } as const;
const nullableId = nullable(idParam);

export const activityTypeSchema = objectSchema(
  { id: text, technicalName: text, name: text, position: { type: 'integer' }, active: { type: 'boolean' } },
  ['id', 'technicalName', 'name', 'position', 'active'],
);
const activityTypeWithCount = objectSchema(
  { ...activityTypeSchema.properties, activityCount: { type: 'integer', minimum: 0 } },
  ['id', 'technicalName', 'name', 'position', 'active', 'activityCount'],
);

export const activitySchema = objectSchema(
  {
    id: text,
    customerId: text,
    typeId: text,
    type: objectSchema({ id: text, technicalName: text, name: text }, ['id', 'technicalName', 'name']),
    salesRepresentativeId: nullable(text),
    employeeId: nullable(text),
    orderId: nullable(text),
    subject: text,
    comment: nullable(text),
    activityDate: dateTimeSchema,
    followUpDate: nullable(dateTimeSchema),
    createdAt: dateTimeSchema,
    updatedAt: nullable(dateTimeSchema),
  },
  [
    'id',
    'customerId',
    'typeId',
    'type',
    'salesRepresentativeId',
    'employeeId',
    'orderId',
    'subject',
    'comment',
    'activityDate',
    'followUpDate',
    'createdAt',
    'updatedAt',
  ],
);

const editable = {
  typeId: idParam,
  subject: { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' },
  comment: nullable({ type: 'string', maxLength: 10000 }),
  activityDate: dateTimeSchema,
  followUpDate: nullable(dateTimeSchema),
  employeeId: nullableId,
  orderId: nullableId,
} as const;
const createBody = objectSchema({ customerId: idParam, ...editable }, ['typeId', 'subject']);
const updateBody = objectSchema({ id: idParam, ...editable }, ['id'], { minProperties: 2 });
/** Query shortcuts of the activity list; they narrow (and page) the criteria body, so no defaults here. */
const listQuery = objectSchema({
  page: { type: 'integer', minimum: 1 },
  limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT },
  term: { type: 'string', maxLength: 255 },
  customerId: idParam,
  typeId: idParam,
});
const typeListQuery = objectSchema({ ...pagingQuery, term: { type: 'string', maxLength: 255 } });

const activityListBody = criteriaSchema(Object.keys(activityCriteria.fields));

function toType(row: ActivityTypeRow) {
  return {
    id: row.id,
    technicalName: row.technical_name,
    name: row.name,
    position: readInt(row.position),
    active: readBool(row.active),
  };
}

function toActivity(row: ActivityRow) {
  return {
    id: row.id,
    customerId: row.customer_id,
    typeId: row.type_id,
    type: { id: row.type_id, technicalName: row.type_technical_name, name: row.type_name },
    salesRepresentativeId: row.sales_representative_id ?? null,
    employeeId: row.employee_id ?? null,
    orderId: row.order_id ?? null,
    subject: row.subject,
    comment: row.comment ?? null,
    activityDate: fromDbTime(row.activity_date)!,
    followUpDate: fromDbTime(row.follow_up_date),
    createdAt: fromDbTime(row.created_at)!,
    updatedAt: fromDbTime(row.updated_at),
  };
}

/** One activity, when its customer is assigned to the representative. */
async function readActivity(host: HostRuntime, executor: Executor, ctx: StoreContext, id: string) {
  const rep = declaredRepresentative(ctx);
  const row = await findActivity(executor, id);
  if (!row || !(await isAssigned(host, executor, rep.id, ctx.salesChannel.id, row.customer_id)))
    throw Errors.notFound('customer activity', id);
  return toActivity(row);
}

const missing = (entity: string, id: string, pointer: string) =>
  new AppError(404, 'SUITE__NOT_FOUND', `${entity} with id "${id}" was not found.`, { pointer, meta: { entity } });

/** The references of an activity must exist and belong to its customer (else 404, like any foreign id). */
async function checkReferences(
  host: HostRuntime,
  trx: Executor,
  customerId: string,
  input: ActivityChanges,
  isNew: boolean,
) {
  if (input.typeId !== undefined) {
    const type = await findActivityType(trx, input.typeId);
    if (!type || (isNew && !readBool(type.active))) throw missing('customer activity type', input.typeId, '/typeId');
  }
  if (input.employeeId && !(await isLinked(trx, input.employeeId, customerId)))
    throw missing('employee', input.employeeId, '/employeeId');
  if (input.orderId && !(await host.orders.belongsTo(trx, input.orderId, customerId)))
    throw missing('order', input.orderId, '/orderId');
}

/** What a create or update body may set: the `editable` fields (a create body has some of them required). */
type ActivityChanges = Omit<SchemaInput<typeof updateBody>, 'id'>;

function columnsOf(body: ActivityChanges): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  if (body.typeId !== undefined) columns.type_id = body.typeId;
  if (body.subject !== undefined) columns.subject = body.subject.trim();
  if (body.comment !== undefined) columns.comment = body.comment;
  if (body.activityDate !== undefined) columns.activity_date = storableTime(body.activityDate, '/activityDate');
  if (body.followUpDate !== undefined)
    columns.follow_up_date = body.followUpDate === null ? null : storableTime(body.followUpDate, '/followUpDate');
  if (body.employeeId !== undefined) columns.employee_id = body.employeeId;
  if (body.orderId !== undefined) columns.order_id = body.orderId;
  return columns;
}

/** A reference deleted between the check and the write. */
function referenceGone(error: unknown): never {
  if (isForeignKeyError(error)) throw Errors.conflict('A referenced record was deleted meanwhile; retry.');
  throw error;
}

export function activityRoutes(host: HostRuntime) {
  return [...activityTypeRoutes(host), ...customerActivityRoutes(host)];
}

/** The active activity types, their search, and one of them (GET and POST). */
function activityTypeRoutes(host: HostRuntime) {
  /** The GET and the POST of one activity type share this. */
  const readType = {
    path: '/sales-representative/customer-activity-type/{id}',
    tags: [TAG],
    auth: 'login' as const,
    actors: ['salesRepresentative' as const],
    permission: null,
    async handler({ params }: { params: { id: string } }) {
      const row = await findActivityType(host.db, params.id);
      if (!row) throw Errors.notFound('customer activity type', params.id);
      return toType(row);
    },
  };

  return [
    defineStoreRoute({
      method: 'GET',
      path: '/sales-representative/customer-activity-type',
      operationId: 'listActiveCustomerActivityTypes',
      summary: 'The activity types a representative can record (active ones, in their order).',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { responses: { 200: storeListResponse(activityTypeSchema) } },
      async handler() {
        return storeListOf((await activeActivityTypes(host.db)).map(toType));
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/sales-representative/customer-activity-type/list',
      operationId: 'searchCustomerActivityTypes',
      summary:
        'Every activity type (inactive ones too) with how many activities of the assigned customers use it; query page, limit, term.',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { query: typeListQuery, responses: { 200: storeListResponse(activityTypeWithCount) } },
      async handler({ ctx, query }) {
        const rep = declaredRepresentative(ctx);
        const page = await searchActivityTypes(host.db, query);
        const ids = page.rows.map((r) => r.id);
        const byType = ids.length
          ? await activityCountsByType(
              host.db,
              ids,
              await assignedCustomerIds(host, host.db, rep.id, ctx.salesChannel.id),
            )
          : new Map<string, number>();
        return storeList(
          page.rows.map((row) => ({ ...toType(row), activityCount: byType.get(row.id) ?? 0 })),
          page,
        );
      },
    }),
    defineStoreRoute({
      ...readType,
      method: 'POST',
      operationId: 'readCustomerActivityType',
      summary: 'One activity type.',
      schemas: { params: pathParams('id'), body: emptyBody, responses: { 200: activityTypeSchema } },
    }),
    defineStoreRoute({
      ...readType,
      method: 'GET',
      operationId: 'getCustomerActivityType',
      summary: "One activity type (the method the real product's client uses; the same as the POST).",
      schemas: { params: pathParams('id'), responses: { 200: activityTypeSchema } },
    }),
  ];
}

/** Customer activities: create, update, the list, read and delete. */
function customerActivityRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/sales-representative/customer-activity',
      operationId: 'createCustomerActivity',
      summary:
        'Records an activity with an assigned customer (default: the customer acted for); employeeId and orderId must be the customer’s.',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { body: createBody, responses: { 200: activitySchema } },
      async handler({ ctx, body }) {
        const rep = declaredRepresentative(ctx);
        const customerId: string | undefined = body.customerId ?? ctx.customer?.id;
        if (!customerId)
          throw Errors.badRequest('SUITE__INVALID_INPUT', 'customerId is required when no customer is acted for.', {
            pointer: '/customerId',
          });
        const id = newId();
        return inTransaction(host.db, async (trx) => {
          if (!(await isAssigned(host, trx, rep.id, ctx.salesChannel.id, customerId)))
            throw missing('customer', customerId, '/customerId');
          await checkReferences(host, trx, customerId, body, true);
          const now = nowDb();
          await insertActivity(trx, {
            id,
            customer_id: customerId,
            sales_representative_id: rep.id,
            activity_date: now,
            ...columnsOf(body),
            created_at: now,
          }).catch(referenceGone);
          return readActivity(host, trx, ctx, id);
        });
      },
    }),
    defineStoreRoute({
      method: 'PUT',
      path: '/sales-representative/customer-activity',
      operationId: 'updateCustomerActivity',
      summary:
        'Changes an activity of an assigned customer (body id plus the fields to change; the customer cannot change).',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { body: updateBody, responses: { 200: activitySchema } },
      async handler({ ctx, body }) {
        return inTransaction(host.db, async (trx) => {
          const current = await readActivity(host, trx, ctx, body.id);
          await checkReferences(host, trx, current.customerId, body, body.typeId !== current.typeId);
          await updateActivity(trx, body.id, { ...columnsOf(body), updated_at: nowDb() }).catch(referenceGone);
          return readActivity(host, trx, ctx, body.id);
        });
      },
    }),
    ...(['GET', 'POST'] as const).map((method) =>
      defineStoreRoute({
        method,
        path: '/sales-representative/customer-activity/list',
        operationId: method === 'GET' ? 'listCustomerActivities' : 'searchCustomerActivities',
        summary:
          'Activities of the assigned customers, newest first, by a criteria body (filter customerId, typeId, activityDate; term: subject, comment) and/or the query shortcuts page, limit, term, customerId, typeId.',
        description:
          "The spec gives the GET a criteria body; POST takes the same body for clients that cannot send one with GET. Query values narrow the body (filters add up; page, limit and term replace the body's).",
        tags: [TAG],
        auth: 'login',
        actors: ['salesRepresentative'],
        permission: null,
        schemas: { query: listQuery, body: activityListBody, responses: { 200: storeListResponse(activitySchema) } },
        async handler({ ctx, query, body }) {
          const rep = declaredRepresentative(ctx);
          if (query.customerId && !(await isAssigned(host, host.db, rep.id, ctx.salesChannel.id, query.customerId)))
            throw Errors.notFound('customer', query.customerId);
          const filter: NonNullable<Criteria['filter']> = [...(body.filter ?? [])];
          if (query.customerId) filter.push({ type: 'equals', field: 'customerId', value: query.customerId });
          if (query.typeId) filter.push({ type: 'equals', field: 'typeId', value: query.typeId });
          const criteria: Criteria = {
            ...body,
            page: query.page ?? body.page,
            limit: query.limit ?? body.limit,
            term: query.term ?? body.term,
            filter,
          };
          const customerIds = await assignedCustomerIds(host, host.db, rep.id, ctx.salesChannel.id);
          const page = await searchActivities(host.db, customerIds, criteria);
          return storeList(page.rows.map(toActivity), page);
        },
      }),
    ),
    defineStoreRoute({
      method: 'GET',
      path: '/sales-representative/customer-activity/{id}',
      operationId: 'readCustomerActivity',
      summary: 'One activity of an assigned customer.',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { params: pathParams('id'), responses: { 200: activitySchema } },
      async handler({ ctx, params }) {
        return readActivity(host, host.db, ctx, params.id);
      },
    }),
    defineStoreRoute({
      method: 'DELETE',
      path: '/sales-representative/customer-activity/{id}',
      operationId: 'deleteCustomerActivity',
      summary: 'Deletes an activity of an assigned customer.',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { params: pathParams('id'), responses: { 200: successResponse } },
      async handler({ ctx, params }) {
        await inTransaction(host.db, async (trx) => {
          await readActivity(host, trx, ctx, params.id);
          await deleteActivity(trx, params.id);
        });
        return { success: true };
      },
    }),
  ];
}
