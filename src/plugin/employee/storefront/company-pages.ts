import type { HostRuntime, StoreContext, StorefrontPage } from '../../../contract/index.js';
import { Errors } from '../../../lib/errors.js';
import { isId } from '../../../lib/ids.js';
import {
  attempt,
  csvOf,
  dateText,
  download,
  list,
  noticeOf,
  requireAnyPermission,
  routeCaller,
  routesByName,
  text,
  wholeNumber,
  type Form,
  page,
  type PageResult,
  type PageApi,
} from '../../storefront-kit.js';
import { employeeCsvRoutes } from '../csv/routes.js';
import { invitationRoutes } from '../invitation/routes.js';
import { PERMISSIONS, type PermissionDefinition } from '../permissions.js';
import type { RoleView } from '../role/repository.js';
import { roleRoutes } from '../role/routes.js';
import { employeeRoutes } from '../routes.js';

type Api = PageApi<typeof employeeRoutes | typeof roleRoutes | typeof invitationRoutes | typeof employeeCsvRoutes>;

const EMPLOYEES_PATH = '/account/employees';
const ROLES_PATH = '/account/roles';
const INVITATIONS_PATH = '/account/invitations';
const PAGE_SIZE = 25;
/** The Store API's largest page: companies with more roles than this are not expected. */
const ROLE_LIMIT = 500;

const EMPLOYEE_NOTICES: Record<string, string> = {
  invited: 'The employee was added and an invitation mail is on its way.',
  saved: 'The employee was saved.',
  deactivated: 'The employee was deactivated; their sessions ended.',
  activated: 'The employee was activated.',
  imported: 'The CSV file was imported.',
};
const ROLE_NOTICES: Record<string, string> = {
  created: 'The role was created.',
  saved: 'The role was saved.',
  deleted: 'The role was deleted.',
};
const INVITATION_NOTICES: Record<string, string> = {
  sent: 'The invitation was sent.',
  withdrawn: 'The invitation was withdrawn.',
};

const GROUP_LABELS: Record<string, string> = {
  employees: 'Employees',
  roles: 'Roles',
  orders: 'Orders',
  budgets: 'Budgets',
  'order-approval': 'Order approval',
  offers: 'Offers',
  'product-lists': 'Product lists',
  'customer-product-numbers': 'Customer product numbers',
  'cost-centers': 'Cost centers',
  events: 'Events',
  'organisation-units': 'Organisation units',
  addresses: 'Addresses',
  admin: 'Administration',
};

/** What the role form sends (and shows again after a refusal). */
interface RoleForm {
  name: string;
  description: string | null;
  permissions: string[];
  requiresApproval: boolean;
}

type PersonForm = ReturnType<typeof personFields>;

/** What the person form sends: the Store API's fields; empty optional fields are left out (or null where the route clears them). */
function personFields(form: Form) {
  const roleId = text(form, 'roleId', 64);
  return {
    email: text(form, 'email', 255),
    firstName: text(form, 'firstName', 255),
    lastName: text(form, 'lastName', 255),
    department: text(form, 'department', 255) || null,
    roleId: roleId === '' ? null : roleId,
  };
}

const withoutEmpty = <T extends Record<string, unknown>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== '' && value !== null)) as {
    [K in keyof T]?: Exclude<T[K], null>;
  };

/**
 * The company pages of the employee add-on: employees (list, add and invite, edit, deactivate,
 * role, CSV import and export), roles with their permissions, and invitations. Each page asks the
 * permission its account menu entry asks (403 otherwise), and every read and change runs the
 * add-on's declared Store API route.
 */
export function companyStorefrontPages(host: HostRuntime): StorefrontPage[] {
  const routes = routesByName([
    ...employeeRoutes(host),
    ...roleRoutes(host),
    ...invitationRoutes(host),
    ...employeeCsvRoutes(host),
  ]);
  const call = routeCaller();

  /** The roles for the role select; without role.read the select offers none (the employee keeps theirs). */
  async function roleChoices(ctx: StoreContext): Promise<RoleView[]> {
    if (!ctx.can('role.read')) return [];
    return (await call(ctx, routes.listEmployeeRoles, { body: { limit: ROLE_LIMIT } })).elements;
  }

  return [
    ...employeeListPages({ call, routes }, roleChoices),
    ...employeeDetailPages({ call, routes }, roleChoices),
    ...rolePages({ call, routes }),
    ...invitationListPages({ call, routes }, roleChoices),
  ];
}

/** The employee list: add and invite, CSV export and import. */
function employeeListPages(
  { call, routes }: Api,
  roleChoices: (ctx: StoreContext) => Promise<RoleView[]>,
): StorefrontPage[] {
  async function employeesPage(
    ctx: StoreContext,
    query: Record<string, unknown>,
    extra: { error?: string; errors?: string[]; form?: PersonForm; csv?: string } = {},
    status = 200,
  ): Promise<PageResult> {
    requireAnyPermission(ctx, ['employee.read']);
    const page = wholeNumber(query.page, 1, 100_000) ?? 1;
    const term = typeof query.q === 'string' ? query.q.trim().slice(0, 100) : '';
    const result = await call(ctx, routes.listEmployees, {
      body: { page, limit: PAGE_SIZE, ...(term ? { term } : {}) },
    });
    const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
    const search = term ? `&q=${encodeURIComponent(term)}` : '';
    return {
      template: 'b2b/employees',
      status,
      data: {
        title: 'Employees',
        employees: result.elements.map((employee) => ({ ...employee, url: `${EMPLOYEES_PATH}/${employee.id}` })),
        total: result.total,
        term,
        previous: page > 1 ? `${EMPLOYEES_PATH}?page=${Math.min(page - 1, pages)}${search}` : null,
        next: page < pages ? `${EMPLOYEES_PATH}?page=${page + 1}${search}` : null,
        mayManage: ctx.can('employee.manage'),
        roles: await roleChoices(ctx),
        form: extra.form ?? {},
        csv: extra.csv ?? '',
        error: extra.error ?? null,
        errors: extra.errors && extra.errors.length > 1 ? extra.errors : [],
        notice: noticeOf(query, EMPLOYEE_NOTICES),
      },
    };
  }

  return [
    {
      path: EMPLOYEES_PATH,
      auth: 'login',
      needsCustomer: true,
      handler: ({ ctx, query }) => employeesPage(ctx, query),
    },
    {
      path: `${EMPLOYEES_PATH}/invite`,
      method: 'POST',
      auth: 'login',
      needsCustomer: true,
      async handler({ ctx, form }) {
        requireAnyPermission(ctx, ['employee.manage']);
        const fields = personFields(form);
        const result = await attempt(() =>
          call(ctx, routes.addEmployee, { body: { ...withoutEmpty(fields), email: fields.email } }),
        );
        if ('error' in result) return employeesPage(ctx, {}, { error: result.error, form: fields }, 400);
        return { redirect: `${EMPLOYEES_PATH}?done=invited` };
      },
    },
    {
      path: `${EMPLOYEES_PATH}/export`,
      auth: 'login',
      needsCustomer: true,
      async handler({ ctx }) {
        requireAnyPermission(ctx, ['employee.read']);
        return download(
          await call(ctx, routes.exportEmployees, { body: {} }),
          'employees.csv',
          'text/csv; charset=utf-8',
        );
      },
    },
    {
      path: `${EMPLOYEES_PATH}/import`,
      method: 'POST',
      auth: 'login',
      needsCustomer: true,
      async handler({ ctx, form }) {
        requireAnyPermission(ctx, ['employee.manage']);
        // A chosen file (multipart) or the pasted text; a refused file is shown in the text area to correct it.
        const { csv } = csvOf(form, 'csvFile', 'csv');
        const result = await attempt(() => call(ctx, routes.importEmployees, { body: csv }));
        if ('error' in result)
          return employeesPage(
            ctx,
            {},
            { error: result.error, errors: result.errors, csv: csv.slice(0, 200_000) },
            400,
          );
        return { redirect: `${EMPLOYEES_PATH}?done=imported` };
      },
    },
  ];
}

/** One employee: the edit page, saving, deactivating and activating. */
function employeeDetailPages(
  { call, routes }: Api,
  roleChoices: (ctx: StoreContext) => Promise<RoleView[]>,
): StorefrontPage[] {
  async function employeePage(
    ctx: StoreContext,
    id: string,
    query: Record<string, unknown>,
    extra: { error?: string; form?: PersonForm } = {},
    status = 200,
  ): Promise<PageResult> {
    requireAnyPermission(ctx, ['employee.read']);
    if (!isId(id)) throw Errors.notFound('employee', id);
    const employee = await call(ctx, routes.readEmployee, { params: { id } });
    const roles = await roleChoices(ctx);
    const form = extra.form ?? employee;
    return {
      template: 'b2b/employee',
      status,
      data: {
        title: `${employee.firstName} ${employee.lastName}`,
        employee: { ...employee, createdAtText: dateText(ctx, employee.createdAt) },
        form,
        roles: roles.map((role) => ({ ...role, selected: role.id === form.roleId })),
        // Without role.read the select cannot list the roles: the employee's role is kept as it is.
        mayChooseRole: ctx.can('role.read'),
        mayManage: ctx.can('employee.manage'),
        isSelf: ctx.actor.type === 'employee' && ctx.actor.id === employee.id,
        error: extra.error ?? null,
        notice: noticeOf(query, EMPLOYEE_NOTICES),
        listUrl: EMPLOYEES_PATH,
      },
    };
  }

  return [
    page({
      path: `${EMPLOYEES_PATH}/:id`,
      auth: 'login',
      needsCustomer: true,
      handler: ({ ctx, params, query }) => employeePage(ctx, params.id, query),
    }),
    page({
      path: `${EMPLOYEES_PATH}/:id`,
      method: 'POST',
      auth: 'login',
      needsCustomer: true,
      async handler({ ctx, params, form }) {
        requireAnyPermission(ctx, ['employee.manage']);
        const id = params.id;
        if (!isId(id)) throw Errors.notFound('employee', id);
        const { roleId, ...fields } = personFields(form);
        // Without role.read the form shows no role select: the role stays as it is.
        const body = { ...fields, ...(ctx.can('role.read') ? { roleId } : {}) };
        const result = await attempt(() => call(ctx, routes.updateEmployee, { params: { id }, body }));
        if ('error' in result)
          return employeePage(ctx, id, {}, { error: result.error, form: { ...body, roleId } }, 400);
        return { redirect: `${EMPLOYEES_PATH}/${id}?done=saved` };
      },
    }),
    ...(['deactivate', 'activate'] as const).map((action) =>
      page({
        path: `${EMPLOYEES_PATH}/:id/${action}`,
        method: 'POST',
        auth: 'login',
        needsCustomer: true,
        async handler({ ctx, params }) {
          requireAnyPermission(ctx, ['employee.manage']);
          const id = params.id;
          if (!isId(id)) throw Errors.notFound('employee', id);
          const result = await attempt(() =>
            call(ctx, routes.updateEmployee, { params: { id }, body: { active: action === 'activate' } }),
          );
          if ('error' in result) return employeePage(ctx, id, {}, { error: result.error }, 400);
          return { redirect: `${EMPLOYEES_PATH}/${id}?done=${action}d` };
        },
      }),
    ),
  ];
}

/** Roles with their permissions: the list, create, edit, delete. */
function rolePages({ call, routes }: Api): StorefrontPage[] {
  function permissionGroups(selected: string[]) {
    const groups = new Map<string, Array<PermissionDefinition & { checked: boolean; fieldId: string }>>();
    for (const permission of PERMISSIONS) {
      const entries = groups.get(permission.group) ?? [];
      entries.push({
        ...permission,
        checked: selected.includes(permission.key),
        fieldId: `permission-${permission.key.replace(/[^a-z0-9]+/g, '-')}`,
      });
      groups.set(permission.group, entries);
    }
    return [...groups].map(([group, permissions]) => ({ group, label: GROUP_LABELS[group] ?? group, permissions }));
  }

  async function rolesPage(
    ctx: StoreContext,
    query: Record<string, unknown>,
    extra: { error?: string; form?: RoleForm } = {},
    status = 200,
  ): Promise<PageResult> {
    requireAnyPermission(ctx, ['role.read']);
    const roles = (await call(ctx, routes.listEmployeeRoles, { body: { limit: ROLE_LIMIT } })).elements;
    const describe = new Map(PERMISSIONS.map((permission) => [permission.key, permission.description]));
    const form: RoleForm = extra.form ?? { name: '', description: '', permissions: [], requiresApproval: false };
    return {
      template: 'b2b/roles',
      status,
      data: {
        title: 'Roles',
        roles: roles.map((role) => ({
          ...role,
          url: `${ROLES_PATH}/${role.id}`,
          permissionTexts: role.permissions.map((key) => ({ key, description: describe.get(key) ?? key })),
        })),
        mayManage: ctx.can('role.manage'),
        form,
        groups: permissionGroups(form.permissions),
        error: extra.error ?? null,
        notice: noticeOf(query, ROLE_NOTICES),
      },
    };
  }

  async function findRole(ctx: StoreContext, id: string): Promise<RoleView> {
    if (!isId(id)) throw Errors.notFound('role', id);
    const [role] = (
      await call(ctx, routes.listEmployeeRoles, {
        body: { limit: 1, filter: [{ type: 'equals', field: 'id', value: id }] },
      })
    ).elements;
    if (!role) throw Errors.notFound('role', id);
    return role;
  }

  async function rolePage(
    ctx: StoreContext,
    id: string,
    extra: { error?: string; form?: RoleForm } = {},
    status = 200,
  ): Promise<PageResult> {
    requireAnyPermission(ctx, ['role.read']);
    const role = await findRole(ctx, id);
    const form = extra.form ?? role;
    return {
      template: 'b2b/role',
      status,
      data: {
        title: `Role ${role.name}`,
        role,
        form,
        groups: permissionGroups(form.permissions),
        mayManage: ctx.can('role.manage'),
        error: extra.error ?? null,
        listUrl: ROLES_PATH,
      },
    };
  }

  function roleFields(form: Form): RoleForm {
    return {
      name: text(form, 'name', 255),
      description: text(form, 'description', 1024) || null,
      permissions: [...new Set(list(form, 'permissions'))],
      requiresApproval: text(form, 'requiresApproval') === 'true',
    };
  }

  return [
    { path: ROLES_PATH, auth: 'login', needsCustomer: true, handler: ({ ctx, query }) => rolesPage(ctx, query) },
    {
      path: ROLES_PATH,
      method: 'POST',
      auth: 'login',
      needsCustomer: true,
      async handler({ ctx, form }) {
        requireAnyPermission(ctx, ['role.manage']);
        const fields = roleFields(form);
        const result = await attempt(() => call(ctx, routes.createEmployeeRole, { body: fields }));
        if ('error' in result) return rolesPage(ctx, {}, { error: result.error, form: fields }, 400);
        return { redirect: `${ROLES_PATH}?done=created` };
      },
    },
    page({
      path: `${ROLES_PATH}/:id`,
      auth: 'login',
      needsCustomer: true,
      handler: ({ ctx, params }) => rolePage(ctx, params.id),
    }),
    page({
      path: `${ROLES_PATH}/:id`,
      method: 'POST',
      auth: 'login',
      needsCustomer: true,
      async handler({ ctx, params, form }) {
        requireAnyPermission(ctx, ['role.manage']);
        const role = await findRole(ctx, params.id);
        const fields = roleFields(form);
        const result = await attempt(() =>
          call(ctx, routes.updateEmployeeRole, { params: { id: role.id }, body: fields }),
        );
        if ('error' in result) return rolePage(ctx, role.id, { error: result.error, form: fields }, 400);
        return { redirect: `${ROLES_PATH}?done=saved` };
      },
    }),
    page({
      path: `${ROLES_PATH}/:id/delete`,
      method: 'POST',
      auth: 'login',
      needsCustomer: true,
      async handler({ ctx, params }) {
        requireAnyPermission(ctx, ['role.manage']);
        const role = await findRole(ctx, params.id);
        const result = await attempt(() => call(ctx, routes.deleteEmployeeRole, { params: { id: role.id } }));
        if ('error' in result) return rolePage(ctx, role.id, { error: result.error }, 400);
        return { redirect: `${ROLES_PATH}?done=deleted` };
      },
    }),
  ];
}

/** Invitations: the list, sending one, withdrawing one. */
function invitationListPages(
  { call, routes }: Api,
  roleChoices: (ctx: StoreContext) => Promise<RoleView[]>,
): StorefrontPage[] {
  async function invitationsPage(
    ctx: StoreContext,
    query: Record<string, unknown>,
    extra: { error?: string; form?: PersonForm } = {},
    status = 200,
  ): Promise<PageResult> {
    requireAnyPermission(ctx, ['invitation.manage']);
    const page = wholeNumber(query.page, 1, 100_000) ?? 1;
    const result = await call(ctx, routes.listEmployeeInvitations, {
      query: { page, limit: PAGE_SIZE },
    });
    const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
    return {
      template: 'b2b/invitations',
      status,
      data: {
        title: 'Invitations',
        invitations: result.elements.map((invitation) => ({
          ...invitation,
          expiresAtText: dateText(ctx, invitation.expiresAt, true),
          withdrawUrl: `${INVITATIONS_PATH}/${invitation.id}/withdraw`,
        })),
        total: result.total,
        previous: page > 1 ? `${INVITATIONS_PATH}?page=${Math.min(page - 1, pages)}` : null,
        next: page < pages ? `${INVITATIONS_PATH}?page=${page + 1}` : null,
        roles: await roleChoices(ctx),
        form: extra.form ?? {},
        error: extra.error ?? null,
        notice: noticeOf(query, INVITATION_NOTICES),
      },
    };
  }

  return [
    {
      path: INVITATIONS_PATH,
      auth: 'login',
      needsCustomer: true,
      handler: ({ ctx, query }) => invitationsPage(ctx, query),
    },
    {
      path: INVITATIONS_PATH,
      method: 'POST',
      auth: 'login',
      needsCustomer: true,
      async handler({ ctx, form }) {
        requireAnyPermission(ctx, ['invitation.manage']);
        const fields = personFields(form);
        const result = await attempt(() =>
          call(ctx, routes.createEmployeeInvitation, { body: { ...withoutEmpty(fields), email: fields.email } }),
        );
        if ('error' in result) return invitationsPage(ctx, {}, { error: result.error, form: fields }, 400);
        return { redirect: `${INVITATIONS_PATH}?done=sent` };
      },
    },
    page({
      path: `${INVITATIONS_PATH}/:id/withdraw`,
      method: 'POST',
      auth: 'login',
      needsCustomer: true,
      async handler({ ctx, params }) {
        requireAnyPermission(ctx, ['invitation.manage']);
        const id = params.id;
        if (!isId(id)) throw Errors.notFound('invitation', id);
        await call(ctx, routes.deleteEmployeeInvitation, { params: { id } });
        return { redirect: `${INVITATIONS_PATH}?done=withdrawn` };
      },
    }),
  ];
}
