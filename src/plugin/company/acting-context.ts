import { randomUUID } from 'node:crypto';
import type { HostRuntime, StoreContext } from '../../contract/index.js';
import { employeeContextEnricher } from '../employee/index.js';
import { unitRuleEnricher } from './units/rule-scope.js';

/**
 * The Store API context of a buyer outside of a request (a job placing an order on their behalf:
 * a recurring order's occurrence): the customer's login, or one of its employees with the
 * permissions of their role, in the customer's sales channel. Null when the customer, its sales
 * channel or the employee is gone or inactive (the employee enricher's refusal).
 */
export async function actingContext(
  host: HostRuntime,
  buyer: { customerId: string; salesChannelId: string; employeeId: string | null },
): Promise<StoreContext | null> {
  const customer = await host.customers.get(host.db, buyer.customerId);
  const salesChannel = await host.customers.salesChannel(host.db, buyer.salesChannelId);
  if (!customer || !customer.active || !salesChannel) return null;
  let ruleIds: Promise<string[]> | null = null;
  const ctx: StoreContext = {
    requestId: randomUUID(),
    ip: '127.0.0.1',
    token: null,
    sessionId: null,
    salesChannel,
    customer,
    actor: buyer.employeeId
      ? { type: 'employee', id: buyer.employeeId, name: '', email: null }
      : {
          type: 'customer',
          id: customer.id,
          name: `${customer.firstName} ${customer.lastName}`.trim(),
          email: customer.email,
        },
    attributes: buyer.employeeId ? { employeeId: buyer.employeeId } : {},
    employee: null,
    salesRepresentative: null,
    permissions: 'all',
    can: (permission) => ctx.permissions === 'all' || ctx.permissions.has(permission),
    ruleIds: () => (ruleIds ??= host.rules.matchingRuleIds(host.db, ctx)),
  };
  if (buyer.employeeId) {
    try {
      await employeeContextEnricher(host.db, ctx);
    } catch {
      return null;
    }
    const employee = ctx.employee!;
    ctx.actor = {
      type: 'employee',
      id: employee.id,
      name: `${employee.firstName} ${employee.lastName}`.trim(),
      email: employee.email,
    };
    await unitRuleEnricher(host.db, ctx);
  }
  await ctx.ruleIds();
  return ctx;
}
