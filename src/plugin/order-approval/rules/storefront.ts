import type { HostRuntime, StoreContext, StorefrontPage } from '../../../contract/index.js';
import { AppError, Errors } from '../../../lib/errors.js';
import { isId } from '../../../lib/ids.js';
import { costCenterRoutes } from '../../cost-center/index.js';
import { unitRoutes } from '../../company/index.js';
import { employeeRoutes, roleRoutes } from '../../employee/index.js';
import { noticeOf, page, routeCaller, routesByName, type PageResult, type PageApi } from '../../storefront-kit.js';
import { LEVEL_TYPES } from './model.js';
import {
  blankRule,
  fieldErrors,
  fieldsOf,
  readRuleForm,
  ruleBody,
  type FieldErrors,
  type RuleFields,
  type RuleView,
} from './rule-form.js';
import { approvalRulesRoutes } from './routes.js';
import { MANAGE_RULES } from './schemas.js';

type Api = PageApi<
  typeof approvalRulesRoutes | typeof employeeRoutes | typeof roleRoutes | typeof unitRoutes | typeof costCenterRoutes
>;

export const RULES_PATH = '/account/approval-rules';
const rulePath = (id: string) => `${RULES_PATH}/${id}`;
/** The Store API's largest page; a company is not expected to keep more rules, roles or employees to choose from. */
const LIMIT = 500;

const NOTICES: Record<string, string> = {
  created: 'The rule was created.',
  saved: 'The rule was saved.',
  deleted: 'The rule was deleted.',
  moved: 'The order of the rules was changed.',
};

const LEVEL_TYPE_LABELS: Record<string, string> = {
  employees: 'Named employees',
  role: 'Everyone with a role',
  'unit-managers': "The managers of the buyer's units",
  'company-admins': 'The company admins',
  'approver-settings': 'The approvers of the approval settings',
};

interface Choice {
  id: string;
  label: string;
}

/** What a rule's conditions and levels may name, each list read through its own declared route. */
interface Choices {
  employees: Choice[] | null;
  roles: Choice[] | null;
  units: Choice[] | null;
  costCenters: Choice[];
}

async function loadChoices({ call, routes }: Api, ctx: StoreContext): Promise<Choices> {
  // Each list needs its own permission; without it the form keeps what the rule names (by id) and offers nothing else.
  const employees = ctx.can('employee.read')
    ? (await call(ctx, routes.listEmployees, { body: { limit: LIMIT } })).elements.map((e) => ({
        id: e.id,
        label: `${e.firstName} ${e.lastName} <${e.email}>`,
      }))
    : null;
  const roles = ctx.can('role.read')
    ? (
        await call(ctx, routes.listEmployeeRoles, {
          body: { limit: LIMIT },
        })
      ).elements.map((r) => ({ id: r.id, label: r.name }))
    : null;
  const units = ctx.can('organisation-unit.read')
    ? (await call(ctx, routes.organisationUnitTree)).elements.map((u) => ({
        id: u.id,
        label: `${'— '.repeat(u.depth)}${u.name}`,
      }))
    : null;
  const costCenters = (
    await call(ctx, routes.listCostCenters, {
      body: { limit: LIMIT },
    })
  ).elements.map((c) => ({ id: c.id, label: `${c.number} ${c.name}` }));
  return { employees, roles, units, costCenters };
}

/** Checkbox options: the choices, and any id the rule names that is not among them (kept, shown by id). */
function options(choices: Choice[] | null, selected: string[]) {
  const known = choices ?? [];
  return [
    ...known.map((c) => ({ ...c, checked: selected.includes(c.id) })),
    ...selected.filter((id) => !known.some((c) => c.id === id)).map((id) => ({ id, label: id, checked: true })),
  ];
}

const labelOf = (choices: Choice[] | null, id: string) => choices?.find((c) => c.id === id)?.label ?? id;
const names = (choices: Choice[] | null, ids: string[] | undefined) =>
  (ids ?? []).map((id) => labelOf(choices, id).replace(/^(— )+/, '')).join(', ');

/** The rule in words, for the list. */
function describe(rule: RuleView, choices: Choices) {
  const c = rule.conditions;
  const conditions: string[] = [];
  if (c.orderTotal) {
    const parts = [
      c.orderTotal.above !== undefined ? `above ${c.orderTotal.above}` : '',
      c.orderTotal.below !== undefined ? `below ${c.orderTotal.below}` : '',
    ].filter(Boolean);
    conditions.push(`Order total (net) ${parts.join(' and ')} ${c.orderTotal.currency}`);
  }
  if (c.roleIds) conditions.push(`Role: ${names(choices.roles, c.roleIds)}`);
  if (c.roleRequiresApproval) conditions.push("The buyer's role requires approval");
  if (c.unitIds) conditions.push(`Unit (or below): ${names(choices.units, c.unitIds)}`);
  if (c.productIds) conditions.push(`Cart holds one of ${c.productIds.length} product(s)`);
  if (c.categoryIds) conditions.push(`Cart holds a product of ${c.categoryIds.length} categor(y/ies)`);
  if (c.costCenterIds) conditions.push(`Cost center: ${names(choices.costCenters, c.costCenterIds)}`);
  if (c.budgetExceeded) conditions.push('A budget that allows approval is exceeded');
  if (c.firstOrder) conditions.push('The first order of a new employee');
  const levels = rule.levels.map((level, i) => {
    const count = level.required > 1 ? `${level.required} of` : 'any one of';
    const who: Record<string, string> = {
      employees: `${count} ${names(choices.employees, level.employeeIds).replace(/ <[^>]*>/g, '')}`,
      role: `${count} those with the role ${names(choices.roles, level.roleId ? [level.roleId] : [])}`,
      'unit-managers': `${count} the managers of the buyer's units`,
      'company-admins': 'a company admin',
      'approver-settings': 'the approvers of the approval settings',
    };
    return `${i + 1}. ${level.name}: ${who[level.type] ?? level.type}`;
  });
  return {
    ...rule,
    url: rulePath(rule.id),
    conditionTexts: conditions.length ? conditions : [rule.appliesTo === 'orders' ? 'Every order' : 'Every request'],
    levelTexts: levels,
    appliesToText: rule.appliesTo === 'orders' ? 'Orders' : 'Approval requests',
  };
}

/** The form's template data: the fields as typed, the choices marked, the errors beside their fields. */
function formData(fields: RuleFields, choices: Choices, errors: FieldErrors | null) {
  return {
    fields,
    fieldErrors: errors?.fields ?? {},
    levelSlots: fields.levels.length,
    slots: fields.levels.map((level, index) => ({
      index,
      number: index + 1,
      ...level,
      errors: errors?.levels[index] ?? {},
      types: LEVEL_TYPES.map((type) => ({
        value: type,
        label: LEVEL_TYPE_LABELS[type],
        selected: level.type === type,
      })),
      employees: options(choices.employees, level.employeeIds),
      roles: options(choices.roles, level.roleId ? [level.roleId] : []).map((r) => ({ ...r, selected: r.checked })),
    })),
    roles: options(choices.roles, fields.roleIds),
    units: options(choices.units, fields.unitIds),
    costCenters: options(choices.costCenters, fields.costCenterIds),
    appliesToOrders: fields.appliesTo !== 'requests',
    mayListEmployees: choices.employees !== null,
    mayListRoles: choices.roles !== null,
    mayListUnits: choices.units !== null,
  };
}

/**
 * The approval rules of the company in the storefront (company admins and employees with
 * order-approval.manage-rules, as the rule routes ask): the list by priority with moving up and
 * down and deleting, and the form to create and change a rule — its conditions and its chain of
 * levels. Every read and change runs a declared Store API route.
 */
export function approvalRuleStorefrontPages(host: HostRuntime): StorefrontPage[] {
  const routes = routesByName([
    ...approvalRulesRoutes(host),
    ...employeeRoutes(host),
    ...roleRoutes(host),
    ...unitRoutes(host),
    ...costCenterRoutes(host),
  ]);
  const call = routeCaller();
  const rules = async (ctx: StoreContext) =>
    (await call(ctx, routes.listApprovalRules, { body: { limit: LIMIT } })).elements;
  return [...listPages({ call, routes }, rules), ...formPages({ call, routes }, rules)];
}

const common = { auth: 'login' as const, needsCustomer: true, anyPermission: [MANAGE_RULES] };

function listPages({ call, routes }: Api, rules: (ctx: StoreContext) => Promise<RuleView[]>): StorefrontPage[] {
  async function listPage(ctx: StoreContext, query: Record<string, unknown>): Promise<PageResult> {
    const [all, choices] = await Promise.all([rules(ctx), loadChoices({ call, routes }, ctx)]);
    return {
      template: 'b2b/approval-rules',
      data: {
        title: 'Approval rules',
        rules: all.map((rule, i) => ({
          ...describe(rule, choices),
          first: i === 0,
          last: i === all.length - 1,
        })),
        notice: noticeOf(query, NOTICES),
        newUrl: `${RULES_PATH}/new`,
      },
    };
  }

  return [
    { ...common, path: RULES_PATH, handler: ({ ctx, query }) => listPage(ctx, query) },
    page({
      ...common,
      path: `${RULES_PATH}/:id/move`,
      method: 'POST',
      async handler({ ctx, params, form }) {
        const all = await rules(ctx);
        const from = all.findIndex((rule) => rule.id === params.id);
        if (from < 0) throw Errors.notFound('Approval rule', params.id);
        const to = form.direction === 'up' ? from - 1 : from + 1;
        if (to >= 0 && to < all.length) {
          const order = [...all];
          [order[from], order[to]] = [order[to]!, order[from]!];
          // Priorities in steps of 10 in the new order; only rules whose priority changes are written.
          for (const [i, rule] of order.entries())
            if (rule.priority !== (i + 1) * 10)
              await call(ctx, routes.updateApprovalRule, { params: { id: rule.id }, body: { priority: (i + 1) * 10 } });
        }
        return { redirect: `${RULES_PATH}?done=moved` };
      },
    }),
    page({
      ...common,
      path: `${RULES_PATH}/:id/delete`,
      method: 'POST',
      async handler({ ctx, params }) {
        if (!isId(params.id)) throw Errors.notFound('Approval rule', params.id);
        await call(ctx, routes.deleteApprovalRule, { params: { id: params.id } });
        return { redirect: `${RULES_PATH}?done=deleted` };
      },
    }),
  ];
}

function formPages({ call, routes }: Api, rules: (ctx: StoreContext) => Promise<RuleView[]>): StorefrontPage[] {
  async function formPage(
    ctx: StoreContext,
    rule: { id: string; name: string } | null,
    fields: RuleFields,
    errors: FieldErrors | null = null,
    status = 200,
  ): Promise<PageResult> {
    const choices = await loadChoices({ call, routes }, ctx);
    const general = errors ? [...errors.general] : [];
    return {
      template: 'b2b/approval-rule',
      status,
      data: {
        title: rule ? `Approval rule ${rule.name}` : 'New approval rule',
        isNew: rule === null,
        action: rule ? rulePath(rule.id) : `${RULES_PATH}/new`,
        listUrl: RULES_PATH,
        currency: ctx.salesChannel.currencyIso,
        error: errors ? 'The rule was not saved: please correct the fields marked below.' : null,
        errors: general,
        ...formData(fields, choices, errors),
      },
    };
  }

  /** Sends the form to the route; a 400 shows the form again as typed, with each error beside its field. */
  async function save(
    ctx: StoreContext,
    rule: { id: string; name: string } | null,
    fields: RuleFields,
    send: (body: ReturnType<typeof ruleBody>['body']) => Promise<{ rule: RuleView }>,
  ): Promise<PageResult> {
    const { body, slotOfLevel } = ruleBody(fields);
    try {
      const saved = await send(body);
      return { redirect: `${RULES_PATH}?done=${rule ? 'saved' : 'created'}#rule-${saved.rule.id}` };
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 400) throw error;
      const errors = fieldErrors(error.toBody().errors, slotOfLevel, fields.levels.length);
      return formPage(ctx, rule, fields, errors, 400);
    }
  }

  const readRule = async (ctx: StoreContext, id: string) => {
    if (!isId(id)) throw Errors.notFound('Approval rule', id);
    return (await call(ctx, routes.readApprovalRule, { params: { id } })).rule;
  };

  return [
    {
      ...common,
      path: `${RULES_PATH}/new`,
      async handler({ ctx }) {
        const all = await rules(ctx);
        const next = all.reduce((max, rule) => Math.max(max, rule.priority), 0) + 10;
        return formPage(ctx, null, blankRule(ctx.salesChannel.currencyIso, next));
      },
    },
    {
      ...common,
      path: `${RULES_PATH}/new`,
      method: 'POST',
      handler: ({ ctx, form }) =>
        save(ctx, null, readRuleForm(form), (body) => call(ctx, routes.createApprovalRule, { body })),
    },
    page({
      ...common,
      path: `${RULES_PATH}/:id`,
      async handler({ ctx, params }) {
        const rule = await readRule(ctx, params.id);
        return formPage(ctx, rule, fieldsOf(rule, ctx.salesChannel.currencyIso));
      },
    }),
    page({
      ...common,
      path: `${RULES_PATH}/:id`,
      method: 'POST',
      async handler({ ctx, params, form }) {
        const rule = await readRule(ctx, params.id);
        return save(ctx, rule, readRuleForm(form), (body) =>
          call(ctx, routes.updateApprovalRule, { params: { id: rule.id }, body }),
        );
      },
    }),
  ];
}

/**
 * The chain of an approval for its detail page (`GET /b2b/order-approval/{id}/levels`): the level it
 * is at and who decided each level, when. `when` formats a time for the page.
 */
export function approvalChainReader(host: HostRuntime) {
  const routes = routesByName(approvalRulesRoutes(host));
  const call = routeCaller();
  return async (ctx: StoreContext, id: string, when: (iso: string) => string) => {
    const chain = await call(ctx, routes.readOrderApprovalLevels, { params: { orderApprovalId: id } });
    return {
      ruleName: chain.ruleName,
      currentLevel: chain.currentLevel,
      levelCount: chain.levels.length,
      levels: chain.levels.map((level) => ({
        ...level,
        isCurrent: level.status === 'pending',
        neededText:
          level.mode === 'only-admins'
            ? 'a company admin'
            : level.mode === 'any-approver'
              ? 'a company admin or an approver'
              : `${level.nValue} of ${Math.max(level.nValue, level.approverEmployeeIds.length)}`,
        decisions: level.decisions.map((d) => ({ ...d, decidedAtText: when(d.decidedAt) })),
      })),
    };
  };
}
