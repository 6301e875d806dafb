import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { deliverMail, getShop, http, testMailbox } from '../../helpers/shop.js';
import { createCategory } from '../partial-assortment/fixtures.js';
import { admin } from '../sales-representative/helpers.js';
import {
  as,
  companyWithColleagues,
  createEmployee,
  createEvent,
  createSpecification,
  inDays,
  newCustomer,
  participantsOf,
  salesStaff,
} from './helpers.js';
import { locationOf } from '../../helpers/headers.js';
import { moveClock } from '../../helpers/clock.js';

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

/** A browser-like visitor: keeps cookies, reads the CSRF field from the last page it saw. */
async function visitor() {
  const agent = await http();
  let csrf = '';
  return {
    async get(path: string) {
      const res = await agent.get(path);
      if (csrfOf(res.text)) csrf = csrfOf(res.text);
      return res;
    },
    async post(path: string, form: Record<string, string | string[]>) {
      const res = await agent
        .post(path)
        .type('form')
        .send({ _csrf: csrf, ...form });
      if (csrfOf(res.text)) csrf = csrfOf(res.text);
      return res;
    },
    async login(email: string, password: string) {
      await this.get('/account/login');
      const res = await this.post('/account/login', { email, password, redirect: '/account' });
      expect(res.status, res.text).to.equal(303);
    },
  };
}

describe('event manager: storefront pages', function () {
  this.timeout(60000);
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('shows customers the filterable overview and the detail page; guests go to the login form; drafts and staff pages are closed to them', async () => {
    const staff = await salesStaff();
    const tag = newId().slice(0, 8);
    const format = await createSpecification(staff.token, 'format', `Barcamp ${tag}`);
    const level = await createSpecification(staff.token, 'difficulty_level', `Expert ${tag}`);
    const venue = await createSpecification(staff.token, 'venue', `Venue <${tag}>`);
    const barcamp = await createEvent(staff.token, {
      name: `Barcamp ${tag}`,
      formatId: format.id,
      difficultyLevelId: level.id,
      venueId: venue.id,
      language: 'de',
      participantLimit: 30,
    });
    const talk = await createEvent(staff.token, { name: `Talk ${tag}`, language: 'en' });
    const draft = await createEvent(staff.token, { name: `Draft ${tag}` }, null);

    const guest = await visitor();
    const redirected = await guest.get('/account/events');
    expect(redirected.status).to.equal(302);
    expect(redirected.headers.location).to.equal('/account/login?redirect=%2Faccount%2Fevents');

    const { customer } = await companyWithColleagues(0);
    const browser = await visitor();
    await browser.login(customer.email, customer.password);
    const all = await browser.get(`/account/events?term=${tag}`);
    expect(all.status).to.equal(200);
    expect(all.text).to.contain(`Barcamp ${tag}`).and.to.contain(`Talk ${tag}`).and.not.to.contain(`Draft ${tag}`);
    expect(all.text).to.contain('<a href="/account/events" data-test="all-events">All events</a>');
    expect(all.text).to.contain(`<option value="${format.id}">Barcamp ${tag}</option>`);
    const byFormat = await browser.get(`/account/events?term=${tag}&format=${format.id}&difficulty=&language=`);
    expect(byFormat.text).to.contain(`event-name">Barcamp ${tag}</a>`).and.not.to.contain(`Talk ${tag}`);
    expect(byFormat.text).to.contain(`<option value="${format.id}" selected>`);
    expect((await browser.get(`/account/events?term=${tag}&language=en`)).text)
      .to.contain(`event-name">Talk ${tag}</a>`)
      .and.not.to.contain(`event-name">Barcamp ${tag}</a>`);
    expect((await browser.get(`/account/events?term=${tag}&difficulty=${level.id}`)).text)
      .to.contain(`event-name">Barcamp ${tag}</a>`)
      .and.not.to.contain(`Talk ${tag}`);
    expect((await browser.get('/account/events?format=<script>&term=%27%22')).status).to.equal(200);

    const detail = await browser.get(`/account/events/${barcamp.id}`);
    expect(detail.status).to.equal(200);
    expect(detail.text)
      .to.contain(`Venue &lt;${tag}&gt;`)
      .and.to.contain('30 of 30 free')
      .and.to.contain('data-test="register-form"');
    expect((await browser.get(`/account/events/${draft.id}`)).status).to.equal(404);
    expect((await browser.get('/account/events/not-an-id')).status).to.equal(404);
    expect((await browser.get(`/account/events/${talk.id}`)).status).to.equal(200);

    for (const path of [
      '/account/event-manager',
      '/account/event-manager/create',
      `/account/event-manager/${barcamp.id}/participants`,
      `/account/event-manager/${barcamp.id}/mail`,
      '/account/event-manager/specifications',
    ])
      expect((await browser.get(path)).status, path).to.equal(403);
    const forbiddenPost = await browser.post('/account/event-manager/create', { name: 'Hijack', productNumber: 'x' });
    expect(forbiddenPost.status).to.equal(403);
  });

  it("links 'All events' to the configured URL, else to the configured event category", async () => {
    const adminApi = await admin();
    const before = (await adminApi.get('/_action/plugin-config/suite-b2b')).body;
    const categoryId = (await createCategory()).id;
    const staff = await salesStaff();
    const inCategory = await createEvent(staff.token);
    const elsewhere = await createEvent(staff.token);
    await (
      await getShop()
    )
      .db('product_categories')
      .insert({ product_id: inCategory.productId, category_id: categoryId });
    const { customer } = await companyWithColleagues(0);
    const browser = await visitor();
    await browser.login(customer.email, customer.password);
    // Settings are re-read at most every 2 s per process.
    const settle = () => moveClock(2100);
    try {
      expect(
        (
          await adminApi.patch('/_action/plugin-config/suite-b2b', {
            eventCategoryUrl: null,
            eventCategoryId: categoryId,
          })
        ).status,
      ).to.equal(200);
      settle();
      // Handlebars escapes '=' as &#x3D; (the browser reads it as '=').
      expect((await browser.get('/account/events')).text).to.contain(
        `<a href="/account/events?category&#x3D;${categoryId}" data-test="all-events">`,
      );
      const listed = (await browser.get(`/account/events?category=${categoryId}`)).text;
      expect(listed).to.contain(inCategory.name).and.not.to.contain(elsewhere.name);
      expect(
        (
          await adminApi.patch('/_action/plugin-config/suite-b2b', {
            eventCategoryUrl: 'https://events.example.test/all',
          })
        ).status,
      ).to.equal(200);
      settle();
      expect((await browser.get('/account/events')).text).to.contain(
        '<a href="https://events.example.test/all" data-test="all-events">',
      );
    } finally {
      await adminApi.patch('/_action/plugin-config/suite-b2b', {
        eventCategoryUrl: before.eventCategoryUrl ?? null,
        eventCategoryId: before.eventCategoryId ?? null,
      });
      settle();
    }
  });

  it('offers an employee their colleagues only with employee.read (else just themselves), through the employee list route', async () => {
    const staff = await salesStaff();
    const event = await createEvent(staff.token, { participantLimit: 10 });
    const { customer, employees } = await companyWithColleagues(2);
    const [plain, other] = employees as [(typeof employees)[0], (typeof employees)[0]];
    const reader = await createEmployee(customer.token, { permissions: ['event.register', 'employee.read'] });
    const offered = async (email: string, password: string) => {
      const browser = await visitor();
      await browser.login(email, password);
      const detail = await browser.get(`/account/events/${event.id}`);
      return [...detail.text.matchAll(/data-test="register-colleague" data-email="([^"]+)"/g)].map((m) => m[1]);
    };
    expect(await offered(plain.email, plain.password)).to.deep.equal([plain.email]);
    expect(await offered(reader.email, reader.password)).to.have.members([plain.email, other.email, reader.email]);
  });

  it('registers colleagues with the form, checks out and lists the company participants', async () => {
    const staff = await salesStaff();
    const event = await createEvent(staff.token, { participantLimit: 10 });
    const { customer, employees } = await companyWithColleagues(2);
    const browser = await visitor();
    await browser.login(customer.email, customer.password);
    const detail = await browser.get(`/account/events/${event.id}`);
    for (const employee of employees) expect(detail.text).to.contain(`value="${employee.id}"`);

    const nothing = await browser.post(`/account/events/${event.id}/register`, {});
    expect(nothing.status).to.equal(400);
    expect(nothing.text).to.contain('Choose at least one participant.');
    const badGuest = await browser.post(`/account/events/${event.id}/register`, { guestFirstName: 'Half' });
    expect(badGuest.status).to.equal(400);
    expect(badGuest.text).to.contain('data-test="register-error"');

    const added = await browser.post(`/account/events/${event.id}/register`, {
      employeeId: employees.map((e) => e.id),
      self: 'on',
    });
    expect(added.status, added.text).to.equal(303);
    expect(added.headers.location).to.equal('/account/events/checkout');
    const checkout = await browser.get('/account/events/checkout');
    expect(checkout.text.match(/data-test="checkout-line"/g)).to.have.length(3);
    for (const employee of employees) expect(checkout.text).to.contain(`Erin Employee (${employee.email})`);

    const ordered = await browser.post('/account/events/checkout', {});
    expect(ordered.status, ordered.text).to.equal(303);
    expect(ordered.headers.location).to.match(/^\/account\/events\/participants\?ordered=/);
    const participants = await browser.get(locationOf(ordered));
    expect(participants.text).to.contain('data-test="ordered"');
    expect(participants.text.match(/data-test="participant"/g)).to.have.length(3);
    expect((await participantsOf(event.id)).map((p) => p.status)).to.deep.equal([
      'registered',
      'registered',
      'registered',
    ]);
    const again = await browser.post('/account/events/checkout', {});
    expect(again.status).to.equal(400);
    expect(again.text).to.contain('data-test="checkout-error"');

    // Another company never sees these participants.
    const other = await newCustomer();
    const stranger = await visitor();
    await stranger.login(other.email, other.password);
    const theirs = await stranger.get('/account/events/participants');
    expect(theirs.status).to.equal(200);
    expect(theirs.text).not.to.contain(customer.email);
    expect(theirs.text).not.to.contain(employees[0]!.email);
  });

  it('lets sales staff create an event (redirect to the management page), set its status, manage participants and send a circular mail once', async () => {
    const staff = await salesStaff();
    const product = (await createEvent(staff.token, {}, null)).product;
    const speaker = await createSpecification(staff.token, 'speaker', `Speaker ${newId().slice(0, 6)}`);
    const browser = await visitor();
    await browser.login(staff.email, staff.password);

    const form = await browser.get('/account/event-manager/create');
    expect(form.status).to.equal(200);
    expect(form.text).to.contain(`value="${speaker.id}"`);
    const name = `Storefront event ${newId().slice(0, 6)}`;
    const fields = {
      name,
      productNumber: product.number,
      language: 'en',
      startsAt: inDays(20).slice(0, 16),
      endsAt: inDays(21).slice(0, 16),
      participantLimit: '1',
      waitingList: 'on',
      speakerIds: [speaker.id],
      description: 'From the form',
    };
    const invalid = await browser.post('/account/event-manager/create', { ...fields, endsAt: inDays(19).slice(0, 16) });
    expect(invalid.status).to.equal(400);
    expect(invalid.text).to.contain('An event must end after it starts.').and.to.contain(`value="${name}"`);
    expect(
      (await browser.post('/account/event-manager/create', { ...fields, participantLimit: 'many' })).status,
    ).to.equal(400);
    const unknownProduct = await browser.post('/account/event-manager/create', {
      ...fields,
      productNumber: 'NO-SUCH-NUMBER',
    });
    expect(unknownProduct.status).to.equal(400);
    expect(unknownProduct.text, 'the route refuses it, naming the field').to.contain(
      'There is no product with this product number. (productNumber)',
    );
    const noProduct = await browser.post('/account/event-manager/create', { ...fields, productNumber: '' });
    expect(noProduct.status).to.equal(400);
    expect(noProduct.text).to.contain('(productNumber)').and.to.contain(`value="${name}"`);

    const created = await browser.post('/account/event-manager/create', fields);
    expect(created.status, created.text).to.equal(303);
    const eventId = /created=([0-9a-f]{32})$/.exec(locationOf(created))![1]!;
    expect(created.headers.location).to.equal(`/account/event-manager?created=${eventId}`);
    const management = await browser.get(locationOf(created));
    expect(management.text).to.contain(`The event “${name}” was created as a draft.`);
    const view = (await (await as(staff.token)).get(`/event-manager/event/${eventId}`)).body;
    expect(view).to.include({
      name,
      status: 'draft',
      participantLimit: 1,
      waitingList: true,
      description: 'From the form',
      language: 'en',
    });
    expect(view.speakers.map((s: { id: string }) => s.id)).to.deep.equal([speaker.id]);
    expect(view.startsAt, 'the time the form sent (recomputing it could cross a minute)').to.equal(
      `${fields.startsAt}:00.000Z`,
    );

    expect((await browser.post(`/account/event-manager/${eventId}/status`, { status: 'bogus' })).status).to.equal(400);
    const published = await browser.post(`/account/event-manager/${eventId}/status`, { status: 'published' });
    expect(published.status).to.equal(303);
    expect((await browser.get(locationOf(published))).text).to.contain(`${name}: published`);

    const first = await newCustomer();
    const second = await newCustomer();
    await browser.get(`/account/event-manager/${eventId}/participants`);
    expect(
      (await browser.post(`/account/event-manager/${eventId}/participants`, { customerEmail: first.email })).status,
    ).to.equal(303);
    expect(
      (await browser.post(`/account/event-manager/${eventId}/participants`, { customerEmail: second.email })).status,
    ).to.equal(303);
    const unknown = await browser.post(`/account/event-manager/${eventId}/participants`, {
      customerEmail: 'nobody@example.test',
    });
    expect(unknown.status).to.equal(400);
    expect(unknown.text, 'the route refuses it, naming the field').to.contain(
      'There is no customer with this e-mail address. (customerEmail)',
    );
    const page = await browser.get(`/account/event-manager/${eventId}/participants`);
    expect(page.text).to.contain(first.email).and.to.contain(second.email);
    const rows = await participantsOf(eventId);
    expect(rows.map((r) => [r.email, r.status])).to.deep.equal([
      [first.email, 'registered'],
      [second.email, 'waiting'],
    ]);

    const edited = await browser.post(`/account/event-manager/participant/${rows[0]!.id}`, {
      firstName: 'Frida',
      lastName: 'First',
      email: first.email,
      notes: 'Vegetarian',
      documentName: 'Certificate',
      documentUrl: 'https://docs.example.test/c.pdf',
      documentNote: '',
    });
    expect(edited.status, edited.text).to.equal(303);
    const editPage = await browser.get(`/account/event-manager/participant/${rows[0]!.id}`);
    expect(editPage.text)
      .to.contain('<a href="https://docs.example.test/c.pdf">Certificate</a>')
      .and.to.contain('Vegetarian');
    expect(
      (
        await browser.post(`/account/event-manager/participant/${rows[0]!.id}`, {
          firstName: 'Frida',
          lastName: 'First',
          email: first.email,
          documentName: 'Bad',
          documentUrl: 'javascript:alert(1)',
        })
      ).status,
    ).to.equal(400);

    const canceled = await browser.post(`/account/event-manager/participant/${rows[0]!.id}/status`, {
      status: 'canceled',
    });
    expect(canceled.status).to.equal(303);
    expect((await participantsOf(eventId)).map((r) => [r.email, r.status])).to.deep.equal([
      [first.email, 'canceled'],
      [second.email, 'registered'],
    ]);

    const mailForm = await browser.get(`/account/event-manager/${eventId}/mail`);
    const mailingKey = /name="mailingKey" value="([0-9a-f]{32})"/.exec(mailForm.text)![1]!;
    const message = { subject: 'Room change', message: 'We moved to room 4.', mailingKey };
    const sent = await browser.post(`/account/event-manager/${eventId}/mail`, message);
    expect(sent.status).to.equal(303);
    expect(sent.headers.location).to.equal(`/account/event-manager/${eventId}/participants?mailed=1`);
    expect(
      (await browser.post(`/account/event-manager/${eventId}/mail`, message)).headers.location,
      'a resubmitted form sends nothing again',
    ).to.equal(`/account/event-manager/${eventId}/participants?mailed=1`);
    const db = (await getShop()).db;
    const circulars = await db('b2b_event_circular_mails').where({ event_id: eventId }).select('id');
    expect(circulars).to.have.length(1);
    expect(
      await db('mail_outbox').where('dedupe_key', 'like', `event-circular:${circulars[0]!.id}:%`).select('recipient'),
    ).to.deep.equal([{ recipient: second.email }]);
    expect(
      (await browser.post(`/account/event-manager/${eventId}/mail`, { subject: '', message: 'x', mailingKey: newId() }))
        .status,
    ).to.equal(400);

    const specs = await browser.post('/account/event-manager/specifications', {
      type: 'venue',
      name: `Room ${eventId.slice(0, 4)}`,
    });
    expect(specs.status).to.equal(303);
    expect((await browser.get('/account/event-manager/specifications')).text).to.contain(`Room ${eventId.slice(0, 4)}`);
  });

  it('sends the circular mail form once over SMTP when it is posted twice with the same token, and shows how many it went to', async () => {
    const staff = await salesStaff();
    const event = await createEvent(staff.token);
    const api = await as(staff.token);
    const people: string[] = [];
    for (let i = 0; i < 2; i++) {
      const email = `circ-${newId().slice(0, 10)}@example.test`;
      const res = await api.post(`/event-manager/event/${event.id}/participant`, {
        customerId: (await newCustomer()).customer.id,
        firstName: `Circ${i}`,
        lastName: 'Participant',
        email,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      people.push(email);
    }
    const browser = await visitor();
    await browser.login(staff.email, staff.password);
    const form = await browser.get(`/account/event-manager/${event.id}/mail`);
    const mailingKey = /name="mailingKey" value="([0-9a-f]{32})"/.exec(form.text)![1]!;
    const subject = `Doors open ${newId().slice(0, 6)}`;
    const message = { subject, message: 'Doors open at 8:30.', mailingKey };
    const [first, second] = [
      await browser.post(`/account/event-manager/${event.id}/mail`, message),
      await browser.post(`/account/event-manager/${event.id}/mail`, message),
    ];
    for (const sent of [first, second]) {
      expect(sent.status, sent.text).to.equal(303);
      expect(sent.headers.location).to.equal(`/account/event-manager/${event.id}/participants?mailed=2`);
    }
    expect((await browser.get(first.headers.location!)).text).to.contain('The circular mail goes to 2 participants.');
    const db = (await getShop()).db;
    const circulars = await db('b2b_event_circular_mails').where({ event_id: event.id }).count({ n: '*' }).first();
    expect(Number(circulars!.n), 'one circular for two posts of the form').to.equal(1);

    await deliverMail();
    const mailbox = await testMailbox();
    for (const email of people) await mailbox.waitFor((m) => m.envelopeTo.includes(email) && m.subject === subject);
    await deliverMail();
    for (const email of people)
      expect(
        (await testMailbox()).messages.filter((m) => m.envelopeTo.includes(email) && m.subject === subject),
        `one mail to ${email}`,
      ).to.have.length(1);

    const edited = await browser.post(`/account/event-manager/${event.id}/mail`, {
      ...message,
      message: 'Doors open at 9:00.',
    });
    expect(edited.status, 'the same form sent with another text is refused on the form').to.equal(400);
    expect(edited.text).to.contain('This form was already sent with another text.');
    expect(/name="mailingKey" value="([0-9a-f]{32})"/.exec(edited.text)![1]).not.to.equal(mailingKey);

    const empty = await browser.post(`/account/event-manager/${event.id}/mail`, {
      subject: '',
      message: 'x',
      mailingKey: newId(),
    });
    expect(empty.status).to.equal(400);
    expect(empty.text).to.contain('data-test="mail-error"').and.to.contain('(subject)');
  });
});
