import { defineStoreRoute, type HostRuntime } from '../../../contract/index.js';
import { noContent } from '../../../lib/routes.js';
import { pathParams } from '../../../lib/schemas.js';
import { visibleApproval } from '../use-cases/access.js';
import {
  approvalLevelsResponse,
  createRuleBody,
  MANAGE_RULES,
  ruleList,
  ruleListBody,
  ruleResponse,
  TAG,
  updateRuleBody,
} from './schemas.js';
import { approvalChain, changeRule, createRule, listRules, readRule, removeRule } from './service.js';

const tags = [TAG];

/** Approval rules of the company (company admins and employees with order-approval.manage-rules), and an approval's chain. */
export function approvalRulesRoutes(host: HostRuntime) {
  const common = { tags, auth: 'login', needsCustomer: true, permission: MANAGE_RULES } as const;
  return [
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/approval-rule/list',
      operationId: 'listApprovalRules',
      summary: "The company's approval rules by criteria, by priority (the first matching one decides).",
      description:
        'A company that never changed its rules lists the three rules every company starts with (migrated from the old triggers: budget, role flag, voluntary request).',
      schemas: { body: ruleListBody, responses: { 200: ruleList } },
      handler: ({ ctx, body }) => listRules(host, ctx, body),
    }),
    defineStoreRoute({
      ...common,
      method: 'POST',
      path: '/approval-rule',
      operationId: 'createApprovalRule',
      summary: 'Creates an approval rule: conditions, priority and a chain of levels.',
      description:
        "Employees, roles, units and cost centers named must be the company's (else 400 SUITE__APPROVAL_RULE_UNKNOWN_REFERENCE); inconsistent levels or limits are a 400 SUITE__APPROVAL_RULE_INVALID.",
      schemas: { body: createRuleBody, responses: { 200: ruleResponse } },
      handler: ({ ctx, body }) => createRule(host, ctx, body),
    }),
    defineStoreRoute({
      ...common,
      method: 'GET',
      path: '/approval-rule/{id}',
      operationId: 'readApprovalRule',
      summary: 'One approval rule of the company.',
      schemas: { params: pathParams('id'), responses: { 200: ruleResponse } },
      handler: ({ ctx, params }) => readRule(host, ctx, params.id),
    }),
    defineStoreRoute({
      ...common,
      method: 'PATCH',
      path: '/approval-rule/{id}',
      operationId: 'updateApprovalRule',
      summary: 'Changes an approval rule; approvals it chose before keep their chain.',
      schemas: { params: pathParams('id'), body: updateRuleBody, responses: { 200: ruleResponse } },
      handler: ({ ctx, params, body }) => changeRule(host, ctx, params.id, body),
    }),
    defineStoreRoute({
      ...common,
      method: 'DELETE',
      path: '/approval-rule/{id}',
      operationId: 'deleteApprovalRule',
      summary: 'Deletes an approval rule; approvals it chose keep their chain.',
      schemas: { params: pathParams('id'), responses: { 204: null } },
      async handler({ ctx, params }) {
        await removeRule(host, ctx, params.id);
        return noContent();
      },
    }),
    defineStoreRoute({
      method: 'GET',
      path: '/b2b/order-approval/{orderApprovalId}/levels',
      operationId: 'readOrderApprovalLevels',
      summary: 'The chain of levels of an order approval: who decides each level, and who decided when.',
      tags: ['Order approval'],
      auth: 'login',
      needsCustomer: true,
      permission: null,
      schemas: { params: pathParams('orderApprovalId'), responses: { 200: approvalLevelsResponse } },
      handler: async ({ ctx, params }) => approvalChain(host, await visibleApproval(host, ctx, params.orderApprovalId)),
    }),
  ];
}
