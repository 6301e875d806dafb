import type { HostRuntime } from '../../host/contract.js';

/** Employee budgets. */
export async function registerBudgets(host: HostRuntime): Promise<void> {
  void host;
}
