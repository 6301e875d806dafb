import { HOST_ADMIN_ROUTES } from '../../contract/index.js';
import { isId } from '../../lib/ids.js';
import { consolePage, pageOf, paging, PAGE_SIZE, text, type ConsoleKit, notFoundPage } from './kit.js';
import { routeRefs } from '../../lib/routes.js';
import type { BudgetAdminRoute } from '../budget/index.js';
import type { EmployeeAdminRoute } from '../employee/index.js';
import type { OrderApprovalAdminRoute } from '../order-approval/index.js';
import type { PaymentOnAccountAdminRoute } from '../payment-on-account/index.js';

const routes = routeRefs<
  EmployeeAdminRoute | PaymentOnAccountAdminRoute | BudgetAdminRoute | OrderApprovalAdminRoute
>();

const PATH = '/companies';
const EMPLOYEES_PER_PAGE = 50;
const SORTS = [
  {
    value: 'company',
    label: 'Company name',
    sort: [
      { field: 'company', order: 'asc' },
      { field: 'customerNumber', order: 'asc' },
    ],
  },
  { value: 'customerNumber', label: 'Customer number', sort: [{ field: 'customerNumber', order: 'asc' }] },
] as const;

const notFound = notFoundPage('company');
const nameOf = (person: { firstName: string | null; lastName: string | null }) =>
  [person.firstName, person.lastName].filter(Boolean).join(' ');

/**
 * Companies (the shop's customers) and, for one company, its employees with their roles, open
 * invitations, budgets and approval settings — read from the Admin API routes the employee, budget
 * and order-approval add-ons declare. The operator acts only where a company cannot help itself:
 * deactivating (or reactivating) an employee and resending an invitation.
 */
export function companyPages(kit: ConsoleKit) {
  /** An add-on's answer where the host serves its route (the add-on may be left out), else null. */
  const optional = <T>(route: { operationId: string }, read: () => Promise<T>): Promise<T | null> =>
    kit.console.has(route) ? read() : Promise.resolve(null);

  return [
    consolePage({
      path: PATH,
      menu: { label: 'Companies', position: 10 },
      async handler({ ctx, query }) {
        const term = text(query, 'q').slice(0, 255);
        const sort = SORTS.find((s) => s.value === text(query, 'sort')) ?? SORTS[0];
        const page = pageOf(query);
        const list = await kit.call(ctx, HOST_ADMIN_ROUTES.searchCustomer, {
          body: { page, limit: PAGE_SIZE, ...(term ? { term } : {}), sort: sort.sort },
        });
        return {
          template: 'companies',
          data: {
            title: 'Companies',
            term,
            sorts: SORTS.map((s) => ({ value: s.value, label: s.label, selected: s === sort })),
            companies: list.data.map((row) => ({
              ...row.attributes,
              id: row.id,
              name: row.attributes.company || nameOf(row.attributes),
              href: kit.href(`${PATH}/${row.id}`),
            })),
            paging: paging(kit, PATH, { q: term, sort: sort.value }, page, list.meta.total),
          },
        };
      },
    }),
    consolePage({
      path: `${PATH}/:id`,
      async handler({ ctx, params, query }) {
        if (!isId(params.id)) return notFound;
        const customer = await kit.call(ctx, HOST_ADMIN_ROUTES.readCustomer, {
          params: { id: params.id },
        });
        const page = pageOf(query);
        const customerId = params.id;
        const hasEmployees = kit.console.has(routes.listCompanyEmployees);
        const [employees, roles, invitations, budgets, approval] = await Promise.all([
          hasEmployees
            ? kit.call(ctx, routes.listCompanyEmployees, {
                params: { customerId },
                query: { page, limit: EMPLOYEES_PER_PAGE },
              })
            : null,
          optional(routes.listCompanyRoles, () => kit.call(ctx, routes.listCompanyRoles, { params: { customerId } })),
          optional(routes.listCompanyInvitations, () =>
            kit.call(ctx, routes.listCompanyInvitations, { params: { customerId } }),
          ),
          optional(routes.listCompanyBudgets, () =>
            kit.call(ctx, routes.listCompanyBudgets, { params: { customerId } }),
          ),
          optional(routes.readCompanyApprovalSettings, () =>
            kit.call(ctx, routes.readCompanyApprovalSettings, { params: { customerId } }),
          ),
        ]);
        const names = new Map((employees?.data ?? []).map((row) => [row.id, nameOf(row.attributes)]));
        const nameById = (id: string) => names.get(id) ?? 'an employee on another page';
        const attributes = customer.data.attributes;
        return {
          template: 'company',
          data: {
            title: attributes.company || nameOf(attributes),
            id: customerId,
            customer: attributes,
            hasEmployees,
            employees: (employees?.data ?? []).map((row) => ({
              ...row.attributes,
              id: row.id,
              name: nameOf(row.attributes),
            })),
            employeePaging: employees
              ? paging(kit, `${PATH}/${customerId}`, {}, page, employees.meta.total, EMPLOYEES_PER_PAGE)
              : null,
            roles: (roles?.data ?? []).map((row) => ({
              ...row.attributes,
              id: row.id,
              permissionCount: row.attributes.permissions.length,
            })),
            invitations: (invitations?.data ?? []).map((row) => ({
              ...row.attributes,
              id: row.id,
              name: nameOf(row.attributes),
            })),
            budgets:
              budgets?.data.map((budget) => ({
                ...budget,
                employees: budget.employeeIds.length ? budget.employeeIds.map(nameById).join(', ') : 'everyone',
              })) ?? null,
            approval: approval
              ? {
                  ...approval.data,
                  onlyAdmins: approval.data.mode === 'only-admins',
                  anyApprover: approval.data.mode === 'any-approver',
                  approvers: approval.data.approverEmployeeIds.map(nameById).join(', '),
                }
              : null,
            listHref: kit.href(PATH),
            pricesHref: kit.href('/customer-prices', { customer: attributes.customerNumber }),
            paymentHref: kit.console.has(routes.listUnitPaymentTerms)
              ? kit.href(`${PATH}/${customerId}/payment-on-account`)
              : null,
          },
        };
      },
    }),
    consolePage({
      path: `${PATH}/:id/employees/:employeeId/active`,
      method: 'POST',
      async handler({ ctx, params, form }) {
        if (!isId(params.id) || !isId(params.employeeId)) return notFound;
        const active = text(form, 'active') === 'true';
        await kit.call(ctx, routes.setCompanyEmployeeActive, {
          params: { customerId: params.id, employeeId: params.employeeId },
          body: { active },
        });
        return {
          redirect: kit.href(`${PATH}/${params.id}`),
          notice: active
            ? 'The employee can log in and order for this company again.'
            : 'The employee is deactivated: their sessions ended and they cannot log in for this company.',
        };
      },
    }),
    consolePage({
      path: `${PATH}/:id/invitations/:invitationId/resend`,
      method: 'POST',
      async handler({ ctx, params }) {
        if (!isId(params.id) || !isId(params.invitationId)) return notFound;
        const sent = await kit.call(ctx, routes.resendCompanyInvitation, {
          params: { customerId: params.id, invitationId: params.invitationId },
        });
        return {
          redirect: kit.href(`${PATH}/${params.id}`),
          notice: `The invitation was sent again to ${sent.data.attributes.email}; the new link is valid for 7 days.`,
        };
      },
    }),
  ];
}
