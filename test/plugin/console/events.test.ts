import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { newId } from '../../../src/lib/ids.js';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { insertProduct } from '../../helpers/checkout.js';
import { getShop, login } from '../../helpers/shop.js';
import { as, createEvent, newCustomer, salesStaff } from '../event-manager/helpers.js';
import { receiveMail } from '../employee/helpers.js';
import { axeFindings, consolePage, SCREENSHOTS } from './browser-helpers.js';
import { CONSOLE, loginOperator } from './helpers.js';

const inDaysLocal = (days: number, hour = 9) =>
  `${new Date(Date.now() + days * 86400000).toISOString().slice(0, 10)}T${String(hour).padStart(2, '0')}:00`;

/** The names in a logged-in customer's storefront event overview (the Store API's searchEvents). */
async function overviewNames(token: string, term: string): Promise<string[]> {
  const res = await (await as(token)).post('/events', { term });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return (res.body.elements as Array<{ name: string }>).map((event) => event.name);
}

/** A published event with a limit of one seat and a waiting list: one registered, one waiting. */
async function fullEvent() {
  const staff = await salesStaff();
  const event = await createEvent(staff.token, {
    name: `Workshop ${newId().slice(0, 6)}`,
    participantLimit: 1,
    waitingList: true,
  });
  const customer = await newCustomer();
  const people = [];
  for (const firstName of ['Sitting', 'Waiting']) {
    const email = `${firstName.toLowerCase()}-${newId().slice(0, 8)}@example.test`;
    const res = await (
      await as(staff.token)
    ).post(`/event-manager/event/${event.id}/participant`, {
      customerId: customer.customer.id,
      firstName,
      lastName: 'Person',
      email,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    people.push({ id: res.body.id as string, email, status: res.body.status as string });
  }
  expect(people.map((p) => p.status)).to.deep.equal(['registered', 'waiting']);
  return { event, people };
}

describe('console: events', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('creates a draft (a bad product number is named next to its field), publishes it, and the event appears in the storefront’s overview', async () => {
    const operator = await loginOperator();
    const product = await insertProduct({ stock: 100, name: 'Ticket console' });
    const name = `Console seminar ${newId().slice(0, 6)}`;
    const form = {
      name,
      productNumber: 'NO-SUCH-TICKET',
      language: 'en',
      startsAt: inDaysLocal(20),
      endsAt: inDaysLocal(20, 17),
      participantLimit: '20',
      waitingList: 'on',
    };
    const bad = await operator.post('/events/create', form);
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('There is no product with the number &quot;NO-SUCH-TICKET&quot;.');
    expect(bad.text).to.contain(`value="${name}"`);
    const ends = await operator.post('/events/create', { ...form, productNumber: product.number, endsAt: 'tomorrow' });
    expect(ends.text).to.contain('data-test="field-error-endsAt"');

    const created = await operator.post('/events/create', { ...form, productNumber: product.number });
    expect(created.status).to.equal(303);
    const eventPath = created.headers.location as string;
    expect((await operator.agent.get(eventPath)).text).to.contain('data-test="event-status">draft');

    const { email, password } = await newCustomer();
    const token = await login(email, password);
    expect(await overviewNames(token, name)).to.deep.equal([]);
    expect((await operator.post(`${eventPath.slice(CONSOLE.length)}/status`, { status: 'published' })).status).to.equal(
      303,
    );
    const page = await operator.agent.get(eventPath);
    expect(page.text).to.contain('The event is published');
    expect(page.text).to.contain('data-test="event-status">published');
    expect(await overviewNames(token, name)).to.deep.equal([name]);
    expect((await operator.agent.get(`${CONSOLE}/events?status=published`)).text).to.contain(name);
  });

  it('checks a participant in, cancels one so the waiting list moves up, and sends a circular mail to each participant', async () => {
    const { event, people } = await fullEvent();
    const operator = await loginOperator();
    const eventPath = `/events/${event.id}`;
    let page = await operator.agent.get(`${CONSOLE}${eventPath}`);
    expect(page.text).to.contain('data-test="waiting-list"');
    expect(page.text).to.contain(people[1]!.email);

    expect(
      (await operator.post(`${eventPath}/participants/${people[0]!.id}/status`, { status: 'participated' })).status,
    ).to.equal(303);
    page = await operator.agent.get(`${CONSOLE}${eventPath}`);
    expect(page.text).to.contain('Sitting Person is checked in.');
    expect((await (await getShop()).db('b2b_event_participants').where({ id: people[0]!.id }).first()).status).to.equal(
      'participated',
    );

    expect(
      (await operator.post(`${eventPath}/participants/${people[0]!.id}/status`, { status: 'canceled' })).status,
    ).to.equal(303);
    const statuses = await (
      await getShop()
    )
      .db('b2b_event_participants')
      .whereIn(
        'id',
        people.map((p) => p.id),
      )
      .orderBy('first_name')
      .pluck('status');
    expect(statuses).to.deep.equal(['canceled', 'registered']);
    expect((await operator.agent.get(`${CONSOLE}${eventPath}`)).text).to.contain('Nobody is waiting.');

    const empty = await operator.post(`${eventPath}/circular-mail`, { subject: 'Room change', message: '' });
    expect(empty.status).to.equal(400);
    expect(empty.text).to.contain('data-test="field-error-message"');
    expect(empty.text).to.contain('value="Room change"');
    const sent = await operator.post(`${eventPath}/circular-mail`, {
      subject: 'Room change',
      message: 'We meet in room 2.',
    });
    expect(sent.status).to.equal(303);
    expect((await operator.agent.get(sent.headers.location as string)).text).to.contain(
      'The circular mail is on its way to 1 participant(s).',
    );
    expect((await receiveMail(people[1]!.email, 'Room change')).text).to.contain('We meet in room 2.');
  });

  it('a read-only operator sees the event but cannot publish it', async () => {
    const staff = await salesStaff();
    const event = await createEvent(staff.token, {}, null);
    const reader = await loginOperator(true);
    expect((await reader.agent.get(`${CONSOLE}/events/${event.id}`)).status).to.equal(200);
    const refused = await reader.post(`/events/${event.id}/status`, { status: 'published' });
    expect(refused.status).to.equal(403);
    expect((await (await getShop()).db('b2b_events').where({ id: event.id }).first()).status).to.equal('draft');
  });
});

describe('console in Chromium: events', function () {
  this.timeout(120000);
  let harness: BrowserHarness;

  before(async function () {
    harness = await startBrowser(this);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await harness?.close();
  });

  it('an operator creates and publishes an event and checks a participant in; axe finds nothing serious', async () => {
    const product = await insertProduct({ stock: 100, name: 'Ticket browser' });
    const { event, people } = await fullEvent();
    const page = await consolePage(harness.browser);
    const problems: string[] = [];
    await page.click('nav.menu a:has-text("Events")');
    problems.push(...(await axeFindings(page)));
    const name = `Browser seminar ${newId().slice(0, 6)}`;
    await page.fill('#name', name);
    await page.fill('#productNumber', product.number);
    await page.fill('#startsAt', inDaysLocal(30));
    await page.fill('#endsAt', inDaysLocal(30, 16));
    await page.click('[data-test=create-event]');
    expect(await page.textContent('[data-test=event-status]')).to.equal('draft');
    await page.selectOption('#event-status-select', 'published');
    await page.click('[data-test=set-event-status]');
    expect(await page.textContent('[data-test=notice]')).to.contain('The event is published');
    problems.push(...(await axeFindings(page)));

    await page.goto(`http://shop.test${CONSOLE}/events/${event.id}`);
    await page
      .locator('[data-test=participant-row]', { hasText: people[0]!.email })
      .locator('[data-test=check-in]')
      .click();
    expect(await page.textContent('[data-test=notice]')).to.contain('checked in');
    expect(
      await page
        .locator('[data-test=participant-row]', { hasText: people[0]!.email })
        .locator('[data-test=participant-status]')
        .textContent(),
    ).to.equal('participated');
    problems.push(...(await axeFindings(page)));
    await page.screenshot({ path: `${SCREENSHOTS}/event.png`, fullPage: true });
    await page.context().close();
    expect(problems).to.deep.equal([]);
  });
});
