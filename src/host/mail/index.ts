import { join } from 'node:path';
import type { HostRuntime } from '../../contract/index.js';
import type { HostInternals } from '../internals.js';
import { getSalesChannel, toSalesChannel } from '../customer/customer-repository.js';
import { createMailOutbox, MAIL_SEND_INTERVAL_SECONDS, MAIL_SEND_JOB, type MailOutbox } from '../../lib/mail-outbox.js';
import type { SalesChannelRow } from '../customer/rows.js';

export {
  MAIL_MAX_ATTEMPTS,
  MAIL_SEND_INTERVAL_SECONDS,
  MAIL_SEND_JOB,
  registerTemplatesFromFolder,
} from '../../lib/mail-outbox.js';

export interface MailModule extends Pick<HostRuntime, 'mail'> {
  /** Sends what is due in the outbox (the 'mail.send' job); returns how many mails were sent. */
  sendQueued(): Promise<number>;
  /** Adds a Handlebars template (host-internal since contract 4.0: the host loads each plugin's templates folder). */
  registerTemplate: MailOutbox['registerTemplate'];
}

/**
 * The reference host's mail: lib/mail-outbox on `mail_outbox`, sent over SMTP (MAILER_URL) or
 * written to var/mail/*.eml by the 'mail.send' job, for the row's sales channel.
 */
export function createMailModule(internals: HostInternals): MailModule {
  const { db, log, config } = internals;
  const outbox = createMailOutbox({
    db,
    log,
    table: 'mail_outbox',
    templates: internals.registries.mailTemplates,
    mailerUrl: config.mailerUrl,
    emlFolder: join(config.varDir, 'mail'),
    fallbackUrl: config.publicUrl,
    async salesChannel(id) {
      const channel = id ? await getSalesChannel(db, id) : null;
      if (channel) return channel;
      const first = await db<SalesChannelRow>('sales_channels').orderBy('created_at').orderBy('id').first();
      if (!first) throw new Error('no sales channel to send mail for: run the migrations and seed first');
      return toSalesChannel(first);
    },
    document: (id) => internals.runtime.documents.get(db, id),
  });

  internals.registries.jobHandlers.set(MAIL_SEND_JOB, async () => {
    await outbox.sendQueued();
  });
  internals.registries.jobSchedules.set(MAIL_SEND_JOB, MAIL_SEND_INTERVAL_SECONDS);

  return {
    sendQueued: outbox.sendQueued,
    registerTemplate: outbox.registerTemplate,
    mail: {
      enqueue: outbox.enqueue,
      templateNames: outbox.templateNames,
      templateSource: outbox.templateSource,
      render: outbox.render,
    },
  };
}
