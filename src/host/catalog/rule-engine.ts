import { readInt, readJson, selectRows, type Db, type Executor } from '../../lib/db.js';
import { LRUCache } from 'lru-cache';
import { ID_PATTERN } from '../../lib/ids.js';
import type { StoreContext } from '../../contract/index.js';
import { visibilityVersion } from './catalog-version.js';

/** A rule's condition tree, as stored in rules.conditions. */
export type Condition =
  | { type: 'andContainer' | 'orContainer' | 'notContainer'; children: Condition[] }
  | { type: 'alwaysValid' }
  | { type: 'customerLoggedIn' | 'isEmployee' | 'isSalesRepresentative'; value: boolean }
  | {
      type: 'customerId' | 'customerNumber' | 'customerGroup' | 'customerTag' | 'salesChannel' | 'employeeRole';
      operator: '=' | '!=';
      value: string | string[];
    };

export const MAX_CONDITION_DEPTH = 10;

const containerTypes = ['andContainer', 'orContainer', 'notContainer'];
const booleanTypes = ['customerLoggedIn', 'isEmployee', 'isSalesRepresentative'];
const valueTypes = ['customerId', 'customerNumber', 'customerGroup', 'customerTag', 'salesChannel', 'employeeRole'];

const stringValue = { type: 'string', minLength: 1, maxLength: 255 };

/** JSON Schema definitions of a condition tree; a schema using them refers to '#/$defs/condition' and carries these at its root. */
export const conditionDefs = {
  condition: {
    type: 'object',
    required: ['type'],
    oneOf: [
      {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'children'],
        properties: {
          type: { enum: containerTypes },
          children: { type: 'array', maxItems: 100, items: { $ref: '#/$defs/condition' } },
        },
      },
      {
        type: 'object',
        additionalProperties: false,
        required: ['type'],
        properties: { type: { const: 'alwaysValid' } },
      },
      {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'value'],
        properties: { type: { enum: booleanTypes }, value: { type: 'boolean' } },
      },
      {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'operator', 'value'],
        properties: {
          type: { enum: valueTypes },
          operator: { enum: ['=', '!='] },
          value: { anyOf: [stringValue, { type: 'array', minItems: 1, maxItems: 1000, items: stringValue }] },
        },
      },
    ],
  },
};

export function conditionDepth(condition: unknown, depth = 1): number {
  if (typeof condition !== 'object' || condition === null) return depth;
  const children = (condition as { children?: unknown }).children;
  if (!Array.isArray(children) || children.length === 0) return depth;
  let max = depth;
  for (const child of children) {
    max = Math.max(max, conditionDepth(child, depth + 1));
    if (max > MAX_CONDITION_DEPTH) return max;
  }
  return max;
}

function valueList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return value === undefined || value === null ? [] : [typeof value === 'string' ? value : JSON.stringify(value)];
}

/**
 * `=`: the actual value (or one of them) is listed; `!=`: none is. Without an actual value (a guest
 * has no customer number, group or tag) `=` never matches and `!=` always does: "everyone but
 * C10001" includes guests, as on Vendure (a guest is in no customer group, so an `except` group
 * matches it) and as the console's form says (decision 0047).
 */
function compare(operator: unknown, actual: Array<string | null | undefined>, expected: unknown): boolean {
  const present = actual.filter((v): v is string => typeof v === 'string' && v !== '');
  if (present.length === 0) return operator === '!=';
  const listed = valueList(expected);
  const hit = present.some((v) => listed.includes(v));
  if (operator === '=') return hit;
  if (operator === '!=') return !hit;
  return false;
}

function isEmployee(ctx: StoreContext): boolean {
  return ctx.employee !== null || ctx.actor.type === 'employee';
}

function isSalesRepresentative(ctx: StoreContext): boolean {
  return ctx.salesRepresentative !== null || ctx.actor.type === 'salesRepresentative';
}

/** Evaluates one condition tree. Unknown or malformed conditions never match (they do not throw). */
export function matchCondition(condition: unknown, ctx: StoreContext, depth = 0): boolean {
  if (typeof condition !== 'object' || condition === null || depth > MAX_CONDITION_DEPTH) return false;
  const c = condition as Record<string, unknown>;
  const children = Array.isArray(c.children) ? c.children : [];
  switch (c.type) {
    case 'andContainer':
      return children.every((child) => matchCondition(child, ctx, depth + 1));
    case 'orContainer':
      return children.some((child) => matchCondition(child, ctx, depth + 1));
    case 'notContainer':
      return !children.every((child) => matchCondition(child, ctx, depth + 1));
    case 'alwaysValid':
      return true;
    case 'customerLoggedIn':
      return typeof c.value === 'boolean' && (ctx.customer !== null) === c.value;
    case 'isEmployee':
      return typeof c.value === 'boolean' && isEmployee(ctx) === c.value;
    case 'isSalesRepresentative':
      return typeof c.value === 'boolean' && isSalesRepresentative(ctx) === c.value;
    case 'customerId':
      return compare(c.operator, [ctx.customer?.id], c.value);
    case 'customerNumber':
      return compare(c.operator, [ctx.customer?.customerNumber], c.value);
    case 'customerGroup':
      return compare(c.operator, [ctx.customer?.groupId], c.value);
    case 'customerTag':
      return compare(c.operator, ctx.customer?.tags ?? [], c.value);
    case 'salesChannel':
      return compare(c.operator, [ctx.salesChannel.id], c.value);
    case 'employeeRole':
      return compare(c.operator, [ctx.employee?.roleId], c.value);
    default:
      return false;
  }
}

const MATCHES_MAX = 10_000;

/** Every field of a context that a condition reads (matchCondition): equal fingerprints match the same rules. */
export function contextFingerprint(ctx: StoreContext): string {
  const customer = ctx.customer;
  return JSON.stringify([
    ctx.salesChannel.id,
    customer ? [customer.id, customer.customerNumber, customer.groupId, customer.tags] : null,
    isEmployee(ctx),
    isSalesRepresentative(ctx),
    ctx.employee?.roleId ?? null,
  ]);
}

interface LoadedRule {
  id: string;
  priority: number;
  conditions: unknown;
}

async function readRules(executor: Executor): Promise<LoadedRule[]> {
  const rows = await selectRows<{ id: unknown; priority: unknown; conditions: unknown }>(
    executor('rules').select('id', 'priority', 'conditions').orderBy('priority', 'desc').orderBy('id'),
  );
  return rows.map((row) => ({
    id: String(row.id),
    priority: readInt(row.priority),
    conditions: readJson<unknown>(row.conditions, null),
  }));
}

/**
 * Parsed rules cached per process, keyed on the visibility counter that every rule write bumps:
 * one cheap read per request tells whether another process changed a rule.
 */
export class RuleEngine {
  private cache: { version: number; rules: LoadedRule[] } | null = null;
  /** Matching rule ids per version and per what the conditions read of a context (its fingerprint). */
  private matches: { version: number; byContext: LRUCache<string, string[]> } | null = null;
  private loading: { version: number; promise: Promise<LoadedRule[]> } | null = null;

  constructor(private readonly db: Db) {}

  async rules(executor: Executor = this.db, knownVersion?: number): Promise<LoadedRule[]> {
    return (await this.versioned(executor, knownVersion)).rules;
  }

  private async versioned(
    executor: Executor,
    knownVersion?: number,
  ): Promise<{ version: number; rules: LoadedRule[] }> {
    const version = knownVersion ?? (await visibilityVersion(executor));
    return { version, rules: await this.rulesOf(executor, version) };
  }

  private async rulesOf(executor: Executor, version: number): Promise<LoadedRule[]> {
    if (this.cache?.version === version) return this.cache.rules;
    // A transaction's rules may be its own uncommitted writes: read for it alone, never kept.
    if (executor.isTransaction) return readRules(executor);
    if (this.loading?.version !== version) {
      const promise = readRules(executor);
      this.loading = { version, promise };
      promise.then(
        (rules) => {
          if (!this.cache || this.cache.version < version) this.cache = { version, rules };
          if (this.loading?.promise === promise) this.loading = null;
        },
        () => {
          if (this.loading?.promise === promise) this.loading = null;
        },
      );
    }
    return this.loading.promise;
  }

  /**
   * The ids of the rules the context matches. `knownVersion`: the visibility version the caller has
   * read already (the session query reads it), so no second read. The answer is kept per version
   * and context fingerprint (every field a condition reads), so a request of a known kind of
   * context evaluates no condition; a rule write bumps the version on every process.
   */
  async matchingRuleIds(ctx: StoreContext, executor: Executor = this.db, knownVersion?: number): Promise<string[]> {
    const { version, rules } = await this.versioned(executor, knownVersion);
    const matchRules = () => rules.filter((rule) => matchCondition(rule.conditions, ctx)).map((rule) => rule.id);
    // What a transaction read may be its own uncommitted writes: matched for it alone, never kept.
    if (executor.isTransaction && this.matches?.version !== version) return matchRules();
    if (this.matches?.version !== version)
      this.matches = { version, byContext: new LRUCache<string, string[]>({ max: MATCHES_MAX }) };
    const key = contextFingerprint(ctx);
    const known = this.matches.byContext.get(key);
    if (known) return [...known];
    const ids = matchRules();
    // Only under the version the rules were read for: a newer cache generation may have replaced it meanwhile.
    if (this.matches.version === version) this.matches.byContext.set(key, ids);
    return [...ids];
  }

  async exists(executor: Executor, ruleId: string): Promise<boolean> {
    if (!new RegExp(ID_PATTERN).test(ruleId)) return false;
    return Boolean(await executor('rules').where({ id: ruleId }).first('id'));
  }
}
