import type { HostRuntime, PriceLine } from '../../../contract/index.js';
import type { Executor } from '../../../lib/db.js';
import { applicableBudgetIds, evaluateBudgets, type BudgetEvaluation } from '../../budget/index.js';
import { defaultOf, selectionOf } from '../../cost-center/index.js';
import { unitScopeOfEmployee } from '../../company/index.js';
import { conditionsHold, type RuleFacts } from './conditions.js';
import { reasonOf, type ApprovalRule } from './model.js';
import { activeRules, roleOfEmployee } from './repository.js';

/** What rules are decided on: an order (a checkout draft, or the cart an approval is asked for) and its buyer. */
export interface OrderFacts {
  customerId: string;
  buyer: { type: string; id: string | null };
  lines: PriceLine[];
  currencyIso: string;
  timeZone: string;
  /** Budget evaluations already made (approval create makes them for its reservations). */
  budgets?: BudgetEvaluation[];
}

/**
 * The facts a rule's conditions ask about, each read once and only when a rule asks: rules are
 * evaluated at every checkout, and most companies have a handful of rules with one condition each.
 */
class LazyFacts implements RuleFacts {
  private cache = new Map<string, Promise<unknown>>();
  constructor(
    private readonly host: HostRuntime,
    private readonly executor: Executor,
    readonly order: OrderFacts,
  ) {}

  private once<T>(key: string, read: () => Promise<T>): Promise<T> {
    if (!this.cache.has(key)) this.cache.set(key, read());
    return this.cache.get(key) as Promise<T>;
  }

  get employeeId(): string | null {
    return this.order.buyer.type === 'employee' ? this.order.buyer.id : null;
  }

  get currencyIso(): string {
    return this.order.currencyIso;
  }

  netTotal(): number {
    return this.order.lines.reduce((sum, l) => sum + l.totalNet, 0);
  }

  productIds(): string[] {
    return this.order.lines.map((l) => l.productId).filter((id): id is string => !!id);
  }

  role(): Promise<{ roleId: string | null; requiresApproval: boolean }> {
    return this.once('role', async () => {
      if (!this.employeeId) return { roleId: null, requiresApproval: false };
      return roleOfEmployee(this.executor, this.order.customerId, this.employeeId);
    });
  }

  units(): Promise<string[]> {
    return this.once('units', async () =>
      this.employeeId ? unitScopeOfEmployee(this.executor, this.order.customerId, this.employeeId) : [],
    );
  }

  categoryIds(): Promise<Set<string>> {
    return this.once('categories', async () => {
      const productIds = [...new Set(this.order.lines.map((l) => l.productId).filter((id): id is string => !!id))];
      return new Set((await this.host.catalog.products(this.executor, productIds)).flatMap((p) => p.categoryIds));
    });
  }

  costCenterId(): Promise<string | null> {
    return this.once('costCenter', async () => {
      if (!this.order.buyer.id) return null;
      const key = { customerId: this.order.customerId, actorType: this.order.buyer.type, actorId: this.order.buyer.id };
      return ((await selectionOf(this.executor, key)) ?? (await defaultOf(this.executor, key)))?.id ?? null;
    });
  }

  budgets(): Promise<BudgetEvaluation[]> {
    return this.once('budgets', async () => {
      if (this.order.budgets) return this.order.budgets;
      if (!this.employeeId) return [];
      const budgetIds = await applicableBudgetIds(this.executor, this.order.customerId, this.employeeId);
      if (budgetIds.length === 0) return [];
      const { customerId, lines, currencyIso, timeZone } = this.order;
      return evaluateBudgets(this.host, this.executor, { customerId, budgetIds, lines, currencyIso, timeZone });
    });
  }

  /** The first budget that allows approval and that the order exceeds. */
  async exceededBudget(): Promise<BudgetEvaluation | null> {
    return (await this.budgets()).find((e) => e.exceeds && e.budget.allowApproval) ?? null;
  }

  firstOrder(): Promise<boolean> {
    return this.once('firstOrder', async () => {
      if (!this.employeeId) return false;
      const page = await this.host.orders.search(
        this.executor,
        { customerIds: [this.order.customerId], placedBy: { type: 'employee', id: this.employeeId } },
        { page: 1, limit: 1 },
      );
      return page.total === 0;
    });
  }
}

export interface RuleMatch {
  /** every active rule that matches, by priority (the first decides) */
  matched: ApprovalRule[];
  /** the budget the order exceeds, when a budget condition asked */
  exceededBudget: BudgetEvaluation | null;
}

/** The rules of `rules` (active, by priority) that match the order; `appliesTo` picks checkout rules or request rules. */
export async function matchRules(
  host: HostRuntime,
  executor: Executor,
  rules: ApprovalRule[],
  order: OrderFacts,
  appliesTo: ApprovalRule['appliesTo'],
): Promise<RuleMatch> {
  const facts = new LazyFacts(host, executor, order);
  const matched: ApprovalRule[] = [];
  for (const rule of rules)
    if (rule.appliesTo === appliesTo && (await conditionsHold(facts, rule.conditions))) matched.push(rule);
  const asksBudget = matched.some((r) => r.conditions.budgetExceeded);
  return { matched, exceededBudget: asksBudget ? await facts.exceededBudget() : null };
}

const REASON_ORDER = ['role', 'budget', 'rule', 'requested'] as const;

export interface RuleChoice {
  /** the rule whose chain the approval follows; null: no rule asks for approval */
  rule: ApprovalRule | null;
  /** why approval is needed: the reasons of every matching checkout rule (the old triggers keep theirs), else `requested` */
  reasons: string[];
  /** the budget a matching budget rule found exceeded */
  exceededBudget: BudgetEvaluation | null;
}

/**
 * The first matching rule by priority among those for orders (a checkout is refused with it); when
 * none matches and the buyer asks for approval anyway, the first matching request rule.
 */
export async function chooseRule(
  host: HostRuntime,
  executor: Executor,
  order: OrderFacts,
  asked: boolean,
): Promise<RuleChoice> {
  const rules = await activeRules(executor, order.customerId);
  const forOrders = await matchRules(host, executor, rules, order, 'orders');
  if (forOrders.matched.length > 0) {
    const reasons = new Set(forOrders.matched.map(reasonOf));
    return {
      rule: forOrders.matched[0]!,
      reasons: REASON_ORDER.filter((r) => reasons.has(r)),
      exceededBudget: forOrders.exceededBudget,
    };
  }
  if (!asked) return { rule: null, reasons: [], exceededBudget: null };
  const forRequests = await matchRules(host, executor, rules, order, 'requests');
  return { rule: forRequests.matched[0] ?? null, reasons: ['requested'], exceededBudget: null };
}
