import { CONTRACT_VERSION, type HostRuntime } from '../../contract/index.js';
import { idempotencyStore } from '../../lib/idempotency.js';
import type { AdapterApis } from './store-api.js';
import { authContract } from './sessions.js';
import { catalogContract } from './catalog.js';
import { checkoutContract } from './checkout.js';
import { customersContract } from './customers.js';
import { infraContract } from './infra.js';
import type { AdapterState } from './state.js';

/** The HostRuntime contract implemented on Vendure, assembled from one module per area. */
export function createVendureRuntime(
  state: AdapterState,
  apis: AdapterApis,
  console?: HostRuntime['console'],
): HostRuntime {
  const runtime: HostRuntime = {
    contractVersion: CONTRACT_VERSION,
    db: state.db,
    log: state.log,
    storeApi: { route: (route) => apis.storeApi.add(route), idempotency: idempotencyStore(state.db) },
    adminApi: { route: (route) => apis.adminApi.add(route) },
    auth: authContract(state),
    ...customersContract(state),
    ...catalogContract(state),
    ...checkoutContract(state),
    ...infraContract(state),
    ...(console ? { console } : {}),
  };
  state.runtime = runtime;
  return runtime;
}
