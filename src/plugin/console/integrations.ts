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
  type JsonApiDocument,
  notFoundPage,
} from './kit.js';

const PATH = '/integrations';

interface Integration {
  clientId: string;
  label: string;
  createdAt: string;
}

/**
 * Admin API integrations: the client credentials other systems (ERP, PIM) get bearer tokens with.
 * The list, a new integration — its secret is shown on the answer page once and kept nowhere in
 * plain — and delete, which stops its credentials and tokens at once. The routes are the host's
 * (`listIntegrations`, `createIntegration`, `deleteIntegration` on the reference host); a host
 * without them (Vendure manages API access in its own Dashboard) gets a page that says so.
 */
export function integrationPages(kit: ConsoleKit) {
  async function listPage(
    ctx: ConsoleContext,
    query: Record<string, unknown>,
    form: { values?: Record<string, string>; errors?: FormErrors; status?: number; created?: unknown } = {},
  ) {
    if (!kit.console.has('listIntegrations'))
      return { template: 'integrations', data: { title: 'Integrations', unsupported: true } };
    const page = pageOf(query);
    const list = await kit.call<JsonApiDocument<Integration>>(ctx, 'listIntegrations', {
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
        created: form.created,
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
            await kit.call<{ data: { attributes: Integration & { clientSecret: string } } }>(ctx, 'createIntegration', {
              body: values,
            })
          ).data;
        } catch (error) {
          return listPage(ctx, {}, { values, errors: formErrorsOf(error), status: 400 });
        }
        // Answered, not redirected: the secret is on this page only (no-store), never in a URL or a notice kept for later.
        return listPage(ctx, {}, { created: created.attributes });
      },
    }),
    consolePage({
      path: `${PATH}/:id/delete`,
      method: 'POST',
      async handler({ ctx, params }) {
        if (!isId(params.id)) return notFoundPage('integration');
        await kit.call(ctx, 'deleteIntegration', { params: { id: params.id } });
        return {
          redirect: kit.href(PATH),
          notice: 'The integration is deleted: its credentials and tokens no longer work.',
        };
      },
    }),
  ];
}
