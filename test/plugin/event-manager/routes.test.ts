import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { expectError, getShop, http } from '../../helpers/shop.js';
import { assign, createRule, KINDS } from '../partial-assortment/fixtures.js';
import { admin } from '../sales-representative/helpers.js';
import {
  as,
  companyWithColleagues,
  createEmployee,
  createEvent,
  createSpecification,
  inDays,
  loginAs,
  newCustomer,
  salesStaff,
} from './helpers.js';

const PRODUCT_KIND = KINDS.find((k) => k.segment === 'product')!;

describe('event manager: Store API and Admin API routes', function () {
  this.timeout(60000);
  before(async function () {
    // The first use migrates a fresh database, which takes a while on MariaDB.
    this.timeout(180000);
    await getShop();
  });

  describe('events (sales staff)', () => {
    it('creates an event in draft with its specifications, reads, changes, lists, publishes and deletes it', async () => {
      const staff = await salesStaff();
      const api = await as(staff.token);
      const format = await createSpecification(staff.token, 'format', 'Workshop');
      const level = await createSpecification(staff.token, 'difficulty_level', 'Advanced');
      const venue = await createSpecification(staff.token, 'venue', 'Hamburg, Hall 3');
      const speakerA = await createSpecification(staff.token, 'speaker', 'Dr. Ada');
      const speakerB = await createSpecification(staff.token, 'speaker', 'Bo Builder');
      const { body: created, product } = await createEvent(
        staff.token,
        {
          formatId: format.id,
          difficultyLevelId: level.id,
          venueId: venue.id,
          speakerIds: [speakerB.id, speakerA.id],
          participantLimit: 12,
          waitingList: true,
          description: 'Hands on.',
          registrationDeadline: inDays(9),
        },
        null,
      );
      expect(created).to.include({
        productId: product.id,
        language: 'en',
        status: 'draft',
        participantLimit: 12,
        waitingList: true,
        description: 'Hands on.',
        registrationOpen: false,
        registeredCount: 0,
        waitingCount: 0,
        freeSeats: 12,
      });
      expect(created.format).to.include({ id: format.id, type: 'format', name: 'Workshop' });
      expect(created.difficultyLevel.name).to.equal('Advanced');
      expect(created.venue.name).to.equal('Hamburg, Hall 3');
      expect(created.speakers.map((s: { name: string }) => s.name)).to.deep.equal(['Bo Builder', 'Dr. Ada']);
      expect(created.productName).to.equal(product.name);

      expect((await api.get(`/event-manager/event/${created.id}`)).body).to.deep.equal(created);
      const patched = await api.patch(`/event-manager/event/${created.id}`, {
        name: 'Renamed workshop',
        participantLimit: 20,
        speakerIds: [speakerA.id],
        venueId: null,
      });
      expect(patched.status).to.equal(200);
      expect(patched.body).to.include({ name: 'Renamed workshop', participantLimit: 20, freeSeats: 20 });
      expect(patched.body.venue).to.equal(null);
      expect(patched.body.speakers.map((s: { id: string }) => s.id)).to.deep.equal([speakerA.id]);

      const listed = await api.post('/event-manager/events', {
        filter: [{ type: 'equals', field: 'formatId', value: format.id }],
      });
      expect(listed.status).to.equal(200);
      expect(listed.body.total).to.equal(1);
      expect(listed.body.elements[0].id).to.equal(created.id);
      const bySpeaker = await api.post('/event-manager/events', {
        filter: [{ type: 'equals', field: 'speakerId', value: speakerA.id }],
        term: 'Renamed',
      });
      expect(bySpeaker.body.elements.map((e: { id: string }) => e.id)).to.deep.equal([created.id]);

      const published = await api.post(`/event-manager/event/${created.id}/status`, { status: 'published' });
      expect(published.body).to.include({ status: 'published', registrationOpen: true });

      const options = await api.get('/event-manager/options');
      expect(options.body.languages).to.deep.equal(['de', 'en']);
      expect(options.body.eventStatuses).to.include.members(['draft', 'published', 'closed', 'canceled', 'completed']);
      expect(options.body.registrationStatuses).to.deep.equal(['published']);
      expect(
        options.body.participantStatuses.map((s: { technicalName: string }) => s.technicalName),
      ).to.include.members(['registered', 'waiting', 'excluded', 'canceled', 'not_participated', 'participated']);

      expect((await api.delete(`/event-manager/event/${created.id}`)).status).to.equal(204);
      expectError(await api.get(`/event-manager/event/${created.id}`), 404, 'SUITE__NOT_FOUND');
    });

    it('refuses invalid events with 400 and the field that is wrong', async () => {
      const staff = await salesStaff();
      const api = await as(staff.token);
      const { product, id } = await createEvent(staff.token, {}, null);
      const venue = await createSpecification(staff.token, 'venue');
      const base = { productId: product.id, name: 'Bad', language: 'en', startsAt: inDays(5), endsAt: inDays(6) };
      expect(
        expectError(
          await api.post('/event-manager/event', { ...base, productId: newId() }),
          400,
          'SUITE__EVENT_PRODUCT_NOT_FOUND',
        ).source?.pointer,
      ).to.equal('/productId');
      const { productId: _omitted, ...withoutProduct } = base;
      expect(
        expectError(
          await api.post('/event-manager/event', { ...withoutProduct, productNumber: `NO-${newId()}` }),
          400,
          'SUITE__EVENT_PRODUCT_NOT_FOUND',
        ).source?.pointer,
      ).to.equal('/productNumber');
      expect(
        expectError(await api.post('/event-manager/event', withoutProduct), 400, 'SUITE__INVALID_INPUT').source
          ?.pointer,
      ).to.equal('/productId');
      expectError(
        await api.post('/event-manager/event', { ...base, productNumber: product.number }),
        400,
        'SUITE__INVALID_INPUT',
      );
      const byNumber = await api.post('/event-manager/event', { ...withoutProduct, productNumber: product.number });
      expect(byNumber.status, JSON.stringify(byNumber.body)).to.equal(200);
      expect(byNumber.body.productId).to.equal(product.id);
      expect(
        expectError(
          await api.post('/event-manager/event', { ...base, language: 'fr' }),
          400,
          'SUITE__EVENT_LANGUAGE_NOT_AVAILABLE',
        ).source?.pointer,
      ).to.equal('/language');
      expect(
        expectError(
          await api.post('/event-manager/event', { ...base, endsAt: inDays(4) }),
          400,
          'SUITE__EVENT_INVALID_DATES',
        ).source?.pointer,
      ).to.equal('/endsAt');
      expectError(
        await api.post('/event-manager/event', { ...base, registrationDeadline: inDays(7) }),
        400,
        'SUITE__EVENT_INVALID_DATES',
      );
      expect(
        expectError(
          await api.post('/event-manager/event', { ...base, formatId: venue.id }),
          400,
          'SUITE__EVENT_SPECIFICATION_INVALID',
        ).source?.pointer,
      ).to.equal('/formatId');
      expectError(
        await api.post('/event-manager/event', { ...base, speakerIds: [venue.id] }),
        400,
        'SUITE__EVENT_SPECIFICATION_INVALID',
      );
      expectError(await api.post('/event-manager/event', { ...base, name: undefined }), 400, 'SUITE__INVALID_INPUT');
      expectError(
        await api.post('/event-manager/event', { ...base, participantLimit: 0 }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await api.post('/event-manager/event', { ...base, startsAt: 'tomorrow' }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await api.post('/event-manager/event', { ...base, startsAt: '0500-01-01T00:00:00Z' }),
        400,
        'SUITE__EVENT_INVALID_DATES',
      );
      const longText = '🎉'.repeat(20000);
      const roomy = await api.post('/event-manager/event', { ...base, description: longText });
      expect(roomy.status, 'long descriptions in four-byte characters fit').to.equal(200);
      expect(roomy.body.description).to.equal(longText);
      expectError(await api.post('/event-manager/event', { ...base, surprise: true }), 400, 'SUITE__INVALID_INPUT');
      expectError(await api.patch(`/event-manager/event/${id}`, {}), 400, 'SUITE__INVALID_INPUT');
      expectError(
        await api.post(`/event-manager/event/${id}/status`, { status: 'bogus' }),
        400,
        'SUITE__EVENT_STATUS_UNKNOWN',
      );
      expectError(await api.post('/event-manager/events', { limit: 501 }), 400);
      expectError(
        await api.post('/event-manager/events', { filter: [{ type: 'equals', field: 'secret', value: 1 }] }),
        400,
      );
      expectError(await api.get('/event-manager/event/not-an-id'), 400);
    });

    it('answers 401 without a login, 403 to customers and employees, 404 for unknown ids', async () => {
      const staff = await salesStaff();
      const { id } = await createEvent(staff.token);
      const customer = await newCustomer();
      const employee = await createEmployee(customer.token, { permissions: ['event.register', 'orders.create'] });
      const employeeToken = await loginAs(employee.email, employee.password);
      const anonymous = await as(null);
      expectError(await anonymous.post('/event-manager/events', {}), 401);
      expectError(await anonymous.post('/events', {}), 401);
      for (const token of [customer.token, employeeToken]) {
        const api = await as(token);
        expectError(await api.post('/event-manager/events', {}), 403, 'SUITE__SALES_REPRESENTATIVE_ONLY');
        expectError(
          await api.post('/event-manager/event', {
            productId: newId(),
            name: 'x',
            language: 'en',
            startsAt: inDays(1),
            endsAt: inDays(2),
          }),
          403,
          'SUITE__SALES_REPRESENTATIVE_ONLY',
        );
        expectError(await api.get(`/event-manager/event/${id}`), 403);
        expectError(await api.patch(`/event-manager/event/${id}`, { name: 'Taken over' }), 403);
        expectError(await api.delete(`/event-manager/event/${id}`), 403);
        expectError(await api.post(`/event-manager/event/${id}/status`, { status: 'draft' }), 403);
        expectError(await api.post(`/event-manager/event/${id}/participants`, {}), 403);
        expectError(
          await api.post(`/event-manager/event/${id}/participant`, { customerId: customer.customer.id }),
          403,
        );
        expectError(
          await api.post(`/event-manager/event/${id}/circular-mail`, { subject: 'Hi', message: 'Spam' }),
          403,
        );
        expectError(await api.post('/event-manager/specification', { type: 'format', name: 'x' }), 403);
        expectError(await api.get('/event-manager/participant-statuses'), 403);
      }
      expect((await (await as(staff.token)).get(`/event-manager/event/${id}`)).body.status).to.equal('published');

      const api = await as(staff.token);
      const unknown = newId();
      expectError(await api.get(`/event-manager/event/${unknown}`), 404);
      expectError(await api.patch(`/event-manager/event/${unknown}`, { name: 'x' }), 404);
      expectError(await api.delete(`/event-manager/event/${unknown}`), 404);
      expectError(await api.post(`/event-manager/event/${unknown}/status`, { status: 'published' }), 404);
      expectError(await api.post(`/event-manager/event/${unknown}/participants`, {}), 404);
      expectError(
        await api.post(`/event-manager/event/${unknown}/participant`, { customerId: customer.customer.id }),
        404,
      );
      expectError(
        await api.post(`/event-manager/event/${unknown}/circular-mail`, { subject: 'Hi', message: 'There' }),
        404,
      );
      expectError(await api.get(`/event-manager/participant/${unknown}`), 404);
      expectError(await api.patch(`/event-manager/participant/${unknown}`, { notes: 'x' }), 404);
      expectError(await api.post(`/event-manager/participant/${unknown}/status`, { status: 'canceled' }), 404);
      expectError(await api.patch(`/event-manager/specification/${unknown}`, { name: 'x' }), 404);
      expectError(await api.delete(`/event-manager/specification/${unknown}`), 404);
    });
  });

  describe('event specifications (sales staff)', () => {
    it('creates, lists by type, renames and deletes; one in use cannot be deleted', async () => {
      const staff = await salesStaff();
      const api = await as(staff.token);
      const created = await api.post('/event-manager/specification', {
        type: 'speaker',
        name: 'Grace Hopper',
        description: 'Compilers',
        position: 3,
      });
      expect(created.status).to.equal(200);
      expect(created.body).to.include({ type: 'speaker', name: 'Grace Hopper', description: 'Compilers', position: 3 });
      const listed = await api.post('/event-manager/specifications', {
        filter: [{ type: 'equals', field: 'type', value: 'speaker' }],
        term: 'Grace Hopper',
      });
      expect(listed.body.elements.map((s: { id: string }) => s.id)).to.include(created.body.id);
      expect(listed.body.elements.every((s: { type: string }) => s.type === 'speaker')).to.equal(true);
      const renamed = await api.patch(`/event-manager/specification/${created.body.id}`, {
        name: 'Rear Admiral Hopper',
        description: null,
      });
      expect(renamed.body).to.include({ name: 'Rear Admiral Hopper', description: null });

      await createEvent(staff.token, { speakerIds: [created.body.id] }, null);
      expectError(
        await api.delete(`/event-manager/specification/${created.body.id}`),
        400,
        'SUITE__EVENT_SPECIFICATION_IN_USE',
      );
      const unused = await createSpecification(staff.token, 'format');
      expect((await api.delete(`/event-manager/specification/${unused.id}`)).status).to.equal(204);
      expectError(
        await api.post('/event-manager/specification', { type: 'catering', name: 'Cake' }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await api.post('/event-manager/specification', { type: 'venue', name: '   ' }),
        400,
        'SUITE__INVALID_INPUT',
      );
    });
  });

  describe('participants (sales staff)', () => {
    it('adds a customer named by its login e-mail address, and names the field of an unknown or missing customer', async () => {
      const staff = await salesStaff();
      const api = await as(staff.token);
      const { id } = await createEvent(staff.token);
      const { customer } = await companyWithColleagues(0);
      const added = await api.post(`/event-manager/event/${id}/participant`, { customerEmail: customer.email });
      expect(added.status, JSON.stringify(added.body)).to.equal(200);
      expect(added.body).to.include({ customerId: customer.customer.id, email: customer.email });
      const unknown = expectError(
        await api.post(`/event-manager/event/${id}/participant`, { customerEmail: 'nobody@example.test' }),
        400,
        'SUITE__EVENT_CUSTOMER_NOT_FOUND',
      );
      expect(unknown.source?.pointer).to.equal('/customerEmail');
      const missing = expectError(
        await api.post(`/event-manager/event/${id}/participant`, {}),
        400,
        'SUITE__INVALID_INPUT',
      );
      expect(missing.source?.pointer).to.equal('/customerId');
      expectError(
        await api.post(`/event-manager/event/${id}/participant`, {
          customerId: customer.customer.id,
          customerEmail: customer.email,
        }),
        400,
        'SUITE__INVALID_INPUT',
      );
    });

    it('adds a customer, one of its employees and a named person manually, edits data and documents, sets statuses', async () => {
      const staff = await salesStaff();
      const api = await as(staff.token);
      const { id } = await createEvent(staff.token, { participantLimit: 2, waitingList: true });
      const { customer, employees } = await companyWithColleagues(1);

      const own = await api.post(`/event-manager/event/${id}/participant`, {
        customerId: customer.customer.id,
        notes: 'VIP',
      });
      expect(own.status, JSON.stringify(own.body)).to.equal(200);
      expect(own.body).to.include({
        eventId: id,
        customerId: customer.customer.id,
        email: customer.email,
        firstName: 'Test',
        lastName: 'Customer',
        status: 'registered',
        employeeId: null,
        notes: 'VIP',
        createdBy: 'salesRepresentative',
        orderId: null,
      });
      const colleague = await api.post(`/event-manager/event/${id}/participant`, {
        customerId: customer.customer.id,
        employeeId: employees[0]!.id,
      });
      expect(colleague.body).to.include({
        employeeId: employees[0]!.id,
        email: employees[0]!.email,
        status: 'registered',
      });
      const guest = await api.post(`/event-manager/event/${id}/participant`, {
        customerId: customer.customer.id,
        firstName: 'Gus',
        lastName: 'Guest',
        email: 'Gus.Guest@Example.test',
      });
      expect(guest.body).to.include({ email: 'gus.guest@example.test', status: 'waiting', waitingPosition: 1 });

      expectError(
        await api.post(`/event-manager/event/${id}/participant`, { customerId: customer.customer.id }),
        400,
        'SUITE__EVENT_PARTICIPANT_ALREADY_REGISTERED',
      );
      const stranger = await newCustomer();
      const foreignEmployee = await createEmployee(stranger.token, { permissions: ['event.register'] });
      expectError(
        await api.post(`/event-manager/event/${id}/participant`, {
          customerId: customer.customer.id,
          employeeId: foreignEmployee.id,
        }),
        400,
        'SUITE__EVENT_PARTICIPANT_EMPLOYEE_UNKNOWN',
      );
      expectError(
        await api.post(`/event-manager/event/${id}/participant`, { customerId: newId() }),
        400,
        'SUITE__EVENT_CUSTOMER_NOT_FOUND',
      );
      expectError(
        await api.post(`/event-manager/event/${id}/participant`, {
          customerId: stranger.customer.id,
          firstName: 'Only',
        }),
        400,
        'SUITE__EVENT_PARTICIPANT_INCOMPLETE',
      );
      expectError(
        await api.post(`/event-manager/event/${id}/participant`, {
          customerId: stranger.customer.id,
          status: 'registered',
        }),
        400,
        'SUITE__EVENT_FULL',
      );
      expectError(
        await api.post(`/event-manager/event/${id}/participant`, {
          customerId: stranger.customer.id,
          status: 'vanished',
        }),
        400,
        'SUITE__EVENT_PARTICIPANT_STATUS_UNKNOWN',
      );

      const edited = await api.patch(`/event-manager/participant/${guest.body.id}`, {
        firstName: 'Gustav',
        email: 'gustav@example.test',
        notes: 'Needs a parking ticket',
        documents: [
          { name: 'Certificate', url: 'https://docs.example.test/cert.pdf', note: 'signed' },
          { name: 'Invoice copy' },
        ],
      });
      expect(edited.status).to.equal(200);
      expect(edited.body).to.include({
        firstName: 'Gustav',
        lastName: 'Guest',
        email: 'gustav@example.test',
        notes: 'Needs a parking ticket',
      });
      expect(edited.body.documents).to.deep.equal([
        { name: 'Certificate', url: 'https://docs.example.test/cert.pdf', note: 'signed' },
        { name: 'Invoice copy', url: null, note: null },
      ]);
      expectError(
        await api.patch(`/event-manager/participant/${guest.body.id}`, {
          documents: [{ name: 'x', url: 'javascript:alert(1)' }],
        }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await api.patch(`/event-manager/participant/${guest.body.id}`, { email: customer.email }),
        400,
        'SUITE__EVENT_PARTICIPANT_ALREADY_REGISTERED',
      );
      expect((await api.get(`/event-manager/participant/${guest.body.id}`)).body.documents).to.have.length(2);

      expectError(
        await api.post(`/event-manager/participant/${guest.body.id}/status`, { status: 'registered' }),
        400,
        'SUITE__EVENT_FULL',
      );
      const excluded = await api.post(`/event-manager/participant/${colleague.body.id}/status`, { status: 'excluded' });
      expect(excluded.body.status).to.equal('excluded');
      const promoted = await api.get(`/event-manager/participant/${guest.body.id}`);
      expect(promoted.body).to.include({ status: 'registered', waitingPosition: null });
      expectError(
        await api.post(`/event-manager/participant/${guest.body.id}/status`, { status: 'vanished' }),
        400,
        'SUITE__EVENT_PARTICIPANT_STATUS_UNKNOWN',
      );

      const list = await api.post(`/event-manager/event/${id}/participants`, {
        filter: [{ type: 'equals', field: 'status', value: 'registered' }],
      });
      expect(list.status).to.equal(200);
      expect(list.body.elements.map((p: { email: string }) => p.email).sort()).to.deep.equal(
        [customer.email, 'gustav@example.test'].sort(),
      );
      expect(list.body.elements[0]).to.include({ company: customer.customer.company });
    });

    it('lets the operator add participant statuses through the Admin API that sales staff can then set', async () => {
      const staff = await salesStaff();
      const api = await as(staff.token);
      const technicalName = `certified_${newId().slice(0, 6)}`;
      const adminApi = await admin();
      const created = await adminApi.post('/suite-event-participant-status', {
        technicalName,
        name: 'Certified',
        occupiesSeat: true,
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body.data).to.deep.include({ id: technicalName, type: 'suite_event_participant_status' });
      expect(created.body.data.attributes).to.include({
        technicalName,
        name: 'Certified',
        occupiesSeat: true,
        system: false,
      });
      expectError(
        await adminApi.post('/suite-event-participant-status', { technicalName, name: 'Again' }),
        400,
        'SUITE__EVENT_PARTICIPANT_STATUS_EXISTS',
      );
      expectError(
        await adminApi.post('/suite-event-participant-status', { technicalName: 'Has Spaces', name: 'x' }),
        400,
        'SUITE__INVALID_INPUT',
      );
      const listed = await adminApi.get('/suite-event-participant-status');
      expect(listed.body.data.map((s: { id: string }) => s.id)).to.include.members(['registered', technicalName]);
      const customer = await newCustomer();
      const anonymous = await http();
      expectError(
        await anonymous.post('/api/suite-event-participant-status').send({ technicalName: 'x_y', name: 'x' }),
        401,
      );

      expect(
        (await api.get('/event-manager/participant-statuses')).body.elements.map(
          (s: { technicalName: string }) => s.technicalName,
        ),
      ).to.include(technicalName);
      const { id } = await createEvent(staff.token);
      const participant = await api.post(`/event-manager/event/${id}/participant`, {
        customerId: customer.customer.id,
      });
      const set = await api.post(`/event-manager/participant/${participant.body.id}/status`, { status: technicalName });
      expect(set.body.status).to.equal(technicalName);
    });
  });

  describe('customers', () => {
    it('lists seat counts and speakers as the single event read has them (taken: seat-holding statuses, waiting: waiting; speakers by position)', async () => {
      const shop = await getShop();
      const staff = await salesStaff();
      const tag = newId().slice(0, 8);
      const [speakerA, speakerB, speakerC] = [
        await createSpecification(staff.token, 'speaker', `A ${tag}`),
        await createSpecification(staff.token, 'speaker', `B ${tag}`),
        await createSpecification(staff.token, 'speaker', `C ${tag}`),
      ];
      const venue = await createSpecification(staff.token, 'venue', `Venue ${tag}`);
      const first = await createEvent(staff.token, {
        name: `Counted ${tag} one`,
        speakerIds: [speakerC.id, speakerA.id, speakerB.id],
        venueId: venue.id,
        participantLimit: 10,
      });
      const second = await createEvent(staff.token, {
        name: `Counted ${tag} two`,
        speakerIds: [speakerB.id],
        participantLimit: 2,
      });
      const third = await createEvent(staff.token, { name: `Counted ${tag} three` });
      const seatStatus = `seat-${tag}`;
      await shop.db('b2b_event_participant_statuses').insert({
        technical_name: seatStatus,
        name: 'Operator seat',
        occupies_seat: true,
        system: false,
        position: 99,
        created_at: '2026-01-01 00:00:00.000',
      });
      const customer = await newCustomer();
      const participant = (eventId: string, status: string) => ({
        id: newId(),
        event_id: eventId,
        customer_id: customer.customer.id,
        first_name: 'P',
        last_name: status,
        email: `${newId()}@example.test`,
        status,
        documents: '[]',
        created_by_type: 'staff',
        created_at: '2026-01-01 00:00:00.000',
      });
      await shop
        .db('b2b_event_participants')
        .insert([
          ...['registered', 'registered', seatStatus, 'waiting', 'waiting', 'canceled', 'excluded'].map((status) =>
            participant(first.id, status),
          ),
          ...['participated', 'waiting', 'canceled'].map((status) => participant(second.id, status)),
        ]);

      const api = await as(customer.token);
      const listed = await api.post('/events', { term: `Counted ${tag}` });
      expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
      const staffListed = await (await as(staff.token)).post('/event-manager/events', { term: `Counted ${tag}` });
      expect(staffListed.status, JSON.stringify(staffListed.body)).to.equal(200);
      for (const event of [first, second, third]) {
        const single = (await api.get(`/event/${event.id}`)).body;
        expect(listed.body.elements.find((e: { id: string }) => e.id === event.id)).to.deep.equal(single);
        const staffOne = staffListed.body.elements.find((e: { id: string }) => e.id === event.id);
        expect({ ...staffOne, registrationOpen: single.registrationOpen }).to.deep.equal(single);
      }
      const byId = new Map(listed.body.elements.map((e: { id: string }) => [e.id, e]));
      expect(byId.get(first.id)).to.deep.include({ registeredCount: 3, waitingCount: 2, freeSeats: 7 });
      expect((byId.get(first.id) as { speakers: Array<{ id: string }> }).speakers.map((s) => s.id)).to.deep.equal([
        speakerC.id,
        speakerA.id,
        speakerB.id,
      ]);
      expect((byId.get(first.id) as { venue: { id: string } }).venue.id).to.equal(venue.id);
      expect(byId.get(second.id)).to.deep.include({ registeredCount: 1, waitingCount: 1, freeSeats: 1 });
      expect((byId.get(second.id) as { speakers: Array<{ id: string }> }).speakers.map((s) => s.id)).to.deep.equal([
        speakerB.id,
      ]);
      expect(byId.get(third.id)).to.deep.include({ registeredCount: 0, waitingCount: 0, speakers: [] });
    });

    it('lists only published events whose product the customer may see, filtered by format, difficulty, language and term', async () => {
      const staff = await salesStaff();
      const tag = newId().slice(0, 8);
      const format = await createSpecification(staff.token, 'format', `Webinar ${tag}`);
      const level = await createSpecification(staff.token, 'difficulty_level', `Beginner ${tag}`);
      const webinar = await createEvent(staff.token, {
        name: `Webinar ${tag} basics`,
        formatId: format.id,
        difficultyLevelId: level.id,
        language: 'de',
      });
      const english = await createEvent(staff.token, {
        name: `Seminar ${tag} advanced`,
        language: 'en',
        description: `deep ${tag} dive`,
      });
      const draft = await createEvent(staff.token, { name: `Draft ${tag}` }, null);
      const over = await createEvent(staff.token, { name: `Over ${tag}`, startsAt: inDays(-3), endsAt: inDays(-2) });
      const hidden = await createEvent(staff.token, { name: `Hidden ${tag}` });
      const customer = await newCustomer();
      const other = await newCustomer();
      await assign(
        PRODUCT_KIND,
        hidden.productId,
        await createRule({ type: 'customerId', operator: '=', value: [other.customer.id] }),
      );

      const api = await as(customer.token);
      const search = async (body: Record<string, unknown>) => {
        const res = await api.post('/events', body);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body.elements.map((e: { name: string }) => e.name).sort();
      };
      expect(await search({ term: tag })).to.deep.equal([english.name, webinar.name].sort());
      expect(
        await search({ term: tag, filter: [{ type: 'equals', field: 'formatId', value: format.id }] }),
      ).to.deep.equal([webinar.name]);
      expect(
        await search({ term: tag, filter: [{ type: 'equals', field: 'difficultyLevelId', value: level.id }] }),
      ).to.deep.equal([webinar.name]);
      expect(await search({ term: tag, filter: [{ type: 'equals', field: 'language', value: 'en' }] })).to.deep.equal([
        english.name,
      ]);
      expect(await search({ term: `deep ${tag}` })).to.deep.equal([english.name]);
      expect(await search({ term: tag, filter: [{ type: 'equals', field: 'status', value: 'draft' }] })).to.deep.equal(
        [],
      );
      expect(await search({ term: hidden.name })).to.deep.equal([]);
      expect((await (await as(other.token)).post('/events', { term: hidden.name })).body.total).to.equal(1);

      const detail = await api.get(`/event/${webinar.id}`);
      expect(detail.status).to.equal(200);
      expect(detail.body).to.include({ id: webinar.id, registrationOpen: true, status: 'published', language: 'de' });
      expect(detail.body.format.name).to.equal(`Webinar ${tag}`);
      for (const id of [draft.id, over.id, hidden.id, newId()])
        expectError(await api.get(`/event/${id}`), 404, 'SUITE__NOT_FOUND');
      expectError(await api.get('/event/nope'), 400);
      expectError(await api.post('/events', { limit: 0 }), 400);

      const filters = await api.get('/event-filters');
      expect(filters.body.languages).to.deep.equal(['de', 'en']);
      expect(filters.body.formats.map((f: { id: string }) => f.id)).to.include(format.id);
      expect(filters.body.difficultyLevels.map((f: { id: string }) => f.id)).to.include(level.id);
      expectError(await (await as(null)).get('/event-filters'), 401);
    });

    it('shows a company only its own participants, and needs the event.register permission', async () => {
      const staff = await salesStaff();
      const { id } = await createEvent(staff.token);
      const mine = await newCustomer();
      const theirs = await newCustomer();
      const staffApi = await as(staff.token);
      const added = await staffApi.post(`/event-manager/event/${id}/participant`, {
        customerId: mine.customer.id,
        notes: 'internal note',
      });
      await staffApi.post(`/event-manager/event/${id}/participant`, { customerId: theirs.customer.id });

      const own = await (
        await as(mine.token)
      ).post('/event-participants', { filter: [{ type: 'equals', field: 'eventId', value: id }] });
      expect(own.status).to.equal(200);
      expect(own.body.total).to.equal(1);
      expect(own.body.elements[0]).to.include({
        id: added.body.id,
        email: mine.email,
        status: 'registered',
        eventId: id,
      });
      expect(own.body.elements[0]).not.to.have.property('notes');
      const foreign = await (
        await as(mine.token)
      ).post('/event-participants', {
        ids: [added.body.id],
        filter: [{ type: 'equals', field: 'customerId', value: theirs.customer.id }],
      });
      expect(foreign.body).to.deep.equal({
        total: 0,
        page: 1,
        limit: 25,
        elements: [],
        aggregations: {},
        apiAlias: 'dal_entity_search_result',
      });

      const withoutPermission = await createEmployee(mine.token, { permissions: ['orders.create'] });
      expectError(
        await (
          await as(await loginAs(withoutPermission.email, withoutPermission.password))
        ).post('/event-participants', {}),
        403,
        'SUITE__PERMISSION_DENIED',
      );
      expectError(await (await as(null)).post('/event-participants', {}), 401);
      expectError(
        await (
          await as(mine.token)
        ).post('/event-participants', { filter: [{ type: 'equals', field: 'notes', value: 'x' }] }),
        400,
      );
      const db = (await getShop()).db;
      expect(await db('b2b_event_participants').where({ event_id: id }).count({ n: '*' }).first()).to.satisfy(
        (row: { n: unknown }) => Number(row.n) === 2,
      );
    });
  });
});
