import type { Knex } from 'knex';
import { newId } from '../../src/lib/ids.js';
import { dateTime, idColumn, jsonText, timestamps } from '../../src/lib/migration-helpers.js';
import { nowDb } from '../../src/lib/time.js';

/**
 * Approval rules with levels (decision 0016, docs/approval-rules.md). A rule: conditions on the
 * order and its buyer, a priority, and a chain of levels; the first matching rule decides. An
 * approval keeps the chain it was created with (one row per level) and the level it is at.
 *
 * The data part turns today's triggers into rules of every company the plugin knows: a budget that
 * allows approval is exceeded (priority 10), the buyer's role requires approval (20), and the buyer
 * asks of their own accord (30, a request rule). Each has one level: "the approver settings", which
 * keeps meaning what the customer settings say (only-admins or n of the listed employees).
 * Companies the plugin meets later get the same three (src/plugin/order-approval/rules/defaults.ts);
 * the rows are written here as data because a migration is history and must not follow later code.
 */
const RULES = 'suite_approval_rules';
const RULE_SETS = 'suite_approval_rule_sets';
const APPROVAL_LEVELS = 'suite_order_approval_levels';

const MIGRATED = [
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
const SETTINGS_LEVEL = [{ name: 'Approvers', type: 'approver-settings', required: 1 }];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable(RULES, (t) => {
    idColumn(t).primary();
    idColumn(t, 'customer_id').notNullable();
    t.string('name', 255).notNullable();
    t.text('description').nullable();
    /** lower first; equal priorities by creation */
    t.integer('priority').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    /** 'orders': a matching order cannot be placed directly; 'requests': only when the buyer asks for approval */
    t.string('applies_to', 16).notNullable();
    jsonText(t, 'conditions').notNullable();
    jsonText(t, 'levels').notNullable();
    /** 'budget' | 'role' | 'request' for the rules migrated from the old triggers, null for the company's own */
    t.string('origin', 16).nullable();
    /** a level pending longer than this is escalated to the company admins (null: never) */
    t.integer('escalate_after_hours').nullable();
    timestamps(t);
    t.index(['customer_id', 'priority'], 'suite_approval_rules_customer_idx');
  });
  /** The companies whose rules are rows (migrated or changed); the others follow the default rules. */
  await knex.schema.createTable(RULE_SETS, (t) => {
    idColumn(t, 'customer_id').primary();
    dateTime(t, 'created_at').notNullable();
  });
  /** The chain an approval was created with, resolved to people where the level names them. */
  await knex.schema.createTable(APPROVAL_LEVELS, (t) => {
    idColumn(t, 'approval_id').notNullable();
    t.integer('level').notNullable();
    t.string('name', 255).notNullable();
    t.string('type', 24).notNullable();
    /** mode, n and approvers the approval takes on while at this level (approver-settings: read when the level starts) */
    t.string('mode', 16).notNullable();
    t.integer('n_value').notNullable();
    jsonText(t, 'approver_employee_ids').notNullable();
    dateTime(t, 'started_at').nullable();
    dateTime(t, 'approved_at').nullable();
    dateTime(t, 'escalated_at').nullable();
    t.primary(['approval_id', 'level'], 'suite_oa_levels_pk');
    t.foreign('approval_id', 'suite_oa_levels_approval_fk').references('suite_order_approvals.id').onDelete('CASCADE');
  });
  await knex.schema.alterTable('suite_order_approvals', (t) => {
    idColumn(t, 'rule_id').nullable();
    t.string('rule_name', 255).nullable();
    t.integer('current_level').notNullable().defaultTo(1);
    t.integer('level_count').notNullable().defaultTo(1);
  });
  // A decision counts for one level: the unique key gains the level (the new index first, so the
  // foreign key on approval_id always has one on MariaDB).
  await knex.schema.alterTable('suite_order_approval_decisions', (t) => {
    t.integer('level').notNullable().defaultTo(1);
  });
  await knex.schema.alterTable('suite_order_approval_decisions', (t) => {
    t.unique(['approval_id', 'round', 'level', 'approver_key'], 'suite_oa_decisions_level_uq');
  });
  await knex.schema.alterTable('suite_order_approval_decisions', (t) => {
    t.dropUnique(['approval_id', 'round', 'approver_key'], 'suite_oa_decisions_uq');
  });

  const customerIds = new Set<string>();
  for (const table of [
    'b2b_employee_customers',
    'suite_order_approval_settings',
    'suite_budgets',
    'suite_order_approvals',
  ])
    for (const row of (await knex(table).distinct('customer_id')) as Array<{ customer_id: string }>)
      customerIds.add(row.customer_id);
  const now = nowDb();
  const rows: Array<Record<string, unknown>> = [];
  const sets: Array<Record<string, unknown>> = [];
  for (const customerId of [...customerIds].sort()) {
    sets.push({ customer_id: customerId, created_at: now });
    for (const rule of MIGRATED)
      rows.push({
        id: newId(),
        customer_id: customerId,
        name: rule.name,
        description: null,
        priority: rule.priority,
        active: true,
        applies_to: rule.appliesTo,
        conditions: JSON.stringify(rule.conditions),
        levels: JSON.stringify(SETTINGS_LEVEL),
        origin: rule.origin,
        escalate_after_hours: null,
        created_at: now,
        updated_at: null,
      });
  }
  for (let i = 0; i < sets.length; i += 200) await knex(RULE_SETS).insert(sets.slice(i, i + 200));
  for (let i = 0; i < rows.length; i += 200) await knex(RULES).insert(rows.slice(i, i + 200));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('suite_order_approval_decisions', (t) => {
    t.unique(['approval_id', 'round', 'approver_key'], 'suite_oa_decisions_uq');
  });
  await knex.schema.alterTable('suite_order_approval_decisions', (t) => {
    t.dropUnique(['approval_id', 'round', 'level', 'approver_key'], 'suite_oa_decisions_level_uq');
    t.dropColumn('level');
  });
  await knex.schema.alterTable('suite_order_approvals', (t) => {
    t.dropColumn('rule_id');
    t.dropColumn('rule_name');
    t.dropColumn('current_level');
    t.dropColumn('level_count');
  });
  await knex.schema.dropTableIfExists(APPROVAL_LEVELS);
  await knex.schema.dropTableIfExists(RULE_SETS);
  await knex.schema.dropTableIfExists(RULES);
}
