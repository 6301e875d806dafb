import type { Knex } from 'knex';
import {
  Collection,
  CollectionTranslation,
  CustomerGroup,
  CustomerGroupService,
  RequestContextService,
  type CustomFieldConfig,
} from '@vendure/core';
import { defineAdminRoute, type AdminRoute } from '../../contract/index.js';
import { likeSql, selectRows, type Executor } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { jsonApiList, jsonApiListSchema, jsonApiPageQuery } from '../../lib/json-api.js';
import { DEFAULT_LIMIT, escapeLike, MAX_LIMIT } from '../../lib/criteria.js';
import { reply, noContent } from '../../lib/routes.js';
import { objectSchema, pathParams } from '../../lib/schemas.js';
import { toVendureIds, type IdMapper } from './ids.js';
import { customFieldColumn } from './orders.js';
import { vendureServices, type AdapterState } from './state.js';
import { customerGroupIds, defaultChannel } from './vendure-tables.js';
import { column, columns, table } from './vendure-schema.js';

/**
 * Rules on Vendure (decision 0035). A rule is a Vendure customer group: a customer matches the
 * groups they are in. The console's partial assortment form makes rules of its own (`createRule`):
 * a customer group whose custom field `suiteB2BRule` says how it matches —
 * - `{ "except": false, "groups": null }`: its members (a `customerNumber =` condition: the group
 *   holds those customers);
 * - `{ "except": true, "groups": null }`: everyone but its members (`customerNumber !=`), guests too;
 * - `{ "except": false|true, "groups": [ids] }`: the customers of any of those groups, or everyone
 *   but them (`customerGroup =` / `!=`); such a group has no members of its own.
 * So a rule stays a customer group (Vendure's Dashboard shows it, its members can be edited there)
 * and the plugin's rule ids of a context stay customer group ids.
 */
export const RULE_FIELD = 'suiteB2BRule';
/** The rule's column on Vendure's customer groups (entity metadata). */
const ruleColumn = () => customFieldColumn(CustomerGroup, RULE_FIELD);

/** The CustomerGroup custom field (plugin.ts adds it to Vendure's config): internal, no GraphQL. */
export const ruleCustomField: CustomFieldConfig = {
  name: RULE_FIELD,
  type: 'text',
  nullable: true,
  public: false,
  readonly: true,
  internal: true,
};

interface RuleMatch {
  except: boolean;
  /** plugin ids of the groups whose customers match; null: the rule group's own members */
  groups: string[] | null;
}

const parse = (value: unknown): RuleMatch | null => {
  if (typeof value !== 'string' || value === '') return null;
  const parsed = JSON.parse(value) as RuleMatch;
  return { except: parsed.except === true, groups: Array.isArray(parsed.groups) ? parsed.groups : null };
};

async function ruleGroups(ids: IdMapper, executor: Executor): Promise<Array<{ id: string; match: RuleMatch }>> {
  const rows = await selectRows<{ id: string | number; rule: unknown }>(
    executor(table(CustomerGroup))
      .whereNotNull(ruleColumn())
      .select(`${column(CustomerGroup, 'id')} as id`, `${ruleColumn()} as rule`),
  );
  return rows.flatMap((row) => {
    const match = parse(row.rule);
    return match ? [{ id: ids.toPlugin(row.id), match }] : [];
  });
}

/** The rule ids (customer group ids) a customer (null: a guest) matches. */
export async function matchingRuleIds(ids: IdMapper, executor: Executor, customerId: string | null): Promise<string[]> {
  const memberOf = new Set(customerId ? await customerGroupIds(ids, executor, customerId) : []);
  const rules = await ruleGroups(ids, executor);
  const ruleIds = new Set(rules.map((rule) => rule.id));
  const matching = [...memberOf].filter((id) => !ruleIds.has(id));
  for (const { id, match } of rules) {
    const inside = match.groups ? match.groups.some((group) => memberOf.has(group)) : memberOf.has(id);
    if (inside !== match.except) matching.push(id);
  }
  return matching;
}

const condition = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'operator', 'value'],
  properties: {
    type: { enum: ['customerNumber', 'customerGroup'] },
    operator: { enum: ['=', '!='] },
    value: {
      oneOf: [
        { type: 'string', minLength: 1, maxLength: 255 },
        {
          type: 'array',
          minItems: 1,
          maxItems: 500,
          items: { type: 'string', minLength: 1, maxLength: 255 },
        },
      ],
    },
  },
} as const;

const namedResource = (type: string) =>
  objectSchema(
    {
      id: { type: 'string' },
      type: { const: type },
      attributes: objectSchema({ name: { type: 'string' } }, ['name']),
    },
    ['id', 'type', 'attributes'],
  );
const ruleResource = namedResource('rule');

/** The body of `searchRule` / `searchCategory` on Vendure: ids, a name term and paging (no filters). */
const searchBody = objectSchema({
  ...jsonApiPageQuery,
  ids: { type: 'array', maxItems: MAX_LIMIT, items: { type: 'string', pattern: '^[0-9a-f]{32}$' } },
  term: { type: 'string', maxLength: 255 },
});

interface SearchInput {
  page?: number;
  limit?: number;
  ids?: string[];
  term?: string;
}

/**
 * The reference host's rule, customer group and category routes the console's pages call
 * (`createRule`, `deleteRule`, `searchRule`, `listCustomerGroup`, `searchCategory`), on Vendure's
 * customer groups and collections.
 */
// eslint-disable-next-line max-lines-per-function -- longer than 150 lines before the 150-line rule covered all of src; split it when it next changes
export function ruleRoutes(state: AdapterState): AdminRoute[] {
  const { ids } = state;
  const vendureCtx = () => vendureServices(state).service(RequestContextService).create({ apiType: 'admin' });

  /** A page of `{ id, name }` rows of a Vendure table (`from`, its `id` column), by name; `ids` and `term` narrow it. */
  async function named(
    from: { table: string; id: string },
    nameColumn: string,
    narrow: (query: Knex.QueryBuilder) => void,
    input: SearchInput,
    path: string,
    type: string,
  ) {
    const page = input.page ?? 1;
    const limit = input.limit ?? DEFAULT_LIMIT;
    const { id } = from;
    const base = state.db(from.table);
    narrow(base);
    if (input.ids) base.whereIn(id, toVendureIds(ids, input.ids));
    if (input.term) base.whereRaw(likeSql(base), [nameColumn, `%${escapeLike(input.term)}%`]);
    const [count] = await selectRows<{ n: unknown }>(base.clone().count({ n: '*' }));
    const rows = await selectRows<{ id: string | number; name: string }>(
      base
        .clone()
        .select(`${id} as id`, `${nameColumn} as name`)
        .orderBy([{ column: nameColumn }, { column: id }])
        .limit(limit)
        .offset((page - 1) * limit),
    );
    return jsonApiList(
      rows.map((row) => ({ id: ids.toPlugin(row.id), type, attributes: { name: String(row.name) } })),
      { path, page, limit, total: Number(count?.n ?? 0) },
    );
  }

  /** Plugin ids of customers by their numbers (Vendure ids); an unknown one is a 400 at `/conditions/value`. */
  async function customersOf(numbers: string[]): Promise<string[]> {
    const found = await state.runtime.customers.findByNumbers(state.db, numbers);
    const known = new Set(found.map((customer) => customer.customerNumber));
    const unknown = numbers.find((number) => !known.has(number));
    if (unknown !== undefined)
      throw Errors.badRequest('SUITE__UNKNOWN_REFERENCE', `There is no customer with the number "${unknown}".`, {
        pointer: '/conditions/value',
      });
    return found.map((customer) => customer.id);
  }

  return [
    defineAdminRoute({
      method: 'GET',
      path: '/customer-group',
      operationId: 'listCustomerGroup',
      summary: "Vendure's customer groups by name (JSON:API, paged); the rules the console made are left out.",
      tags: ['Customer groups'],
      auth: 'admin',
      permission: null,
      schemas: {
        query: objectSchema({ ...jsonApiPageQuery }),
        responses: { 200: jsonApiListSchema(namedResource('customer_group')) },
      },
      handler: ({ query }) =>
        named(
          { table: table(CustomerGroup), id: column(CustomerGroup, 'id') },
          column(CustomerGroup, 'name'),
          (q) => void q.whereNull(ruleColumn()),
          query,
          '/customer-group',
          'customer_group',
        ),
    }),
    defineAdminRoute({
      method: 'POST',
      path: '/search/rule',
      operationId: 'searchRule',
      summary: "Rules on Vendure: every customer group (the console's rules included), by name.",
      tags: ['Rules'],
      auth: 'admin',
      permission: null,
      schemas: { body: searchBody, responses: { 200: jsonApiListSchema(ruleResource) } },
      handler: ({ body }) =>
        named(
          { table: table(CustomerGroup), id: column(CustomerGroup, 'id') },
          column(CustomerGroup, 'name'),
          () => undefined,
          body,
          '/search/rule',
          'rule',
        ),
    }),
    defineAdminRoute({
      method: 'POST',
      path: '/search/category',
      operationId: 'searchCategory',
      summary: "Categories on Vendure: its collections (not the root), by name in the channel's default language.",
      tags: ['Categories'],
      auth: 'admin',
      permission: null,
      schemas: { body: searchBody, responses: { 200: jsonApiListSchema(namedResource('category')) } },
      async handler({ body }) {
        const language = (await defaultChannel(state.db)).defaultLanguageCode;
        const c = columns(Collection, 'c');
        const t = columns(CollectionTranslation, 't');
        return named(
          { table: table(Collection, 'c'), id: c('id') },
          t('name'),
          (q) =>
            void q
              .where(c('isRoot'), false)
              .join(table(CollectionTranslation, 't'), (join) =>
                join.on(t('base'), c('id')).andOn(t('languageCode'), state.db.raw('?', [language])),
              ),
          body,
          '/search/category',
          'category',
        );
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: '/rule',
      operationId: 'createRule',
      summary:
        'Creates a rule on Vendure: a customer group matching some customers (`customerNumber`) or the customers of groups (`customerGroup`), or everyone but them (`!=`).',
      tags: ['Rules'],
      auth: 'admin',
      permission: null,
      schemas: {
        body: objectSchema({ name: { type: 'string', minLength: 1, maxLength: 255 }, conditions: condition }, [
          'name',
          'conditions',
        ]),
        responses: { 201: objectSchema({ data: ruleResource }, ['data']) },
      },
      async handler({ body }) {
        const { type, operator } = body.conditions;
        const values = [
          ...new Set(Array.isArray(body.conditions.value) ? body.conditions.value : [body.conditions.value]),
        ];
        let members: string[] = [];
        let groups: string[] | null = null;
        if (type === 'customerNumber') members = await customersOf(values);
        else {
          const known = new Set((await state.runtime.customerGroups.getMany(state.db, values)).map((g) => g.id));
          const unknown = values.find((id) => !known.has(id));
          if (unknown !== undefined)
            throw Errors.badRequest('SUITE__UNKNOWN_REFERENCE', `There is no customer group with id "${unknown}".`, {
              pointer: '/conditions/value',
            });
          groups = values;
        }
        const match: RuleMatch = { except: operator === '!=', groups };
        const created = await vendureServices(state)
          .service(CustomerGroupService)
          .create(await vendureCtx(), {
            name: body.name,
            customerIds: toVendureIds(ids, members),
            customFields: { [RULE_FIELD]: JSON.stringify(match) },
          });
        const id = ids.toPlugin(created.id);
        return reply(
          201,
          { data: { id, type: 'rule' as const, attributes: { name: created.name } } },
          { headers: { Location: `/api/rule/${id}` } },
        );
      },
    }),
    defineAdminRoute({
      method: 'DELETE',
      path: '/rule/{id}',
      operationId: 'deleteRule',
      summary:
        "Deletes a rule the console made (its customer group); the shop's own customer groups are Vendure's to delete.",
      tags: ['Rules'],
      auth: 'admin',
      permission: null,
      schemas: { params: pathParams('id'), responses: { 204: null } },
      async handler({ params }) {
        const rule = (await ruleGroups(ids, state.db)).find((group) => group.id === params.id);
        if (!rule) throw Errors.notFound('rule', params.id);
        await vendureServices(state)
          .service(CustomerGroupService)
          .delete(await vendureCtx(), ids.toVendure(params.id)!);
        await state.runtime.catalog.visibilityChanged(state.db);
        return noContent();
      },
    }),
  ];
}
