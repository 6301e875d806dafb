import { expect } from 'chai';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Injector, RequestContextService } from '@vendure/core';
import { ModuleRef } from '@nestjs/core';
import { SUITE_B2B_MAIL_TEMPLATES, suiteB2BEmailHandler, suiteB2BEmailHandlers } from 'suite-b2b/vendure/email';
import { SuiteB2BMailEvent } from 'suite-b2b/vendure';
import { checkMailSetup } from '../../src/adapters/vendure/mail.js';
import type { AdapterState } from '../../src/adapters/vendure/state.js';
import { newId } from '../../src/lib/ids.js';
import { moveClock, nowDb, resetClock } from '../../src/lib/time.js';
import { DEMO_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { startSmtp, type ReceivedMail, type TestMailbox } from '../helpers/smtp.js';
import { bearer, bootShop, type ShopClient } from './helpers/shop.js';

/**
 * The plugin's mails through Vendure's EmailPlugin (adapter option `mail: 'email-plugin'`, decision
 * 0059): the outbox hands each row to the EventBus once as a SuiteB2BMailEvent, the shop's
 * `suiteB2BEmailHandlers` render it with the shop's template folder (an override, the shipped
 * bodies in the shop's partials) and the EmailPlugin's job sends it with its SMTP transport to a
 * real server on loopback. The outbox's own sending (no EmailPlugin): mail.test.ts.
 */
describe("Vendure: the plugin's mails through the shop's EmailPlugin", function () {
  this.timeout(60_000);
  let client: ShopClient;
  let mailbox: TestMailbox;
  let templatePath: string;
  const MAIL_FROM = '"Demo B2B desk" <b2b-desk@example.test>';
  const to = (address: string) => (mail: ReceivedMail) => mail.envelopeTo.includes(address);
  const rowsTo = (address: string) => client.shop.state.db('suite_host_mail_outbox').where({ recipient: address });
  /** The send step as two processes whose turn came at once (the shop's own worker polls as well). */
  const sendTwice = () => Promise.all([client.shop.state.mail.sendQueued(), client.shop.state.mail.sendQueued()]);

  before(async function () {
    this.timeout(240_000);
    mailbox = await startSmtp();
    // The shop's email template folder: Vendure's templates (partials), the plugin's shipped bodies,
    // and the shop's own version of the invitation.
    templatePath = mkdtempSync(join(tmpdir(), 'suite-b2b-email-templates-'));
    const vendureTemplates = join(
      dirname(createRequire(import.meta.url).resolve('@vendure/email-plugin/package.json')),
      'templates',
    );
    cpSync(vendureTemplates, templatePath, { recursive: true });
    cpSync(join(import.meta.dirname, '..', '..', 'templates', 'vendure-email'), templatePath, { recursive: true });
    writeFileSync(
      join(templatePath, 'suite-b2b-employee-invitation', 'body.hbs'),
      `{{> header title="Welcome aboard" }}
<mj-section><mj-column>
  <mj-text>SHOP OVERRIDE: {{ inviterName }} asks you to join {{ companyName }}.</mj-text>
  <mj-button href="{{ link }}">Join {{ shopName }}</mj-button>
</mj-column></mj-section>
{{> footer }}`,
    );
    client = await bootShop({
      label: 'vendure_email_plugin',
      // No SMTP of the plugin's own: a mail the outbox sent itself would land in .eml files, not here.
      mailerUrl: null,
      emailPlugin: {
        templatePath,
        transport: { type: 'smtp', host: '127.0.0.1', port: mailbox.port, secure: false, ignoreTLS: true },
        fromAddress: '"Example shop" <shop@example.test>',
        mailFrom: MAIL_FROM,
      },
    });
  });

  after(async function () {
    this.timeout(60_000);
    resetClock();
    await client?.close();
    await mailbox?.stop();
    if (templatePath) rmSync(templatePath, { recursive: true, force: true });
  });

  it('ships a body for every plugin mail and registers a handler for each', () => {
    const shipped = readdirSync(join(import.meta.dirname, '..', '..', 'templates', 'vendure-email')).sort();
    expect(shipped).to.deep.equal(SUITE_B2B_MAIL_TEMPLATES.map((t) => `suite-b2b-${t}`));
    expect(suiteB2BEmailHandlers.map((h) => h.type)).to.deep.equal(shipped);
    for (const folder of shipped) expect(existsSync(join(templatePath, folder, 'body.hbs')), folder).to.equal(true);
    // The dev mailbox's samples: each template rendered with sample data.
    for (const handler of suiteB2BEmailHandlers)
      expect((handler.mockEvent as { rendered?: { html: string } } | undefined)?.rendered?.html, handler.type).to.match(
        /</,
      );
  });

  it("mails an employee invitation through the EmailPlugin: the shop's template, its transport, the configured sender, once", async () => {
    const buyer = bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    const email = `invited-${newId().slice(0, 8)}@example.test`;
    const invited = await client.rest('POST', '/store-api/create-invitation', buyer, { email, firstName: 'Ines' });
    expect(invited.status, JSON.stringify(invited.body)).to.equal(200);

    await sendTwice();
    const mail = await mailbox.waitFor(to(email), 20_000);
    expect(mail.html).to.contain('SHOP OVERRIDE:');
    expect(mail.html).to.match(/asks you to join [^<]+\./);
    expect(mail.html).to.match(/href="http:\/\/localhost:\d+\/account\/employee-invitation\/[^"]+"/);
    // The subject is the plugin's (its template, rendered by the plugin), the sender the adapter's mailFrom.
    expect(mail.subject).to.match(/invites you to order for .+ at Example shop$/);
    expect(mail.from?.value[0]).to.deep.include({ name: 'Demo B2B desk', address: 'b2b-desk@example.test' });
    expect((await rowsTo(email)).map((row: { state: string }) => row.state)).to.deep.equal(['sent']);

    // Once: another send step, and every job of the EmailPlugin settled, still one mail.
    await sendTwice();
    await client.settleJobs();
    expect(mailbox.messages.filter(to(email))).to.have.length(1);
  });

  it("mails with the shipped body inside the shop's partials; a dedupe key and a crashed sender never make two", async () => {
    const state = client.shop.state;
    const email = `reminded-${newId().slice(0, 8)}@example.test`;
    const reminder = {
      template: 'event-reminder',
      to: email,
      dedupeKey: `test-reminder:${email}`,
      data: {
        participant: { firstName: 'Rita', lastName: 'Reminded' },
        event: { name: 'Seating workshop', startsAtText: 'tomorrow', url: 'http://localhost/e', venue: 'Hall 2' },
      },
    };
    await state.mail.enqueue(state.db, reminder);
    await state.mail.enqueue(state.db, reminder);
    expect(await rowsTo(email)).to.have.length(1);
    // A sender died after claiming the row (before handing it over): nobody takes it until it is stale …
    await rowsTo(email).update({ state: 'sending', locked_by: 'crashed-worker', locked_at: nowDb(), attempts: 1 });
    await sendTwice();
    expect((await rowsTo(email))[0].state).to.equal('sending');
    // … then one sender hands it over (the clock moved past the 10 minutes, not a sleep).
    moveClock(11 * 60 * 1000);
    try {
      await sendTwice();
      const mail = await mailbox.waitFor(to(email), 20_000);
      expect(mail.subject).to.equal('Reminder: Seating workshop starts soon');
      expect(mail.html).to.contain('[company header]'); // Vendure's header partial of the shop's folder
      expect(mail.html).to.contain('Rita Reminded');
      expect(mail.html).to.contain('Hall 2');
      await sendTwice();
      await client.settleJobs();
      expect(mailbox.messages.filter(to(email))).to.have.length(1);
      expect((await rowsTo(email))[0].state).to.equal('sent');
    } finally {
      resetClock();
    }
  });

  it("takes the sender from mailFrom, else the EmailPlugin's fromAddress, else the channel's no-reply address", async () => {
    const app = client.shop.app;
    const ctx = await app.get(RequestContextService).create({ apiType: 'admin' });
    const injector = new Injector(app.get(ModuleRef));
    const event = (from: string | null) =>
      new SuiteB2BMailEvent(
        ctx,
        'event-reminder',
        'someone@example.test',
        ['boss@example.test'],
        { shopName: 'Example shop' },
        { subject: 'S', html: '<p>H</p>', text: 'T' },
        from,
        '"Example shop" <no-reply@localhost>',
        [],
        'mail-id',
      );
    const handler = suiteB2BEmailHandler('event-reminder');
    const senderOf = async (from: string | null, globals: Record<string, unknown>) =>
      (await handler.handle(event(from), globals, injector))?.templateVars.suiteB2BFrom as string;
    expect(await senderOf(MAIL_FROM, { fromAddress: 'shop@example.test' })).to.equal(MAIL_FROM);
    expect(await senderOf(null, { fromAddress: 'shop@example.test' })).to.equal('shop@example.test');
    expect(await senderOf(null, {})).to.equal('"Example shop" <no-reply@localhost>');
    const details = await handler.handle(event(null), {}, injector);
    expect(details).to.deep.include({ type: 'suite-b2b-event-reminder', recipient: 'someone@example.test' });
    expect(details?.cc).to.equal('boss@example.test');
    expect(details?.metadata).to.deep.equal({ suiteB2BMailId: 'mail-id', suiteB2BTemplate: 'event-reminder' });
    // The dev mailbox generates a plugin mail from the handler's sample.
    const invitation = suiteB2BEmailHandlers.find((h) => h.type === 'suite-b2b-employee-invitation')!;
    const sample = await invitation.handle(
      { ...invitation.mockEvent, ctx } as unknown as SuiteB2BMailEvent,
      { fromAddress: 'shop@example.test' },
      injector,
    );
    expect(sample?.templateVars.suiteB2B.html).to.contain('https://shop.example/sample');
    expect(sample?.templateVars.suiteB2BFrom).to.equal('shop@example.test');
    // Another template's handler lets the event pass.
    expect(await suiteB2BEmailHandler('employee-invitation').handle(event(null), {}, injector)).to.equal(undefined);
  });

  it("refuses to start with mail: 'email-plugin' when the EmailPlugin or a handler is missing", () => {
    const state = {
      options: { mail: 'email-plugin' },
      mail: client.shop.state.mail,
      log: client.shop.state.log,
    } as unknown as AdapterState;
    expect(() => checkMailSetup(state, [])).to.throw(/needs Vendure's EmailPlugin/);
    const partial = Object.assign(function EmailPlugin() {}, { options: { handlers: suiteB2BEmailHandlers.slice(1) } });
    Object.defineProperty(partial, 'name', { value: 'EmailPlugin' });
    expect(() => checkMailSetup(state, [partial])).to.throw(/no handler for the plugin's mails suite-b2b-/);
    const complete = Object.assign(function EmailPlugin() {}, { options: { handlers: suiteB2BEmailHandlers } });
    expect(() => checkMailSetup(state, [complete])).to.not.throw();
  });
});
