import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { EVENT_REMINDER_JOB } from '../../../src/plugin/event-manager/index.js';
import { deliverMail, expectError, getShop, testMailbox } from '../../helpers/shop.js';
import { as, createEvent, newCustomer, salesStaff } from './helpers.js';

const HOUR = 3600 * 1000;

async function addParticipants(staffToken: string, eventId: string, count: number) {
  const api = await as(staffToken);
  const people = [];
  for (let i = 0; i < count; i++) {
    const customer = await newCustomer();
    const res = await api.post(`/event-manager/event/${eventId}/participant`, {
      customerId: customer.customer.id,
      firstName: `Pat${i}`,
      lastName: 'Participant',
      email: `pat-${newId().slice(0, 10)}@example.test`,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    people.push(res.body as { id: string; email: string; status: string });
  }
  return people;
}

async function received(to: string, subject: string): Promise<number> {
  return (await testMailbox()).messages.filter((m) => m.envelopeTo.includes(to) && m.subject === subject).length;
}

describe('event manager: circular mails and reminders over SMTP', function () {
  this.timeout(60000);
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('sends a circular mail to every registered and waiting participant, once, even when the request is retried', async () => {
    const staff = await salesStaff();
    const event = await createEvent(staff.token, { participantLimit: 2, waitingList: true });
    const [a, b, waiting, gone] = await addParticipants(staff.token, event.id, 4);
    const api = await as(staff.token);
    await api.post(`/event-manager/participant/${gone!.id}/status`, { status: 'canceled' });
    expect(waiting!.status).to.equal('waiting');

    const subject = `Parking ${newId().slice(0, 6)}`;
    const body = { subject, message: 'Please use the <north> entrance.\nCoffee from 8:30.' };
    const key = `circular-${newId()}`;
    const first = await api.post(`/event-manager/event/${event.id}/circular-mail`, body).set('Idempotency-Key', key);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body).to.include({ eventId: event.id, subject, recipients: 3 });
    expect(first.body.statuses).to.deep.equal(['registered', 'waiting']);
    const retry = await api.post(`/event-manager/event/${event.id}/circular-mail`, body).set('Idempotency-Key', key);
    expect(retry.status).to.equal(200);
    expect(retry.headers['idempotent-replayed']).to.equal('true');
    expect(retry.body).to.deep.equal(first.body);
    const db = (await getShop()).db;
    const rows = await db('mail_outbox')
      .where('dedupe_key', 'like', `event-circular:${first.body.id}:%`)
      .select('recipient');
    expect(rows.map((r) => r.recipient).sort()).to.deep.equal([a!.email, b!.email, waiting!.email].sort());

    await deliverMail();
    const mailbox = await testMailbox();
    for (const person of [a!, b!, waiting!]) {
      const mail = await mailbox.waitFor((m) => m.envelopeTo.includes(person.email) && m.subject === subject);
      expect(mail.text).to.contain('Please use the <north> entrance.');
      expect(mail.html).to.contain('Please use the &lt;north&gt; entrance.');
      expect(mail.text).to.contain(event.name);
      expect(await received(person.email, subject)).to.equal(1);
    }
    expect(await received(gone!.email, subject)).to.equal(0);

    const toCanceled = await api.post(`/event-manager/event/${event.id}/circular-mail`, {
      subject: `${subject} (canceled)`,
      message: 'Sorry to miss you.',
      statuses: ['canceled'],
    });
    expect(toCanceled.body.recipients).to.equal(1);
    await deliverMail();
    await mailbox.waitFor((m) => m.envelopeTo.includes(gone!.email) && m.subject === `${subject} (canceled)`);

    expectError(
      await api.post(`/event-manager/event/${event.id}/circular-mail`, { subject: ' ', message: 'x' }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(
      await api.post(`/event-manager/event/${event.id}/circular-mail`, {
        subject: 'x',
        message: 'x',
        statuses: ['vanished'],
      }),
      400,
      'SUITE__EVENT_PARTICIPANT_STATUS_UNKNOWN',
    );
    expectError(
      await api.post(`/event-manager/event/${event.id}/circular-mail`, { subject: 'x' }),
      400,
      'SUITE__INVALID_INPUT',
    );
  });

  it('reminds registered participants once before the event starts, even with two workers running the job at the same time', async () => {
    const staff = await salesStaff();
    const soon = await createEvent(staff.token, {
      participantLimit: 2,
      waitingList: true,
      startsAt: new Date(Date.now() + 5 * HOUR).toISOString(),
      endsAt: new Date(Date.now() + 8 * HOUR).toISOString(),
    });
    const later = await createEvent(staff.token, {
      startsAt: new Date(Date.now() + 72 * HOUR).toISOString(),
      endsAt: new Date(Date.now() + 80 * HOUR).toISOString(),
    });
    const [first, second, waiting] = await addParticipants(staff.token, soon.id, 3);
    const [notYet] = await addParticipants(staff.token, later.id, 1);
    expect(waiting!.status).to.equal('waiting');

    const shop = await getShop();
    const job = () => shop.jobs.runHandler(EVENT_REMINDER_JOB, {});
    await Promise.all([job(), job()]);
    await shop.jobs.runDue();

    const outbox = await shop
      .db('mail_outbox')
      .where({ template: 'event-reminder' })
      .whereIn('recipient', [first!.email, second!.email, waiting!.email, notYet!.email])
      .select('recipient');
    expect(outbox.map((r) => r.recipient).sort()).to.deep.equal([first!.email, second!.email].sort());
    const stamped = await shop
      .db('b2b_event_participants')
      .whereIn('id', [first!.id, second!.id])
      .whereNotNull('reminder_sent_at')
      .count({ n: '*' })
      .first();
    expect(Number(stamped!.n)).to.equal(2);

    await deliverMail();
    const subject = `Reminder: ${soon.name} starts soon`;
    for (const person of [first!, second!]) {
      const mail = await (
        await testMailbox()
      ).waitFor((m) => m.envelopeTo.includes(person.email) && m.subject === subject);
      expect(mail.text).to.contain(`${soon.name} starts on`);
    }
    await job();
    await deliverMail();
    expect(await received(first!.email, subject)).to.equal(1);
    expect(await received(second!.email, subject)).to.equal(1);
    expect(await received(waiting!.email, subject)).to.equal(0);
  });
});
