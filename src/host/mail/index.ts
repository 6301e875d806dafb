import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { newId } from '../../lib/ids.js';
import { readJson, writeJson } from '../../lib/db.js';
import { addSeconds, nowDb, toDbTime } from '../../lib/time.js';
import type { HostRuntime, MailTemplate, SalesChannel } from '../contract.js';
import type { HostInternals } from '../internals.js';
import { getSalesChannel, toSalesChannel } from '../customer/customer-repository.js';
import { claimRows, errorText, newWorkerId, retryDelaySeconds } from '../jobs/claim.js';
import { createTemplateEngine } from './template-engine.js';
import type { SalesChannelRow } from '../customer/rows.js';

/** What the stream transport (no MAILER_URL) answers: the message it built. */
interface StreamTransportInfo {
  message: Buffer;
}

/** A row of mail_outbox (migrations/host/004, 007) as the drivers return it; JSON columns are text. */
interface OutboxRow {
  id: string;
  template: string;
  recipient: string;
  cc: string | null;
  sales_channel_id: string | null;
  data: string;
  attachments: string | null;
  state: string;
  attempts: number | string;
}

export interface MailModule extends Pick<HostRuntime, 'mail'> {
  /** Sends what is due in the outbox (the 'mail.send' job); returns how many mails were sent. */
  sendQueued(): Promise<number>;
}

export const MAIL_SEND_JOB = 'mail.send';
export const MAIL_SEND_INTERVAL_SECONDS = 3;
export const MAIL_MAX_ATTEMPTS = 5;
/** A row still 'sending' after this long belongs to a crashed worker and is claimed again. */
const STALE_SENDING_SECONDS = 10 * 60;
const BATCH_SIZE = 20;

interface CompiledTemplate {
  subject: HandlebarsTemplateDelegate;
  html: HandlebarsTemplateDelegate;
  text: HandlebarsTemplateDelegate;
}

/** Registers templates/mail/<name>.subject.hbs, .html.hbs and .text.hbs for every name (the manifest's mailTemplates). */
export function registerTemplatesFromFolder(mail: Pick<HostRuntime['mail'], 'registerTemplate'>, folder: string, names: string[]): void {
  for (const name of names) {
    const read = (part: keyof MailTemplate) => {
      const file = join(folder, `${name}.${part}.hbs`);
      if (!existsSync(file)) throw new Error(`mail template "${name}": ${file} is missing`);
      return readFileSync(file, 'utf8');
    };
    mail.registerTemplate(name, { subject: read('subject'), html: read('html'), text: read('text') });
  }
}

/**
 * The mail outbox: rows are written inside the caller's transaction; the 'mail.send' job claims
 * them (SKIP LOCKED + conditional state update, so each row is sent once across processes),
 * renders the Handlebars template and sends over SMTP (MAILER_URL) or writes var/mail/*.eml.
 */
export function createMailModule(internals: HostInternals): MailModule {
  const { db, log, config } = internals;
  const templates = internals.registries.mailTemplates;
  const engine = createTemplateEngine();
  const compiled = new Map<string, CompiledTemplate>();
  const workerId = newWorkerId();
  let transporter: Transporter | null = null;

  function compiledTemplate(name: string): CompiledTemplate {
    let template = compiled.get(name);
    if (!template) {
      const source = templates.get(name);
      if (!source) throw new Error(`mail template "${name}" is not registered`);
      // Only the HTML part is HTML: subject and text must not carry &amp; entities.
      template = {
        subject: engine.compile(source.subject, { noEscape: true }),
        html: engine.compile(source.html),
        text: engine.compile(source.text, { noEscape: true }),
      };
      compiled.set(name, template);
    }
    return template;
  }

  function transport(): Transporter {
    transporter ??= config.mailerUrl
      ? nodemailer.createTransport(config.mailerUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    return transporter;
  }

  async function salesChannelFor(id: string | null): Promise<SalesChannel> {
    const channel = id ? await getSalesChannel(db, id) : null;
    if (channel) return channel;
    const first = await db<SalesChannelRow>('sales_channels').orderBy('created_at').orderBy('id').first();
    if (!first) throw new Error('no sales channel to send mail for: run the migrations and seed first');
    return toSalesChannel(first);
  }

  async function send(row: OutboxRow): Promise<void> {
    const template = compiledTemplate(row.template);
    const salesChannel = await salesChannelFor(row.sales_channel_id);
    const storefrontUrl = (salesChannel.domains[0] ?? config.publicUrl).replace(/\/$/, '');
    const data = { shopName: salesChannel.name, salesChannel, storefrontUrl, ...readJson<Record<string, unknown>>(row.data, {}) };
    const attachments = [];
    for (const attachment of readJson<Array<{ filename: string; documentId: string }>>(row.attachments, [])) {
      const document = await internals.runtime.documents.get(db, attachment.documentId);
      if (!document) throw new Error(`attachment document ${attachment.documentId} does not exist`);
      attachments.push({ filename: attachment.filename || document.fileName, content: document.content, contentType: document.mimeType });
    }
    const fromHost = new URL(storefrontUrl).hostname || 'localhost';
    const info: unknown = await transport().sendMail({
      from: { name: salesChannel.name, address: `no-reply@${fromHost}` },
      to: row.recipient,
      cc: readJson<string[]>(row.cc, []),
      subject: template.subject(data).replace(/\s+/g, ' ').trim(),
      html: template.html(data),
      text: template.text(data),
      attachments,
      // The same Message-ID on every attempt lets receivers drop a duplicate after a crash mid-send.
      messageId: `<${row.id}@suite-b2b.mail>`,
      headers: { 'X-Suite-Template': row.template },
    });
    if (!config.mailerUrl) {
      const folder = join(config.varDir, 'mail');
      mkdirSync(folder, { recursive: true });
      const stamp = nowDb().replace(/[^0-9]/g, '').slice(0, 14);
      writeFileSync(join(folder, `${stamp}-${row.template.replace(/[^\w.-]/g, '_')}-${row.id}.eml`), (info as StreamTransportInfo).message);
    }
  }

  async function sendQueued(): Promise<number> {
    let sent = 0;
    for (let round = 0; round < 50; round++) {
      const now = nowDb();
      const staleBefore = toDbTime(addSeconds(new Date(), -STALE_SENDING_SECONDS));
      const rows = await claimRows<OutboxRow>(
        db,
        {
          table: 'mail_outbox',
          orderBy: 'created_at',
          runningState: 'sending',
          claimable: (q) => {
            q.where((due) => {
              due.where('state', 'queued').where((at) => {
                at.whereNull('next_attempt_at').orWhere('next_attempt_at', '<=', now);
              });
            }).orWhere((stale) => {
              stale.where('state', 'sending').where('locked_at', '<', staleBefore);
            });
          },
        },
        workerId,
        BATCH_SIZE,
      );
      if (rows.length === 0) break;
      for (const row of rows) {
        const mine = { id: row.id, state: 'sending', locked_by: workerId };
        try {
          await send(row);
          await db('mail_outbox').where(mine).update({ state: 'sent', sent_at: nowDb(), locked_by: null, locked_at: null, last_error: null, next_attempt_at: null });
          sent++;
        } catch (error) {
          const attempts = Number(row.attempts);
          const lastError = errorText(error);
          if (attempts >= MAIL_MAX_ATTEMPTS) {
            await db('mail_outbox').where(mine).update({ state: 'failed', locked_by: null, locked_at: null, last_error: lastError });
            log.error({ mailId: row.id, template: row.template, attempts, err: lastError }, 'mail failed for good');
          } else {
            const nextAttemptAt = toDbTime(addSeconds(new Date(), retryDelaySeconds(attempts)));
            await db('mail_outbox').where(mine).update({ state: 'queued', locked_by: null, locked_at: null, last_error: lastError, next_attempt_at: nextAttemptAt });
            log.warn({ mailId: row.id, template: row.template, attempts, retryAt: nextAttemptAt, err: lastError }, 'mail not sent; will retry');
          }
        }
      }
    }
    return sent;
  }

  internals.registries.jobHandlers.set(MAIL_SEND_JOB, async () => {
    await sendQueued();
  });
  internals.registries.jobSchedules.set(MAIL_SEND_JOB, MAIL_SEND_INTERVAL_SECONDS);

  return {
    sendQueued,
    mail: {
      registerTemplate(name, template) {
        for (const part of ['subject', 'html', 'text'] as const) {
          if (typeof template[part] !== 'string') throw new Error(`mail template "${name}": ${part} must be a string`);
          // Parse now, so a broken template stops start-up instead of failing at send time.
          engine.parse(template[part]);
        }
        templates.set(name, template);
        compiled.delete(name);
      },
      async enqueue(executor, mail) {
        if (!templates.has(mail.template)) throw new Error(`mail template "${mail.template}" is not registered`);
        if (typeof mail.to !== 'string' || !mail.to.includes('@') || mail.to.length > 255) throw new Error(`mail "${mail.template}": "to" is not an e-mail address`);
        await executor('mail_outbox')
          .insert({ id: newId(), template: mail.template, recipient: mail.to, cc: writeJson(mail.cc ?? []), sales_channel_id: mail.salesChannelId ?? null, data: writeJson(mail.data), attachments: writeJson(mail.attachments ?? []), state: 'queued', attempts: 0, dedupe_key: mail.dedupeKey ?? null, created_at: nowDb() })
          .onConflict('dedupe_key')
          .ignore();
      },
    },
  };
}
