import { expect } from 'chai';
import { DEMO_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { newId } from '../../src/lib/ids.js';
import { DEMO_APPROVER, DEMO_PURCHASER } from '../../src/plugin/employee/demo.js';
import { bearer, bootShop, type GqlAnswer, type ShopClient } from './helpers/shop.js';
import { insertPublishedEvent } from './helpers/events.js';

/**
 * Orders Vendure places itself (Shop API checkout: ArrangingPayment → addPaymentToOrder) run the
 * plugin's order-placed hooks once, in Vendure's transaction of the placement, after the check once
 * more under the plugin's locks (order-placement.ts): budgets are charged, event tickets become
 * participants and count seats, and a cancelled order gives both back.
 */
describe('Vendure: orders placed through the Shop API run the order-placed hooks', function () {
  this.timeout(120_000);
  let client: ShopClient;
  let armVariantId: string;
  let admin: Record<string, string>;

  const address =
    'mutation { setOrderShippingAddress(input: { fullName: "Demo Company", streetLine1: "Hauptstr. 1", city: "Berlin", postalCode: "10115", countryCode: "DE" }) { __typename } }';
  const toPayment =
    'mutation { transitionOrderToState(state: "ArrangingPayment") { __typename ... on Order { state } ... on OrderStateTransitionError { transitionError } } }';
  const backToCart = 'mutation { transitionOrderToState(state: "AddingItems") { __typename } }';
  const pay =
    'mutation { addPaymentToOrder(input: { method: "invoice", metadata: {} }) { __typename ... on Order { id code state } ... on ErrorResult { errorCode message } } }';
  const addItem =
    'mutation ($v: ID!, $q: Int!, $p: String) { addItemToOrder(productVariantId: $v, quantity: $q, customFields: { suiteParticipant: $p }) { __typename ... on OrderInterceptorError { interceptorError } ... on ErrorResult { errorCode message } } }';
  const cancel =
    'mutation ($id: ID!) { cancelOrder(input: { orderId: $id, reason: "test", cancelShipping: true }) { __typename ... on Order { state } ... on ErrorResult { errorCode message } } }';

  /** Adds a monitor arm (a ticket with `participant`) to the caller's active order, unless `add` is false, and takes it to ArrangingPayment; answers transitionOrderToState. */
  const toArrangingPayment = async (headers: Record<string, string>, participant?: string, add = true) => {
    if (add) {
      const added = await client.gql('shop-api', addItem, { v: armVariantId, q: 1, p: participant ?? null }, headers);
      expect(added.data?.addItemToOrder.__typename, JSON.stringify(added)).to.equal('Order');
    }
    await client.gql('shop-api', address, {}, headers);
    const methods = await client.gql('shop-api', '{ eligibleShippingMethods { id } }', {}, headers);
    await client.gql(
      'shop-api',
      'mutation ($id: [ID!]!) { setOrderShippingMethod(shippingMethodId: $id) { __typename } }',
      { id: [methods.data.eligibleShippingMethods[0].id] },
      headers,
    );
    return (await client.gql('shop-api', toPayment, {}, headers)).data.transitionOrderToState as {
      __typename: string;
      state?: string;
      transitionError?: string;
    };
  };
  const placedId = (answer: GqlAnswer) => client.shop.state.ids.toPlugin(answer.data.addPaymentToOrder.id);
  const refusalOf = (answer: GqlAnswer) => answer.errors?.[0]?.message ?? '';

  /** A new Vendure customer with a verified login (Admin API), logged in to the Shop API. */
  const newCustomer = async (name: string) => {
    const email = `${name.toLowerCase()}-${newId().slice(0, 8)}@customers.test`;
    const created = await client.gql(
      'admin-api',
      'mutation ($input: CreateCustomerInput!) { createCustomer(input: $input, password: "secret-2026") { __typename ... on Customer { id } } }',
      { input: { emailAddress: email, firstName: name, lastName: 'Customer' } },
      admin,
    );
    expect(created.data.createCustomer.__typename, JSON.stringify(created)).to.equal('Customer');
    return Object.assign(bearer(await client.vendureLogin('shop-api', email, 'secret-2026')), {
      customerId: created.data.createCustomer.id as string,
    });
  };

  before(async function () {
    this.timeout(240_000);
    client = await bootShop({ label: 'vendure_placement', runJobs: false });
    const { data } = await client.gql('shop-api', '{ product(slug: "monitor-arm") { variants { id } } }');
    armVariantId = data.product.variants[0].id;
    admin = bearer(await client.vendureLogin('admin-api', 'superadmin', 'superadmin'));
  });

  after(async function () {
    this.timeout(60_000);
    await client?.close();
  });

  describe('budgets', () => {
    let companyAdmin: Record<string, string>;
    let approver: Record<string, string>;
    let budgetId: string;
    let firstOrder: { id: string; vendureId: string };
    const used = async () =>
      (await client.rest('GET', `/store-api/budget/${budgetId}`, companyAdmin)).body.used as number;

    before(async () => {
      companyAdmin = bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
      approver = await client.employeeHeaders(DEMO_APPROVER.email, DEMO_APPROVER.password);
      const approverId = (await client.rest('GET', '/store-api/context', approver)).body.actor.id as string;
      const created = await client.rest('POST', '/store-api/budget', companyAdmin, {
        name: 'Desk things',
        amount: 100,
        periodType: 'monthly',
        employeeIds: [approverId],
        allowApproval: false,
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      budgetId = created.body.budget.id;
    });

    it("the demo purchaser's budget counts in the channel's currency, so it governs their orders", async () => {
      const purchaser = await client.employeeHeaders(DEMO_PURCHASER.email, DEMO_PURCHASER.password);
      const channelCurrency = (await client.rest('GET', '/store-api/context', purchaser)).body.salesChannel
        .currencyIso as string;
      expect(channelCurrency).to.equal('USD');
      const budgets = (await client.rest('GET', '/store-api/b2b/employee-budget', purchaser)).body.elements as Array<{
        name: string;
        currency: string;
      }>;
      expect(budgets.map((b) => [b.name, b.currency])).to.deep.equal([['Purchasing, monthly', channelCurrency]]);
    });

    it('a Shop API order (79.90 of a budget of 100.00) charges the budget; a second one over it is refused', async () => {
      expect(await toArrangingPayment(approver)).to.deep.equal({ __typename: 'Order', state: 'ArrangingPayment' });
      const paid = await client.gql('shop-api', pay, {}, approver);
      expect(paid.data?.addPaymentToOrder.state, JSON.stringify(paid)).to.equal('PaymentAuthorized');
      firstOrder = { id: placedId(paid), vendureId: paid.data.addPaymentToOrder.id };
      expect(await used()).to.equal(79.9);
      const orders = (await client.rest('GET', `/store-api/budget/${budgetId}/orders`, companyAdmin)).body;
      expect(JSON.stringify(orders)).to.contain(firstOrder.id);

      const second = await toArrangingPayment(approver);
      expect(second.transitionError, JSON.stringify(second)).to.match(/^SUITE__BUDGET_EXCEEDED: /);
      expect(await used()).to.equal(79.9);
    });

    it('the check runs again when Vendure places the order: over the budget by then, the payment is refused and nothing of it stays', async () => {
      // The second order got to payment while the budget was larger (as when a concurrent order places first) …
      expect(
        (await client.rest('PATCH', `/store-api/budget/${budgetId}`, companyAdmin, { amount: 200 })).status,
      ).to.equal(200);
      expect(await toArrangingPayment(approver, undefined, false)).to.deep.equal({
        __typename: 'Order',
        state: 'ArrangingPayment',
      });
      await client.rest('PATCH', `/store-api/budget/${budgetId}`, companyAdmin, { amount: 100 });
      const refused = await client.gql('shop-api', pay, {}, approver);
      expect(refused.data?.addPaymentToOrder ?? null, JSON.stringify(refused)).to.equal(null);
      expect(refusalOf(refused)).to.match(/^SUITE__BUDGET_EXCEEDED: The order exceeds the budget "Desk things"/);
      const active = await client.gql('shop-api', '{ activeOrder { state payments { id } } }', {}, approver);
      expect(active.data.activeOrder).to.deep.equal({ state: 'ArrangingPayment', payments: [] });
      expect(await used()).to.equal(79.9);
      await client.gql('shop-api', backToCart, {}, approver);
    });

    it('cancelling the placed order in Vendure frees its budget usage', async () => {
      const cancelled = await client.gql('admin-api', cancel, { id: firstOrder.vendureId }, admin);
      expect(cancelled.data.cancelOrder, JSON.stringify(cancelled)).to.deep.equal({
        __typename: 'Order',
        state: 'Cancelled',
      });
      expect(await used()).to.equal(0);
      expect(
        JSON.stringify((await client.rest('GET', `/store-api/budget/${budgetId}/orders`, companyAdmin)).body),
      ).to.not.contain(firstOrder.id);
      // The cart that was over the budget fits now.
      expect(await toArrangingPayment(approver, undefined, false)).to.deep.equal({
        __typename: 'Order',
        state: 'ArrangingPayment',
      });
      await client.gql('shop-api', backToCart, {}, approver);
      await client.rest('PATCH', `/store-api/budget/${budgetId}`, companyAdmin, { active: false });
    });
  });

  describe('ten employees of one company checking out at once', () => {
    it('each from their own cart, against a company budget that fits two orders: exactly two placed', async () => {
      const companyAdmin = bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
      const approver = await client.employeeHeaders(DEMO_APPROVER.email, DEMO_APPROVER.password);
      const roleId = (await client.rest('GET', '/store-api/context', approver)).body.employee.roleId as string;
      const budget = await client.rest('POST', '/store-api/budget', companyAdmin, {
        name: 'Company-wide',
        amount: 200,
        periodType: 'monthly',
        allowApproval: false,
      });
      expect(budget.status, JSON.stringify(budget.body)).to.equal(200);
      try {
        // The login route allows ten logins a minute from one address: the counters start afresh, as after a minute.
        await client.shop.state.db('rate_limit_counters').delete();
        const employees: Array<Record<string, string>> = [];
        for (let i = 0; i < 10; i++) {
          const email = `buyer-${i}-${newId().slice(0, 6)}@demo-company.test`;
          const created = await client.rest('POST', '/store-api/b2b/employee', companyAdmin, {
            email,
            firstName: `Buyer ${i}`,
            lastName: 'Concurrent',
            roleId,
            password: 'concurrent-2026',
          });
          expect(created.status, JSON.stringify(created.body)).to.equal(200);
          employees.push(await client.employeeHeaders(email, 'concurrent-2026'));
        }
        // Each takes their own cart (79.90) to payment: nothing is charged yet, so all pass the check …
        for (const headers of employees)
          expect(await toArrangingPayment(headers)).to.deep.equal({ __typename: 'Order', state: 'ArrangingPayment' });
        const carts = await Promise.all(
          employees.map(
            async (headers) =>
              (await client.gql('shop-api', '{ activeOrder { id } }', {}, headers)).data.activeOrder.id as string,
          ),
        );
        expect(new Set(carts).size).to.equal(10);
        // … and all pay at the same time: the placement checks and charges the budget under its row lock.
        const answers = await Promise.all(employees.map((headers) => client.gql('shop-api', pay, {}, headers)));
        const placed = answers.filter((answer) => answer.data?.addPaymentToOrder?.state === 'PaymentAuthorized');
        const refused = answers.filter((answer) => /^SUITE__BUDGET_EXCEEDED: /.test(refusalOf(answer)));
        expect(placed.length, JSON.stringify(answers)).to.equal(2);
        expect(refused.length, JSON.stringify(answers)).to.equal(8);
        const charged = (await client.rest('GET', `/store-api/budget/${budget.body.budget.id}`, companyAdmin)).body;
        expect(charged).to.include({ used: 159.8 });
        const budgetOrders = await client.shop.state
          .db('suite_budget_orders')
          .where({ budget_id: budget.body.budget.id })
          .pluck('order_id');
        expect(budgetOrders.sort()).to.deep.equal(placed.map(placedId).sort());
      } finally {
        await client.rest('PATCH', `/store-api/budget/${budget.body.budget.id}`, companyAdmin, { active: false });
      }
    });
  });

  describe('orders.search', () => {
    it("latestPerCustomer answers each customer's newest placed order only (the representative's last orders)", async () => {
      const placeOne = async (customer: Record<string, string>) => {
        expect((await toArrangingPayment(customer)).state).to.equal('ArrangingPayment');
        const paid = await client.gql('shop-api', pay, {}, customer);
        expect(paid.data?.addPaymentToOrder.state, JSON.stringify(paid)).to.equal('PaymentAuthorized');
        return placedId(paid);
      };
      const { customerId: leaId, ...lea } = await newCustomer('Lea');
      const { customerId: maxId, ...max } = await newCustomer('Max');
      await placeOne(lea);
      const leasNewest = await placeOne(lea);
      const maxsOnly = await placeOne(max);
      const { db, runtime, ids } = client.shop.state;
      const customerIds = [ids.toPlugin(leaId), ids.toPlugin(maxId)];
      const latest = await runtime.orders.search(db, { customerIds, latestPerCustomer: true }, {});
      expect(latest.elements.map((o) => o.id).sort()).to.deep.equal([leasNewest, maxsOnly].sort());
      expect(latest.total).to.equal(2);
      expect((await runtime.orders.search(db, { customerIds }, {})).total).to.equal(3);
    });
  });

  describe('event tickets', () => {
    let eventId: string;
    const participants = () =>
      client.shop.state
        .db('b2b_event_participants')
        .where({ event_id: eventId })
        .orderBy('created_at')
        .select('id', 'status', 'order_id', 'email');
    const registeredCount = async (headers: Record<string, string>) =>
      (await client.rest('GET', `/store-api/event/${eventId}`, headers)).body.registeredCount as number;
    const person = (firstName: string) =>
      JSON.stringify({ firstName, lastName: 'Example', email: `${firstName.toLowerCase()}@participants.test` });

    beforeEach(async () => {
      // An event with two seats and no waiting list on the monitor arm (staff would create it in the event manager).
      await client.shop.state
        .db('b2b_events')
        .where({ product_id: client.shop.state.ids.toPlugin(armVariantId) })
        .delete();
      eventId = await insertPublishedEvent(client.shop.state.db, client.shop.state.ids.toPlugin(armVariantId), {
        participantLimit: 2,
      });
    });

    it('a ticket bought through the Shop API is a participant record and takes a seat; cancelling the order frees it', async () => {
      const customer = await newCustomer('Tina');
      expect(await toArrangingPayment(customer, person('Tina'))).to.deep.equal({
        __typename: 'Order',
        state: 'ArrangingPayment',
      });
      const paid = await client.gql('shop-api', pay, {}, customer);
      expect(paid.data?.addPaymentToOrder.state, JSON.stringify(paid)).to.equal('PaymentAuthorized');
      const orderId = placedId(paid);

      const [record, ...others] = await participants();
      expect(others).to.deep.equal([]);
      expect(record).to.deep.include({ status: 'registered', order_id: orderId, email: 'tina@participants.test' });
      expect(await registeredCount(customer)).to.equal(1);
      // The order's line names the record the hook wrote.
      const read = await client.rest('GET', `/store-api/b2b/employee-order/${orderId}`, customer);
      expect(read.body.lineItems[0].payload.participant.id).to.equal(record!.id);

      const cancelled = await client.gql('admin-api', cancel, { id: paid.data.addPaymentToOrder.id }, admin);
      expect(cancelled.data.cancelOrder, JSON.stringify(cancelled)).to.deep.equal({
        __typename: 'Order',
        state: 'Cancelled',
      });
      expect((await participants()).map((p) => p.status)).to.deep.equal(['canceled']);
      expect(await registeredCount(customer)).to.equal(0);
    });

    it('six customers paying a ticket at once for two seats without a waiting list: two orders placed, four refused', async () => {
      const customers = await Promise.all(
        ['Ada', 'Ben', 'Cid', 'Dot', 'Eli', 'Fay'].map(async (name) => {
          const { customerId: _id, ...headers } = await newCustomer(name);
          return headers;
        }),
      );
      // All six pass the check on the way to payment (no seat is taken yet) …
      for (const [index, customer] of customers.entries())
        expect(
          await toArrangingPayment(customer, person(['Ada', 'Ben', 'Cid', 'Dot', 'Eli', 'Fay'][index]!)),
        ).to.deep.equal({ __typename: 'Order', state: 'ArrangingPayment' });
      // … and pay at the same time: the placement checks the seats again under the event's lock.
      const answers = await Promise.all(customers.map((customer) => client.gql('shop-api', pay, {}, customer)));
      const placed = answers.filter((answer) => answer.data?.addPaymentToOrder?.state === 'PaymentAuthorized');
      const refused = answers.filter((answer) => /^SUITE__EVENT_FULL: /.test(refusalOf(answer)));
      expect(placed.length, JSON.stringify(answers)).to.equal(2);
      expect(refused.length, JSON.stringify(answers)).to.equal(4);
      const records = await participants();
      expect(records.map((p) => p.status)).to.deep.equal(['registered', 'registered']);
      expect(records.map((p) => p.order_id).sort()).to.deep.equal(placed.map(placedId).sort());
      expect(await registeredCount(customers[0]!)).to.equal(2);
    });

    it("an administrator's draft order (Admin API) is placed with the same check and hooks: a participant record, and refused once the seats are gone", async () => {
      const draftTicket = async (customerId: string, firstName: string) => {
        const draft = (await client.gql('admin-api', 'mutation { createDraftOrder { id } }', {}, admin)).data
          .createDraftOrder.id as string;
        expect(
          (
            await client.gql(
              'admin-api',
              'mutation ($o: ID!, $c: ID!) { setCustomerForDraftOrder(orderId: $o, customerId: $c) { __typename } }',
              { o: draft, c: customerId },
              admin,
            )
          ).data.setCustomerForDraftOrder.__typename,
        ).to.equal('Order');
        const added = await client.gql(
          'admin-api',
          'mutation ($o: ID!, $v: ID!, $p: String) { addItemToDraftOrder(orderId: $o, input: { productVariantId: $v, quantity: 1, customFields: { suiteParticipant: $p } }) { __typename } }',
          { o: draft, v: armVariantId, p: person(firstName) },
          admin,
        );
        expect(added.data?.addItemToDraftOrder.__typename, JSON.stringify(added)).to.equal('Order');
        await client.gql(
          'admin-api',
          'mutation ($o: ID!) { setDraftOrderShippingAddress(orderId: $o, input: { fullName: "Demo", streetLine1: "Hauptstr. 1", city: "Berlin", postalCode: "10115", countryCode: "DE" }) { __typename } }',
          { o: draft },
          admin,
        );
        const methods = await client.gql(
          'admin-api',
          'query ($o: ID!) { eligibleShippingMethodsForDraftOrder(orderId: $o) { id } }',
          { o: draft },
          admin,
        );
        await client.gql(
          'admin-api',
          'mutation ($o: ID!, $m: ID!) { setDraftOrderShippingMethod(orderId: $o, shippingMethodId: $m) { __typename } }',
          { o: draft, m: methods.data.eligibleShippingMethodsForDraftOrder[0].id },
          admin,
        );
        const arranged = await client.gql(
          'admin-api',
          'mutation ($o: ID!) { transitionOrderToState(id: $o, state: "ArrangingPayment") { __typename ... on Order { state } ... on OrderStateTransitionError { transitionError } } }',
          { o: draft },
          admin,
        );
        expect(arranged.data.transitionOrderToState, JSON.stringify(arranged)).to.deep.equal({
          __typename: 'Order',
          state: 'ArrangingPayment',
        });
        const paid = await client.gql(
          'admin-api',
          'mutation ($o: ID!) { addManualPaymentToOrder(input: { orderId: $o, method: "invoice", transactionId: "bank-1", metadata: {} }) { __typename ... on Order { id state } ... on ErrorResult { errorCode message } } }',
          { o: draft },
          admin,
        );
        return { draft, paid };
      };
      const [first, second, third] = [await newCustomer('Gus'), await newCustomer('Hal'), await newCustomer('Ivy')];
      const placed = await draftTicket(first.customerId, 'Gus');
      expect(placed.paid.data?.addManualPaymentToOrder, JSON.stringify(placed.paid)).to.deep.equal({
        __typename: 'Order',
        id: placed.draft,
        state: 'PaymentSettled',
      });
      expect(await participants()).to.deep.equal([
        {
          id: (await participants())[0]!.id,
          status: 'registered',
          order_id: client.shop.state.ids.toPlugin(placed.draft),
          email: 'gus@participants.test',
        },
      ]);
      expect((await draftTicket(second.customerId, 'Hal')).paid.data?.addManualPaymentToOrder.state).to.equal(
        'PaymentSettled',
      );

      const refused = await draftTicket(third.customerId, 'Ivy');
      expect(refusalOf(refused.paid), JSON.stringify(refused.paid)).to.match(/^SUITE__EVENT_FULL: /);
      const order = await client.gql(
        'admin-api',
        'query ($o: ID!) { order(id: $o) { state payments { id } } }',
        { o: refused.draft },
        admin,
      );
      expect(order.data.order).to.deep.equal({ state: 'ArrangingPayment', payments: [] });
      expect((await participants()).map((p) => p.email)).to.deep.equal([
        'gus@participants.test',
        'hal@participants.test',
      ]);
    });
  });
});
