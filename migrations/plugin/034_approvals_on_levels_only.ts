import type { Knex } from 'knex';

/**
 * Approvals on levels only (decision 0056): who decides an approval and how many
 * approvals it needs are its current level's row in `suite_order_approval_levels`; the approval row
 * loses the copy it kept of them (`mode`, `n_value`, `approver_employee_ids`, decision 0016).
 *
 * What the old columns still carry moves to the levels first:
 * - an approval from before the rules (migration 021) has no level rows: it gets its one level,
 *   "Approvers" of type `approver-settings`, with the approval's mode, n and approvers, started when
 *   the approval was created (and approved when it was, if it is approved or ordered);
 * - an approval with levels takes its columns onto its current level where they differ: the old code
 *   wrote an escalation (`only-admins`) and, for levels without a row update, re-applied settings onto
 *   the approval row only, so the row, not the level, held what counted.
 * The customer's approver settings (`suite_order_approval_settings`) are their own table and stay.
 * Set-based statements (a database may hold a million approvals), portable to SQLite, MySQL/MariaDB
 * and PostgreSQL; the columns are dropped with plain `alter table … drop column` (SQLite ≥ 3.35 drops
 * in place, so the table keeps its version trigger and its children are not rebuilt).
 */
const APPROVALS = 'suite_order_approvals';
const LEVELS = 'suite_order_approval_levels';
const COLUMNS = ['mode', 'n_value', 'approver_employee_ids'] as const;

export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasColumn(APPROVALS, 'mode'))) return;
  await knex.raw(
    `insert into ${LEVELS} (approval_id, level, name, type, mode, n_value, approver_employee_ids, started_at, approved_at, escalated_at)
     select a.id, a.current_level, 'Approvers', 'approver-settings', a.mode, a.n_value, a.approver_employee_ids, a.created_at,
            case when a.status in ('approved', 'ordering', 'ordered') then a.decided_at else null end, null
     from ${APPROVALS} a
     where not exists (select 1 from ${LEVELS} l where l.approval_id = a.id)`,
  );
  const current = `from ${APPROVALS} a where a.id = ${LEVELS}.approval_id and a.current_level = ${LEVELS}.level`;
  await knex.raw(
    `update ${LEVELS} set
       mode = (select a.mode ${current}),
       n_value = (select a.n_value ${current}),
       approver_employee_ids = (select a.approver_employee_ids ${current})
     where exists (select 1 ${current} and (a.mode <> ${LEVELS}.mode or a.n_value <> ${LEVELS}.n_value
       or a.approver_employee_ids <> ${LEVELS}.approver_employee_ids))`,
  );
  for (const column of COLUMNS) await knex.raw('alter table ?? drop column ??', [APPROVALS, column]);
}

/** The columns again, holding the current level's values (as the code before this migration kept them). */
export async function down(knex: Knex): Promise<void> {
  if (await knex.schema.hasColumn(APPROVALS, 'mode')) return;
  await knex.schema.alterTable(APPROVALS, (t) => {
    t.string('mode', 16).notNullable().defaultTo('only-admins');
    t.integer('n_value').notNullable().defaultTo(1);
    t.text('approver_employee_ids', 'longtext').nullable();
  });
  const current = `from ${LEVELS} l where l.approval_id = ${APPROVALS}.id and l.level = ${APPROVALS}.current_level`;
  await knex.raw(
    `update ${APPROVALS} set
       mode = coalesce((select l.mode ${current}), 'only-admins'),
       n_value = coalesce((select l.n_value ${current}), 1),
       approver_employee_ids = coalesce((select l.approver_employee_ids ${current}), '[]')`,
  );
}
