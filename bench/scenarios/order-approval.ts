import type { Knex } from 'knex';
import { hashPassword } from '../../src/host/auth/passwords.js';
import { writeJson } from '../../src/lib/db.js';
import { newId } from '../../src/lib/ids.js';
import { toDbTime } from '../../src/lib/time.js';
import { insertInBatches, type BenchRequest, type BenchScenario } from '../types.js';

/**
 * Order approval and budgets under load: POST /order-approval/list of a company with BENCH_ORDERS
 * approvals, and GET /budget/{budgetId}/orders of a budget with BENCH_ORDERS orders (default 10,000
 * each; 1,000,000 shows whether the pages stay flat as the data grows).
 */
export const OA_CUSTOMER = { email: 'bench-oa-admin@bench.test', password: 'bench-oa-admin-password' };
const BUDGET_NAME = 'Bench budget';
const BATCH = 500;

async function benchCustomer(db: Knex): Promise<{ id: string; salesChannelId: string }> {
  const existing = await db('customers').where({ email: OA_CUSTOMER.email }).first('id', 'sales_channel_id');
  if (existing) return { id: existing.id, salesChannelId: existing.sales_channel_id };
  const salesChannel = await db('sales_channels').orderBy('created_at').first('id');
  const id = newId();
  await db('customers').insert({ id, sales_channel_id: salesChannel.id, customer_number: 'BENCH-OA-1', email: OA_CUSTOMER.email, password_hash: await hashPassword(OA_CUSTOMER.password), first_name: 'Bench', last_name: 'Approvals', company: 'Bench OA Ltd', tags: '[]', active: true, created_at: toDbTime() });
  return { id, salesChannelId: salesChannel.id };
}

/** A time `i` minutes before now, so lists have a spread of dates. */
const minutesAgo = (i: number) => toDbTime(Date.now() - i * 60_000);

/** The data generator; idempotent for a size (tops up what is missing). */
export async function seedOrderApprovalBench(db: Knex, size: { approvals: number; budgetOrders: number }): Promise<{ customerId: string; budgetId: string }> {
  const customer = await benchCustomer(db);
  // How many there are: the counters the app keeps (migration 014 filled them from the rows), since
  // count(*) over a million rows outlasts the statement time limit on a busy MariaDB. Each slice
  // moves its counter in the slice's transaction, so an interrupted seed resumes where it stopped.
  const haveApprovals = Number((await db('suite_order_approval_counts').where({ customer_id: customer.id }).first('approvals'))?.approvals ?? 0);
  const statuses = ['pending', 'approved', 'declined', 'ordered'];
  // In slices, so a million rows never sit in memory at once.
  for (let start = haveApprovals; start < size.approvals; start += BATCH * 20) {
    const approvals: Array<Record<string, unknown>> = [];
    const lines: Array<Record<string, unknown>> = [];
    for (let i = start; i < Math.min(start + BATCH * 20, size.approvals); i++) {
      const id = newId();
      approvals.push({
        id,
        approval_number: `BENCH-OA-${String(i).padStart(7, '0')}`,
        customer_id: customer.id,
        sales_channel_id: customer.salesChannelId,
        requester_type: 'customer',
        requester_id: customer.id,
        requester_name: 'Bench Approvals',
        requester_email: OA_CUSTOMER.email,
        status: statuses[i % statuses.length],
        decision_round: 1,
        mode: 'only-admins',
        n_value: 1,
        approver_employee_ids: '[]',
        reasons: '["requested"]',
        cart_token: null,
        open_cart_token: null,
        currency_iso: 'EUR',
        net_total: 10000 + i,
        tax_total: 1900,
        total: 11900 + i,
        is_blocked: false,
        block_reasons: '[]',
        created_at: minutesAgo(i),
      });
      lines.push({ id: newId(), approval_id: id, type: 'product', product_id: null, product_number: `BENCH-${i}`, label: `Bench item ${i}`, quantity: 1, unit_net: 10000 + i, total_net: 10000 + i, tax_rate_bp: 1900, payload: '{}', position: 0 });
    }
    await db.transaction(async (trx) => {
      await insertInBatches(trx, 'suite_order_approvals', approvals, BATCH);
      await insertInBatches(trx, 'suite_order_approval_line_items', lines, BATCH);
      await trx('suite_order_approval_counts').insert({ customer_id: customer.id, approvals: start + approvals.length }).onConflict('customer_id').merge();
    });
  }

  let budget = await db('suite_budgets').where({ customer_id: customer.id, name: BUDGET_NAME }).first('id');
  if (!budget) {
    budget = { id: newId() };
    await db('suite_budgets').insert({ id: budget.id, customer_id: customer.id, name: BUDGET_NAME, amount: 1_000_000_000, currency_iso: 'EUR', period_type: 'yearly', start_date: '2000-01-01', active: true, allow_approval: true, created_at: toDbTime() });
  }
  const haveOrders = Number((await db('suite_budgets').where({ id: budget.id }).first('order_count'))?.order_count ?? 0);
  for (let start = haveOrders; start < size.budgetOrders; start += BATCH) {
    const orders: Array<Record<string, unknown>> = [];
    const orderLines: Array<Record<string, unknown>> = [];
    const usage: Array<Record<string, unknown>> = [];
    for (let i = start; i < Math.min(start + BATCH, size.budgetOrders); i++) {
      const id = newId();
      const lineId = newId();
      const date = minutesAgo(i);
      const number = `BOA-${String(i).padStart(8, '0')}`;
      orders.push({ id, order_number: number, sales_channel_id: customer.salesChannelId, customer_id: customer.id, placed_by_type: 'customer', placed_by_id: customer.id, state: 'open', currency_iso: 'EUR', net_total: 2000, tax_total: 380, total: 2380, billing_address: 'null', shipping_address: 'null', custom_fields: '{}', order_customer: writeJson({ customerId: customer.id, email: OA_CUSTOMER.email }), order_date: date, created_at: date });
      orderLines.push({ id: lineId, order_id: id, type: 'product', product_id: null, product_number: `BENCH-${i % 1000}`, label: 'Bench item', quantity: 2, unit_net: 1000, total_net: 2000, tax_rate_bp: 1900, payload: '{}', position: 0 });
      const budgetData = { budgetId: budget.id, budgetLineItems: [{ id: lineId, productId: null, productNumber: `BENCH-${i % 1000}`, label: 'Bench item', quantity: 2, unitPrice: 10, totalPrice: 20 }], budgetProductCount: 0, totalProductCount: 0, budgetValue: 20, totalOrderValue: 20, budgetUsagePercentage: 0, budgetProductRatio: '0/0' };
      usage.push({ budget_id: budget.id, order_id: id, customer_id: customer.id, order_number: number, amount: 2000, placed_at: date, budget_data: writeJson(budgetData) });
    }
    await db.transaction(async (trx) => {
      await trx('orders').insert(orders);
      await trx('order_line_items').insert(orderLines);
      await trx('suite_budget_orders').insert(usage);
      await trx('suite_budgets').where({ id: budget.id }).update({ order_count: start + usage.length });
    });
  }
  return { customerId: customer.id, budgetId: budget.id };
}

/** The autocannon requests (and the bare SQL the baseline runs) once the app is listening. */
export async function orderApprovalRequests(env: Parameters<BenchScenario['requests']>[0]): Promise<{ list: BenchRequest; budgetOrders: BenchRequest; customerId: string; budgetId: string }> {
  const customer = await env.db('customers').where({ email: OA_CUSTOMER.email }).first('id');
  const budget = await env.db('suite_budgets').where({ customer_id: customer.id, name: BUDGET_NAME }).first('id');
  const token = await env.login(OA_CUSTOMER.email, OA_CUSTOMER.password);
  const headers = { 'suite-context-token': token };
  return {
    list: { method: 'POST', path: '/store-api/order-approval/list', headers, body: JSON.stringify({ limit: 25 }) },
    budgetOrders: { method: 'GET', path: `/store-api/budget/${budget.id}/orders?limit=25`, headers },
    customerId: customer.id,
    budgetId: budget.id,
  };
}

export const scenarios: BenchScenario[] = [
  {
    name: 'order approval list',
    seed: async ({ db, size }) => void (await seedOrderApprovalBench(db, { approvals: size.orders, budgetOrders: size.orders })),
    async requests(env) {
      const { list, customerId } = await orderApprovalRequests(env);
      return {
        app: list,
        baselineSql: [
          { sql: 'select a.*, (select count(*) from suite_order_approval_line_items l where l.approval_id = a.id) as line_item_count from suite_order_approvals a where a.customer_id = ? order by a.created_at desc, a.id desc limit 25', bindings: [customerId] },
          { sql: 'select approvals from suite_order_approval_counts where customer_id = ?', bindings: [customerId] },
        ],
      };
    },
  },
  {
    name: 'budget orders',
    seed: async ({ db, size }) => void (await seedOrderApprovalBench(db, { approvals: size.orders, budgetOrders: size.orders })),
    async requests(env) {
      const { budgetOrders, budgetId, customerId } = await orderApprovalRequests(env);
      const page = await env.db('suite_budget_orders').where({ budget_id: budgetId }).orderBy('placed_at', 'desc').orderBy('order_id', 'desc').limit(25).pluck('order_id');
      const marks = page.map(() => '?').join(',');
      return {
        app: budgetOrders,
        baselineSql: [
          { sql: 'select id, order_count from suite_budgets where id = ? and customer_id = ?', bindings: [budgetId, customerId] },
          { sql: 'select order_id, budget_data from suite_budget_orders where budget_id = ? order by placed_at desc, order_id desc limit 25', bindings: [budgetId] },
          { sql: `select * from orders where id in (${marks})`, bindings: page },
          { sql: `select * from order_line_items where order_id in (${marks}) order by position`, bindings: page },
        ],
      };
    },
  },
];
