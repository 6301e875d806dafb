import { consolePage, type ConsoleKit, notFoundPage } from './kit.js';
import { routeRefs } from '../../lib/routes.js';
import type { MailPreviewAdminRoute } from '../mail-preview/index.js';

const routes = routeRefs<MailPreviewAdminRoute>();

const PATH = '/mail-templates';
const NAME = /^[a-z0-9][a-z0-9._-]{0,127}$/;

/**
 * Mail templates: every template the shop sends, and one rendered with sample data — its subject,
 * the HTML as a recipient sees it (in a sandboxed frame: no scripts, no links followed) and the
 * text part. The sample values are named after the template's variables, so a gap shows.
 */
export function mailTemplatePages(kit: ConsoleKit) {
  if (!kit.console.has(routes.listMailTemplates)) return [];
  return [
    consolePage({
      path: PATH,
      menu: { label: 'Mail templates', position: 70 },
      async handler({ ctx }) {
        const list = await kit.call(ctx, routes.listMailTemplates);
        return {
          template: 'mail-templates',
          data: {
            title: 'Mail templates',
            templates: list.data.map((row) => ({ name: row.id, href: kit.href(`${PATH}/${row.id}`) })),
          },
        };
      },
    }),
    consolePage({
      path: `${PATH}/:name`,
      async handler({ ctx, params }) {
        if (!params.name || !NAME.test(params.name)) return notFoundPage('mail template');
        const preview = await kit.call(ctx, routes.previewMailTemplate, { params: { name: params.name } });
        return {
          template: 'mail-template',
          data: {
            title: `Mail template ${preview.data.name}`,
            preview: preview.data,
            sampleData: JSON.stringify(preview.data.sampleData, null, 2),
            listHref: kit.href(PATH),
          },
        };
      },
    }),
  ];
}
