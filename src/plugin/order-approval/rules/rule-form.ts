import type { ErrorObject } from '../../../lib/errors.js';
import { list, text, type Form } from '../../storefront-kit.js';
import { APPLIES_TO, LEVEL_TYPES, type ApprovalRule, type AppliesTo, type LevelType } from './model.js';

/**
 * The approval rule form of the storefront: what it sends, read back into the Store API's rule body,
 * the form kept as typed after a refusal, and the API's errors placed next to the fields they name
 * (their JSON pointer). Pure functions: the pages in storefront.ts call the routes.
 */

/** At most as many levels as the API allows; the form offers the rule's levels and one or two empty ones. */
export const MAX_LEVELS = 10;

export interface LevelFields {
  name: string;
  type: LevelType | '';
  employeeIds: string[];
  roleId: string;
  required: string;
}

export interface RuleFields {
  name: string;
  description: string;
  priority: string;
  active: boolean;
  appliesTo: AppliesTo;
  escalateAfterHours: string;
  currency: string;
  above: string;
  below: string;
  roleIds: string[];
  roleRequiresApproval: boolean;
  unitIds: string[];
  costCenterIds: string[];
  productIds: string;
  categoryIds: string;
  budgetExceeded: boolean;
  firstOrder: boolean;
  levels: LevelFields[];
}

/**
 * A rule as the API returns it (ruleSchema): the model's fields, with `conditions.orderTotal`'s
 * amounts in currency units rather than minor units.
 */
export type RuleView = Omit<ApprovalRule, 'customerId' | 'createdAt' | 'updatedAt'>;

const appliesToOf = (value: string): AppliesTo => APPLIES_TO.find((known) => known === value) ?? 'orders';

const emptyLevel = (): LevelFields => ({ name: '', type: '', employeeIds: [], roleId: '', required: '1' });

/** The slots the form shows: the levels given and at least one empty one to add a level (two for a new rule). */
export function withEmptySlots(levels: LevelFields[], minimum = 2): LevelFields[] {
  const slots = [...levels];
  while (slots.length < MAX_LEVELS && (slots.length < minimum || slots[slots.length - 1]!.type !== '')) {
    slots.push(emptyLevel());
  }
  return slots;
}

export function blankRule(currency: string, priority: number): RuleFields {
  return {
    name: '',
    description: '',
    priority: String(priority),
    active: true,
    appliesTo: 'orders',
    escalateAfterHours: '',
    currency,
    above: '',
    below: '',
    roleIds: [],
    roleRequiresApproval: false,
    unitIds: [],
    costCenterIds: [],
    productIds: '',
    categoryIds: '',
    budgetExceeded: false,
    firstOrder: false,
    levels: withEmptySlots([]),
  };
}

/** The form filled with a stored rule. */
export function fieldsOf(rule: RuleView, currency: string): RuleFields {
  const c = rule.conditions;
  return {
    name: rule.name,
    description: rule.description ?? '',
    priority: String(rule.priority),
    active: rule.active,
    appliesTo: rule.appliesTo,
    escalateAfterHours: rule.escalateAfterHours === null ? '' : String(rule.escalateAfterHours),
    currency: c.orderTotal?.currency ?? currency,
    above: c.orderTotal?.above === undefined ? '' : String(c.orderTotal.above),
    below: c.orderTotal?.below === undefined ? '' : String(c.orderTotal.below),
    roleIds: c.roleIds ?? [],
    roleRequiresApproval: c.roleRequiresApproval === true,
    unitIds: c.unitIds ?? [],
    costCenterIds: c.costCenterIds ?? [],
    productIds: (c.productIds ?? []).join('\n'),
    categoryIds: (c.categoryIds ?? []).join('\n'),
    budgetExceeded: c.budgetExceeded === true,
    firstOrder: c.firstOrder === true,
    levels: withEmptySlots(
      rule.levels.map((level) => ({
        name: level.name,
        type: level.type,
        employeeIds: level.employeeIds ?? [],
        roleId: level.roleId ?? '',
        required: String(level.required),
      })),
      1,
    ),
  };
}

const checked = (form: Form, name: string) => typeof form[name] === 'string' && form[name] !== '';

/** The form as posted: every field kept as typed (nothing is dropped because it is invalid). */
export function readRuleForm(form: Form): RuleFields {
  const slots = Math.min(MAX_LEVELS, Math.max(1, Number(text(form, 'levelSlots', 2)) || 1));
  const levels: LevelFields[] = [];
  for (let i = 0; i < slots; i++) {
    const type = text(form, `level-${i}-type`, 40);
    levels.push({
      name: text(form, `level-${i}-name`, 255),
      type: (LEVEL_TYPES as readonly string[]).includes(type) ? (type as LevelType) : '',
      employeeIds: list(form, `level-${i}-employeeIds`),
      roleId: text(form, `level-${i}-roleId`, 64),
      required: text(form, `level-${i}-required`, 12),
    });
  }
  return {
    name: text(form, 'name', 255),
    description: text(form, 'description', 2000),
    priority: text(form, 'priority', 12),
    active: checked(form, 'active'),
    // The form's select offers these two; anything else (a crafted post) is the default, as an empty one.
    appliesTo: appliesToOf(text(form, 'appliesTo', 20)),
    escalateAfterHours: text(form, 'escalateAfterHours', 12),
    currency: text(form, 'currency', 3).toUpperCase(),
    above: text(form, 'above', 30),
    below: text(form, 'below', 30),
    roleIds: list(form, 'roleIds'),
    roleRequiresApproval: checked(form, 'roleRequiresApproval'),
    unitIds: list(form, 'unitIds'),
    costCenterIds: list(form, 'costCenterIds'),
    productIds: text(form, 'productIds', 10000),
    categoryIds: text(form, 'categoryIds', 10000),
    budgetExceeded: checked(form, 'budgetExceeded'),
    firstOrder: checked(form, 'firstOrder'),
    levels: withEmptySlots(levels, 1),
  };
}

/** A number as typed becomes a number; anything else NaN, which the API refuses naming the field in its 400. */
function numberOr(value: string): number {
  const normal = value.replace(/\s/g, '');
  return /^-?\d+(\.\d+)?$/.test(normal) ? Number(normal) : Number.NaN;
}

const idsOf = (value: string) => value.split(/[\s,;]+/).filter((id) => id !== '');

/**
 * The Store API body of the form, and for each level of the body the form slot it came from (empty
 * slots are left out, so level 2 of the body may be the third slot of the form).
 */
export function ruleBody(fields: RuleFields) {
  const conditions = {
    ...(fields.above !== '' || fields.below !== ''
      ? {
          orderTotal: {
            currency: fields.currency,
            ...(fields.above !== '' ? { above: numberOr(fields.above) } : {}),
            ...(fields.below !== '' ? { below: numberOr(fields.below) } : {}),
          },
        }
      : {}),
    ...(fields.roleIds.length ? { roleIds: fields.roleIds } : {}),
    ...(fields.roleRequiresApproval ? { roleRequiresApproval: true as const } : {}),
    ...(fields.unitIds.length ? { unitIds: fields.unitIds } : {}),
    ...(fields.costCenterIds.length ? { costCenterIds: fields.costCenterIds } : {}),
    ...(idsOf(fields.productIds).length ? { productIds: idsOf(fields.productIds) } : {}),
    ...(idsOf(fields.categoryIds).length ? { categoryIds: idsOf(fields.categoryIds) } : {}),
    ...(fields.budgetExceeded ? { budgetExceeded: true as const } : {}),
    ...(fields.firstOrder ? { firstOrder: true as const } : {}),
  };
  const slotOfLevel: number[] = [];
  const levels = fields.levels.flatMap((level, slot) => {
    if (level.type === '') return [];
    slotOfLevel.push(slot);
    return [
      {
        ...(level.name !== '' ? { name: level.name } : {}),
        type: level.type,
        ...(level.type === 'employees' ? { employeeIds: level.employeeIds } : {}),
        ...(level.type === 'role' ? { roleId: level.roleId } : {}),
        ...(level.required !== '' ? { required: numberOr(level.required) } : {}),
      },
    ];
  });
  return {
    body: {
      name: fields.name,
      description: fields.description === '' ? null : fields.description,
      priority: numberOr(fields.priority),
      active: fields.active,
      appliesTo: fields.appliesTo,
      escalateAfterHours: fields.escalateAfterHours === '' ? null : numberOr(fields.escalateAfterHours),
      conditions,
      levels,
    },
    slotOfLevel,
  };
}

/** The API's errors by form field: `fields.above`, `levels[slot].employeeIds`; the rest (no pointer) in `general`. */
export interface FieldErrors {
  fields: Record<string, string>;
  levels: Array<Record<string, string>>;
  general: string[];
}

/** Places each error of a refusal next to the field its pointer names (`/conditions/orderTotal/above`, `/levels/1/required`). */
export function fieldErrors(errors: ErrorObject[], slotOfLevel: number[], slots: number): FieldErrors {
  const result: FieldErrors = { fields: {}, levels: Array.from({ length: slots }, () => ({})), general: [] };
  for (const error of errors) {
    const message = error.detail ?? error.title;
    const parts = (error.source?.pointer ?? '').replace(/^\/(body\/)?/, '').split('/');
    const [first, second, third] = parts;
    if (first === 'conditions' && second) {
      const key = second === 'orderTotal' ? (third ?? 'orderTotal') : second;
      result.fields[key] ??= message;
    } else if (first === 'levels' && second !== undefined && /^\d+$/.test(second)) {
      const slot = slotOfLevel[Number(second)];
      if (slot === undefined) result.fields.levels ??= message;
      else result.levels[slot]![third ?? 'type'] ??= message;
    } else if (first) result.fields[first] ??= message;
    else result.general.push(message);
  }
  return result;
}
