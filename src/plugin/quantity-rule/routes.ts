import { defineAdminRoute, defineStoreRoute, type HostRuntime } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { jsonApiList } from '../../lib/json-api.js';
import { noContent, reply } from '../../lib/routes.js';
import { pathParams } from '../../lib/schemas.js';
import { storeListOf } from '../../lib/store-list.js';
import { listRules, type StoredQuantityRule } from './repository.js';
import {
  adminListQuery,
  adminRuleList,
  adminRuleSingle,
  RESOURCE_TYPE,
  ruleBody,
  storeListBody,
  storeRuleList,
  storeRuleResponse,
  TAG,
} from './schemas.js';
import { removeRule, setRule, storeRules } from './service.js';

const BASE = '/suite-quantity-rule';
const tags = [TAG];

function toResource(rule: StoredQuantityRule) {
  const { productId, minQuantity, maxQuantity, step, packSize, priceUnit, createdAt, updatedAt } = rule;
  return {
    id: productId,
    type: RESOURCE_TYPE,
    attributes: { productId, minQuantity, maxQuantity, step, packSize, priceUnit, createdAt, updatedAt },
  };
}

const refusalNote =
  'A quantity the rule does not admit is refused wherever it enters (cart, fast order, lists to cart, offers, approvals, checkout) with 400 SUITE__QUANTITY_NOT_ALLOWED; ' +
  'its meta names the asked quantity (`asked`), the allowed ones next to it (`allowed`) and the rule.';

/** Operators set a product's rule (the resource's id is the product id). */
export function quantityRuleAdminRoutes(host: HostRuntime) {
  return [
    defineAdminRoute({
      method: 'GET',
      path: BASE,
      operationId: 'listSuiteQuantityRules',
      summary: 'Lists the products’ quantity rules (JSON:API), optionally of one product.',
      tags,
      auth: 'admin',
      permission: null,
      schemas: { query: adminListQuery, responses: { 200: adminRuleList } },
      async handler({ query }) {
        const { page = 1, limit = 25, productId } = query;
        const { total, rules } = await listRules(host.db, { page, limit, productId });
        return jsonApiList(rules.map(toResource), { path: BASE, page, limit, total, filters: { productId } });
      },
    }),
    defineAdminRoute({
      method: 'GET',
      path: `${BASE}/{productId}`,
      operationId: 'readSuiteQuantityRule',
      summary: "A product's quantity rule (404 when it has none: any quantity from 1).",
      tags,
      auth: 'admin',
      permission: null,
      schemas: { params: pathParams('productId'), responses: { 200: adminRuleSingle } },
      async handler({ params }) {
        const { total, rules } = await listRules(host.db, { page: 1, limit: 1, productId: params.productId });
        if (total === 0) throw Errors.notFound('Quantity rule', params.productId);
        return { data: toResource(rules[0]!) };
      },
    }),
    defineAdminRoute({
      method: 'PUT',
      path: `${BASE}/{productId}`,
      operationId: 'setSuiteQuantityRule',
      summary:
        "Sets a product's quantity rule (minimum, maximum, step, pack size, price unit): 201 when new, 200 when it replaced one.",
      description:
        'Quantities count pieces. With a pack size, minQuantity, step and maxQuantity are multiples of it (else 400 SUITE__QUANTITY_RULE_INVALID); absent, minQuantity and step are one pack. ' +
        'Lines already in carts, approvals or offers are checked again when they are ordered. ' +
        refusalNote +
        ' An unknown product is a 404.',
      tags,
      auth: 'admin',
      permission: null,
      schemas: {
        params: pathParams('productId'),
        body: ruleBody,
        bodyName: 'SuiteQuantityRule',
        responses: { 200: adminRuleSingle, 201: adminRuleSingle },
      },
      async handler({ params, body }) {
        const { rule, created } = await setRule(host, params.productId, body);
        return reply(created ? 201 : 200, { data: toResource(rule) });
      },
    }),
    defineAdminRoute({
      method: 'DELETE',
      path: `${BASE}/{productId}`,
      operationId: 'deleteSuiteQuantityRule',
      summary: "Deletes a product's quantity rule: any quantity from 1 again.",
      tags,
      auth: 'admin',
      permission: null,
      schemas: { params: pathParams('productId'), responses: { 204: null } },
      async handler({ params }) {
        await removeRule(host, params.productId);
        return noContent();
      },
    }),
  ];
}

/** Buyers and themes read the rules of the products they may see, to build quantity pickers. */
export function quantityRuleStoreRoutes(host: HostRuntime) {
  // A list element carries an id as every Store API list element does: the product's (one rule per product).
  const withAlias = <T extends { productId: string }>(rule: T) => ({
    id: rule.productId,
    ...rule,
    apiAlias: 'suite_quantity_rule' as const,
  });
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/quantity-rule/list',
      operationId: 'listQuantityRules',
      summary:
        'The quantity rules of the named products the caller may see (the default rule, custom false, for those without one), in the order asked.',
      description: `Hidden and unknown products are left out. ${refusalNote}`,
      tags,
      auth: 'public',
      permission: null,
      schemas: { body: storeListBody, responses: { 200: storeRuleList } },
      handler: async ({ ctx, body }) => storeListOf((await storeRules(host, ctx, body.productIds)).map(withAlias)),
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/quantity-rule/{productId}',
      operationId: 'readQuantityRule',
      summary:
        "A product's quantity rule, with its piece and pack price for the caller; 404 for a product the caller may not see.",
      description: refusalNote,
      tags,
      auth: 'public',
      permission: null,
      schemas: { params: pathParams('productId'), responses: { 200: storeRuleResponse } },
      async handler({ ctx, params }) {
        const [rule] = await storeRules(host, ctx, [params.productId]);
        if (!rule) throw Errors.notFound('Product', params.productId);
        return withAlias(rule);
      },
    }),
  ];
}
