import { newId } from '../../lib/ids.js';
import { writeJson } from '../../lib/db.js';
import { nowDb } from '../../lib/time.js';
import type { HostRuntime } from '../contract.js';
import type { HostInternals } from '../internals.js';

export type MailModule = Pick<HostRuntime, 'mail'>;

/** Mail outbox. (Stub: enqueue works; rendering and sending are filled in by the mail module.) */
export function createMailModule(internals: HostInternals): MailModule {
  return {
    mail: {
      registerTemplate: (name, template) => void internals.registries.mailTemplates.set(name, template),
      async enqueue(executor, mail) {
        if (!internals.registries.mailTemplates.has(mail.template)) throw new Error(`mail template "${mail.template}" is not registered`);
        await executor('mail_outbox')
          .insert({ id: newId(), template: mail.template, recipient: mail.to, cc: writeJson(mail.cc ?? []), sales_channel_id: mail.salesChannelId ?? null, data: writeJson(mail.data), attachments: writeJson(mail.attachments ?? []), state: 'queued', attempts: 0, dedupe_key: mail.dedupeKey ?? null, created_at: nowDb() })
          .onConflict('dedupe_key')
          .ignore();
      },
    },
  };
}
