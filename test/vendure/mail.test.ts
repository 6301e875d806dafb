import { expect } from 'chai';
import { createDb } from '../../src/lib/db.js';
import { newId } from '../../src/lib/ids.js';
import { createVendureJobs } from '../../src/adapters/vendure/jobs.js';
import { insertParticipant } from '../../src/plugin/event-manager/repository.js';
import { EVENT_REMINDER_JOB } from '../../src/plugin/event-manager/index.js';
import { DEMO_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { DEMO_APPROVER, DEMO_PURCHASER } from '../../src/plugin/employee/demo.js';
import { startSmtp, type ReceivedMail, type TestMailbox } from '../helpers/smtp.js';
import { bearer, bootShop, type ShopClient } from './helpers/shop.js';
import { insertPublishedEvent } from './helpers/events.js';

/**
 * The plugin's mails and scheduled jobs in a Vendure shop: the adapter hands them to Vendure's job
 * queue, which the example shop runs in its one process (job-queue.test.ts: worker processes); the
 * reference host's outbox sender and job worker (src/lib, shared) send them on the adapter's tables
 * over SMTP to a real server on loopback.
 */
describe("Vendure: the plugin's mails and jobs", function () {
  this.timeout(60_000);
  let client: ShopClient;
  let mailbox: TestMailbox;
  const sentTo = (to: string, template: string) => (mail: ReceivedMail) =>
    mail.envelopeTo.includes(to) && mail.headers.get('x-suite-template') === template;

  const createEvent = (variantId: string, name: string, startsInHours: number) =>
    insertPublishedEvent(client.shop.state.db, client.shop.state.ids.toPlugin(variantId), { name, startsInHours });
  const variantOf = async (slug: string) =>
    (await client.gql('shop-api', `{ product(slug: "${slug}") { variants { id } } }`)).data.product.variants[0]
      .id as string;

  before(async function () {
    this.timeout(240_000);
    mailbox = await startSmtp();
    client = await bootShop({ label: 'vendure_mail', mailerUrl: mailbox.url });
  });

  after(async function () {
    this.timeout(60_000);
    await client?.close();
    await mailbox?.stop();
  });

  it("confirms a Vendure order with an event ticket by mail, naming the participant (the shop's worker sends it over SMTP)", async () => {
    const armVariantId = await variantOf('monitor-arm');
    await createEvent(armVariantId, 'Ergonomics seminar', 20 * 24);
    const buyer = bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    const added = await client.gql(
      'shop-api',
      'mutation ($v: ID!, $p: String) { addItemToOrder(productVariantId: $v, quantity: 1, customFields: { suiteParticipant: $p }) { __typename ... on OrderInterceptorError { interceptorError } } }',
      { v: armVariantId, p: JSON.stringify({ firstName: 'Ann', lastName: 'Example', email: 'ann@example.test' }) },
      buyer,
    );
    expect(added.data.addItemToOrder.__typename, JSON.stringify(added)).to.equal('Order');
    await client.gql(
      'shop-api',
      'mutation { setOrderShippingAddress(input: { fullName: "Demo Company", streetLine1: "Hauptstr. 1", city: "Berlin", postalCode: "10115", countryCode: "DE" }) { __typename } }',
      {},
      buyer,
    );
    const methods = await client.gql('shop-api', '{ eligibleShippingMethods { id } }', {}, buyer);
    await client.gql(
      'shop-api',
      'mutation ($id: [ID!]!) { setOrderShippingMethod(shippingMethodId: $id) { __typename } }',
      { id: [methods.data.eligibleShippingMethods[0].id] },
      buyer,
    );
    const passed = await client.gql(
      'shop-api',
      'mutation { transitionOrderToState(state: "ArrangingPayment") { __typename ... on OrderStateTransitionError { transitionError } } }',
      {},
      buyer,
    );
    expect(passed.data.transitionOrderToState.__typename, JSON.stringify(passed)).to.equal('Order');
    const payment = await client.gql('shop-api', '{ eligiblePaymentMethods { code isEligible } }', {}, buyer);
    const method = payment.data.eligiblePaymentMethods.find((m: { isEligible: boolean }) => m.isEligible)
      .code as string;
    const paid = await client.gql(
      'shop-api',
      'mutation ($m: String!) { addPaymentToOrder(input: { method: $m, metadata: {} }) { __typename ... on Order { code } } }',
      { m: method },
      buyer,
    );
    expect(paid.data.addPaymentToOrder.__typename, JSON.stringify(paid)).to.equal('Order');
    const code = paid.data.addPaymentToOrder.code as string;

    const mail = await mailbox.waitFor(
      (m) => sentTo(DEMO_CUSTOMER.email, 'order-confirmation')(m) && (m.html || '').includes(code),
      20_000,
    );
    expect(mail.html).to.contain('Participant: Ann Example &lt;ann@example.test&gt;');
    expect(mail.text).to.contain(code);
    expect(mail.from?.value[0]).to.deep.include({ name: 'Example shop', address: 'no-reply@localhost' });
    // The worker marks the row once the SMTP server took the mail.
    let state = '';
    for (let i = 0; i < 50 && state !== 'sent'; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      state = (
        await client.shop.state
          .db('suite_host_mail_outbox')
          .where({ template: 'order-confirmation', recipient: DEMO_CUSTOMER.email })
          .first()
      ).state as string;
    }
    expect(state).to.equal('sent');
  });

  it('mails recovery and login links without a storefrontUrl in the request on the configured storefrontUrls (Store API and Shop API)', async () => {
    const storefront = client.shop.state.options.storefrontUrls[0]!;
    const recovery = await client.rest(
      'POST',
      '/store-api/b2b/employee/recovery-password',
      {},
      { email: DEMO_APPROVER.email },
    );
    expect(recovery.status, JSON.stringify(recovery.body)).to.equal(200);
    const recoveryMail = await mailbox.waitFor(sentTo(DEMO_APPROVER.email, 'employee-password-recovery'), 20_000);
    expect(recoveryMail.text).to.contain(`${storefront}/account/employee-recovery/`);

    const asked = await client.gql(
      'shop-api',
      `mutation { requestB2bPasswordlessLogin(input: { email: ${JSON.stringify(DEMO_PURCHASER.email)} }) { success } }`,
    );
    expect(asked.errors, JSON.stringify(asked.errors)).to.equal(undefined);
    const loginMail = await mailbox.waitFor(sentTo(DEMO_PURCHASER.email, 'employee-passwordless-login'), 20_000);
    expect(loginMail.text).to.contain(`${storefront}/account/passwordless-login/`);
  });

  it('a shop without storefrontUrls: recovery, login link and invitation answer 400 SUITE__STOREFRONT_URL_UNKNOWN and mail no link that leads nowhere', async () => {
    const company = bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    const invited = `invited-${newId().slice(0, 8)}@example.test`;
    const recipients = [DEMO_APPROVER.email, DEMO_PURCHASER.email, invited];
    const outbox = async () =>
      Number(
        (await client.shop.state.db('suite_host_mail_outbox').whereIn('recipient', recipients).count({ n: '*' }))[0]!.n,
      );
    const before = await outbox();
    // The shop as configured without the option (the adapter reads the same array on each request).
    const configured = client.shop.state.options.storefrontUrls;
    const saved = configured.splice(0);
    try {
      const recovery = await client.rest(
        'POST',
        '/store-api/b2b/employee/recovery-password',
        {},
        { email: DEMO_APPROVER.email },
      );
      expect(recovery.status, JSON.stringify(recovery.body)).to.equal(400);
      expect(recovery.body.errors[0]).to.include({ code: 'SUITE__STOREFRONT_URL_UNKNOWN' });
      expect(recovery.body.errors[0].source).to.deep.equal({ pointer: '/storefrontUrl' });
      const link = await client.gql(
        'shop-api',
        `mutation { requestB2bPasswordlessLogin(input: { email: ${JSON.stringify(DEMO_PURCHASER.email)} }) { success } }`,
      );
      expect((link.errors?.[0] as { extensions?: unknown } | undefined)?.extensions).to.deep.include({
        code: 'SUITE__STOREFRONT_URL_UNKNOWN',
        status: 400,
      });
      const invitation = await client.rest('POST', '/store-api/create-invitation', company, { email: invited });
      expect(invitation.status, JSON.stringify(invitation.body)).to.equal(400);
      expect(invitation.body.errors[0]).to.include({ code: 'SUITE__STOREFRONT_URL_UNKNOWN' });
    } finally {
      configured.push(...saved);
    }
    expect(await outbox(), 'no mail queued').to.equal(before);
    // Configured again: the same invitation goes out, its link on the storefront.
    const again = await client.rest('POST', '/store-api/create-invitation', company, { email: invited });
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    const mail = await mailbox.waitFor(sentTo(invited, 'employee-invitation'), 20_000);
    expect(mail.text).to.contain(`${saved[0]}/account/employee-invitation/`);
  });

  it('runs a scheduled plugin job (the event reminder) once although several workers run it at the same time (MariaDB: two more with their own pools)', async () => {
    const chairVariantId = await variantOf('office-chair');
    const eventId = await createEvent(chairVariantId, 'Seating workshop', 2);
    const customerId = client.shop.state.ids.toPlugin(
      (await client.shop.state.db('customer').where({ emailAddress: DEMO_CUSTOMER.email }).first('id')).id,
    );
    const email = `remind-${newId().slice(0, 8)}@example.test`;
    await insertParticipant(client.shop.state.db, {
      id: newId(),
      eventId,
      customerId,
      employeeId: null,
      firstName: 'Rita',
      lastName: 'Reminded',
      email,
      status: 'registered',
      waitingPosition: null,
      notes: null,
      createdBy: { type: 'sales-representative', id: null },
    });

    // MariaDB: two more workers with their own pools play two more processes. SQLite has one worker
    // (the shop's, on the adapter's pool of one): it runs twice at once there.
    const pools =
      client.shop.state.dialect === 'mysql' ? [createDb(client.databaseUrl), createDb(client.databaseUrl)] : [];
    try {
      const workers = [client.shop.state.jobs, ...pools.map((db) => createVendureJobs({ ...client.shop.state, db }))];
      // Every worker runs every schedule now (the reminder's included), as processes whose turn came at once.
      // SQLite: one after the other. The shop's job queue (Vendure's, in this process) writes its job records
      // into the same file meanwhile, and two runs at once on the adapter's pool of one stall on the file's lock.
      const all = [...workers, client.shop.state.jobs];
      const ran =
        client.shop.state.dialect === 'sqlite'
          ? [await all[0]!.runDue(), await all[1]!.runDue()]
          : await Promise.all(all.map((worker) => worker.runDue()));
      expect(ran.reduce((a, b) => a + b, 0)).to.be.greaterThan(0);
      const schedule = await client.shop.state
        .db('suite_host_job_schedules')
        .where({ name: EVENT_REMINDER_JOB })
        .first();
      expect(schedule, 'the schedule is recorded').to.not.equal(undefined);
    } finally {
      for (const db of pools) await db.destroy();
    }

    const mail = await mailbox.waitFor(sentTo(email, 'event-reminder'), 20_000);
    expect(mail.subject).to.equal('Reminder: Seating workshop starts soon');
    expect(mail.text).to.contain('Hello Rita Reminded');
    // The shop's own worker polls on: still one reminder after another poll and send.
    await client.shop.state.jobs.runDue();
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(mailbox.messages.filter(sentTo(email, 'event-reminder'))).to.have.length(1);
    expect(await client.shop.state.db('suite_host_mail_outbox').where({ recipient: email })).to.have.length(1);
  });
});
