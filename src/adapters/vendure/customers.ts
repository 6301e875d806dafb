import type { HostRuntime, SalesChannel, StoreContext } from '../../host/contract.js';
import type { Executor } from '../../lib/db.js';
import type { AdapterState as AdapterContext } from './state.js';
import { unsupported } from './unsupported.js';
import { customerByEmail, customerGroupIds, customerGroupsByIds, customersByIds, defaultChannel, toSalesChannel } from './vendure-tables.js';

/**
 * Customers are Vendure customers (read through the plugin's executor). Rules are Vendure customer
 * groups: a rule id is a customer group's id (in the plugin's id form, see ids.ts), and a context
 * matches the groups its customer belongs to (docs/vendure.md).
 */
export function customersContract(a: AdapterContext): Pick<HostRuntime, 'customers' | 'customerGroups' | 'rules'> {
  const { ids } = a;
  const channelId = async (executor: Executor) => ids.toPlugin((await defaultChannel(executor)).id);
  return {
    customers: {
      async get(executor, id) {
        return (await customersByIds(ids, executor, [id], await channelId(executor)))[0] ?? null;
      },
      async getMany(executor, wanted) {
        return customersByIds(ids, executor, wanted, await channelId(executor));
      },
      async findByEmail(executor, email) {
        return customerByEmail(ids, executor, email, await channelId(executor));
      },
      // Vendure has no customer numbers: the id stands for it (docs/vendure.md).
      async findByNumbers(executor, numbers) {
        return customersByIds(ids, executor, numbers.map((n) => ids.toPlugin(n)), await channelId(executor));
      },
      search: unsupported('customers.search'),
      create: unsupported('customers.create'),
      addresses: unsupported('customers.addresses'),
      defaultAddressIds: unsupported('customers.defaultAddressIds'),
      setDefaultAddress: unsupported('customers.setDefaultAddress'),
      async salesChannel(executor, id): Promise<SalesChannel | null> {
        const channel = await a.salesChannel(executor);
        return channel.id === id ? channel : null;
      },
    },
    customerGroups: {
      getMany: (executor, wanted) => customerGroupsByIds(ids, executor, wanted),
    },
    rules: {
      async matchingRuleIds(ctx: StoreContext) {
        return ctx.customer ? customerGroupIds(ids, a.db, ctx.customer.id) : [];
      },
      async exists(executor, ruleId) {
        return (await customerGroupsByIds(ids, executor, [ruleId])).length > 0;
      },
    },
  };
}

export { toSalesChannel };
