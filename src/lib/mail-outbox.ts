import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Knex } from 'knex';
import nodemailer, { type Transporter } from 'nodemailer';
import { newId } from './ids.js';
import { readJson, writeJson, type Db, type Executor } from './db.js';
import { addSeconds, now as currentTime, nowDb, toDbTime } from './time.js';
import { claimRows, errorText, newWorkerId, retryDelaySeconds } from './job-claim.js';
import { createTemplateEngine } from './template-engine.js';

/**
 * The mail outbox both hosts send from (the reference host's `mail_outbox`, the Vendure adapter's
 * `suite_host_mail_outbox`): rows are written inside the caller's transaction; `sendQueued` claims
 * them (SKIP LOCKED + conditional state update, so each row is sent once across processes), renders
 * the Handlebars template and sends over SMTP (`mailerUrl`) or writes `.eml` files — or, given
 * `handOver`, hands the rendered mail to the host's own mail system (Vendure's EmailPlugin) once.
 */

/** Handlebars sources of one mail (the contract's MailTemplate). */
export interface MailTemplateSource {
  subject: string;
  html: string;
  text: string;
}

/** A mail to queue (the contract's OutgoingMail). */
export interface QueuedMail {
  template: string;
  to: string;
  cc?: string[];
  salesChannelId?: string | null;
  data: Record<string, unknown>;
  attachments?: Array<{ filename: string; documentId: string }>;
  dedupeKey?: string;
}

/** The sales channel a mail is sent for: its name is the sender's, its first domain the storefront URL; templates see it as `salesChannel`. */
export interface MailChannel {
  name: string;
  domains: string[];
}

export interface MailDocument {
  fileName: string;
  content: Buffer;
  mimeType: string;
}

interface MailLog {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface MailOutboxOptions {
  db: Db;
  log: MailLog;
  /** The outbox table (columns of migrations/host/004 + 007). */
  table: string;
  /** Registered templates by name (the host's registry). */
  templates: Map<string, MailTemplateSource>;
  /** smtp(s):// URL; null writes each mail as an .eml file into `emlFolder`. */
  mailerUrl: string | null;
  emlFolder: string;
  /** The sales channel of a row (null: the shop's first). */
  salesChannel(id: string | null): Promise<MailChannel>;
  /** The storefront URL when the channel names no domain. */
  fallbackUrl: string;
  /** A stored document to attach (null: it does not exist). */
  document(id: string): Promise<MailDocument | null>;
  /** The sender (`"Name" <address>` or an address); default the channel's name at `no-reply@<storefront host>`. */
  from?: string | null;
  /**
   * Instead of SMTP/.eml: the host's own mail system takes each mail (Vendure's EmailPlugin). The row
   * is marked `sent` before this is called, so a mail is handed over at most once; a hand-over that
   * throws marks the row `failed` (it may or may not have gone out: an operator retries it or not).
   */
  handOver?: (mail: RenderedMail) => Promise<void>;
}

/** A mail of the outbox, rendered as it would be sent: what `handOver` gets. */
export interface RenderedMail {
  /** The outbox row's id. */
  id: string;
  template: string;
  salesChannelId: string | null;
  from: string;
  to: string;
  cc: string[];
  subject: string;
  html: string;
  text: string;
  /** The template's data with `shopName`, `salesChannel` and `storefrontUrl` added (as the templates saw it). */
  data: Record<string, unknown>;
  attachments: Array<{ filename: string; content: Buffer; contentType: string }>;
}

/** Functions, not methods: the hosts hand them on detached (the contract's `mail`). */
export interface MailOutbox {
  registerTemplate: (name: string, template: MailTemplateSource) => void;
  enqueue: (executor: Executor, mail: QueuedMail) => Promise<void>;
  /** Sends what is due; returns how many mails were sent. */
  sendQueued: () => Promise<number>;
  /**
   * Sends the row `id` if it can be claimed now (queued and due, or left in 'sending' by a crashed
   * sender), as sendQueued would; true: sent now. A host whose queue delivers row ids (Vendure's
   * JobQueue) calls it once per delivery; a second delivery finds the row sent or claimed and does nothing.
   */
  sendOne?: (id: string) => Promise<boolean>;
  /** The registered template names, sorted. */
  templateNames: () => string[];
  /** A registered template's Handlebars sources (null: no such template). */
  templateSource: (name: string) => MailTemplateSource | null;
  /** Renders a registered template with this data as a sending would (null: no such template); nothing is queued. */
  render: (name: string, data: Record<string, unknown>) => { subject: string; html: string; text: string } | null;
}

/** What the stream transport (no mailer URL) answers: the message it built. */
interface StreamTransportInfo {
  message: Buffer;
}

/** A row of the outbox as the drivers return it; JSON columns are text. */
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

interface CompiledTemplate {
  subject: HandlebarsTemplateDelegate;
  html: HandlebarsTemplateDelegate;
  text: HandlebarsTemplateDelegate;
}

export const MAIL_SEND_JOB = 'mail.send';
export const MAIL_SEND_INTERVAL_SECONDS = 3;
export const MAIL_MAX_ATTEMPTS = 5;
/** A row still 'sending' after this long belongs to a crashed worker and is claimed again. */
export const STALE_SENDING_SECONDS = 10 * 60;
const BATCH_SIZE = 20;

/** Registers templates/mail/<name>.subject.hbs, .html.hbs and .text.hbs for every name (the manifest's mailTemplates). */
export function registerTemplatesFromFolder(
  mail: Pick<MailOutbox, 'registerTemplate'>,
  folder: string,
  names: string[],
): void {
  for (const name of names) {
    const read = (part: keyof MailTemplateSource) => {
      const file = join(folder, `${name}.${part}.hbs`);
      if (!existsSync(file)) throw new Error(`mail template "${name}": ${file} is missing`);
      return readFileSync(file, 'utf8');
    };
    mail.registerTemplate(name, { subject: read('subject'), html: read('html'), text: read('text') });
  }
}

/** What the sending parts share: the options, this sender's id, and the compiled templates and transport. */
interface SenderContext {
  options: MailOutboxOptions;
  workerId: string;
  compiledTemplate(name: string): CompiledTemplate;
  transport(): Transporter;
}

function compileTemplate(
  engine: ReturnType<typeof createTemplateEngine>,
  source: MailTemplateSource,
): CompiledTemplate {
  // Only the HTML part is HTML: subject and text must not carry &amp; entities.
  return {
    subject: engine.compile(source.subject, { noEscape: true }),
    html: engine.compile(source.html),
    text: engine.compile(source.text, { noEscape: true }),
  };
}

async function renderRow(ctx: SenderContext, row: OutboxRow): Promise<RenderedMail> {
  const { options } = ctx;
  const template = ctx.compiledTemplate(row.template);
  const salesChannel = await options.salesChannel(row.sales_channel_id);
  const storefrontUrl = (salesChannel.domains[0] ?? options.fallbackUrl).replace(/\/$/, '');
  const data = {
    shopName: salesChannel.name,
    salesChannel,
    storefrontUrl,
    ...readJson<Record<string, unknown>>(row.data, {}),
  };
  const attachments = [];
  for (const attachment of readJson<Array<{ filename: string; documentId: string }>>(row.attachments, [])) {
    const document = await options.document(attachment.documentId);
    if (!document) throw new Error(`attachment document ${attachment.documentId} does not exist`);
    attachments.push({
      filename: attachment.filename || document.fileName,
      content: document.content,
      contentType: document.mimeType,
    });
  }
  const fromHost = new URL(storefrontUrl).hostname || 'localhost';
  return {
    id: row.id,
    template: row.template,
    salesChannelId: row.sales_channel_id,
    from: options.from || `"${salesChannel.name.replace(/["\\]/g, '')}" <no-reply@${fromHost}>`,
    to: row.recipient,
    cc: readJson<string[]>(row.cc, []),
    subject: template.subject(data).replace(/\s+/g, ' ').trim(),
    html: template.html(data),
    text: template.text(data),
    data,
    attachments,
  };
}

async function send(ctx: SenderContext, mail: RenderedMail): Promise<void> {
  const { options } = ctx;
  const info: unknown = await ctx.transport().sendMail({
    from: mail.from,
    to: mail.to,
    cc: mail.cc,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    attachments: mail.attachments,
    // The same Message-ID on every attempt lets receivers drop a duplicate after a crash mid-send.
    messageId: `<${mail.id}@suite-b2b.mail>`,
    headers: { 'X-Suite-Template': mail.template },
  });
  if (!options.mailerUrl) {
    mkdirSync(options.emlFolder, { recursive: true });
    const stamp = nowDb()
      .replace(/[^0-9]/g, '')
      .slice(0, 14);
    writeFileSync(
      join(options.emlFolder, `${stamp}-${mail.template.replace(/[^\w.-]/g, '_')}-${mail.id}.eml`),
      (info as StreamTransportInfo).message,
    );
  }
}

/** Queued rows that are due, and rows a crashed sender left in 'sending'. */
function claimable(q: Knex.QueryBuilder): void {
  const now = nowDb();
  const staleBefore = toDbTime(addSeconds(currentTime(), -STALE_SENDING_SECONDS));
  q.where((due) => {
    due.where('state', 'queued').where((at) => {
      at.whereNull('next_attempt_at').orWhere('next_attempt_at', '<=', now);
    });
  }).orWhere((stale) => {
    stale.where('state', 'sending').where('locked_at', '<', staleBefore);
  });
}

/** Sends (or hands over) one claimed row and records the outcome (sent, or queued again with a backoff, or failed); true: sent. */
async function deliver(ctx: SenderContext, row: OutboxRow): Promise<boolean> {
  const { db, table } = ctx.options;
  const mine = { id: row.id, state: 'sending', locked_by: ctx.workerId };
  const markSent = () =>
    db(table).where(mine).update({
      state: 'sent',
      sent_at: nowDb(),
      locked_by: null,
      locked_at: null,
      last_error: null,
      next_attempt_at: null,
    });
  try {
    const mail = await renderRow(ctx, row);
    if (ctx.options.handOver) return (await handOver(ctx, mail, markSent)) > 0;
    await send(ctx, mail);
    await markSent();
    return true;
  } catch (error) {
    await recordFailedAttempt(ctx, row, mine, error);
    return false;
  }
}

/** A send that threw: the row is queued again with a backoff, or failed once its attempts are used up. */
async function recordFailedAttempt(
  ctx: SenderContext,
  row: OutboxRow,
  mine: { id: string; state: string; locked_by: string },
  error: unknown,
): Promise<void> {
  const { db, table, log } = ctx.options;
  const attempts = Number(row.attempts);
  const lastError = errorText(error);
  if (attempts >= MAIL_MAX_ATTEMPTS) {
    await db(table).where(mine).update({ state: 'failed', locked_by: null, locked_at: null, last_error: lastError });
    log.error({ mailId: row.id, template: row.template, attempts, err: lastError }, 'mail failed for good');
  } else {
    const nextAttemptAt = toDbTime(addSeconds(currentTime(), retryDelaySeconds(attempts)));
    await db(table).where(mine).update({
      state: 'queued',
      locked_by: null,
      locked_at: null,
      last_error: lastError,
      next_attempt_at: nextAttemptAt,
    });
    log.warn(
      { mailId: row.id, template: row.template, attempts, retryAt: nextAttemptAt, err: lastError },
      'mail not sent; will retry',
    );
  }
}

/**
 * At most once: the row is marked sent (by the worker that claimed it, a conditional update) before
 * the host takes the mail; a process that dies in between loses that one mail, a retry never sends
 * it twice. Rendering and attachments failed before: those retry as a send does.
 */
async function handOver(ctx: SenderContext, mail: RenderedMail, markSent: () => Promise<number>): Promise<number> {
  const { db, table, log } = ctx.options;
  if ((await markSent()) === 0) return 0;
  try {
    await ctx.options.handOver?.(mail);
    return 1;
  } catch (error) {
    const lastError = `handed over, then: ${errorText(error)}`;
    await db(table).where({ id: mail.id, state: 'sent' }).update({ state: 'failed', last_error: lastError });
    log.error({ mailId: mail.id, template: mail.template, err: lastError }, 'mail hand-over failed');
    return 0;
  }
}

async function sendQueued(ctx: SenderContext): Promise<number> {
  const { db, table } = ctx.options;
  let sent = 0;
  for (let round = 0; round < 50; round++) {
    const rows = await claimRows<OutboxRow>(
      db,
      { table, orderBy: 'created_at', runningState: 'sending', claimable },
      ctx.workerId,
      BATCH_SIZE,
    );
    if (rows.length === 0) break;
    for (const row of rows) if (await deliver(ctx, row)) sent++;
  }
  return sent;
}

async function sendOne(ctx: SenderContext, id: string): Promise<boolean> {
  const { db, table } = ctx.options;
  const [row] = await claimRows<OutboxRow>(
    db,
    {
      table,
      orderBy: 'created_at',
      runningState: 'sending',
      claimable: (q) => {
        q.where('id', id).where(claimable);
      },
    },
    ctx.workerId,
    1,
  );
  return row ? deliver(ctx, row) : false;
}

async function enqueue(options: MailOutboxOptions, executor: Executor, mail: QueuedMail): Promise<void> {
  if (!options.templates.has(mail.template)) throw new Error(`mail template "${mail.template}" is not registered`);
  if (typeof mail.to !== 'string' || !mail.to.includes('@') || mail.to.length > 255)
    throw new Error(`mail "${mail.template}": "to" is not an e-mail address`);
  await executor(options.table)
    .insert({
      id: newId(),
      template: mail.template,
      recipient: mail.to,
      cc: writeJson(mail.cc ?? []),
      sales_channel_id: mail.salesChannelId ?? null,
      data: writeJson(mail.data),
      attachments: writeJson(mail.attachments ?? []),
      state: 'queued',
      attempts: 0,
      dedupe_key: mail.dedupeKey ?? null,
      created_at: nowDb(),
    })
    .onConflict('dedupe_key')
    .ignore();
}

export function createMailOutbox(options: MailOutboxOptions): MailOutbox {
  const { templates } = options;
  const engine = createTemplateEngine();
  const compiled = new Map<string, CompiledTemplate>();
  let transporter: Transporter | null = null;

  function compiledTemplate(name: string): CompiledTemplate {
    let template = compiled.get(name);
    if (!template) {
      const source = templates.get(name);
      if (!source) throw new Error(`mail template "${name}" is not registered`);
      template = compileTemplate(engine, source);
      compiled.set(name, template);
    }
    return template;
  }

  function transport(): Transporter {
    transporter ??= options.mailerUrl
      ? nodemailer.createTransport(options.mailerUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    return transporter;
  }

  const ctx: SenderContext = { options, workerId: newWorkerId(), compiledTemplate, transport };

  return {
    sendQueued: () => sendQueued(ctx),
    sendOne: (id) => sendOne(ctx, id),
    templateNames: () => [...templates.keys()].sort(),
    templateSource: (name) => templates.get(name) ?? null,
    render(name, data) {
      if (!templates.has(name)) return null;
      const template = compiledTemplate(name);
      return {
        subject: template.subject(data).replace(/\s+/g, ' ').trim(),
        html: template.html(data),
        text: template.text(data),
      };
    },
    registerTemplate(name, template) {
      for (const part of ['subject', 'html', 'text'] as const) {
        if (typeof template[part] !== 'string') throw new Error(`mail template "${name}": ${part} must be a string`);
        // Parse now, so a broken template stops start-up instead of failing at send time.
        engine.parse(template[part]);
      }
      templates.set(name, template);
      compiled.delete(name);
    },
    enqueue: (executor, mail) => enqueue(options, executor, mail),
  };
}
