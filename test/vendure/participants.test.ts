import { expect } from 'chai';
import { DEMO_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { bearer, bootShop, type ShopClient } from './helpers/shop.js';
import { insertPublishedEvent } from './helpers/events.js';

/**
 * Event tickets in Vendure's own Shop API: the participant travels in the OrderLine custom field
 * `suiteParticipant` through addItemToOrder / adjustOrderLine, the plugin's line-item processors
 * check it there and again on the way to payment, and the placed order carries it as the plugin's
 * `lineItem.payload.participant`.
 */
describe('Vendure: event ticket participants in the Shop API', function () {
  this.timeout(60_000);
  let client: ShopClient;
  let buyer: Record<string, string>;
  let armVariantId: string;
  let eventId: string;

  const orderFields =
    'id code state lines { id quantity productVariant { id } customFields { suiteParticipant suiteEventId } }';
  const addTicket = `mutation ($v: ID!, $q: Int!, $p: String) { addItemToOrder(productVariantId: $v, quantity: $q, customFields: { suiteParticipant: $p }) { __typename ... on Order { ${orderFields} } ... on OrderInterceptorError { interceptorError } ... on ErrorResult { errorCode message } } }`;
  const adjust = `mutation ($l: ID!, $q: Int!) { adjustOrderLine(orderLineId: $l, quantity: $q) { __typename ... on Order { ${orderFields} } ... on OrderInterceptorError { interceptorError } ... on ErrorResult { errorCode message } } }`;
  const removeLine = 'mutation ($l: ID!) { removeOrderLine(orderLineId: $l) { __typename } }';
  const toPayment =
    'mutation { transitionOrderToState(state: "ArrangingPayment") { __typename ... on Order { state } ... on OrderStateTransitionError { transitionError } } }';
  const person = (firstName: string, email: string) => JSON.stringify({ firstName, lastName: 'Example', email });
  interface Line {
    id: string;
    quantity: number;
    productVariant: { id: string };
    customFields: { suiteParticipant: string | null; suiteEventId: string | null };
  }
  const ticketLines = (order: { lines: Line[] }) => order.lines.filter((l) => l.productVariant.id === armVariantId);
  const setEvent = (values: Record<string, unknown>) =>
    client.shop.state.db('b2b_events').where({ id: eventId }).update(values);

  before(async function () {
    this.timeout(240_000);
    client = await bootShop({ label: 'vendure_participants', runJobs: false });
    const { data } = await client.gql('shop-api', '{ product(slug: "monitor-arm") { variants { id } } }');
    armVariantId = data.product.variants[0].id;
    // An event on the monitor arm (the plugin's table; staff would create it in the event manager).
    eventId = await insertPublishedEvent(client.shop.state.db, client.shop.state.ids.toPlugin(armVariantId));
    buyer = bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    await client.gql(
      'shop-api',
      'mutation { setOrderShippingAddress(input: { fullName: "Demo Company", streetLine1: "Hauptstr. 1", city: "Berlin", postalCode: "10115", countryCode: "DE" }) { __typename } }',
      {},
      buyer,
    );
  });

  after(async function () {
    this.timeout(60_000);
    await client?.close();
  });

  it('checks the participant given in addItemToOrder and stores it as the processors shaped it (event, normalised e-mail)', async () => {
    const added = await client.gql(
      'shop-api',
      addTicket,
      { v: armVariantId, q: 1, p: person('Ann', 'Ann.Example@Example.TEST') },
      buyer,
    );
    expect(added.data.addItemToOrder.__typename, JSON.stringify(added)).to.equal('Order');
    const [line] = ticketLines(added.data.addItemToOrder);
    expect(line!.quantity).to.equal(1);
    expect(line!.customFields.suiteEventId).to.equal(eventId);
    expect(JSON.parse(line!.customFields.suiteParticipant!)).to.include({
      firstName: 'Ann',
      lastName: 'Example',
      email: 'ann.example@example.test',
      employeeId: '',
    });
  });

  it("refuses what the event manager refuses, with the plugin's code in interceptorError", async () => {
    const invalid = await client.gql(
      'shop-api',
      addTicket,
      { v: armVariantId, q: 1, p: person('Bob', 'not-an-address') },
      buyer,
    );
    expect(invalid.data.addItemToOrder.__typename).to.equal('OrderInterceptorError');
    expect(invalid.data.addItemToOrder.interceptorError).to.match(/^SUITE__EVENT_PARTICIPANT_INVALID: /);

    // The same participant again (spelt differently) would be the same line with two seats.
    const twice = await client.gql(
      'shop-api',
      addTicket,
      { v: armVariantId, q: 1, p: person('Ann', 'ann.example@example.test') },
      buyer,
    );
    expect(twice.data.addItemToOrder.interceptorError, JSON.stringify(twice)).to.match(
      /^SUITE__EVENT_TICKET_QUANTITY: /,
    );
    const two = await client.gql(
      'shop-api',
      addTicket,
      { v: armVariantId, q: 2, p: person('Cleo', 'cleo@example.test') },
      buyer,
    );
    expect(two.data.addItemToOrder.interceptorError).to.match(/^SUITE__EVENT_TICKET_QUANTITY: /);

    const { data } = await client.gql('shop-api', `{ activeOrder { ${orderFields} } }`, {}, buyer);
    const [line] = ticketLines(data.activeOrder);
    const adjusted = await client.gql('shop-api', adjust, { l: line!.id, q: 2 }, buyer);
    expect(adjusted.data.adjustOrderLine.interceptorError).to.match(/^SUITE__EVENT_TICKET_QUANTITY: /);

    await setEvent({ status: 'draft' });
    try {
      const closed = await client.gql(
        'shop-api',
        addTicket,
        { v: armVariantId, q: 1, p: person('Dan', 'dan@example.test') },
        buyer,
      );
      expect(closed.data.addItemToOrder.interceptorError).to.match(/^SUITE__EVENT_REGISTRATION_CLOSED: /);
    } finally {
      await setEvent({ status: 'published' });
    }
    const after = await client.gql('shop-api', `{ activeOrder { ${orderFields} } }`, {}, buyer);
    expect(ticketLines(after.data.activeOrder).map((l) => l.quantity)).to.deep.equal([1]);
  });

  it('checks the tickets again on the way to payment: two participants for the last seat are refused in transitionError', async () => {
    const second = await client.gql(
      'shop-api',
      addTicket,
      { v: armVariantId, q: 1, p: person('Eve', 'eve@example.test') },
      buyer,
    );
    expect(second.data.addItemToOrder.__typename, JSON.stringify(second)).to.equal('Order');
    expect(ticketLines(second.data.addItemToOrder)).to.have.length(2);
    const methods = await client.gql('shop-api', '{ eligibleShippingMethods { id } }', {}, buyer);
    await client.gql(
      'shop-api',
      'mutation ($id: [ID!]!) { setOrderShippingMethod(shippingMethodId: $id) { __typename } }',
      { id: [methods.data.eligibleShippingMethods[0].id] },
      buyer,
    );

    await setEvent({ participant_limit: 1 });
    const refused = await client.gql('shop-api', toPayment, {}, buyer);
    expect(refused.data.transitionOrderToState.__typename, JSON.stringify(refused)).to.equal(
      'OrderStateTransitionError',
    );
    expect(refused.data.transitionOrderToState.transitionError).to.match(/^SUITE__EVENT_FULL/);

    const eve = ticketLines(second.data.addItemToOrder).find(
      (l) => JSON.parse(l.customFields.suiteParticipant!).email === 'eve@example.test',
    )!;
    expect((await client.gql('shop-api', removeLine, { l: eve.id }, buyer)).data.removeOrderLine.__typename).to.equal(
      'Order',
    );
  });

  it('places the order with the participant it checked: the plugin reads it as lineItem.payload.participant', async () => {
    const passed = await client.gql('shop-api', toPayment, {}, buyer);
    expect(passed.data.transitionOrderToState, JSON.stringify(passed)).to.deep.equal({
      __typename: 'Order',
      state: 'ArrangingPayment',
    });
    const { data } = await client.gql('shop-api', `{ activeOrder { ${orderFields} } }`, {}, buyer);
    const [line] = ticketLines(data.activeOrder);
    const participant = JSON.parse(line!.customFields.suiteParticipant!) as { id: string; email: string };
    expect(participant.email).to.equal('ann.example@example.test');
    expect(participant.id).to.match(/^[0-9a-f]{32}$/);

    const methods = await client.gql('shop-api', '{ eligiblePaymentMethods { code isEligible } }', {}, buyer);
    const method = methods.data.eligiblePaymentMethods.find((m: { isEligible: boolean }) => m.isEligible)
      .code as string;
    const paid = await client.gql(
      'shop-api',
      'mutation ($m: String!) { addPaymentToOrder(input: { method: $m, metadata: {} }) { __typename ... on Order { id code state } } }',
      { m: method },
      buyer,
    );
    expect(paid.data.addPaymentToOrder.__typename, JSON.stringify(paid)).to.equal('Order');

    const orderId = client.shop.state.ids.toPlugin(paid.data.addPaymentToOrder.id);
    const read = await client.rest('GET', `/store-api/b2b/employee-order/${orderId}`, buyer);
    expect(read.status, JSON.stringify(read.body)).to.equal(200);
    const ticket = read.body.lineItems.find(
      (l: { productId: string }) => l.productId === client.shop.state.ids.toPlugin(armVariantId),
    );
    expect(ticket.payload.eventId).to.equal(eventId);
    // Placing ran the processors once more and the order hook wrote the record under the id they gave.
    const record = await client.shop.state
      .db('b2b_event_participants')
      .where({ event_id: eventId, order_id: orderId })
      .first('id', 'status', 'email');
    expect(record).to.deep.equal({
      id: ticket.payload.participant.id,
      status: 'registered',
      email: 'ann.example@example.test',
    });
    expect(ticket.payload.participant).to.include({
      firstName: 'Ann',
      lastName: 'Example',
      email: 'ann.example@example.test',
    });
  });

  it('leaves lines without a participant alone', async () => {
    const { data } = await client.gql('shop-api', '{ product(slug: "office-chair") { variants { id } } }');
    const plain = await client.gql(
      'shop-api',
      'mutation ($v: ID!) { addItemToOrder(productVariantId: $v, quantity: 2) { __typename ... on Order { lines { quantity customFields { suiteParticipant } } } } }',
      { v: data.product.variants[0].id },
      buyer,
    );
    expect(plain.data.addItemToOrder.__typename, JSON.stringify(plain)).to.equal('Order');
    expect(
      plain.data.addItemToOrder.lines.map(
        (l: { customFields: { suiteParticipant: string | null } }) => l.customFields.suiteParticipant,
      ),
    ).to.deep.equal([null]);
  });
});
