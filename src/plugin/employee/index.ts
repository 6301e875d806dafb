import type { HostRuntime } from '../../host/contract.js';

/** Employees, roles, permissions, invitations, password-less login and recovery. */
export async function registerEmployees(host: HostRuntime): Promise<void> {
  void host;
}
