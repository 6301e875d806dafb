import { isId } from '../../lib/ids.js';
import {
  consolePage,
  formErrorsOf,
  noErrors,
  pageOf,
  paging,
  PAGE_SIZE,
  text,
  type ConsoleContext,
  type ConsoleKit,
  type FormErrors,
  notFoundPage,
} from './kit.js';
import { HOST_ADMIN_ROUTES } from '../../contract/index.js';

const PATH = '/integrations';

interface Integration {
  clientId: string;
  label: string;
  createdAt: string;
}

/**
 * Admin API integrations: the client credentials other systems (ERP, PIM) get bearer tokens with.
 * The list, a new integration — redirected after the post, its secret shown once in the one-time
 * notice and kept nowhere in plain — and delete, which stops its credentials and tokens at once. The routes are the host's
 * (`listIntegrations`, `createIntegration`, `deleteIntegration` on the reference host); a host
 * without them (Vendure manages API access in its own Dashboard) gets a page that says so.
 */
export function integrationPages(kit: ConsoleKit) {
  async function listPage(
    ctx: ConsoleContext,
    query: Record<string, unknown>,
    form: { values?: Record<string, string>; errors?: FormErrors; status?: number } = {},
  ) {
    if (!kit.console.has(HOST_ADMIN_ROUTES.listIntegrations))
      return { template: 'integrations', data: { title: 'Integrations', unsupported: true } };
    const page = pageOf(query);
    const list = await kit.call(ctx, HOST_ADMIN_ROUTES.listIntegrations, {
      query: { page, limit: PAGE_SIZE },
    });
    return {
      template: 'integrations',
      status: form.status ?? 200,
      data: {
        title: 'Integrations',
        integrations: list.data.map((row) => ({ ...row.attributes, id: row.id })),
        total: list.meta.total,
        paging: paging(kit, PATH, {}, page, list.meta.total),
        values: form.values ?? {},
        errors: form.errors ?? noErrors(),
      },
    };
  }

  return [
    consolePage({
      path: PATH,
      menu: { label: 'Integrations', position: 80 },
      handler: ({ ctx, query }) => listPage(ctx, query),
    }),
    consolePage({
      path: PATH,
      method: 'POST',
      async handler({ ctx, form }) {
        const values = { label: text(form, 'label') };
        let created: { attributes: Integration & { clientSecret: string } };
        try {
          created = (
            await kit.call(ctx, HOST_ADMIN_ROUTES.createIntegration, {
              body: values,
            })
          ).data;
        } catch (error) {
          return listPage(ctx, {}, { values, errors: formErrorsOf(error), status: 400 });
        }
        // Post/Redirect/Get: a reload shows the list, it does not create a second integration. The secret
        // travels once in the console's one-time notice (httpOnly, SameSite=Strict, at most 60 s, cleared
        // when the next page shows it), never in a URL; the shop keeps only its hash (decision 0051).
        const { clientId, clientSecret, label } = created.attributes;
        return {
          redirect: kit.href(PATH),
          notice: `Client id: ${clientId} · Client secret: ${clientSecret} — copy the secret now: it is shown this once and the shop keeps only its hash. Integration “${label.slice(0, 60)}” created.`,
        };
      },
    }),
    consolePage({
      path: `${PATH}/:id/delete`,
      method: 'POST',
      async handler({ ctx, params }) {
        if (!isId(params.id)) return notFoundPage('integration');
        await kit.call(ctx, HOST_ADMIN_ROUTES.deleteIntegration, { params: { id: params.id } });
        return {
          redirect: kit.href(PATH),
          notice: 'The integration is deleted: its credentials and tokens no longer work.',
        };
      },
    }),
  ];
}
