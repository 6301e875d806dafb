import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { createApp, type ShopApp } from '../../src/host/app.js';
import { newId } from '../../src/lib/ids.js';
import { addSeconds, fromDbTime, toDbTime } from '../../src/lib/time.js';
import { createMailModule, MAIL_MAX_ATTEMPTS, registerTemplatesFromFolder } from '../../src/host/mail/index.js';
import { createDb } from '../../src/lib/db.js';
import type { HostInternals } from '../../src/host/internals.js';
import type { MailTemplate } from '../../src/contract/index.js';
import { deliverMail, getShop, TEST_APP_SECRET, testDatabaseUrl, testMailbox } from '../helpers/shop.js';
import type { ReceivedMail } from '../helpers/smtp.js';

const ORDER_TEMPLATE: MailTemplate = {
  subject: 'Order {{orderNumber}} at {{shopName}} & co',
  html: '<h1>Hello {{customerName}}</h1><p>Total: {{formatMoney total currency}}</p>{{#each items}}<li>{{this}}</li>{{/each}}<a href="{{storefrontUrl}}/account">Your account</a>',
  text: 'Hello {{customerName}},\nyour order {{orderNumber}} ({{formatMoney total currency}}) at {{salesChannel.name}} is confirmed.',
};

const address = (prefix = 'buyer') => `${prefix}-${newId().slice(0, 10)}@example.test`;
const sentTo = (to: string) => (mail: ReceivedMail) => mail.envelopeTo.includes(to);

describe('host: mail', function () {
  // The first deliverMail of a process's file also runs every job earlier files left queued (on a busy
  // PostgreSQL run that took longer than the default 20 s once).
  this.timeout(60_000);
  let shop: ShopApp;
  const template = `test-order-${newId().slice(0, 8)}`;
  before(async () => {
    shop = await getShop();
    shop.mail.registerTemplate(template, ORDER_TEMPLATE);
  });

  it('delivers a mail enqueued in a transaction over SMTP, rendered with the data and shop globals, HTML escaped', async () => {
    const to = address();
    await shop.db.transaction((trx) =>
      shop.runtime.mail.enqueue(trx, {
        template,
        to,
        cc: ['purchasing@example.test'],
        data: {
          orderNumber: '10042',
          customerName: 'Ann <b>&</b> Co',
          total: 1234.5,
          currency: 'EUR',
          items: ['Screws <M4>', 'Nuts'],
        },
      }),
    );
    await deliverMail();
    const mail = await (await testMailbox()).waitFor(sentTo(to));
    expect(mail.subject).to.equal('Order 10042 at Storefront & co');
    expect(mail.html).to.contain('<h1>Hello Ann &lt;b&gt;&amp;&lt;/b&gt; Co</h1>');
    expect(mail.html).to.contain('<li>Screws &lt;M4&gt;</li>');
    expect(mail.html).to.contain('€1,234.50');
    expect(mail.html).to.contain('href="http://shop.test/account"');
    expect(mail.text).to.contain('Hello Ann <b>&</b> Co,\nyour order 10042 (€1,234.50) at Storefront is confirmed.');
    expect(mail.envelopeTo).to.include('purchasing@example.test');
    expect(mail.from?.value[0]).to.deep.include({ name: 'Storefront', address: 'no-reply@shop.test' });
    const row = await shop.db('mail_outbox').where({ recipient: to }).first();
    expect(row.state).to.equal('sent');
    expect(row.sent_at).to.be.a('string');
    expect(mail.messageId).to.equal(`<${row.id}@suite-b2b.mail>`);
  });

  it('sends nothing when the transaction that enqueued the mail rolled back', async () => {
    const to = address();
    await shop.db
      .transaction(async (trx) => {
        await shop.runtime.mail.enqueue(trx, { template, to, data: { orderNumber: '1' } });
        throw new Error('order refused');
      })
      .catch(() => undefined);
    await deliverMail();
    expect(await shop.db('mail_outbox').where({ recipient: to })).to.have.length(0);
    expect((await testMailbox()).messages.filter(sentTo(to))).to.have.length(0);
  });

  it('queues a mail with the same dedupe key once, so it arrives once', async () => {
    const to = address();
    const dedupeKey = `approval-reminder:${newId()}`;
    for (let i = 0; i < 3; i++)
      await shop.runtime.mail.enqueue(shop.db, { template, to, dedupeKey, data: { orderNumber: String(i) } });
    await deliverMail();
    await (await testMailbox()).waitFor(sentTo(to));
    await shop.runtime.mail.enqueue(shop.db, { template, to, dedupeKey, data: { orderNumber: 'again' } });
    await deliverMail();
    const received = (await testMailbox()).messages.filter(sentTo(to));
    expect(received.map((m) => m.subject)).to.deep.equal(['Order 0 at Storefront & co']);
  });

  it('keeps a mail the SMTP server refuses for a while, records why, and sends it on a later attempt', async () => {
    const to = address('fail-once');
    await shop.runtime.mail.enqueue(shop.db, { template, to, data: { orderNumber: '7' } });
    await deliverMail();
    let row = await shop.db('mail_outbox').where({ recipient: to }).first();
    expect(row).to.include({ state: 'queued', attempts: 1 });
    expect(row.last_error).to.contain('451');
    expect(new Date(fromDbTime(row.next_attempt_at)!).getTime()).to.be.greaterThan(Date.now() + 5000);

    await deliverMail();
    expect(
      (await shop.db('mail_outbox').where({ recipient: to }).first()).attempts,
      'not retried before the backoff',
    ).to.equal(1);

    await shop
      .db('mail_outbox')
      .where({ recipient: to })
      .update({ next_attempt_at: toDbTime(addSeconds(new Date(), -1)) });
    await deliverMail();
    const mail = await (await testMailbox()).waitFor(sentTo(to));
    expect(mail.subject).to.equal('Order 7 at Storefront & co');
    row = await shop.db('mail_outbox').where({ recipient: to }).first();
    expect(row).to.include({ state: 'sent', attempts: 2, last_error: null });
  });

  it(`gives up after ${MAIL_MAX_ATTEMPTS} refused attempts and marks the mail failed with the reason`, async () => {
    const to = address('reject');
    await shop.runtime.mail.enqueue(shop.db, { template, to, data: { orderNumber: '8' } });
    for (let i = 0; i < MAIL_MAX_ATTEMPTS + 1; i++) {
      await shop
        .db('mail_outbox')
        .where({ recipient: to })
        .update({ next_attempt_at: toDbTime(addSeconds(new Date(), -1)) });
      await deliverMail();
    }
    const row = await shop.db('mail_outbox').where({ recipient: to }).first();
    expect(row).to.include({ state: 'failed', attempts: MAIL_MAX_ATTEMPTS });
    expect(row.last_error).to.contain('550');
    expect((await testMailbox()).messages.filter(sentTo(to))).to.have.length(0);
  });

  it('sends each mail once when senders in several processes (own pools) work the outbox at the same time', async function () {
    this.timeout(30000);
    const pools = [createDb(await testDatabaseUrl()), createDb(await testDatabaseUrl())];
    try {
      const senders = pools.map((db) =>
        createMailModule({
          ...shop.internals,
          db,
          registries: { ...shop.internals.registries, jobHandlers: new Map(), jobSchedules: new Map() },
        } as HostInternals),
      );
      const recipients = Array.from({ length: 24 }, () => address('bulk'));
      for (const to of recipients)
        await shop.runtime.mail.enqueue(shop.db, { template, to, data: { orderNumber: to.slice(5, 15) } });
      const sent = await Promise.all([...senders.map((s) => s.sendQueued()), ...senders.map((s) => s.sendQueued())]);
      const mailbox = await testMailbox();
      for (const to of recipients) expect(mailbox.messages.filter(sentTo(to)), to).to.have.length(1);
      expect(sent.reduce((a, b) => a + b, 0)).to.equal(recipients.length);
    } finally {
      for (const db of pools) await db.destroy();
    }
  });

  it('attaches stored documents (a PDF) to the mail', async () => {
    const to = address();
    const document = await shop.runtime.documents.createPdf(shop.db, {
      type: 'offer',
      number: `OF-${newId().slice(0, 6)}`,
      customerId: null,
      title: 'Offer',
      lines: [{ text: 'Thank you for your request.' }],
    });
    await shop.runtime.mail.enqueue(shop.db, {
      template,
      to,
      data: { orderNumber: '9' },
      attachments: [{ filename: 'offer.pdf', documentId: document.id }],
    });
    await deliverMail();
    const mail = await (await testMailbox()).waitFor(sentTo(to));
    expect(mail.attachments).to.have.length(1);
    expect(mail.attachments[0]!.filename).to.equal('offer.pdf');
    expect(mail.attachments[0]!.contentType).to.equal('application/pdf');
    expect(mail.attachments[0]!.content.subarray(0, 5).toString()).to.equal('%PDF-');
  });

  it('refuses to queue a mail for a template nobody registered, and refuses a template that does not parse', async () => {
    let error: unknown = null;
    await shop.runtime.mail
      .enqueue(shop.db, { template: 'no-such-template', to: address(), data: {} })
      .catch((e: unknown) => (error = e));
    expect(String(error)).to.contain('"no-such-template" is not registered');
    expect(() => shop.mail.registerTemplate('broken', { subject: '{{#if x}}', html: '', text: '' })).to.throw();
  });

  it('registers templates from a folder (<name>.subject/.html/.text.hbs) and names a missing file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'suite-mail-templates-'));
    try {
      const name = `folder-${newId().slice(0, 8)}`;
      writeFileSync(join(folder, `${name}.subject.hbs`), 'Welcome to {{shopName}}, {{firstName}}\n');
      writeFileSync(join(folder, `${name}.html.hbs`), '<p>Hi {{firstName}}</p>');
      writeFileSync(join(folder, `${name}.text.hbs`), 'Hi {{firstName}}');
      registerTemplatesFromFolder(shop.mail, folder, [name]);
      const to = address();
      await shop.runtime.mail.enqueue(shop.db, { template: name, to, data: { firstName: 'Kim' } });
      await deliverMail();
      const mail = await (await testMailbox()).waitFor(sentTo(to));
      expect(mail.subject).to.equal('Welcome to Storefront, Kim');
      expect(mail.text?.trim()).to.equal('Hi Kim');
      expect(() => registerTemplatesFromFolder(shop.mail, folder, ['absent'])).to.throw(
        /absent\.subject\.hbs is missing/,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('writes .eml files under var/mail when no MAILER_URL is configured', async function () {
    this.timeout(30000);
    const varDir = mkdtempSync(join(tmpdir(), 'suite-var-'));
    const other = await createApp({
      config: {
        databaseUrl: `sqlite:${join(varDir, 'shop.sqlite')}`,
        appSecret: TEST_APP_SECRET,
        publicUrl: 'http://eml.test',
        logLevel: 'silent',
        workers: false,
        mailerUrl: null,
        varDir,
      },
      plugins: [],
    });
    try {
      other.mail.registerTemplate('eml-test', ORDER_TEMPLATE);
      await other.runtime.mail.enqueue(other.db, {
        template: 'eml-test',
        to: 'someone@example.test',
        data: { orderNumber: '55', customerName: 'Lee' },
      });
      await other.jobs.runDue();
      const files = readdirSync(join(varDir, 'mail'));
      expect(files).to.have.length(1);
      expect(files[0]).to.match(/^\d{14}-eml-test-[0-9a-f]{32}\.eml$/);
      const parsed = await simpleParser(readFileSync(join(varDir, 'mail', files[0]!)));
      expect(parsed.subject).to.equal('Order 55 at Storefront & co');
      expect(parsed.text).to.contain('Hello Lee,');
      expect((await other.db('mail_outbox').first()).state).to.equal('sent');
    } finally {
      await other.close();
      rmSync(varDir, { recursive: true, force: true });
    }
  });
});
