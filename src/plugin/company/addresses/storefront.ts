import type { HostRuntime, StoreContext, StorefrontPage } from '../../../contract/index.js';
import {
  attempt,
  list,
  noticeOf,
  page,
  requireAnyPermission,
  routeCaller,
  routesByName,
  text,
  type PageResult,
} from '../../storefront-kit.js';
import { unitRoutes } from '../units/routes.js';
import { addressRoutes } from './routes.js';
import { MANAGE } from './schemas.js';

export const ADDRESS_BOOK_PATH = '/account/address-book';
const NOTICES: Record<string, string> = { created: 'The address was added.', deleted: 'The address was deleted.' };

/**
 * The company address book in the storefront: the addresses the caller is offered or manages with
 * their units, and — with address.manage — adding an address (for the company or chosen units) and
 * deleting one. Every read and change runs the declared Store API route.
 */
export function addressStorefrontPages(host: HostRuntime): StorefrontPage[] {
  const routes = routesByName([...addressRoutes(host), ...unitRoutes(host)]);
  const call = routeCaller();

  async function bookPage(
    ctx: StoreContext,
    query: Record<string, unknown>,
    error: string | null = null,
    status = 200,
  ): Promise<PageResult> {
    requireAnyPermission(ctx, [MANAGE, 'orders.create']);
    const addresses = (await call(ctx, routes.searchCompanyAddresses, { body: { limit: 500 } })).elements;
    const units =
      ctx.can(MANAGE) && ctx.can('organisation-unit.read')
        ? (await call(ctx, routes.organisationUnitTree)).elements
        : [];
    const unitNames = new Map(units.map((unit) => [unit.id, unit.path.join(' › ')]));
    return {
      template: 'b2b/address-book',
      status,
      data: {
        title: 'Address book',
        addresses: addresses.map((address) => ({
          ...address,
          unitsText: address.unitIds.length
            ? address.unitIds.map((id) => unitNames.get(id) ?? 'a unit').join(', ')
            : 'Whole company',
        })),
        units: units.map((unit) => ({ id: unit.id, label: `${'— '.repeat(unit.depth)}${unit.name}` })),
        mayManage: ctx.can(MANAGE),
        error,
        notice: noticeOf(query, NOTICES),
      },
    };
  }

  return [
    {
      path: ADDRESS_BOOK_PATH,
      auth: 'login',
      actors: ['customer', 'employee'],
      needsCustomer: true,
      anyPermission: [MANAGE, 'orders.create'],
      handler: ({ ctx, query }) => bookPage(ctx, query),
    },
    {
      path: ADDRESS_BOOK_PATH,
      method: 'POST',
      auth: 'login',
      actors: ['customer', 'employee'],
      needsCustomer: true,
      anyPermission: [MANAGE],
      async handler({ ctx, form }) {
        const body = {
          company: text(form, 'company', 255) || null,
          firstName: text(form, 'firstName', 255),
          lastName: text(form, 'lastName', 255),
          street: text(form, 'street', 255),
          zipcode: text(form, 'zipcode', 32),
          city: text(form, 'city', 255),
          countryCode: text(form, 'countryCode', 2),
          unitIds: list(form, 'unitIds').filter((id) => id !== ''),
        };
        const result = await attempt(() => call(ctx, routes.createCompanyAddress, { body }));
        if ('error' in result) return bookPage(ctx, {}, result.error, 400);
        return { redirect: `${ADDRESS_BOOK_PATH}?done=created` };
      },
    },
    page({
      path: `${ADDRESS_BOOK_PATH}/:id/delete`,
      method: 'POST',
      auth: 'login',
      actors: ['customer', 'employee'],
      needsCustomer: true,
      anyPermission: [MANAGE],
      async handler({ ctx, params }) {
        await call(ctx, routes.deleteCompanyAddress, { params: { id: params.id } });
        return { redirect: `${ADDRESS_BOOK_PATH}?done=deleted` };
      },
    }),
  ];
}
