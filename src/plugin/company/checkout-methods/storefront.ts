import type { HostRuntime, StoreContext, StorefrontPage } from '../../../contract/index.js';
import { attempt, list, noticeOf, page, routeCaller, routesByName, type PageResult } from '../../storefront-kit.js';
import { UNITS_PATH } from '../units/storefront.js';
import { checkoutMethodRoutes } from './routes.js';
import type { readUnitCheckoutMethods } from './service.js';

type MethodsView = Awaited<ReturnType<typeof readUnitCheckoutMethods>>;
type Field = 'paymentMethods' | 'shippingMethods';

const pathOf = (unitId: string) => `${UNITS_PATH}/${unitId}/checkout-methods`;

/**
 * A unit's payment and shipping methods in the storefront (organisation-unit.manage to change them):
 * a box per method of the shop; nothing ticked means the unit follows the unit above. Reads and
 * writes run the declared routes.
 */
export function checkoutMethodPages(host: HostRuntime): StorefrontPage[] {
  const routes = routesByName(checkoutMethodRoutes(host));
  const call = routeCaller();

  function kindView(view: MethodsView, field: Field, legend: string, ticked: readonly string[] | null) {
    const effective = view.effective[field];
    return {
      field,
      legend,
      options: view.choices[field].map((m) => ({
        value: m.technicalName,
        label: m.name,
        checked: (ticked ?? view[field] ?? []).includes(m.technicalName),
      })),
      effectiveText: effective
        ? view.choices[field]
            .filter((m) => effective.includes(m.technicalName))
            .map((m) => m.name)
            .join(', ')
        : 'every method',
    };
  }

  async function methodsPage(
    ctx: StoreContext,
    unitId: string,
    query: Record<string, unknown>,
    refused?: { error: string; ticked: Record<Field, string[]> },
  ): Promise<PageResult> {
    const view = await call(ctx, routes.readUnitCheckoutMethods, { params: { id: unitId } });
    return {
      template: 'b2b/unit-checkout-methods',
      status: refused ? 400 : 200,
      data: {
        title: 'Checkout methods',
        unitId,
        action: pathOf(unitId),
        kinds: [
          kindView(view, 'shippingMethods', 'Delivery', refused?.ticked.shippingMethods ?? null),
          kindView(view, 'paymentMethods', 'Payment', refused?.ticked.paymentMethods ?? null),
        ],
        mayManage: ctx.can('organisation-unit.manage') && ctx.actor.type !== 'salesRepresentative',
        error: refused?.error ?? null,
        notice: noticeOf(query, { saved: 'The checkout methods were saved.' }),
      },
    };
  }

  return [
    page({
      path: '/account/organisation-units/:id/checkout-methods',
      auth: 'login',
      needsCustomer: true,
      anyPermission: ['organisation-unit.read'],
      handler: ({ ctx, params, query }) => methodsPage(ctx, params.id, query),
    }),
    page({
      path: '/account/organisation-units/:id/checkout-methods',
      method: 'POST',
      auth: 'login',
      actors: ['customer', 'employee'],
      needsCustomer: true,
      anyPermission: ['organisation-unit.manage'],
      async handler({ ctx, params, form }) {
        const unitId = params.id;
        // Nothing ticked: no list of the unit's own (the route's null).
        const ticked = { paymentMethods: list(form, 'paymentMethods'), shippingMethods: list(form, 'shippingMethods') };
        const orNull = (names: string[]) => (names.length > 0 ? names : null);
        const saved = await attempt(() =>
          call(ctx, routes.setUnitCheckoutMethods, {
            params: { id: unitId },
            body: { paymentMethods: orNull(ticked.paymentMethods), shippingMethods: orNull(ticked.shippingMethods) },
          }),
        );
        if ('error' in saved) return methodsPage(ctx, unitId, {}, { error: saved.error, ticked });
        return { redirect: `${pathOf(unitId)}?done=saved` };
      },
    }),
  ];
}
