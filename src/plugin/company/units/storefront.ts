import type { HostRuntime, StoreContext, StorefrontPage } from '../../../contract/index.js';
import {
  attempt,
  noticeOf,
  requireAnyPermission,
  routeCaller,
  routesByName,
  text,
  type PageResult,
} from '../../storefront-kit.js';
import { MAX_LIMIT } from '../../../lib/criteria.js';
import { employeeRoutes } from '../../employee/index.js';
import { unitRoutes } from './routes.js';
import { MANAGE, READ } from './schemas.js';

export const UNITS_PATH = '/account/organisation-units';
const NOTICES: Record<string, string> = {
  created: 'The unit was created.',
  moved: 'The employee was moved.',
  'unit-moved': 'The unit was moved.',
  deleted: 'The unit was deleted.',
};

/**
 * The company's organisation units in the storefront: the tree with members and managers, and — with
 * organisation-unit.manage — forms to create a unit, move a unit, delete one and move an employee
 * between units. Every read and change runs the declared Store API route.
 */
export function unitStorefrontPages(host: HostRuntime): StorefrontPage[] {
  // The employee list for the move form: managing units implies reading employees (permissions.ts).
  const routes = routesByName([...unitRoutes(host), ...employeeRoutes(host)]);
  const call = routeCaller();

  async function unitsPage(
    ctx: StoreContext,
    query: Record<string, unknown>,
    error: string | null = null,
    status = 200,
  ): Promise<PageResult> {
    requireAnyPermission(ctx, [READ]);
    const units = (await call(ctx, routes.organisationUnitTree)).elements;
    const employees = ctx.can(MANAGE)
      ? (
          await call(ctx, routes.listEmployees, {
            body: { limit: MAX_LIMIT, sort: [{ field: 'lastName' }, { field: 'firstName' }] },
          })
        ).elements
      : [];
    const choices = units.map((unit) => ({ id: unit.id, label: `${'— '.repeat(unit.depth)}${unit.name}` }));
    return {
      template: 'b2b/organisation-units',
      status,
      data: {
        title: 'Organisation units',
        units: units.map((unit) => ({ ...unit, indent: unit.depth * 1.5, pathText: unit.path.join(' › ') })),
        choices,
        employees: employees.map((e) => ({ id: e.id, label: `${e.firstName} ${e.lastName} <${e.email}>` })),
        mayManage: ctx.can(MANAGE),
        error,
        notice: noticeOf(query, NOTICES),
      },
    };
  }

  const post = (
    path: string,
    change: (ctx: StoreContext, form: Record<string, unknown>) => Promise<unknown>,
    done: string,
  ): StorefrontPage => ({
    path,
    method: 'POST',
    auth: 'login',
    actors: ['customer', 'employee'],
    needsCustomer: true,
    anyPermission: [MANAGE],
    async handler({ ctx, form }) {
      const result = await attempt(() => change(ctx, form));
      if ('error' in result) return unitsPage(ctx, {}, result.error, 400);
      return { redirect: `${UNITS_PATH}?done=${done}` };
    },
  });
  const idOrNull = (form: Record<string, unknown>, name: string) => text(form, name, 64) || null;

  return [
    {
      path: UNITS_PATH,
      auth: 'login',
      actors: ['customer', 'employee'],
      needsCustomer: true,
      anyPermission: [READ],
      handler: ({ ctx, query }) => unitsPage(ctx, query),
    },
    post(
      UNITS_PATH,
      (ctx, form) =>
        call(ctx, routes.createOrganisationUnit, {
          body: { name: text(form, 'name', 255), parentId: idOrNull(form, 'parentId') },
        }),
      'created',
    ),
    post(
      `${UNITS_PATH}/move-unit`,
      (ctx, form) =>
        call(ctx, routes.updateOrganisationUnit, {
          params: { id: text(form, 'unitId', 64) },
          body: { parentId: idOrNull(form, 'parentId') },
        }),
      'unit-moved',
    ),
    post(
      `${UNITS_PATH}/delete`,
      (ctx, form) => {
        const moveTo = idOrNull(form, 'moveTo');
        return call(ctx, routes.deleteOrganisationUnit, {
          params: { id: text(form, 'unitId', 64) },
          query: moveTo ? { moveTo } : {},
        });
      },
      'deleted',
    ),
    post(
      `${UNITS_PATH}/move-employee`,
      (ctx, form) =>
        call(ctx, routes.moveEmployeeBetweenUnits, {
          body: {
            employeeId: text(form, 'employeeId', 64),
            fromUnitId: idOrNull(form, 'fromUnitId'),
            toUnitId: text(form, 'toUnitId', 64),
            // Unticked: as in the unit left (else no manager), as the route does without the field.
            ...(text(form, 'isManager', 8) ? { isManager: true } : {}),
          },
        }),
      'moved',
    ),
  ];
}
