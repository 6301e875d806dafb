import { VendureEvent, type RequestContext } from '@vendure/core';

/**
 * One mail of the plugin, published on Vendure's EventBus when the shop sends the plugin's mails
 * through its EmailPlugin (adapter option `mail: 'email-plugin'`, decision 0059): the handlers of
 * `suite-b2b/vendure/email` (`suiteB2BEmailHandlers`, one per template) turn it into the shop's
 * email. Published once per outbox row, after the row was marked sent (mail.ts).
 */
export class SuiteB2BMailEvent extends VendureEvent {
  constructor(
    public ctx: RequestContext,
    /** The plugin's template name (templates/mail/<template>.*.hbs), e.g. `employee-invitation`. */
    public template: string,
    public recipient: string,
    public cc: string[],
    /** The template's data as the plugin's templates see it (with `shopName`, `salesChannel`, `storefrontUrl`). */
    public templateData: Record<string, unknown>,
    /** The plugin's own rendering of the template (its Handlebars helpers): what the shipped bodies embed. */
    public rendered: { subject: string; html: string; text: string },
    /** The adapter's `mailFrom` (null: the EmailPlugin's `fromAddress`, else `defaultFrom`). */
    public from: string | null,
    /** The outbox's sender: the channel's name at `no-reply@<storefront host>`. */
    public defaultFrom: string,
    public attachments: Array<{ filename: string; content: Buffer; contentType: string }>,
    /** The outbox row's id (also the email's metadata `suiteB2BMailId`). */
    public mailId: string,
  ) {
    super();
  }
}

/** The EmailPlugin handler type (its template folder's name) of a plugin template. */
export const emailTypeOf = (template: string): string => `suite-b2b-${template}`;
