import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createMailOutbox,
  type MailOutbox,
  type MailOutboxOptions,
  type RenderedMail,
} from '../../src/lib/mail-outbox.js';
import { newId } from '../../src/lib/ids.js';
import { dateTime, idColumn, jsonText } from '../../src/lib/migration-helpers.js';
import type { Db } from '../../src/lib/db.js';
import { getShop, testMailbox } from '../helpers/shop.js';
import type { ReceivedMail } from '../helpers/smtp.js';

/**
 * lib/mail-outbox's configurable sender and its hand-over step (what the Vendure adapter uses to
 * hand mails to the EmailPlugin, decision 0059), on an outbox table of the test's own (the shop's
 * worker never claims its rows) in the test database.
 */
describe('mail outbox: the sender and the hand-over step', function () {
  this.timeout(60_000);
  const table = `test_outbox_${newId().slice(0, 8)}`;
  let db: Db;
  let emlFolder: string;
  const templates = new Map([
    ['greeting', { subject: 'Hello {{name}} & co', html: '<p>Hello {{name}}</p>', text: 'Hello {{name}}' }],
  ]);
  const quiet = { warn: () => undefined, error: () => undefined };
  const outbox = (options: Partial<MailOutboxOptions>): MailOutbox =>
    createMailOutbox({
      db,
      log: quiet,
      table,
      templates,
      mailerUrl: null,
      emlFolder,
      salesChannel: () => Promise.resolve({ name: 'Test shop', domains: ['https://shop.example.test'] }),
      fallbackUrl: 'http://localhost',
      document: () => Promise.resolve(null),
      ...options,
    });
  const address = () => `handover-${newId().slice(0, 10)}@example.test`;

  before(async () => {
    db = (await getShop()).db;
    emlFolder = mkdtempSync(join(tmpdir(), 'suite-outbox-'));
    await db.schema.createTable(table, (t) => {
      idColumn(t).primary();
      t.string('template', 128).notNullable();
      t.string('recipient', 255).notNullable();
      jsonText(t, 'cc').nullable();
      idColumn(t, 'sales_channel_id').nullable();
      jsonText(t, 'data').notNullable();
      jsonText(t, 'attachments').nullable();
      t.string('state', 16).notNullable();
      t.integer('attempts').notNullable().defaultTo(0);
      t.text('last_error').nullable();
      t.string('dedupe_key', 191).nullable().unique();
      dateTime(t, 'created_at').notNullable();
      dateTime(t, 'sent_at').nullable();
      dateTime(t, 'next_attempt_at').nullable();
      t.string('locked_by', 64).nullable();
      dateTime(t, 'locked_at').nullable();
    });
  });

  after(async () => {
    await db?.schema.dropTableIfExists(table);
    if (emlFolder) rmSync(emlFolder, { recursive: true, force: true });
  });

  it('sends from the configured sender, else the channel name at no-reply@<storefront host>', async () => {
    const mailbox = await testMailbox();
    const configured = address();
    const standard = address();
    const sender = outbox({ mailerUrl: mailbox.url, from: '"B2B desk" <desk@shop.example.test>' });
    await sender.enqueue(db, { template: 'greeting', to: configured, data: { name: 'Ann' } });
    expect(await sender.sendQueued()).to.equal(1);
    const first = await mailbox.waitFor((m: ReceivedMail) => m.envelopeTo.includes(configured), 10_000);
    expect(first.from?.value[0]).to.deep.include({ name: 'B2B desk', address: 'desk@shop.example.test' });
    expect(first.subject).to.equal('Hello Ann & co');

    const plain = outbox({ mailerUrl: mailbox.url });
    await plain.enqueue(db, { template: 'greeting', to: standard, data: { name: 'Bo' } });
    expect(await plain.sendQueued()).to.equal(1);
    const second = await mailbox.waitFor((m: ReceivedMail) => m.envelopeTo.includes(standard), 10_000);
    expect(second.from?.value[0]).to.deep.include({ name: 'Test shop', address: 'no-reply@shop.example.test' });
  });

  it('hands each row over once, marked sent before the host takes it; a failed hand-over is failed, not retried', async () => {
    const handed: RenderedMail[] = [];
    const statesSeen: string[] = [];
    const failing = address();
    const handOver = async (mail: RenderedMail) => {
      statesSeen.push((await db(table).where({ id: mail.id }).first('state')).state as string);
      if (mail.to === failing) throw new Error('event bus gone');
      handed.push(mail);
    };
    const senders = [outbox({ handOver }), outbox({ handOver })];
    const recipients = Array.from({ length: 6 }, address);
    for (const to of [...recipients, failing])
      await senders[0]!.enqueue(db, { template: 'greeting', to, cc: ['boss@example.test'], data: { name: to } });
    // Two processes, each running the send step twice at once.
    const counted = await Promise.all([...senders, ...senders].map((s) => s.sendQueued()));
    expect(counted.reduce((a, b) => a + b, 0)).to.equal(recipients.length);
    expect(handed.map((m) => m.to).sort()).to.deep.equal([...recipients].sort());
    expect(statesSeen.every((state) => state === 'sent')).to.equal(true);
    const one = handed[0]!;
    expect(one).to.deep.include({ template: 'greeting', subject: `Hello ${one.to} & co`, cc: ['boss@example.test'] });
    expect(one.from).to.equal('"Test shop" <no-reply@shop.example.test>');
    expect(one.data).to.deep.include({ shopName: 'Test shop', storefrontUrl: 'https://shop.example.test' });
    const failed = await db(table).where({ recipient: failing }).first();
    expect(failed).to.deep.include({ state: 'failed' });
    expect(failed.last_error).to.match(/^handed over, then: .*event bus gone/);
    // Nothing is handed over again.
    expect(await senders[1]!.sendQueued()).to.equal(0);
    expect(handed).to.have.length(recipients.length);
  });
});
