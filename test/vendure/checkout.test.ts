import { expect } from 'chai';
import { EventBus, OrderEvent, OrderPlacedEvent } from '@vendure/core';
import { DEMO_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { inTransaction } from '../../src/lib/db.js';
import { newId } from '../../src/lib/ids.js';
import { totalsOf } from '../../src/lib/line-items.js';
import { DEMO_APPROVER, DEMO_PURCHASER } from '../../src/plugin/employee/demo.js';
import { EMPLOYEES } from '../../src/plugin/employee/repository.js';
import { CUSTOMER_PRICES } from '../../src/plugin/customer-price/repository.js';
import { DEMO_REPRESENTATIVE } from '../../src/plugin/sales-representative/demo.js';
import { insertApproval, insertApprovalLines } from '../../src/plugin/order-approval/repository.js';
import { bearer, bootShop, type ShopClient } from './helpers/shop.js';

/**
 * checkout.placeOrder on Vendure: approval execute and offer accept place real Vendure orders
 * through Vendure's OrderService, in the plugin's transaction (place-order.ts, shared-transaction.ts).
 */
describe('Suite B2B inside a Vendure shop: orders the plugin places', function () {
  this.timeout(120_000);
  let client: ShopClient;

  /** What Vendure's EventBus delivered to subscribers (it holds events until their transaction ended). */
  const delivered = { placed: [] as string[], created: [] as string[] };

  before(async function () {
    this.timeout(240_000);
    client = await bootShop({ label: 'vendure-checkout' });
    const eventBus = client.shop.app.get(EventBus);
    eventBus.ofType(OrderPlacedEvent).subscribe((event) => delivered.placed.push(event.order.code));
    eventBus
      .ofType(OrderEvent)
      .subscribe((event) => event.type === 'created' && delivered.created.push(String(event.entity.id)));
  });

  after(async function () {
    this.timeout(60_000);
    await client?.close();
  });

  const ids = () => client.shop.state.ids;
  const admin = async () => bearer(await client.vendureLogin('admin-api', 'superadmin', 'superadmin'));
  const companyAdmin = async () =>
    bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
  const actorId = async (headers: Record<string, string>) =>
    (await client.rest('GET', '/store-api/context', headers)).body.actor.id as string;
  const variantOf = async (slug: string) => {
    const { data } = await client.gql('shop-api', `{ product(slug: "${slug}") { variants { id sku name price } } }`);
    return data.product.variants[0] as { id: string; sku: string; name: string; price: number };
  };
  /** Vendure's placed orders of the demo customer, read through Vendure's Admin API. */
  const vendureOrders = async () => {
    const { data } = await client.gql(
      'admin-api',
      '{ orders(options: { filter: { customerLastName: { eq: "Buyer" }, active: { eq: false } } }) { items { id code state orderPlacedAt totalWithTax lines { productVariant { id sku } quantity unitPrice } } } }',
      {},
      await admin(),
    );
    return data.orders.items as Array<{
      id: string;
      code: string;
      state: string;
      orderPlacedAt: string | null;
      totalWithTax: number;
      lines: Array<{ productVariant: { id: string; sku: string }; quantity: number; unitPrice: number }>;
    }>;
  };
  const vendureOrderRows = async () =>
    (await client.shop.state.db('order').whereNotNull('orderPlacedAt').count({ n: '*' }).first())!.n;

  /**
   * A pending approval of the purchaser, as POST /order-approval/create writes it from a cart, for
   * lines no cart holds here (one approval per cart: the purchaser's Vendure active order holds the
   * first test's lines; Vendure refuses 1,200 of an item in a cart).
   */
  const seedApproval = async (
    requester: { id: string },
    cartToken: string,
    lines: Array<{ variant: { id: string; sku: string; name: string; price: number }; quantity: number }>,
  ) => {
    const { state } = client.shop;
    const customerId = ids().toPlugin(
      (await state.db('customer').where({ emailAddress: DEMO_CUSTOMER.email }).first('id')).id,
    );
    const approverId = (await state.db(EMPLOYEES).where({ email: DEMO_APPROVER.email }).first('id')).id as string;
    const priced = lines.map(({ variant, quantity }) => ({
      lineItemId: newId(),
      productId: ids().toPlugin(variant.id),
      productNumber: variant.sku,
      label: variant.name,
      type: 'product',
      quantity,
      unitNet: variant.price,
      totalNet: variant.price * quantity,
      taxRateBp: 1900,
      payload: {},
    }));
    const id = newId();
    const channel = await state.salesChannel();
    await inTransaction(state.db, async (trx) => {
      await insertApproval(trx, {
        id,
        approvalNumber: await state.runtime.nextNumber(trx, 'order-approval', 'OA'),
        customerId,
        salesChannelId: channel.id,
        requester: { type: 'employee', id: requester.id, name: 'Purchaser', email: DEMO_PURCHASER.email },
        levels: [
          {
            level: 1,
            name: 'Approvers',
            type: 'employees',
            mode: 'n-of',
            nValue: 1,
            approverEmployeeIds: [approverId],
            startedAt: null,
          },
        ],
        reasons: ['role'],
        cartToken,
        customerComment: 'Paper for the office',
        billingAddressId: null,
        shippingAddressId: null,
        currencyIso: channel.currencyIso,
        totals: totalsOf(priced),
      });
      await insertApprovalLines(trx, id, priced);
    });
    return id;
  };

  describe('approval execute', () => {
    it("refuses the purchaser's checkout for approval; the approved approval, executed, is a real Vendure order in Vendure's Admin API and the plugin's order list", async () => {
      const purchaser = await client.employeeHeaders(DEMO_PURCHASER.email, DEMO_PURCHASER.password);
      const paper = await variantOf('copy-paper-a4');
      expect(
        (
          await client.gql(
            'shop-api',
            'mutation ($v: ID!) { addItemToOrder(productVariantId: $v, quantity: 3) { __typename } }',
            { v: paper.id },
            purchaser,
          )
        ).data.addItemToOrder.__typename,
      ).to.equal('Order');
      await client.gql(
        'shop-api',
        'mutation { setOrderShippingAddress(input: { fullName: "Demo Company", streetLine1: "Hauptstr. 1", city: "Berlin", postalCode: "10115", countryCode: "DE" }) { __typename } }',
        {},
        purchaser,
      );
      const methods = await client.gql('shop-api', '{ eligibleShippingMethods { id } }', {}, purchaser);
      await client.gql(
        'shop-api',
        'mutation ($id: [ID!]!) { setOrderShippingMethod(shippingMethodId: $id) { __typename } }',
        { id: [methods.data.eligibleShippingMethods[0].id] },
        purchaser,
      );
      const refused = await client.gql(
        'shop-api',
        'mutation { transitionOrderToState(state: "ArrangingPayment") { __typename ... on OrderStateTransitionError { transitionError } } }',
        {},
        purchaser,
      );
      expect(refused.data.transitionOrderToState.transitionError, JSON.stringify(refused)).to.match(
        /^SUITE__ORDER_APPROVAL_REQUIRED/,
      );
      const active = (await client.gql('shop-api', '{ activeOrder { id code } }', {}, purchaser)).data.activeOrder as {
        id: string;
        code: string;
      };
      const activeCode = active.code;

      // The purchaser asks for approval of that cart (the Vendure active order).
      const purchaserId = await actorId(purchaser);
      const created = await client.rest('POST', '/store-api/order-approval/create', purchaser, {
        cartToken: ids().toPlugin(active.id),
        customerComment: 'Paper for the office',
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const approvalId = created.headers.get('suite-order-approval-id')!;
      const approver = { 'suite-context-token': await client.pluginLogin(DEMO_APPROVER.email, DEMO_APPROVER.password) };
      const approved = await client.rest('POST', `/store-api/b2b/order-approval/${approvalId}/approve`, approver, {
        comment: 'Fine',
      });
      expect(approved.status, JSON.stringify(approved.body)).to.equal(200);

      const before = await vendureOrderRows();
      const executed = await client.rest('POST', `/store-api/b2b/order-approval/${approvalId}/execute`, purchaser, {});
      expect(executed.status, JSON.stringify(executed.body)).to.equal(200);
      const result = executed.body.executionResult;
      expect(result).to.include({ success: true, requiresPaymentAction: false });
      expect(Number(await vendureOrderRows())).to.equal(Number(before) + 1);

      // The order in Vendure's Admin API: its code, placed with the invoice payment, the 3 packs at the approved price.
      const order = (await vendureOrders()).find((o) => o.code === result.orderNumber);
      expect(order, JSON.stringify(await vendureOrders())).to.not.equal(undefined);
      expect(ids().toPlugin(order!.id)).to.equal(result.orderId);
      expect(order!.state).to.equal('PaymentAuthorized');
      expect(order!.orderPlacedAt).to.be.a('string');
      expect(order!.lines).to.deep.equal([
        { productVariant: { id: paper.id, sku: paper.sku }, quantity: 3, unitPrice: paper.price },
      ]);

      // The plugin's order list (orders.* on Vendure's tables): placed by the purchaser.
      const listed = await client.rest('POST', '/store-api/b2b/employee-orders', await companyAdmin(), {});
      const mine = listed.body.orders.elements.find(
        (o: { orderNumber: string }) => o.orderNumber === result.orderNumber,
      );
      expect(mine, JSON.stringify(listed.body)).to.not.equal(undefined);
      expect(mine.placedBy).to.deep.equal({ type: 'employee', id: purchaserId });
      expect(
        mine.lineItems.map((l: { quantity: number; unitPrice: number }) => [l.quantity, l.unitPrice]),
      ).to.deep.equal([[3, paper.price / 100]]);

      // Vendure's subscribers got the order's events once the plugin's transaction had committed.
      for (let i = 0; i < 50 && !delivered.placed.includes(result.orderNumber); i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(delivered.placed).to.include(result.orderNumber);
      expect(delivered.created).to.include(order!.id);

      // The approval is ordered; executing again answers the same order and places none.
      const detail = await client.rest('GET', `/store-api/b2b/order-approval/${approvalId}`, purchaser);
      expect(detail.body.status).to.equal('ordered');
      const again = await client.rest('POST', `/store-api/b2b/order-approval/${approvalId}/execute`, purchaser, {});
      expect(again.body.executionResult).to.deep.equal(result);
      expect(Number(await vendureOrderRows())).to.equal(Number(before) + 1);
      // The refused checkout is still the customer's cart (Vendure's active order), untouched.
      expect(
        (await client.gql('shop-api', '{ activeOrder { code state } }', {}, purchaser)).data.activeOrder,
      ).to.deep.equal({ code: activeCode, state: 'AddingItems' });
    });

    it('20 concurrent executes of one approval place exactly one Vendure order (the conditional write on the approval row)', async () => {
      const purchaser = {
        'suite-context-token': await client.pluginLogin(DEMO_PURCHASER.email, DEMO_PURCHASER.password),
      };
      const approver = { 'suite-context-token': await client.pluginLogin(DEMO_APPROVER.email, DEMO_APPROVER.password) };
      const arm = await variantOf('monitor-arm');
      const approvalId = await seedApproval({ id: await actorId(purchaser) }, `race-${newId()}`, [
        { variant: arm, quantity: 2 },
      ]);
      expect(
        (await client.rest('POST', `/store-api/b2b/order-approval/${approvalId}/approve`, approver, {})).status,
      ).to.equal(200);
      const before = Number(await vendureOrderRows());

      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          client.rest('POST', `/store-api/b2b/order-approval/${approvalId}/execute`, purchaser, { skipRefresh: true }),
        ),
      );
      expect(
        results.map((r) => r.status),
        JSON.stringify(results.find((r) => r.status !== 200)?.body),
      ).to.satisfy((statuses: number[]) => statuses.every((s) => s === 200));
      const orderIds = new Set(results.map((r) => r.body.executionResult.orderId as string));
      expect(orderIds.size).to.equal(1);
      expect(Number(await vendureOrderRows())).to.equal(before + 1);
      const [orderId] = [...orderIds];
      const withArm = (await vendureOrders()).filter((o) => o.lines.some((l) => l.productVariant.id === arm.id));
      expect(withArm.map((o) => ids().toPlugin(o.id))).to.deep.equal([orderId]);
      // The winner's claim is the only write that moved the approval: ordered, naming that order.
      const row = await client.shop.state
        .db('suite_order_approvals')
        .where({ id: approvalId })
        .first('status', 'order_id');
      expect(row).to.deep.equal({ status: 'ordered', order_id: orderId });
    });

    it('an order Vendure refuses half-way leaves nothing: no Vendure order, the approval still approved (one transaction)', async () => {
      const purchaser = {
        'suite-context-token': await client.pluginLogin(DEMO_PURCHASER.email, DEMO_PURCHASER.password),
      };
      const approver = { 'suite-context-token': await client.pluginLogin(DEMO_APPROVER.email, DEMO_APPROVER.password) };
      const paper = await variantOf('copy-paper-a4');
      const arm = await variantOf('monitor-arm');
      // Enough stock for 1,200 arms, but Vendure takes at most 999 of an item per order line (orderLineItemsLimit):
      // Vendure creates the order and adds the paper, then refuses the arms.
      const updated = await client.gql(
        'admin-api',
        'mutation ($id: ID!) { updateProductVariants(input: [{ id: $id, stockOnHand: 5000 }]) { id } }',
        { id: arm.id },
        await admin(),
      );
      expect(updated.errors, JSON.stringify(updated.errors)).to.equal(undefined);
      const approvalId = await seedApproval({ id: await actorId(purchaser) }, `limit-${newId()}`, [
        { variant: paper, quantity: 1 },
        { variant: arm, quantity: 1200 },
      ]);
      expect(
        (await client.rest('POST', `/store-api/b2b/order-approval/${approvalId}/approve`, approver, {})).status,
      ).to.equal(200);
      const orderRows = async () => Number((await client.shop.state.db('order').count({ n: '*' }).first())!.n);
      const before = await orderRows();
      const createdBefore = delivered.created.length;

      const refused = await client.rest('POST', `/store-api/b2b/order-approval/${approvalId}/execute`, purchaser, {});
      expect(refused.status, JSON.stringify(refused.body)).to.equal(400);
      expect(refused.body.errors[0].code).to.equal('SUITE__ORDER_APPROVAL_EXECUTION_FAILED');
      expect(refused.body.errors[0].detail).to.match(/Vendure refused the order/);
      expect(await orderRows()).to.equal(before);
      expect((await client.rest('GET', `/store-api/b2b/order-approval/${approvalId}`, purchaser)).body.status).to.equal(
        'approved',
      );
      // The rolled-back order's "created" event never reaches Vendure's subscribers.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(delivered.created.length).to.equal(createdBefore);
    });
  });

  describe('offer accept and budgets', () => {
    it('an offer the customer accepts is a Vendure order at the offered prices, placed by the customer', async () => {
      const customer = await companyAdmin();
      const arm = await variantOf('monitor-arm');
      // The customer's default address in Vendure: the order's shipping and billing address.
      const address = await client.gql(
        'shop-api',
        'mutation { createCustomerAddress(input: { fullName: "Bea Buyer", company: "Demo Company", streetLine1: "Lagerweg 5", city: "Hamburg", postalCode: "20095", countryCode: "DE", defaultShippingAddress: true, defaultBillingAddress: true }) { id } }',
        {},
        customer,
      );
      expect(address.errors, JSON.stringify(address.errors)).to.equal(undefined);
      const requested = await client.rest('POST', '/store-api/offer-item-request', customer, {
        subject: 'Arms for the new desks',
        lineItems: [{ productId: ids().toPlugin(arm.id), quantity: 4 }],
      });
      expect(requested.status, JSON.stringify(requested.body)).to.equal(200);
      const offerId = requested.body.id as string;
      const representative = {
        'suite-context-token': await client.pluginLogin(DEMO_REPRESENTATIVE.email, DEMO_REPRESENTATIVE.password),
      };
      const priced = await client.rest('PUT', `/store-api/offer/${offerId}`, representative, {
        lineItems: [{ id: requested.body.lineItems[0].id, unitPrice: 59.5 }],
      });
      expect(priced.status, JSON.stringify(priced.body)).to.equal(200);
      const sent = await client.rest('POST', `/store-api/offer-mail/${offerId}`, representative, {});
      expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
      expect((await client.rest('GET', `/store-api/offer/${offerId}`, customer)).body.status).to.equal('open');

      const accepted = await client.rest('PUT', `/store-api/offer/${offerId}`, customer, {
        action: 'accept',
        comment: 'Deliver to gate 3',
      });
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
      expect(accepted.body.status).to.equal('accepted');
      const orderId = accepted.body.orderId as string;
      const order = (await vendureOrders()).find((o) => ids().toPlugin(o.id) === orderId);
      expect(order, JSON.stringify(accepted.body)).to.not.equal(undefined);
      expect(order!.state).to.equal('PaymentAuthorized');
      expect(order!.lines).to.deep.equal([
        { productVariant: { id: arm.id, sku: arm.sku }, quantity: 4, unitPrice: 5950 },
      ]);
      expect(arm.price).to.not.equal(5950);
      const addresses = await client.gql(
        'admin-api',
        '{ order(id: "' +
          order!.id +
          '") { shippingAddress { company streetLine1 city countryCode } billingAddress { fullName postalCode } } }',
        {},
        await admin(),
      );
      expect(addresses.data.order).to.deep.equal({
        shippingAddress: { company: 'Demo Company', streetLine1: 'Lagerweg 5', city: 'Hamburg', countryCode: 'DE' },
        billingAddress: { fullName: 'Bea Buyer', postalCode: '20095' },
      });

      const read = await client.rest('GET', `/store-api/b2b/employee-order/${orderId}`, customer);
      expect(read.status, JSON.stringify(read.body)).to.equal(200);
      expect(read.body.placedBy.type).to.equal('customer');
      expect(read.body.lineItems[0]).to.include({ quantity: 4, unitPrice: 59.5 });
    });

    it("a budget without approval refuses an employee's overspend in Vendure's checkout (transitionError)", async () => {
      const approver = await client.employeeHeaders(DEMO_APPROVER.email, DEMO_APPROVER.password);
      const created = await client.rest('POST', '/store-api/budget', await companyAdmin(), {
        name: 'Petty cash',
        amount: 1,
        periodType: 'monthly',
        employeeIds: [await actorId(approver)],
        allowApproval: false,
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const paper = await variantOf('copy-paper-a4');
      expect(
        (
          await client.gql(
            'shop-api',
            'mutation ($v: ID!) { addItemToOrder(productVariantId: $v, quantity: 1) { __typename } }',
            { v: paper.id },
            approver,
          )
        ).data.addItemToOrder.__typename,
      ).to.equal('Order');
      await client.gql(
        'shop-api',
        'mutation { setOrderShippingAddress(input: { fullName: "Demo Company", streetLine1: "Hauptstr. 1", city: "Berlin", postalCode: "10115", countryCode: "DE" }) { __typename } }',
        {},
        approver,
      );
      const methods = await client.gql('shop-api', '{ eligibleShippingMethods { id } }', {}, approver);
      await client.gql(
        'shop-api',
        'mutation ($id: [ID!]!) { setOrderShippingMethod(shippingMethodId: $id) { __typename } }',
        { id: [methods.data.eligibleShippingMethods[0].id] },
        approver,
      );
      const refused = await client.gql(
        'shop-api',
        'mutation { transitionOrderToState(state: "ArrangingPayment") { __typename ... on OrderStateTransitionError { transitionError } } }',
        {},
        approver,
      );
      expect(refused.data.transitionOrderToState.transitionError, JSON.stringify(refused)).to.match(
        /^SUITE__BUDGET_EXCEEDED: The order exceeds the budget "Petty cash"/,
      );
      expect((await client.gql('shop-api', '{ activeOrder { state } }', {}, approver)).data.activeOrder.state).to.equal(
        'AddingItems',
      );
    });
  });

  describe("Vendure's deletions reach the plugin (the contract's *.deleted events)", () => {
    const gqlAdmin = async (query: string, variables: Record<string, unknown> = {}) => {
      const answer = await client.gql('admin-api', query, variables, await admin());
      expect(answer.errors, JSON.stringify(answer.errors)).to.equal(undefined);
      return answer.data;
    };
    const price = async (target: { customerId?: string; customerGroupId?: string }, productId: string) => {
      const res = await client.rest('POST', '/b2b-admin-api/suite-customer-price', await admin(), {
        ...target,
        productId,
        price: 9.99,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    };
    const pricesOf = async (column: string, id: string) =>
      Number((await client.shop.state.db(CUSTOMER_PRICES).where(column, id).count({ n: '*' }).first())!.n);
    const demoCustomerId = async () =>
      ids().toPlugin(
        (await client.shop.state.db('customer').where({ emailAddress: DEMO_CUSTOMER.email }).first('id')).id,
      );
    const newProduct = async (slug: string) => {
      const product = await gqlAdmin(
        'mutation ($slug: String!) { createProduct(input: { translations: [{ languageCode: en, name: $slug, slug: $slug, description: "" }] }) { id } }',
        { slug },
      );
      const variants = await gqlAdmin(
        'mutation ($p: ID!, $sku: String!) { createProductVariants(input: [{ productId: $p, sku: $sku, price: 1500, stockOnHand: 10, translations: [{ languageCode: en, name: $sku }] }]) { id } }',
        { p: product.createProduct.id, sku: `${slug}-1` },
      );
      // Vendure indexes the new product in jobs (on SQLite they hold the write lock the plugin's next write waits for).
      await client.settleJobs();
      return {
        productId: product.createProduct.id as string,
        variantId: variants.createProductVariants[0].id as string,
      };
    };

    it("ProductEvent (deleted): deleting a Vendure product deletes the plugin's rows of its variants (product.deleted)", async () => {
      const { productId, variantId } = await newProduct('event-stapler');
      const paper = await variantOf('copy-paper-a4');
      const customerId = await demoCustomerId();
      await price({ customerId }, ids().toPlugin(variantId));
      await price({ customerId }, ids().toPlugin(paper.id));
      expect(await pricesOf('product_id', ids().toPlugin(variantId))).to.equal(1);
      expect(
        (await gqlAdmin('mutation ($id: ID!) { deleteProduct(id: $id) { result } }', { id: productId })).deleteProduct
          .result,
      ).to.equal('DELETED');
      // Gone when Vendure's mutation answers: the handlers ran in its transaction.
      expect(await pricesOf('product_id', ids().toPlugin(variantId))).to.equal(0);
      expect(await pricesOf('product_id', ids().toPlugin(paper.id))).to.equal(1);
    });

    it("ProductVariantEvent (deleted): deleting a variant deletes the plugin's rows of that product (product.deleted)", async () => {
      const { variantId } = await newProduct('event-tape');
      await price({ customerId: await demoCustomerId() }, ids().toPlugin(variantId));
      expect(
        (await gqlAdmin('mutation ($id: ID!) { deleteProductVariant(id: $id) { result } }', { id: variantId }))
          .deleteProductVariant.result,
      ).to.equal('DELETED');
      // Gone when Vendure's mutation answers: the handlers ran in its transaction.
      expect(await pricesOf('product_id', ids().toPlugin(variantId))).to.equal(0);
    });

    it("CustomerEvent (deleted): deleting a Vendure customer deletes the plugin's rows of that customer (customer.deleted)", async () => {
      const created = await gqlAdmin(
        'mutation { createCustomer(input: { emailAddress: "leaving@example.test", firstName: "Lea", lastName: "Ving" }) { __typename ... on Customer { id } } }',
      );
      const customerId = ids().toPlugin(created.createCustomer.id);
      const paper = await variantOf('copy-paper-a4');
      await price({ customerId }, ids().toPlugin(paper.id));
      expect(await pricesOf('customer_id', customerId)).to.equal(1);
      expect(
        (
          await gqlAdmin('mutation ($id: ID!) { deleteCustomer(id: $id) { result } }', {
            id: created.createCustomer.id,
          })
        ).deleteCustomer.result,
      ).to.equal('DELETED');
      // Gone when Vendure's mutation answers: the handlers ran in its transaction.
      expect(await pricesOf('customer_id', customerId)).to.equal(0);
      expect(await pricesOf('customer_id', await demoCustomerId())).to.be.greaterThan(0);
    });

    it("CustomerGroupEvent (deleted): deleting a customer group deletes the plugin's rows of that group (customer_group.deleted)", async () => {
      const created = await gqlAdmin('mutation { createCustomerGroup(input: { name: "Short-lived" }) { id } }');
      const groupId = ids().toPlugin(created.createCustomerGroup.id);
      const paper = await variantOf('copy-paper-a4');
      await price({ customerGroupId: groupId }, ids().toPlugin(paper.id));
      expect(await pricesOf('customer_group_id', groupId)).to.equal(1);
      expect(
        (
          await gqlAdmin('mutation ($id: ID!) { deleteCustomerGroup(id: $id) { result } }', {
            id: created.createCustomerGroup.id,
          })
        ).deleteCustomerGroup.result,
      ).to.equal('DELETED');
      // Gone when Vendure's mutation answers: the handlers ran in its transaction.
      expect(await pricesOf('customer_group_id', groupId)).to.equal(0);
    });
  });
});
