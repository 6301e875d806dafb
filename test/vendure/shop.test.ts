import { expect } from 'chai';
import { DEMO_CUSTOMER, PARTNER_CUSTOMER, PARTNER_GROUP, type RunningShop } from '../../examples/vendure-shop/shop.js';
import { DEMO_APPROVER, DEMO_PURCHASER } from '../../src/plugin/employee/demo.js';
import { bearer, bootShop, type ShopClient } from './helpers/shop.js';

/**
 * The unchanged plugin inside a real Vendure 3.7 shop (examples/vendure-shop), booted once for this
 * file on its own database (SQLite file, or a MariaDB database beside the test database).
 */
describe('Suite B2B inside a Vendure shop', function () {
  this.timeout(60_000);
  let client: ShopClient;
  let shop: RunningShop;
  const gql: ShopClient['gql'] = (...args) => client.gql(...args);
  const rest: ShopClient['rest'] = (...args) => client.rest(...args);
  const vendureLogin: ShopClient['vendureLogin'] = (...args) => client.vendureLogin(...args);
  const pluginLogin: ShopClient['pluginLogin'] = (...args) => client.pluginLogin(...args);

  before(async function () {
    this.timeout(240_000);
    client = await bootShop();
    shop = client.shop;
  });

  after(async function () {
    this.timeout(60_000);
    await client?.close();
  });

  describe('logins and permissions', () => {
    it('an employee logs in through the plugin login route; the role decides (403 without employee.read, 200 with)', async () => {
      const purchaser = await pluginLogin(DEMO_PURCHASER.email, DEMO_PURCHASER.password);
      const refused = await rest('POST', '/store-api/b2b/employees', { 'suite-context-token': purchaser }, {});
      expect(refused.status).to.equal(403);
      expect(refused.body.errors[0].code).to.equal('SUITE__PERMISSION_DENIED');

      const approver = await pluginLogin(DEMO_APPROVER.email, DEMO_APPROVER.password);
      const listed = await rest('POST', '/store-api/b2b/employees', { 'suite-context-token': approver }, {});
      expect(listed.status).to.equal(200);
      expect(listed.body.elements.map((e: { email: string }) => e.email).sort()).to.deep.equal([
        DEMO_APPROVER.email,
        DEMO_PURCHASER.email,
      ]);

      const context = await rest('GET', '/store-api/context', { 'suite-context-token': approver });
      expect(context.body.actor).to.include({ type: 'employee', email: DEMO_APPROVER.email });
      expect(context.body.customer.email).to.equal(DEMO_CUSTOMER.email);
    });

    it('refuses a wrong password and an unknown token with 401', async () => {
      const wrong = await rest(
        'POST',
        '/store-api/account/login',
        {},
        { email: DEMO_PURCHASER.email, password: 'not-the-password' },
      );
      expect(wrong.status).to.equal(401);
      expect(wrong.body.errors[0].code).to.equal('SUITE__INVALID_CREDENTIALS');
      const unknown = await rest('POST', '/store-api/b2b/employees', { 'suite-context-token': 'no-such-token' }, {});
      expect(unknown.status).to.equal(401);
    });

    it("a customer's Vendure session is the company admin on the plugin's Store API", async () => {
      const token = await vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
      const context = await rest('GET', '/store-api/context', bearer(token));
      expect(context.body.actor).to.include({ type: 'customer', email: DEMO_CUSTOMER.email });
      expect(context.body.permissions).to.equal('all');
      const listed = await rest('POST', '/store-api/b2b/employees', bearer(token), {});
      expect(listed.status).to.equal(200);
      const anonymous = await rest('POST', '/store-api/b2b/employees', {}, {});
      expect(anonymous.status).to.equal(401);
    });

    it('answers 501 SUITE__NOT_SUPPORTED_BY_HOST for a contract call Vendure does not serve yet', async () => {
      const token = await vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
      // The fast order's similar products ask catalog.propertySimilarProducts, not served on Vendure yet.
      const res = await rest(
        'GET',
        `/store-api/b2b/property-similar-products/${shop.state.ids.toPlugin(1)}`,
        bearer(token),
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(501);
      expect(res.body.errors[0].code).to.equal('SUITE__NOT_SUPPORTED_BY_HOST');
    });

    it("opens the plugin's Admin API only to Vendure administrators", async () => {
      const customer = await vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
      expect((await rest('GET', '/b2b-admin-api/suite-partial-assortment-product-rule')).status).to.equal(401);
      expect(
        (await rest('GET', '/b2b-admin-api/suite-partial-assortment-product-rule', bearer(customer))).status,
      ).to.equal(403);
      const admin = await vendureLogin('admin-api', 'superadmin', 'superadmin');
      expect(
        (await rest('GET', '/b2b-admin-api/suite-partial-assortment-product-rule', bearer(admin))).status,
      ).to.equal(200);
    });

    it('serves both OpenAPI documents on the paths the plugin is mounted at', async () => {
      const store = await rest('GET', '/store-api/_info/openapi3.json');
      expect(store.status).to.equal(200);
      expect(store.body.servers).to.deep.equal([{ url: '/store-api' }]);
      expect(store.body.paths).to.have.property('/account/login');
      expect(store.body.paths).to.have.property('/b2b/employees');
      const admin = await rest('GET', '/b2b-admin-api/_info/openapi3.json');
      expect(admin.status).to.equal(200);
      expect(admin.body.servers).to.deep.equal([{ url: '/b2b-admin-api' }]);
      expect(admin.body.paths).to.have.property('/suite-partial-assortment-product-rule');
      const page = await fetch(`${shop.url}/store-api/_info/swagger.html`);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
    });

    it("links an Admin API list's pages and a created record on /b2b-admin-api, where Vendure serves it", async () => {
      const admin = await vendureLogin('admin-api', 'superadmin', 'superadmin');
      const list = await rest('GET', '/b2b-admin-api/suite-customer-activity-type?limit=1', bearer(admin));
      expect(list.status, JSON.stringify(list.body)).to.equal(200);
      expect(list.body.links.self).to.equal('/b2b-admin-api/suite-customer-activity-type?limit=1&page=1');
      for (const link of Object.values(list.body.links as Record<string, string>))
        expect(link).to.match(/^\/b2b-admin-api\/suite-customer-activity-type\?/);
      const followed = await rest('GET', list.body.links.last, bearer(admin));
      expect(followed.status).to.equal(200);
    });
  });

  describe("partial assortment in Vendure's Shop API", () => {
    let desk: { id: string; slug: string; variantId: string };
    let chairVariantId: string;
    let buyer: string;
    let partner: string;

    const productsQuery = '{ products { totalItems items { id name } } }';
    const searchQuery = '{ search(input: { groupByProduct: true }) { totalItems items { productName } } }';
    /** Facet value counts over variants, and a term that only the desk matches (items and total). */
    const facetsQuery = '{ search(input: { groupByProduct: false }) { facetValues { count facetValue { name } } } }';
    const furnitureCount = async (headers: Record<string, string>) => {
      const { data } = await gql('shop-api', facetsQuery, {}, headers);
      return data.search.facetValues.find((f: { facetValue: { name: string } }) => f.facetValue.name === 'Furniture')
        ?.count as number;
    };
    const deskTermQuery =
      '{ search(input: { term: "height-adjustable", groupByProduct: false }) { totalItems items { sku } } }';
    const addItem =
      'mutation ($v: ID!) { addItemToOrder(productVariantId: $v, quantity: 1) { __typename ... on Order { lines { productVariant { id } } } ... on ErrorResult { errorCode message } ... on OrderInterceptorError { interceptorError } } }';

    before(async () => {
      const { data } = await gql('shop-api', '{ products { items { id slug variants { id sku } } } }');
      const found = data.products.items.find((p: { slug: string }) => p.slug === 'standing-desk');
      desk = { id: found.id, slug: found.slug, variantId: found.variants[0].id };
      chairVariantId = data.products.items.find((p: { slug: string }) => p.slug === 'office-chair').variants[0].id;
      buyer = await vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
      partner = await vendureLogin('shop-api', PARTNER_CUSTOMER.email, PARTNER_CUSTOMER.password);

      // The desk is assigned the rule "customer group Partners": only partners see it.
      const admin = await vendureLogin('admin-api', 'superadmin', 'superadmin');
      const groups = await gql('admin-api', '{ customerGroups { items { id name } } }', {}, bearer(admin));
      const group = groups.data.customerGroups.items.find((g: { name: string }) => g.name === PARTNER_GROUP);
      const ids = shop.state.ids;
      const assigned = await rest('POST', '/b2b-admin-api/suite-partial-assortment-product-rule', bearer(admin), {
        productId: ids.toPlugin(desk.variantId),
        ruleId: ids.toPlugin(group.id),
      });
      expect(assigned.status, JSON.stringify(assigned.body)).to.equal(204);
    });

    it('hides the product from another customer and from guests in products, product(id|slug) and search', async () => {
      for (const headers of [bearer(buyer), {}]) {
        const products = await gql('shop-api', productsQuery, {}, headers);
        expect(products.data.products.items.map((p: { name: string }) => p.name)).to.not.include('Standing Desk');
        expect(products.data.products.totalItems).to.equal(3);
        expect((await gql('shop-api', '{ product(id: "' + desk.id + '") { id } }', {}, headers)).data.product).to.equal(
          null,
        );
        expect(
          (await gql('shop-api', '{ product(slug: "' + desk.slug + '") { id } }', {}, headers)).data.product,
        ).to.equal(null);
        const search = await gql('shop-api', searchQuery, {}, headers);
        expect(search.data.search.items.map((i: { productName: string }) => i.productName)).to.not.include(
          'Standing Desk',
        );
        expect(search.data.search.totalItems).to.equal(3);
        expect(await furnitureCount(headers), 'Furniture: the chair, not the desk').to.equal(1);
        expect((await gql('shop-api', deskTermQuery, {}, headers)).data.search).to.deep.equal({
          totalItems: 0,
          items: [],
        });
      }
    });

    it('refuses addItemToOrder for the hidden variant, accepts a visible one', async () => {
      const refused = await gql('shop-api', addItem, { v: desk.variantId }, bearer(buyer));
      expect(refused.data.addItemToOrder.__typename).to.equal('OrderInterceptorError');
      expect(refused.data.addItemToOrder.interceptorError).to.contain('SUITE__PRODUCT_NOT_VISIBLE');
      const added = await gql('shop-api', addItem, { v: chairVariantId }, bearer(buyer));
      expect(added.data.addItemToOrder.__typename, JSON.stringify(added)).to.equal('Order');
    });

    it("hides it as well for an employee of the buyer's company (plugin context token on the Shop API)", async () => {
      const purchaser = await pluginLogin(DEMO_PURCHASER.email, DEMO_PURCHASER.password);
      const products = await gql('shop-api', productsQuery, {}, { 'suite-context-token': purchaser });
      expect(products.data.products.items.map((p: { name: string }) => p.name)).to.not.include('Standing Desk');
    });

    it('shows the product to a customer of the group and lets them order it', async () => {
      const products = await gql('shop-api', productsQuery, {}, bearer(partner));
      expect(products.data.products.items.map((p: { name: string }) => p.name)).to.include('Standing Desk');
      expect(products.data.products.totalItems).to.equal(4);
      expect(
        (await gql('shop-api', '{ product(id: "' + desk.id + '") { id } }', {}, bearer(partner))).data.product,
      ).to.deep.equal({ id: desk.id });
      const search = await gql('shop-api', searchQuery, {}, bearer(partner));
      expect(search.data.search.totalItems).to.equal(4);
      expect(await furnitureCount(bearer(partner)), 'Furniture: chair and desk').to.equal(2);
      expect((await gql('shop-api', deskTermQuery, {}, bearer(partner))).data.search).to.deep.equal({
        totalItems: 1,
        items: [{ sku: 'DESK-001' }],
      });
      const added = await gql('shop-api', addItem, { v: desk.variantId }, bearer(partner));
      expect(added.data.addItemToOrder.__typename, JSON.stringify(added)).to.equal('Order');
    });
  });

  describe('customer prices in Vendure', () => {
    it("a customer price from the plugin's Admin API is the variant price in the Shop API and the line price in activeOrder", async () => {
      const admin = await vendureLogin('admin-api', 'superadmin', 'superadmin');
      const { data } = await gql('shop-api', '{ product(slug: "monitor-arm") { variants { id price } } }');
      const arm = data.product.variants[0] as { id: string; price: number };
      expect(arm.price).to.equal(7990);
      const partnerCustomer = await gql(
        'admin-api',
        '{ customers(options: { filter: { emailAddress: { eq: "' +
          PARTNER_CUSTOMER.email +
          '" } } }) { items { id } } }',
        {},
        bearer(admin),
      );
      const ids = shop.state.ids;
      const created = await rest('POST', '/b2b-admin-api/suite-customer-price', bearer(admin), {
        customerId: ids.toPlugin(partnerCustomer.data.customers.items[0].id),
        productId: ids.toPlugin(arm.id),
        price: 59.9,
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.headers.get('location')).to.equal(
        `/b2b-admin-api/suite-customer-price/${created.body.data.id as string}`,
      );

      const partner = await vendureLogin('shop-api', PARTNER_CUSTOMER.email, PARTNER_CUSTOMER.password);
      const buyer = await vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
      const priceFor = async (token: string) =>
        (await gql('shop-api', '{ product(slug: "monitor-arm") { variants { price } } }', {}, bearer(token))).data
          .product.variants[0].price as number;
      expect(await priceFor(partner)).to.equal(5990);
      expect(await priceFor(buyer)).to.equal(7990);

      const added = await gql(
        'shop-api',
        'mutation ($v: ID!) { addItemToOrder(productVariantId: $v, quantity: 2) { __typename } }',
        { v: arm.id },
        bearer(partner),
      );
      expect(added.data.addItemToOrder.__typename, JSON.stringify(added)).to.equal('Order');
      const order = await gql(
        'shop-api',
        '{ activeOrder { lines { productVariant { id } unitPrice linePrice } } }',
        {},
        bearer(partner),
      );
      const line = order.data.activeOrder.lines.find(
        (l: { productVariant: { id: string } }) => l.productVariant.id === arm.id,
      );
      expect(line).to.include({ unitPrice: 5990, linePrice: 11980 });
    });
  });

  describe("order approval in Vendure's order process", () => {
    const transition =
      'mutation { transitionOrderToState(state: "ArrangingPayment") { __typename ... on Order { state } ... on OrderStateTransitionError { transitionError } } }';

    /** An employee's Shop API headers: the Vendure session of the company's customer plus the plugin context token. */
    const employeeHeaders: ShopClient['employeeHeaders'] = (...args) => client.employeeHeaders(...args);

    it("refuses the purchaser's checkout for approval (transitionError), lets the approver through", async () => {
      const purchaser = await employeeHeaders(DEMO_PURCHASER.email, DEMO_PURCHASER.password);
      const { data } = await gql('shop-api', '{ product(slug: "copy-paper-a4") { variants { id } } }', {}, purchaser);
      // Each employee fills their own cart (one active order per buyer): 3 packs of paper, an address, shipping.
      const fill = async (headers: Record<string, string>) => {
        const added = await gql(
          'shop-api',
          'mutation ($v: ID!) { addItemToOrder(productVariantId: $v, quantity: 3) { __typename } }',
          { v: data.product.variants[0].id },
          headers,
        );
        expect(added.data.addItemToOrder.__typename, JSON.stringify(added)).to.equal('Order');
        await gql(
          'shop-api',
          'mutation { setOrderShippingAddress(input: { fullName: "Demo Company", streetLine1: "Hauptstr. 1", city: "Berlin", postalCode: "10115", countryCode: "DE" }) { __typename } }',
          {},
          headers,
        );
        const methods = await gql('shop-api', '{ eligibleShippingMethods { id } }', {}, headers);
        await gql(
          'shop-api',
          'mutation ($id: [ID!]!) { setOrderShippingMethod(shippingMethodId: $id) { __typename } }',
          { id: [methods.data.eligibleShippingMethods[0].id] },
          headers,
        );
      };
      await fill(purchaser);

      const refused = await gql('shop-api', transition, {}, purchaser);
      expect(refused.data.transitionOrderToState.__typename, JSON.stringify(refused)).to.equal(
        'OrderStateTransitionError',
      );
      expect(refused.data.transitionOrderToState.transitionError).to.match(/^SUITE__ORDER_APPROVAL_REQUIRED/);

      // The approver acts for the same customer with a cart of their own: no approval needed.
      const approver = await employeeHeaders(DEMO_APPROVER.email, DEMO_APPROVER.password);
      await fill(approver);
      const passed = await gql('shop-api', transition, {}, approver);
      expect(passed.data.transitionOrderToState, JSON.stringify(passed)).to.deep.equal({
        __typename: 'Order',
        state: 'ArrangingPayment',
      });
    });

    // Continues the order the approver took to ArrangingPayment above (the approver's active order of the demo customer).
    it("the order the approver pays is a placed order in the plugin's order lists (orders.* on Vendure's tables), placed by the approver", async () => {
      const approver = await employeeHeaders(DEMO_APPROVER.email, DEMO_APPROVER.password);
      const methods = await gql('shop-api', '{ eligiblePaymentMethods { code isEligible } }', {}, approver);
      const method = methods.data.eligiblePaymentMethods.find((m: { isEligible: boolean }) => m.isEligible)
        .code as string;
      const paid = await gql(
        'shop-api',
        'mutation ($m: String!) { addPaymentToOrder(input: { method: $m, metadata: {} }) { __typename ... on Order { code state totalWithTax } } }',
        { m: method },
        approver,
      );
      expect(paid.data.addPaymentToOrder.__typename, JSON.stringify(paid)).to.equal('Order');
      const { code, state, totalWithTax } = paid.data.addPaymentToOrder as {
        code: string;
        state: string;
        totalWithTax: number;
      };
      expect(state).to.equal('PaymentAuthorized');
      const approverId = (
        await rest('GET', '/store-api/context', { 'suite-context-token': approver['suite-context-token']! })
      ).body.actor.id as string;

      // The company admin (the customer's Vendure session) sees every order of the customer.
      const admin = bearer(await vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
      const listed = await rest('POST', '/store-api/b2b/employee-orders', admin, {});
      expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
      expect(listed.body.orders.total).to.equal(1);
      const [order] = listed.body.orders.elements;
      expect(order).to.include({ orderNumber: code, amountTotal: totalWithTax / 100 });
      expect(order.stateMachineState.technicalName).to.equal('PaymentAuthorized');
      expect(order.placedBy).to.deep.equal({ type: 'employee', id: approverId });
      // The 3 packs of paper the approver added to their own cart.
      const paper = order.lineItems.find((l: { label: string }) => /paper/i.test(l.label));
      expect(paper, JSON.stringify(order.lineItems)).to.include({ quantity: 3, type: 'product' });
      expect(paper.unitPrice).to.be.greaterThan(0);
      expect(order.lineItems.reduce((sum: number, l: { totalPrice: number }) => sum + l.totalPrice, 0)).to.be.closeTo(
        order.amountNet - 5,
        0.011,
      );
      expect(order.transactions.map((t: { amount: number }) => t.amount)).to.deep.equal([totalWithTax / 100]);
      const byApprover = await rest('POST', '/store-api/b2b/employee-orders', admin, {
        filter: [{ type: 'equals', field: 'employeeId', value: approverId }],
      });
      expect(byApprover.body.orders.total).to.equal(1);

      const read = await rest('GET', `/store-api/b2b/employee-order/${order.id}`, admin);
      expect(read.status, JSON.stringify(read.body)).to.equal(200);
      expect(read.body.orderNumber).to.equal(code);

      // The purchaser (orders.read, not read-all) sees only the orders they placed: none.
      const purchaserToken = await pluginLogin(DEMO_PURCHASER.email, DEMO_PURCHASER.password);
      const own = await rest('POST', '/store-api/b2b/employee-orders', { 'suite-context-token': purchaserToken }, {});
      expect(own.status, JSON.stringify(own.body)).to.equal(200);
      expect(own.body.orders.total).to.equal(0);
      expect(
        (await rest('GET', `/store-api/b2b/employee-order/${order.id}`, { 'suite-context-token': purchaserToken }))
          .status,
      ).to.equal(404);

      // The offer reference (orders.latestWithProduct): the latest order with the paper and its line; none of the purchaser's own.
      const reference = await rest('GET', `/store-api/b2b/offer-reference-product/${paper.productId}`, admin);
      expect(reference.status, JSON.stringify(reference.body)).to.equal(200);
      expect(reference.body.order.orderNumber).to.equal(code);
      expect(reference.body.orderLineItem).to.include({ id: paper.id, quantity: 3, unitPrice: paper.unitPrice });
      const ownReference = await rest('GET', `/store-api/b2b/offer-reference-product/${paper.productId}`, {
        'suite-context-token': purchaserToken,
      });
      expect(ownReference.status, JSON.stringify(ownReference.body)).to.equal(200);
      expect(ownReference.body.order).to.equal(null);

      // Another customer: the order is not theirs.
      const partner = bearer(await vendureLogin('shop-api', PARTNER_CUSTOMER.email, PARTNER_CUSTOMER.password));
      const foreign = await rest('GET', `/store-api/b2b/employee-order/${order.id}`, partner);
      expect(foreign.status).to.equal(404);
      expect((await rest('POST', '/store-api/b2b/employee-orders', partner, {})).body.orders.total).to.equal(0);
    });

    it("refuses a plugin context token on another customer's Vendure session", async () => {
      const purchaserToken = await pluginLogin(DEMO_PURCHASER.email, DEMO_PURCHASER.password);
      const partner = await vendureLogin('shop-api', PARTNER_CUSTOMER.email, PARTNER_CUSTOMER.password);
      const answer = await gql(
        'shop-api',
        '{ products { totalItems } }',
        {},
        { ...bearer(partner), 'suite-context-token': purchaserToken },
      );
      expect(answer.errors?.[0]?.message ?? '', JSON.stringify(answer)).to.not.equal('');
      expect(answer.data?.products ?? null).to.equal(null);
    });
  });
});
