import type { HostRuntime } from '../../contract/index.js';
import { accountRequestAdminRoutes, accountRequestStoreRoutes } from './account-request/routes.js';
import { employeeAdminRoutes } from './admin-routes.js';
import { employeeContextEnricher, employeeLoginProvider } from './context.js';
import { employeeCsvRoutes } from './csv/routes.js';
import { invitationRoutes } from './invitation/routes.js';
import { loginRoutes } from './login/routes.js';
import { LOGIN_TOKEN_PURGE_JOB, LOGIN_TOKEN_PURGE_INTERVAL_SECONDS, purgeExpiredTokens } from './login/tokens.js';
import { employeeOrderRoutes, type UnitColleagues } from './orders/routes.js';
import { roleRoutes } from './role/routes.js';
import { deleteCustomersEmployeeData } from './repository.js';
import { employeeRoutes } from './routes.js';
import { companyStorefrontPages } from './storefront/company-pages.js';
import { registerEmployeeStorefront } from './storefront/index.js';

/** Employees, roles, permissions, invitations, password-less login, recovery, employee orders, CSV, account requests. */
export function registerEmployees(host: HostRuntime, options: { unitColleagues?: UnitColleagues } = {}): void {
  host.auth.addLoginProvider(employeeLoginProvider(host));
  host.auth.addContextEnricher(employeeContextEnricher);
  for (const route of [
    ...employeeRoutes(host),
    ...roleRoutes(host),
    ...invitationRoutes(host),
    ...loginRoutes(host),
    ...employeeOrderRoutes(host, options.unitColleagues),
    ...employeeCsvRoutes(host),
    ...accountRequestStoreRoutes(host),
  ])
    host.storeApi.route(route);
  for (const route of [...accountRequestAdminRoutes(host), ...employeeAdminRoutes(host)]) host.adminApi.route(route);
  registerEmployeeStorefront(host);
  for (const page of companyStorefrontPages(host)) host.storefront.page(page);
  host.jobs.register(LOGIN_TOKEN_PURGE_JOB, async ({ host: runtime }) => {
    await purgeExpiredTokens(runtime.db);
  });
  host.jobs.schedule(LOGIN_TOKEN_PURGE_JOB, LOGIN_TOKEN_PURGE_INTERVAL_SECONDS);
  host.events.on('customer.deleted', (trx, { ids }) => deleteCustomersEmployeeData(trx, ids));
}

/** The add-on's Admin API routes as types, for the console's calls (`routeRefs<EmployeeAdminRoute>()`). */
export type EmployeeAdminRoute =
  ReturnType<typeof accountRequestAdminRoutes>[number] | ReturnType<typeof employeeAdminRoutes>[number];

/** What other add-ons use of employees: the sales representatives (permissions, the assigned customers' employee search, activities' employee references), the company, events, cost centers, approvals, the demo data and the acting context. */
export { employeeContextEnricher } from './context.js';
export { DEMO_APPROVER, DEMO_PURCHASER } from './demo.js';
export { effectivePermissions, PERMISSION_KEYS } from './permissions.js';
export {
  EMPLOYEES,
  LINKS,
  employeeCriteria,
  employeesOfCustomer,
  findEmployeeByEmail,
  findEmployeeRow,
  isLinked,
  rolePermissionsOf,
  selectEmployeeColumns,
  toEmployeeView,
  type EmployeeRow,
} from './repository.js';
export { roleRoutes } from './role/routes.js';
export { employeeRoutes } from './routes.js';
export { employeeSchema } from './schemas.js';
export { formErrors, type Form, type PageResult } from './storefront/forms.js';
