import { LRUCache } from 'lru-cache';
import type { ContextVersionSource, HostRuntime, StoreContext } from '../../contract/index.js';
import type { Executor } from '../../lib/db.js';
import { rulesOf } from './repository.js';
import type { QuantityRule } from './rules.js';

/** The quantity rules version (migration plugin/023): moves on every write to suite_quantity_rules. */
export const QUANTITY_RULES_VERSION: ContextVersionSource = { table: 'suite_data_versions', name: 'quantity-rules' };

/** Products whose rule (or absence of one) a process keeps. */
const ENTRIES_MAX = 100_000;

interface KeptRule {
  version: number;
  rule: QuantityRule | null;
}

/**
 * Per product its rule (null: none), kept per process while the rules version read with the
 * request's context is the one read before the rule was (any write on any process moves it:
 * triggers). So a cart add, which runs the processor for each line it touches, reads no rule it
 * read before. Used inside cart and checkout transactions too: they never write rules, so a kept
 * rule is as committed as a fresh read. Without the version in the context (a host that does not
 * read it) the rules are read, once per product and executor (an add that merges into a line runs
 * the processor twice for the same product).
 */
export class QuantityRuleCache {
  private readonly rules = new LRUCache<string, KeptRule>({ max: ENTRIES_MAX });
  private readonly readIn = new WeakMap<Executor, { ctx: StoreContext; rules: Map<string, QuantityRule | null> }>();

  constructor(private readonly host: HostRuntime) {}

  async ruleOf(ctx: StoreContext, executor: Executor, productId: string): Promise<QuantityRule | null> {
    const version = this.host.auth.contextVersion?.(ctx, QUANTITY_RULES_VERSION);
    if (version !== undefined) {
      const kept = this.rules.get(productId);
      if (kept?.version === version) return kept.rule;
      const rule = (await rulesOf(executor, [productId])).get(productId) ?? null;
      this.rules.set(productId, { version, rule });
      return rule;
    }
    let entry = this.readIn.get(executor);
    if (entry?.ctx !== ctx) this.readIn.set(executor, (entry = { ctx, rules: new Map() }));
    if (!entry.rules.has(productId))
      entry.rules.set(productId, (await rulesOf(executor, [productId])).get(productId) ?? null);
    return entry.rules.get(productId) ?? null;
  }
}
