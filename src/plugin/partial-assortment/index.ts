import type { HostRuntime } from '../../host/contract.js';

/** Partial assortments: rules decide who sees which categories, landing pages and products. */
export async function registerPartialAssortment(host: HostRuntime): Promise<void> {
  void host;
}
