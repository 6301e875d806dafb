/**
 * Approval rules (docs/approval-rules.md): what a rule is, and the three rules every company starts
 * with — today's triggers (budget, role flag, voluntary request) as rules, the same rows migration
 * 021 wrote for the companies that existed then.
 */

/** Conditions of a rule; all given ones must hold, none given matches every order. Amounts in minor units. */
export interface RuleConditions {
  /** the order's net total (in `currency` only) is above `above` and/or below `below` */
  orderTotal?: { currency: string; above?: number; below?: number };
  /** the buyer's role on this company is one of these */
  roleIds?: string[];
  /** the buyer's role has the flag "orders need approval" */
  roleRequiresApproval?: boolean;
  /** the buyer belongs to one of these units or a unit below them */
  unitIds?: string[];
  /** the cart holds one of these products */
  productIds?: string[];
  /** the cart holds a product of one of these categories */
  categoryIds?: string[];
  /** the order's cost center (chosen or default) is one of these */
  costCenterIds?: string[];
  /** the order exceeds a budget of the buyer that allows approval */
  budgetExceeded?: boolean;
  /** the buyer has placed no order for this company yet */
  firstOrder?: boolean;
}

export const LEVEL_TYPES = ['employees', 'role', 'unit-managers', 'company-admins', 'approver-settings'] as const;
export type LevelType = (typeof LEVEL_TYPES)[number];

/** One level of a chain: who decides it and how many of them must approve (1 = any). */
export interface RuleLevel {
  name: string;
  type: LevelType;
  /** type employees */
  employeeIds?: string[];
  /** type role */
  roleId?: string;
  required: number;
}

export const APPLIES_TO = ['orders', 'requests'] as const;
export type AppliesTo = (typeof APPLIES_TO)[number];
export type RuleOrigin = 'budget' | 'role' | 'request';

export interface ApprovalRule {
  id: string;
  customerId: string;
  name: string;
  description: string | null;
  priority: number;
  active: boolean;
  appliesTo: AppliesTo;
  conditions: RuleConditions;
  levels: RuleLevel[];
  origin: RuleOrigin | null;
  escalateAfterHours: number | null;
  createdAt: string;
  updatedAt: string | null;
}

export const SETTINGS_LEVEL: RuleLevel = { name: 'Approvers', type: 'approver-settings', required: 1 };

export const DEFAULT_RULES: ReadonlyArray<
  Pick<ApprovalRule, 'name' | 'priority' | 'appliesTo' | 'conditions' | 'origin'>
> = [
  {
    origin: 'budget',
    name: 'A budget is exceeded',
    priority: 10,
    appliesTo: 'orders',
    conditions: { budgetExceeded: true },
  },
  {
    origin: 'role',
    name: "The buyer's role requires approval",
    priority: 20,
    appliesTo: 'orders',
    conditions: { roleRequiresApproval: true },
  },
  { origin: 'request', name: 'The buyer asks for approval', priority: 30, appliesTo: 'requests', conditions: {} },
];

/** The reason an approval names for a rule: the old triggers keep theirs, a company's own rules say `rule`. */
export function reasonOf(rule: Pick<ApprovalRule, 'origin'>): 'budget' | 'role' | 'requested' | 'rule' {
  if (rule.origin === 'budget' || rule.origin === 'role') return rule.origin;
  if (rule.origin === 'request') return 'requested';
  return 'rule';
}
