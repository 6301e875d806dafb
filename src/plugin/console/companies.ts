import { isId } from '../../lib/ids.js';
import {
  consolePage,
  pageOf,
  paging,
  PAGE_SIZE,
  text,
  type ConsoleContext,
  type ConsoleKit,
  type JsonApiDocument,
  notFoundPage,
} from './kit.js';

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

interface Customer {
  customerNumber: string;
  company: string | null;
  firstName: string;
  lastName: string;
  email: string;
  active: boolean;
  groupId: string | null;
}
interface Employee {
  email: string;
  firstName: string;
  lastName: string;
  department: string | null;
  roleName: string | null;
  active: boolean;
  activated: boolean;
}
interface Role {
  name: string;
  permissions: string[];
  requiresApproval: boolean;
  employeeCount: number;
}
interface Invitation {
  email: string;
  firstName: string | null;
  lastName: string | null;
  status: 'pending' | 'expired';
  expiresAt: string;
}
interface Budget {
  id: string;
  name: string;
  amount: number;
  currency: string;
  periodType: string;
  active: boolean;
  allowApproval: boolean;
  used: number;
  reserved: number;
  available: number;
  employeeIds: string[];
}
interface ApprovalSettings {
  mode: 'only-admins' | 'n-of';
  approverEmployeeIds: string[];
  nValue: number;
}

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
  async function optional<T>(ctx: ConsoleContext, operationId: string, customerId: string, fallback: T): Promise<T> {
    if (!kit.console.has(operationId)) return fallback;
    return kit.call<T>(ctx, operationId, { params: { customerId } });
  }

  return [
    consolePage({
      path: PATH,
      menu: { label: 'Companies', position: 10 },
      async handler({ ctx, query }) {
        const term = text(query, 'q').slice(0, 255);
        const sort = SORTS.find((s) => s.value === text(query, 'sort')) ?? SORTS[0];
        const page = pageOf(query);
        const list = await kit.call<JsonApiDocument<Customer>>(ctx, 'searchCustomer', {
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
        const customer = await kit.call<{ data: { id: string; attributes: Customer } }>(ctx, 'readCustomer', {
          params: { id: params.id },
        });
        const page = pageOf(query);
        const customerId = params.id;
        const hasEmployees = kit.console.has('listCompanyEmployees');
        const [employees, roles, invitations, budgets, approval] = await Promise.all([
          hasEmployees
            ? kit.call<JsonApiDocument<Employee>>(ctx, 'listCompanyEmployees', {
                params: { customerId },
                query: { page, limit: EMPLOYEES_PER_PAGE },
              })
            : null,
          optional<{ data: Array<{ id: string; attributes: Role }> }>(ctx, 'listCompanyRoles', customerId, {
            data: [],
          }),
          optional<{ data: Array<{ id: string; attributes: Invitation }> }>(ctx, 'listCompanyInvitations', customerId, {
            data: [],
          }),
          optional<{ data: Budget[] } | null>(ctx, 'listCompanyBudgets', customerId, null),
          optional<{ data: ApprovalSettings } | null>(ctx, 'readCompanyApprovalSettings', customerId, null),
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
            roles: roles.data.map((row) => ({
              ...row.attributes,
              id: row.id,
              permissionCount: row.attributes.permissions.length,
            })),
            invitations: invitations.data.map((row) => ({
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
                  approvers: approval.data.approverEmployeeIds.map(nameById).join(', '),
                }
              : null,
            listHref: kit.href(PATH),
            pricesHref: kit.href('/customer-prices', { customer: attributes.customerNumber }),
            paymentHref: kit.console.has('listUnitPaymentTerms')
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
        await kit.call(ctx, 'setCompanyEmployeeActive', {
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
        const sent = await kit.call<{ data: { attributes: Invitation } }>(ctx, 'resendCompanyInvitation', {
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
