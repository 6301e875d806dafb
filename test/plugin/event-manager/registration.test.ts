import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { productStock } from '../../helpers/checkout.js';
import { adminToken, expectError, getShop, http } from '../../helpers/shop.js';
import { receiveMail } from '../employee/helpers.js';
import {
  addToCart,
  as,
  companyWithColleagues,
  createEmployee,
  createEvent,
  inDays,
  loginAs,
  newCustomer,
  participantsOf,
  placeOrder,
  salesStaff,
  ticket,
} from './helpers.js';

const PARTICIPANT_KEYS = ['id', 'email', 'employee', 'lastName', 'firstName', 'employeeId', 'extensions'];

async function cartLines(token: string): Promise<Array<Record<string, any>>> {
  const res = await (await as(token)).get('/checkout/cart');
  expect(res.status).to.equal(200);
  return res.body.lineItems;
}

describe('event manager: registration through cart and checkout', function () {
  this.timeout(60000);
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('registers two colleagues in one purchase: payload.participant as the spec lists it, participants written with the order, a confirmation mail printing them', async () => {
    const staff = await salesStaff();
    const event = await createEvent(staff.token, { participantLimit: 10 });
    const { customer, employees } = await companyWithColleagues(2);
    const [first, second] = employees as [(typeof employees)[0], (typeof employees)[0]];

    const cart = await addToCart(customer.token, [
      ticket(event, { employeeId: first.id }),
      ticket(event, { employeeId: second.id }),
    ]);
    expect(cart.status, JSON.stringify(cart.body)).to.equal(200);
    expect(cart.body.lineItems).to.have.length(2);
    for (const [index, employee] of [first, second].entries()) {
      const line = cart.body.lineItems[index];
      expect(line.payload.eventId).to.equal(event.id);
      expect(Object.keys(line.payload.participant)).to.have.members(PARTICIPANT_KEYS);
      expect(line.payload.participant).to.deep.include({
        email: employee.email,
        firstName: 'Erin',
        lastName: 'Employee',
        employeeId: employee.id,
        extensions: [],
      });
      expect(line.payload.participant.employee).to.deep.equal({
        id: employee.id,
        firstName: 'Erin',
        lastName: 'Employee',
        email: employee.email,
      });
      expect(line.payload.participant.id).to.match(/^[0-9a-f]{32}$/);
      expect(line.label).to.equal(`${event.name} – Erin Employee`);
      expect(line.price.unitPrice).to.equal(50);
    }

    const order = await placeOrder(customer.token);
    expect(order.status, JSON.stringify(order.body)).to.equal(200);
    const rows = await participantsOf(event.id);
    expect(rows).to.have.length(2);
    for (const line of order.body.lineItems) {
      expect(Object.keys(line.payload.participant)).to.have.members(PARTICIPANT_KEYS);
      const row = rows.find((r) => r.id === line.payload.participant.id)!;
      expect(row, 'the participant record carries the payload id').to.not.equal(undefined);
      expect(row).to.include({
        status: 'registered',
        order_id: order.body.id,
        order_line_item_id: line.id,
        customer_id: customer.customer.id,
        employee_id: line.payload.participant.employeeId,
        email: line.payload.participant.email,
      });
    }
    expect((await (await as(customer.token)).get(`/event/${event.id}`)).body).to.include({
      registeredCount: 2,
      freeSeats: 8,
    });

    const mail = await receiveMail(customer.email, `Your event registration for order ${order.body.orderNumber}`);
    for (const employee of [first, second]) {
      expect(mail.text).to.contain(`Erin Employee <${employee.email}>: ${event.name}`);
      expect(mail.html).to.contain(employee.email);
    }
    expect(mail.text).to.contain('registered');
    expect(mail.text).not.to.contain('waiting list');
    const hostConfirmation = await receiveMail(customer.email, `Your order ${order.body.orderNumber}`);
    expect(hostConfirmation.text, "the host's order confirmation prints lineItem.payload.participant").to.contain(
      `Participant: Erin Employee <${first.email}>`,
    );
  });

  it('registers the ordering employee when no participant is named, and a person given by name and e-mail', async () => {
    const staff = await salesStaff();
    const event = await createEvent(staff.token);
    const { customer } = await companyWithColleagues(0);
    const employee = await createEmployee(customer.token, { permissions: ['event.register', 'orders.create'] });
    const token = await loginAs(employee.email, employee.password);
    const cart = await addToCart(token, [
      ticket(event),
      ticket(event, { firstName: ' Fay ', lastName: 'Freelancer', email: 'Fay@Example.test' }),
    ]);
    expect(cart.status, JSON.stringify(cart.body)).to.equal(200);
    const [self, guest] = cart.body.lineItems;
    expect(self.payload.participant).to.deep.include({ employeeId: employee.id, email: employee.email });
    expect(guest.payload.participant).to.deep.include({
      firstName: 'Fay',
      lastName: 'Freelancer',
      email: 'fay@example.test',
      employee: null,
      employeeId: '',
      extensions: [],
    });

    const order = await placeOrder(token);
    expect(order.status, JSON.stringify(order.body)).to.equal(200);
    const rows = await participantsOf(event.id);
    expect(rows.map((r) => [r.email, r.employee_id, r.created_by_type]).sort()).to.deep.equal(
      [
        [employee.email, employee.id, 'employee'],
        ['fay@example.test', null, 'employee'],
      ].sort(),
    );
    const mail = await receiveMail(employee.email, `Your event registration for order ${order.body.orderNumber}`);
    expect(mail.text).to.contain('Fay Freelancer <fay@example.test>');

    const customerView = await (
      await as(customer.token)
    ).post('/event-participants', { filter: [{ type: 'equals', field: 'eventId', value: event.id }] });
    expect(customerView.body.total).to.equal(2);
    expect(
      customerView.body.elements.every((p: { orderNumber: string }) => p.orderNumber === order.body.orderNumber),
    ).to.equal(true);
  });

  it('refuses tickets when they are added: another company’s employee, duplicates, wrong events, closed or past registration, no seats, missing permission', async () => {
    const staff = await salesStaff();
    const event = await createEvent(staff.token);
    const { customer, employees } = await companyWithColleagues(1);
    const stranger = await newCustomer();
    const foreign = await createEmployee(stranger.token, { permissions: ['event.register'] });

    const refused = async (
      items: Array<Record<string, unknown>>,
      status: number,
      code: string,
      token = customer.token,
    ) => expectError(await addToCart(token, items), status, code);
    await refused([ticket(event, { employeeId: foreign.id })], 400, 'SUITE__EVENT_PARTICIPANT_EMPLOYEE_UNKNOWN');
    await refused([ticket(event, { employeeId: 'not-an-id' })], 400, 'SUITE__EVENT_PARTICIPANT_EMPLOYEE_UNKNOWN');
    await refused(
      [ticket(event, { employeeId: employees[0]!.id }), ticket(event, { employeeId: employees[0]!.id })],
      400,
      'SUITE__EVENT_TICKET_QUANTITY',
    );
    await refused([{ ...ticket(event), quantity: 2 }], 400, 'SUITE__EVENT_TICKET_QUANTITY');
    await refused(
      [ticket(event, { firstName: 'No', lastName: 'Mail', email: 'nope' })],
      400,
      'SUITE__EVENT_PARTICIPANT_INVALID',
    );
    await refused(
      [ticket(event, { firstName: 'No', email: 'no@example.test' })],
      400,
      'SUITE__EVENT_PARTICIPANT_INVALID',
    );
    await refused(
      [{ ...ticket(event), payload: { eventId: event.id, participant: 'me' } }],
      400,
      'SUITE__EVENT_PARTICIPANT_INVALID',
    );

    const other = await createEvent(staff.token);
    await refused([{ ...ticket(other), productId: event.productId }], 400, 'SUITE__EVENT_NOT_FOUND');
    await refused([{ ...ticket(event), payload: { eventId: 'x' } }], 400, 'SUITE__EVENT_NOT_FOUND');
    const second = await createEvent(staff.token, { productId: event.productId });
    await refused(
      [{ productId: event.productId, quantity: 1, payload: { participant: {} } }],
      400,
      'SUITE__EVENT_REQUIRED',
    );
    expect(second.productId).to.equal(event.productId);

    const draft = await createEvent(staff.token, {}, null);
    await refused([ticket(draft)], 400, 'SUITE__EVENT_REGISTRATION_CLOSED');
    const past = await createEvent(staff.token, { registrationDeadline: inDays(-1) });
    await refused([ticket(past)], 400, 'SUITE__EVENT_REGISTRATION_DEADLINE_PASSED');

    const full = await createEvent(staff.token, { participantLimit: 1 });
    await (
      await as(staff.token)
    ).post(`/event-manager/event/${full.id}/participant`, { customerId: stranger.customer.id });
    await refused([ticket(full)], 400, 'SUITE__EVENT_FULL');

    await (
      await as(staff.token)
    ).post(`/event-manager/event/${event.id}/participant`, { customerId: customer.customer.id });
    await refused([ticket(event)], 400, 'SUITE__EVENT_PARTICIPANT_ALREADY_REGISTERED');

    const withoutPermission = await createEmployee(customer.token, { permissions: ['orders.create'] });
    await refused(
      [ticket(event)],
      403,
      'SUITE__PERMISSION_DENIED',
      await loginAs(withoutPermission.email, withoutPermission.password),
    );

    expect(await cartLines(customer.token), 'nothing refused reached the cart').to.deep.equal([]);
    const single = await addToCart(customer.token, [
      { productId: other.productId, quantity: 1, payload: { participant: { employeeId: employees[0]!.id } } },
    ]);
    expect(single.status, 'the only event of a product needs no eventId').to.equal(200);
    expect(single.body.lineItems[0].payload.eventId).to.equal(other.id);
    await refused(
      [{ productId: other.productId, quantity: 1, payload: { participant: { employeeId: employees[0]!.id } } }],
      400,
      'SUITE__EVENT_TICKET_QUANTITY',
    );
  });

  it('checks status, deadline and seats again under lock when the order is placed, and writes nothing when it refuses', async () => {
    const staff = await salesStaff();
    const staffApi = await as(staff.token);
    const event = await createEvent(staff.token, { participantLimit: 2 });
    const { customer, employees } = await companyWithColleagues(2);
    const db = (await getShop()).db;
    const stock = await productStock(event.productId);

    expect((await addToCart(customer.token, [ticket(event)])).status).to.equal(200);
    await staffApi.post(`/event-manager/event/${event.id}/status`, { status: 'closed' });
    expectError(await placeOrder(customer.token), 400, 'SUITE__EVENT_REGISTRATION_CLOSED');
    await staffApi.post(`/event-manager/event/${event.id}/status`, { status: 'published' });

    await staffApi.patch(`/event-manager/event/${event.id}`, {
      registrationDeadline: new Date(Date.now() - 60000).toISOString(),
    });
    expectError(await placeOrder(customer.token), 400, 'SUITE__EVENT_REGISTRATION_DEADLINE_PASSED');
    await staffApi.patch(`/event-manager/event/${event.id}`, { registrationDeadline: null });

    // Three tickets for two seats: each passes alone when added; the order counts them together.
    expect(
      (
        await addToCart(customer.token, [
          ticket(event, { employeeId: employees[0]!.id }),
          ticket(event, { employeeId: employees[1]!.id }),
        ])
      ).status,
    ).to.equal(200);
    expectError(await placeOrder(customer.token), 400, 'SUITE__EVENT_FULL');
    expect(await participantsOf(event.id)).to.deep.equal([]);
    expect(await db('orders').where({ customer_id: customer.customer.id }).select('id')).to.deep.equal([]);
    expect(await productStock(event.productId)).to.equal(stock);

    // The last seat: whoever orders first gets it; the other order is refused.
    const other = await newCustomer();
    const lines = await cartLines(customer.token);
    await (await as(customer.token)).delete('/checkout/cart/line-item').send({ ids: [lines[2]!.id] });
    expect((await addToCart(other.token, [ticket(event)])).status).to.equal(200);
    expect((await placeOrder(customer.token)).status).to.equal(200);
    expectError(await placeOrder(other.token), 400, 'SUITE__EVENT_FULL');
    expect(await db('orders').where({ customer_id: other.customer.id }).select('id')).to.deep.equal([]);
    expect((await participantsOf(event.id)).map((p) => p.status)).to.deep.equal(['registered', 'registered']);
  });

  it('puts tickets beyond the limit on the waiting list in order, and promotes and mails them when seats free up', async () => {
    const staff = await salesStaff();
    const staffApi = await as(staff.token);
    const event = await createEvent(staff.token, { participantLimit: 2, waitingList: true });
    const { customer, employees } = await companyWithColleagues(2);
    const guestEmail = `guest-${newId().slice(0, 8)}@example.test`;
    const items = [
      ticket(event),
      ticket(event, { employeeId: employees[0]!.id }),
      ticket(event, { employeeId: employees[1]!.id }),
      ticket(event, { firstName: 'Gwen', lastName: 'Guest', email: guestEmail }),
    ];
    expect((await addToCart(customer.token, items)).status).to.equal(200);
    const order = await placeOrder(customer.token);
    expect(order.status, JSON.stringify(order.body)).to.equal(200);

    const listed = async () =>
      (await staffApi.post(`/event-manager/event/${event.id}/participants`, { sort: [{ field: 'createdAt' }] })).body
        .elements as Array<Record<string, any>>;
    const byEmail = async () => Object.fromEntries((await listed()).map((p) => [p.email, p]));
    let people = await byEmail();
    expect(people[customer.email]).to.include({ status: 'registered', waitingPosition: null });
    expect(people[employees[0]!.email]).to.include({ status: 'registered' });
    expect(people[employees[1]!.email]).to.include({ status: 'waiting', waitingPosition: 1 });
    expect(people[guestEmail]).to.include({ status: 'waiting', waitingPosition: 2 });
    const confirmation = await receiveMail(
      customer.email,
      `Your event registration for order ${order.body.orderNumber}`,
    );
    expect(confirmation.text).to.contain(`Gwen Guest <${guestEmail}>: ${event.name}`);
    expect(confirmation.text).to.match(/Gwen Guest <[^>]+>: .* - waiting list/);
    expect((await (await as(customer.token)).get(`/event/${event.id}`)).body).to.include({
      registeredCount: 2,
      waitingCount: 2,
      freeSeats: 0,
    });

    const canceled = await staffApi.post(`/event-manager/participant/${people[customer.email]!.id}/status`, {
      status: 'canceled',
    });
    expect(canceled.body.status).to.equal('canceled');
    people = await byEmail();
    expect(people[employees[1]!.email]).to.include({ status: 'registered', waitingPosition: null });
    expect(people[guestEmail]).to.include({ status: 'waiting' });
    const promotion = await receiveMail(employees[1]!.email, `You have a seat: ${event.name}`);
    expect(promotion.text).to.contain('you are now registered for');

    await staffApi.post(`/event-manager/participant/${people[employees[0]!.email]!.id}/status`, { status: 'excluded' });
    expect((await byEmail())[guestEmail]).to.include({ status: 'registered' });
    await receiveMail(guestEmail, `You have a seat: ${event.name}`);
    const registered = (await listed()).filter((p) => p.status === 'registered');
    expect(registered).to.have.length(2);

    // Participated and not participated keep their seat: nobody moves up.
    const another = await newCustomer();
    const waiting = await staffApi.post(`/event-manager/event/${event.id}/participant`, {
      customerId: another.customer.id,
    });
    expect(waiting.body.status).to.equal('waiting');
    await staffApi.post(`/event-manager/participant/${registered[0]!.id}/status`, { status: 'participated' });
    expect((await staffApi.get(`/event-manager/participant/${waiting.body.id}`)).body.status).to.equal('waiting');
    const raised = await staffApi.patch(`/event-manager/event/${event.id}`, { participantLimit: 3 });
    expect(raised.body).to.include({ registeredCount: 3, waitingCount: 0 });
    expectError(
      await staffApi.patch(`/event-manager/event/${event.id}`, { participantLimit: 2 }),
      400,
      'SUITE__EVENT_LIMIT_BELOW_TAKEN',
    );
    expectError(await staffApi.delete(`/event-manager/event/${event.id}`), 400, 'SUITE__EVENT_HAS_PARTICIPANTS');
  });

  it('an order an operator cancels gives its seats back: its participants are canceled and the waiting list moves up', async () => {
    const staff = await salesStaff();
    const event = await createEvent(staff.token, { participantLimit: 1, waitingList: true });
    const first = await newCustomer();
    const second = await newCustomer();
    expect((await addToCart(first.token, [ticket(event)])).status).to.equal(200);
    const placed = await placeOrder(first.token);
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    expect((await addToCart(second.token, [ticket(event)])).status).to.equal(200);
    expect((await placeOrder(second.token)).status).to.equal(200);
    const statusOf = async () =>
      Object.fromEntries((await participantsOf(event.id)).map((p) => [p.email, p.status as string]));
    expect(await statusOf()).to.deep.equal({ [first.email]: 'registered', [second.email]: 'waiting' });

    const cancelled = await (
      await http()
    )
      .post(`/api/_action/order/${placed.body.id}/state/cancel`)
      .set({ authorization: `Bearer ${await adminToken()}` })
      .send({});
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    expect(await statusOf()).to.deep.equal({ [first.email]: 'canceled', [second.email]: 'registered' });
    expect((await (await as(second.token)).get(`/event/${event.id}`)).body).to.include({
      registeredCount: 1,
      waitingCount: 0,
    });
    await receiveMail(second.email, `You have a seat: ${event.name}`);
  });
});
