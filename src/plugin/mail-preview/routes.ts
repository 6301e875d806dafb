import { defineAdminRoute, type HostRuntime } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { objectSchema } from '../../lib/schemas.js';
import { sampleDataFor } from '../../lib/template-sample-data.js';

const TAGS = ['Mail templates'];
const TYPE = 'suite_mail_template';
const nameParam = objectSchema(
  { name: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[a-z0-9][a-z0-9._-]*$' } },
  ['name'],
);
const previewSchema = objectSchema(
  {
    name: { type: 'string' },
    subject: { type: 'string' },
    html: { type: 'string' },
    text: { type: 'string' },
    sampleData: { type: 'object' },
  },
  ['name', 'subject', 'html', 'text', 'sampleData'],
);

/**
 * Mail templates for the operator (the console's preview): the registered templates, and one
 * rendered as sending would — subject, HTML and text — with sample data read off the template's
 * own variables. A host without the contract's 3.5 mail preview gets no routes.
 */
export function mailPreviewRoutes(host: HostRuntime) {
  const mail = host.mail;
  if (!mail.templateNames || !mail.templateSource || !mail.render) return [];
  const templateNames = () => mail.templateNames!();
  const templateSource = (name: string) => mail.templateSource!(name);
  const render = (name: string, data: Record<string, unknown>) => mail.render!(name, data);
  return [
    defineAdminRoute({
      method: 'GET',
      path: '/suite-mail-template',
      operationId: 'listMailTemplates',
      summary: 'The mail templates the shop sends (the host’s and the plugin’s), by name.',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: {
        responses: {
          200: objectSchema(
            {
              data: {
                type: 'array',
                items: objectSchema({ id: { type: 'string' }, type: { const: TYPE } }, ['id', 'type']),
              },
            },
            ['data'],
          ),
        },
      },
      handler() {
        return Promise.resolve({ data: templateNames().map((name) => ({ id: name, type: TYPE })) });
      },
    }),
    defineAdminRoute({
      method: 'GET',
      path: '/suite-mail-template/{name}/preview',
      operationId: 'previewMailTemplate',
      summary:
        'One mail template rendered with sample data (values named after the template’s variables): subject, HTML and text. Nothing is sent.',
      tags: TAGS,
      auth: 'admin',
      permission: null,
      schemas: { params: nameParam, responses: { 200: objectSchema({ data: previewSchema }, ['data']) } },
      handler({ params }) {
        const source = templateSource(params.name);
        if (!source) throw Errors.notFound('mail template', params.name);
        const sampleData = {
          shopName: 'Sample Shop',
          storefrontUrl: 'https://shop.example',
          ...sampleDataFor([source.subject, source.html, source.text]),
        };
        const rendered = render(params.name, sampleData)!;
        return Promise.resolve({ data: { name: params.name, ...rendered, sampleData } });
      },
    }),
  ];
}
