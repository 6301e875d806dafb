import { readFileSync } from 'node:fs';
import { EmailEventListener, type EmailEventHandler } from '@vendure/email-plugin';
import { loadManifest } from '../../host-kit/manifest.js';
import { projectPath } from '../../host-kit/paths.js';
import { createTemplateEngine } from '../../lib/template-engine.js';
import { sampleDataFor } from '../../lib/template-sample-data.js';
import { ORDER_CONFIRMATION_TEMPLATE } from './mail.js';
import { emailTypeOf, SuiteB2BMailEvent } from './mail-event.js';

/**
 * `suite-b2b/vendure/email`: the plugin's mails as Vendure EmailPlugin handlers, for a shop that sends
 * them through its EmailPlugin (adapter option `mail: 'email-plugin'`, decision 0059). One handler per
 * plugin template, type `suite-b2b-<template>` (the folder of its body in the shop's email template
 * folder: `templates/vendure-email` of the package holds the defaults to copy there). The only module
 * of the package that imports `@vendure/email-plugin` (an optional peer dependency).
 *
 * Template variables: the plugin template's data (`shopName`, `storefrontUrl`, and e.g. `link`,
 * `companyName` of an invitation), `suiteB2B` (`subject`, `html`, `text`: the plugin's own rendering,
 * which the shipped bodies embed in the shop's header and footer partials) and `suiteB2BFrom`.
 * Subject: the plugin's rendered subject (a handler's `setSubject` or `addTemplate` changes it).
 * Sender: the adapter's `mailFrom`, else the EmailPlugin's `globalTemplateVars.fromAddress`, else
 * the channel's name at `no-reply@<storefront host>`.
 */
export function suiteB2BEmailHandler(template: string): EmailEventHandler<string, SuiteB2BMailEvent> {
  const handler = new EmailEventListener(emailTypeOf(template))
    .on(SuiteB2BMailEvent)
    .filter((event) => event.template === template)
    .setRecipient((event) => event.recipient)
    .setFrom('{{ suiteB2BFrom }}')
    .setSubject('{{{ suiteB2B.subject }}}')
    .setOptionalAddressFields((event) => (event.cc.length > 0 ? { cc: event.cc.join(', ') } : {}))
    .setAttachments((event) => event.attachments)
    .setMetadata((event) => ({ suiteB2BMailId: event.mailId, suiteB2BTemplate: event.template }))
    .setTemplateVars((event, globals) => {
      const fromAddress = (globals as { fromAddress?: unknown }).fromAddress;
      return {
        ...event.templateData,
        suiteB2B: { ...event.rendered, template: event.template },
        suiteB2BFrom: event.from ?? (typeof fromAddress === 'string' && fromAddress ? fromAddress : event.defaultFrom),
      };
    });
  const mock = mockEventOf(template);
  return mock ? handler.setMockEvent(mock) : handler;
}

/**
 * The dev mailbox's sample of a plugin mail: the template rendered as the console's preview renders
 * it (sample data read off its variables). null when the package holds no such template.
 */
function mockEventOf(template: string): Omit<SuiteB2BMailEvent, 'ctx' | 'data'> | null {
  const read = (part: string) => readFileSync(projectPath('templates', 'mail', `${template}.${part}.hbs`), 'utf8');
  let sources: { subject: string; html: string; text: string };
  try {
    sources = { subject: read('subject'), html: read('html'), text: read('text') };
  } catch {
    return null;
  }
  const engine = createTemplateEngine();
  const templateData = {
    shopName: 'Example shop',
    storefrontUrl: 'https://shop.example',
    ...sampleDataFor([sources.subject, sources.html, sources.text]),
  };
  const event = {
    template,
    recipient: 'sample@example.com',
    cc: [],
    templateData,
    rendered: {
      subject: engine.compile(sources.subject, { noEscape: true })(templateData).replace(/\s+/g, ' ').trim(),
      html: engine.compile(sources.html)(templateData),
      text: engine.compile(sources.text, { noEscape: true })(templateData),
    },
    from: null,
    defaultFrom: '"Example shop" <no-reply@shop.example>',
    attachments: [],
    mailId: 'sample',
  };
  return event as unknown as Omit<SuiteB2BMailEvent, 'ctx' | 'data'>;
}

/** The plugin's mail templates (plugin.json's `mailTemplates` and the adapter's `order-confirmation`). */
export const SUITE_B2B_MAIL_TEMPLATES: readonly string[] = [
  ...new Set([...loadManifest(projectPath('plugin.json')).mailTemplates, ORDER_CONFIRMATION_TEMPLATE]),
].sort();

/**
 * One handler per plugin mail template: `EmailPlugin.init({ handlers: [...defaultEmailHandlers, ...suiteB2BEmailHandlers] })`.
 */
export const suiteB2BEmailHandlers: Array<EmailEventHandler<string, SuiteB2BMailEvent>> =
  SUITE_B2B_MAIL_TEMPLATES.map(suiteB2BEmailHandler);

export { SuiteB2BMailEvent } from './mail-event.js';
