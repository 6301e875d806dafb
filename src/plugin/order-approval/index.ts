import type { HostRuntime } from '../../host/contract.js';

/** Order approval: approval requests, approver settings, checkout interception. */
export async function registerOrderApproval(host: HostRuntime): Promise<void> {
  void host;
}
