import { expect } from 'chai';
import { newId } from '../../src/lib/ids.js';
import { nowDb } from '../../src/lib/time.js';
import { addToCart, insertProduct, placeOrder, type TestProduct } from '../helpers/checkout.js';
import { createTestCustomer, getShop, type TestCustomer } from '../helpers/shop.js';
import { loggedInVisitor, storefrontVisitor, type StorefrontVisitor } from '../helpers/storefront.js';
import { admin, assign, createRule, KINDS } from '../plugin/partial-assortment/fixtures.js';
import { createBudget, employee, newCustomer, REQUESTER_PERMISSIONS } from '../plugin/order-approval/helpers.js';
import { createEvent, salesStaff, ticket } from '../plugin/event-manager/helpers.js';
import { locationOf } from '../helpers/headers.js';

const PRODUCT_RULES = KINDS.find((kind) => kind.segment === 'product')!;
const CATEGORY_RULES = KINDS.find((kind) => kind.segment === 'category')!;

async function insertCategory(name: string, parentId: string | null = null, position = 0): Promise<string> {
  const id = newId();
  await (
    await getShop()
  )
    .db('categories')
    .insert({ id, version_id: newId(), parent_id: parentId, name, position, active: true, created_at: nowDb() });
  return id;
}

async function inCategory(categoryId: string, ...products: TestProduct[]): Promise<void> {
  for (const product of products)
    await (await getShop()).db('product_categories').insert({ product_id: product.id, category_id: categoryId });
}

/** A rule no storefront visitor matches: what it is assigned to is hidden from everybody. */
async function hideFromEverybody(kind: (typeof KINDS)[number], id: string): Promise<void> {
  await assign(
    kind,
    id,
    await createRule({ type: 'customerNumber', operator: '=', value: `nobody-${newId().slice(0, 8)}` }),
  );
}

/** Handlebars escapes "=" and "&" in attribute values; a browser reads them back. */
const decoded = (html: string) => html.replace(/&#x3D;/g, '=').replace(/&amp;/g, '&');
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');
const lineIdsOf = (html: string) =>
  [...html.matchAll(/data-test="cart-line" data-line-id="([0-9a-f]{32})"/g)].map((m) => m[1]!);

describe('host: storefront shop, cart, checkout and account pages', function () {
  this.timeout(60000);
  let buyer: TestCustomer;
  let visitor: StorefrontVisitor;

  before(async function () {
    this.timeout(180000);
    await getShop();
    buyer = await createTestCustomer({ company: 'Shop Pages GmbH' });
    visitor = await loggedInVisitor(buyer.email, buyer.password);
  });

  describe('shop', () => {
    it('shows a category with its subcategories in the layout navigation, pages and sorts its products', async () => {
      const token = newId().slice(0, 6);
      const root = await insertCategory(`Root ${token}`, null, -100);
      const child = await insertCategory(`Child ${token}`, root);
      const products: TestProduct[] = [];
      for (let i = 0; i < 13; i++)
        products.push(
          await insertProduct({ name: `Item ${token} ${String(i).padStart(2, '0')}`, priceNet: 1000 + i * 100 }),
        );
      await inCategory(child, ...products);

      const guest = await storefrontVisitor();
      const first = await guest.get(`/category/${root}`);
      expect(first.status).to.equal(200);
      expect(first.text)
        .to.contain('data-test="category-navigation"')
        .and.contain(`href="/category/${root}"`)
        .and.contain(`Child ${token}`);
      expect(first.text).to.contain('13 products');
      const names = (html: string) =>
        [...html.matchAll(/data-test="product-link"><strong>([^<]+)</g)].map((m) => m[1]!);
      expect(names(first.text)).to.have.length(12);
      expect(names(first.text)[0]).to.equal(`Item ${token} 00`);
      expect(decoded(first.text)).to.contain(`href="/category/${root}?page=2"`);
      expect(first.text, 'guests see no add-to-cart form').not.to.contain('data-test="add-to-cart"');

      const second = await guest.get(`/category/${root}?page=2`);
      expect(names(second.text)).to.deep.equal([`Item ${token} 12`]);

      const byPrice = await guest.get(`/category/${root}?order=price-desc`);
      expect(names(byPrice.text)[0]).to.equal(`Item ${token} 12`);
      expect(decoded(byPrice.text))
        .to.contain('€22.00')
        .and.contain(`href="/category/${root}?order=price-desc&page=2"`);

      const beyond = await guest.get(`/category/${root}?page=9`);
      expect(beyond.status).to.equal(200);
      expect(beyond.text).to.contain('data-test="paging-beyond"');

      const loggedIn = await visitor.get(`/category/${child}`);
      expect(loggedIn.text).to.contain('data-test="add-to-cart"').and.contain('action="/cart/add"');
    });

    it('finds products by name or number on the search page', async () => {
      const product = await insertProduct({ name: `Searchable ${newId().slice(0, 8)}` });
      const byName = await visitor.get(`/search?q=${encodeURIComponent(product.name)}`);
      expect(byName.status).to.equal(200);
      expect(byName.text).to.contain(`href="/product/${product.id}"`).and.contain('1 products found');
      const byNumber = await visitor.get(`/search?q=${product.number}`);
      expect(byNumber.text).to.contain(`href="/product/${product.id}"`);
      const none = await visitor.get(`/search?q=nothing-${newId()}`);
      expect(none.text).to.contain('data-test="search-empty"');
      const empty = await visitor.get('/search');
      expect(empty.status).to.equal(200);
      expect(empty.text).to.contain('id="search-term"').and.not.contain('products found');
    });

    it("shows a product with the caller's price table, stock and an add-to-cart form", async () => {
      const product = await insertProduct({
        name: `Tiered ${newId().slice(0, 6)}`,
        priceNet: 2000,
        stock: 42,
        tiers: [
          [10, 1800],
          [50, 1500],
        ],
      });
      const page = await visitor.get(`/product/${product.id}`);
      expect(page.status).to.equal(200);
      const text = textOf(page.text);
      expect(text).to.contain(product.name).and.contain(product.number).and.contain('In stock: 42');
      expect(text).to.match(/Price: €20\.00 net, plus 19 % tax/);
      const rows = [...page.text.matchAll(/data-test="price-row"><td>([^<]+)<\/td><td class="num">([^<]+)</g)].map(
        (m) => [m[1], m[2]],
      );
      expect(rows).to.deep.equal([
        ['1–9', '€20.00'],
        ['10–49', '€18.00'],
        ['50+', '€15.00'],
      ]);
      expect(page.text).to.contain('data-test="add-to-cart"');

      const guest = await storefrontVisitor();
      const asGuest = await guest.get(`/product/${product.id}`);
      expect(asGuest.status).to.equal(200);
      expect(asGuest.text).to.contain('data-test="login-to-buy"').and.not.contain('data-test="add-to-cart"');
    });

    it('shows the customer price the price providers give the caller, at quantity 1 and from its minimum quantity', async () => {
      const product = await insertProduct({
        name: `Customer priced ${newId().slice(0, 6)}`,
        priceNet: 5000,
        tiers: [[10, 4800]],
      });
      const api = await admin();
      for (const [minQuantity, price] of [
        [1, 42.5],
        [10, 40],
      ] as const) {
        const created = await api.post('/api/suite-customer-price', {
          customerId: buyer.customer.id,
          productId: product.id,
          minQuantity,
          price,
        });
        expect(created.status, JSON.stringify(created.body)).to.be.within(200, 204);
      }
      const page = await visitor.get(`/product/${product.id}`);
      const text = textOf(page.text);
      expect(text).to.contain('Your price: €42.50 net').and.contain('List price €50.00 net');
      const rows = [...page.text.matchAll(/data-test="price-row"><td>([^<]+)<\/td><td class="num">([^<]+)</g)].map(
        (m) => [m[1], m[2]],
      );
      expect(rows).to.deep.equal([
        ['1–9', '€42.50'],
        ['10+', '€40.00'],
      ]);
      const someoneElse = await createTestCustomer();
      const theirs = textOf(
        (await (await loggedInVisitor(someoneElse.email, someoneElse.password)).get(`/product/${product.id}`)).text,
      );
      expect(theirs).to.contain('Price: €50.00 net').and.not.contain('€42.50');
    });

    it('answers 404 for a product or category hidden by a partial assortment, and leaves them out of listings, search and navigation', async () => {
      const token = newId().slice(0, 8);
      const category = await insertCategory(`Visible ${token}`);
      const hiddenCategory = await insertCategory(`Secret category ${token}`);
      const shown = await insertProduct({ name: `Shown ${token}` });
      const hidden = await insertProduct({ name: `Hidden ${token}` });
      await inCategory(category, shown, hidden);
      await hideFromEverybody(PRODUCT_RULES, hidden.id);
      await hideFromEverybody(CATEGORY_RULES, hiddenCategory);

      expect((await visitor.get(`/product/${hidden.id}`)).status).to.equal(404);
      expect((await visitor.get(`/product/${shown.id}`)).status).to.equal(200);
      expect((await visitor.get(`/category/${hiddenCategory}`)).status).to.equal(404);
      const listing = await visitor.get(`/category/${category}`);
      expect(listing.text).to.contain(`Shown ${token}`).and.not.contain(`Hidden ${token}`);
      expect(listing.text).not.to.contain(`Secret category ${token}`);
      const search = await visitor.get(`/search?q=${token}`);
      expect(search.text).to.contain(`Shown ${token}`).and.not.contain(`Hidden ${token}`);
      const added = await visitor.post('/cart/add', { productId: hidden.id, quantity: '1' });
      expect(added.status).to.equal(400);
      expect(added.text).to.contain('data-test="cart-error"').and.contain('A product is not available');
      expect((await visitor.get(`/product/not-an-id`)).status).to.equal(404);
      expect((await visitor.get(`/product/${newId()}`)).status).to.equal(404);
    });
  });

  describe('cart and checkout', () => {
    it('adds, changes and removes lines; the checkout places the order with the chosen addresses', async () => {
      const user = await createTestCustomer({ company: 'Cart Buyer AG' });
      const shop = await getShop();
      const secondAddress = newId();
      await shop.db('customer_addresses').insert({
        id: secondAddress,
        customer_id: user.customer.id,
        company: 'Cart Buyer AG',
        first_name: 'Dock',
        last_name: 'Master',
        street: 'Harbour 7',
        zipcode: '20457',
        city: 'Hamburg',
        country_code: 'DE',
        created_at: nowDb(),
      });
      const buyerVisitor = await loggedInVisitor(user.email, user.password);
      const drill = await insertProduct({ name: `Drill ${newId().slice(0, 6)}`, priceNet: 10000, stock: 10 });
      const gloves = await insertProduct({ name: `Gloves ${newId().slice(0, 6)}`, priceNet: 250 });

      expect((await buyerVisitor.get('/cart')).text).to.contain('data-test="cart-empty"');
      const added = await buyerVisitor.post('/cart/add', { productId: drill.id, quantity: '2' });
      expect(added.status).to.equal(303);
      expect(added.headers.location).to.equal('/cart?done=added');
      await buyerVisitor.post('/cart/add', { productId: gloves.id, quantity: '4' });
      let cart = await buyerVisitor.get('/cart?done=added');
      expect(cart.text).to.contain('The product was added to your cart.');
      expect(textOf(cart.text))
        .to.contain(drill.name)
        .and.contain('€200.00')
        .and.contain('€210.00')
        .and.contain('€249.90');

      const tooMany = await buyerVisitor.post('/cart/add', { productId: drill.id, quantity: '9' });
      expect(tooMany.status).to.equal(400);
      expect(textOf(tooMany.text)).to.contain('Not enough in stock').and.contain('Only 10 of');

      const [drillLine, glovesLine] = lineIdsOf(cart.text);
      expect(
        (await buyerVisitor.post('/cart/update', { lineItemId: drillLine!, quantity: '3' })).headers.location,
      ).to.equal('/cart?done=updated');
      expect((await buyerVisitor.post('/cart/remove', { lineItemId: glovesLine! })).headers.location).to.equal(
        '/cart?done=removed',
      );
      cart = await buyerVisitor.get('/cart');
      expect(lineIdsOf(cart.text)).to.deep.equal([drillLine]);
      expect(textOf(cart.text)).to.contain('€300.00').and.not.contain(gloves.name);
      expect((await buyerVisitor.post('/cart/update', { lineItemId: drillLine!, quantity: 'lots' })).status).to.equal(
        400,
      );
      expect((await buyerVisitor.post('/cart/remove', { lineItemId: newId() })).status).to.equal(404);

      const checkout = await buyerVisitor.get('/checkout');
      expect(checkout.status).to.equal(200);
      expect(checkout.text).to.contain('data-test="order-now"').and.contain('Harbour 7').and.contain('Test Street 1');
      expect(
        (await buyerVisitor.post('/checkout/order', { billingAddressId: 'nope', shippingAddressId: '' })).status,
      ).to.equal(400);

      const placed = await buyerVisitor.post('/checkout/order', {
        billingAddressId: '',
        shippingAddressId: secondAddress,
        customerComment: 'Gate 3',
      });
      expect(placed.status, placed.text).to.equal(303);
      const again = await buyerVisitor.post('/checkout/order', {});
      expect(again.status, 'a second click on "Order now" places nothing').to.equal(400);
      expect(again.text).to.contain('data-code="SUITE__CART_ALREADY_ORDERED"').and.contain('href="/account/orders"');
      expect(await shop.db('orders').where({ customer_id: user.customer.id }).count({ n: '*' }).first()).to.satisfy(
        (row: { n: number | string }) => Number(row.n) === 1,
      );
      const orderId = /^\/account\/orders\/([0-9a-f]{32})\?done=ordered$/.exec(locationOf(placed))?.[1];
      expect(orderId).to.be.a('string');
      const order = await shop.runtime.orders.get(shop.db, orderId!);
      expect(order).to.include({ customerComment: 'Gate 3', netTotal: 30000 });
      expect((order!.shippingAddress as Record<string, unknown>).street).to.equal('Harbour 7');
      expect((order!.billingAddress as Record<string, unknown>).street).to.equal('Test Street 1');

      const detail = await buyerVisitor.get(locationOf(placed));
      expect(detail.status).to.equal(200);
      expect(textOf(detail.text))
        .to.contain(`Order ${order!.orderNumber}`)
        .and.contain('Thank you! Your order was placed.')
        .and.contain('Harbour 7')
        .and.contain('Gate 3');
      expect((await buyerVisitor.get('/cart')).text, 'the ordered cart is not shown again').to.contain(
        'data-test="cart-empty"',
      );
      expect((await buyerVisitor.post('/checkout/order', {})).status, 'an empty cart cannot be ordered').to.equal(400);
    });

    it('sends guests to the login and refuses forms without the CSRF field', async () => {
      const guest = await storefrontVisitor();
      for (const path of ['/cart', '/checkout', '/account/orders', '/account/addresses']) {
        const res = await guest.get(path);
        expect(res.status, path).to.equal(302);
        expect(res.headers.location).to.equal(`/account/login?redirect=${encodeURIComponent(path)}`);
      }
      const forged = await visitor.forge('/cart/add', { productId: newId(), quantity: '1' });
      expect(forged.status).to.equal(403);
    });

    it("shows the interceptor's refusal with the next step: approval needed → request approval from the checkout", async () => {
      const company = await newCustomer();
      const requester = await employee(company, REQUESTER_PERMISSIONS, { requiresApproval: true });
      const page = await loggedInVisitor(requester.email, requester.password);
      const product = await insertProduct({ name: `Approval item ${newId().slice(0, 6)}` });
      await page.post('/cart/add', { productId: product.id, quantity: '1' });
      await page.get('/checkout');
      const refused = await page.post('/checkout/order', {});
      expect(refused.status).to.equal(400);
      expect(refused.text)
        .to.contain('data-code="SUITE__ORDER_APPROVAL_REQUIRED"')
        .and.contain('This order needs approval');
      expect(refused.text)
        .to.contain('action="/checkout/request-approval"')
        .and.contain('href="/account/order-approvals"');
      const requested = await page.post('/checkout/request-approval', {
        billingAddressId: '',
        shippingAddressId: '',
        customerComment: 'Please',
      });
      expect(requested.status, requested.text).to.equal(303);
      expect(requested.headers.location).to.equal('/account/order-approvals');
      const approvals = await (await getShop()).db('suite_order_approvals').where({ customer_id: company.customer.id });
      expect(approvals).to.have.length(1);
      expect((await page.get('/account/order-approvals')).status).to.equal(200);
    });

    it('orders from the cart in one step with express checkout: the default addresses; an intercepted order shows why and the next step', async () => {
      const user = await createTestCustomer({ company: 'Express KG' });
      const page = await loggedInVisitor(user.email, user.password);
      const product = await insertProduct({ name: `Express ${newId().slice(0, 6)}`, priceNet: 1000 });
      await page.post('/cart/add', { productId: product.id, quantity: '2' });
      const cart = await page.get('/cart');
      expect(cart.text).to.contain('data-test="express-checkout"').and.contain('action="/checkout/express"');
      expect(textOf(cart.text)).to.contain('Order now, in one step, to your default addresses');
      const ordered = await page.post('/checkout/express', { customerComment: 'Express please' });
      expect(ordered.status, textOf(ordered.text)).to.equal(303);
      expect(ordered.headers.location).to.match(/^\/account\/orders\/[0-9a-f]{32}\?done=ordered$/);
      const order = await (
        await getShop()
      )
        .db('orders')
        .where({ id: locationOf(ordered).split('/')[3]!.split('?')[0] })
        .first();
      expect(order.customer_comment).to.equal('Express please');
      expect(textOf((await page.get(locationOf(ordered))).text))
        .to.contain('Thank you! Your order was placed.')
        .and.contain(product.name);
      expect((await page.get('/cart')).text, 'nothing to order: no express form').not.to.contain(
        'data-test="express-checkout"',
      );

      const company = await newCustomer();
      const requester = await employee(company, REQUESTER_PERMISSIONS, { requiresApproval: true });
      const purchaser = await loggedInVisitor(requester.email, requester.password);
      await purchaser.post('/cart/add', { productId: product.id, quantity: '1' });
      await purchaser.get('/cart');
      const refused = await purchaser.post('/checkout/express', {});
      expect(refused.status).to.equal(400);
      expect(refused.text)
        .to.contain('data-code="SUITE__ORDER_APPROVAL_REQUIRED"')
        .and.contain('This order needs approval')
        .and.contain('action="/checkout/request-approval"');
      const requested = await purchaser.post('/checkout/request-approval', {
        billingAddressId: '',
        shippingAddressId: '',
        customerComment: '',
      });
      expect(requested.status, textOf(requested.text)).to.equal(303);
      expect(
        await (await getShop()).db('suite_order_approvals').where({ customer_id: company.customer.id }),
      ).to.have.length(1);

      const reader = await employee(company, ['orders.read']);
      const readerPage = await loggedInVisitor(reader.email, reader.password);
      expect((await readerPage.get('/cart')).text, 'no express checkout without orders.create').not.to.contain(
        'data-test="express-checkout"',
      );
      expect((await readerPage.post('/checkout/express', {})).status, 'placeOrder asks orders.create').to.equal(403);
    });

    it('shows a budget refusal with its detail and the link to the budgets', async () => {
      const company = await newCustomer();
      const spender = await employee(company, ['orders.create', 'orders.read', 'budget.read']);
      await createBudget(company.token, { amount: 10, allowApproval: false, employeeIds: [spender.id] });
      const page = await loggedInVisitor(spender.email, spender.password);
      const product = await insertProduct({ priceNet: 2000 });
      await page.post('/cart/add', { productId: product.id, quantity: '1' });
      await page.get('/checkout');
      const refused = await page.post('/checkout/order', {});
      expect(refused.status).to.equal(400);
      expect(refused.text)
        .to.contain('data-code="SUITE__BUDGET_EXCEEDED"')
        .and.contain('The order exceeds your budget')
        .and.contain('10.00 EUR');
      expect(refused.text)
        .to.contain('href="/account/budgets"')
        .and.contain('href="/cart"')
        .and.not.contain('request-approval');
    });
  });

  describe('event tickets', () => {
    it('lists a ticket with its participant, and shows "event full" at checkout with the link to the events', async () => {
      const staff = await salesStaff();
      const event = await createEvent(staff.token, { participantLimit: 1 });
      const company = await newCustomer();
      const added = await addToCart(company.token, [
        ticket(event, { firstName: 'Pat', lastName: 'Participant', email: 'pat@example.test' }),
      ]);
      expect(added.status, JSON.stringify(added.body)).to.equal(200);
      // The storefront login of the same customer finds the cart the Store API filled.
      const page = await loggedInVisitor(company.email, company.password);
      const cart = await page.get('/cart');
      expect(textOf(cart.text)).to.contain('Participant: Pat Participant <pat@example.test>');
      expect(textOf((await page.get('/checkout')).text)).to.contain('Participant: Pat Participant');

      const other = await newCustomer();
      expect((await addToCart(other.token, [ticket(event)])).status).to.equal(200);
      expect((await placeOrder(other.token)).status, 'someone else takes the last seat').to.equal(200);
      const refused = await page.post('/checkout/order', {});
      expect(refused.status).to.equal(400);
      expect(refused.text)
        .to.contain('data-code="SUITE__EVENT_FULL"')
        .and.contain('The event is full')
        .and.contain('href="/account/events"');
    });

    it("changes a ticket's participant in the cart through the line-item change, checked by the event add-on", async () => {
      const staff = await salesStaff();
      const event = await createEvent(staff.token, { participantLimit: 5 });
      const company = await newCustomer();
      expect(
        (
          await addToCart(company.token, [
            ticket(event, { firstName: 'Pat', lastName: 'Participant', email: 'pat@example.test' }),
          ])
        ).status,
      ).to.equal(200);
      const page = await loggedInVisitor(company.email, company.password);
      const cart = await page.get('/cart');
      expect(cart.text)
        .to.contain('data-test="participant-form"')
        .and.contain('value="Pat"')
        .and.contain('value="pat@example.test"');
      const lineId = /data-test="cart-line" data-line-id="([0-9a-f]{32})"/.exec(cart.text)![1]!;

      const invalid = await page.post('/cart/participant', {
        lineItemId: lineId,
        firstName: 'Robin',
        lastName: '',
        email: 'robin@example.test',
      });
      expect(invalid.status, 'the add-on refuses a participant without a last name').to.equal(400);
      expect(invalid.text).to.contain('data-test="cart-error"').and.contain('participant.lastName');
      const badMail = await page.post('/cart/participant', {
        lineItemId: lineId,
        firstName: 'Robin',
        lastName: 'Reed',
        email: 'not-an-address',
      });
      expect(badMail.status).to.equal(400);
      expect(textOf(badMail.text)).to.contain('participant.email is not an e-mail address.');

      const changed = await page.post('/cart/participant', {
        lineItemId: lineId,
        firstName: 'Robin',
        lastName: 'Reed',
        email: 'Robin@Example.test',
      });
      expect(changed.status, changed.text).to.equal(303);
      expect(changed.headers.location).to.equal('/cart?done=participant');
      const after = await page.get(locationOf(changed));
      expect(textOf(after.text))
        .to.contain('The participant was changed.')
        .and.contain('Participant: Robin Reed <robin@example.test>')
        .and.not.contain('Pat Participant');
      expect((await page.get('/checkout')).text).to.contain('Robin Reed');

      expect(
        (
          await page.post('/cart/participant', {
            lineItemId: newId(),
            firstName: 'A',
            lastName: 'B',
            email: 'a@example.test',
          })
        ).status,
        'a line of no cart',
      ).to.equal(404);
      const plain = await insertProduct({ priceNet: 100 });
      await page.post('/cart/add', { productId: plain.id, quantity: '1' });
      const plainLine = [
        ...(await page.get('/cart')).text.matchAll(/data-test="cart-line" data-line-id="([0-9a-f]{32})"/g),
      ]
        .map((m) => m[1]!)
        .find((id) => id !== lineId)!;
      expect(
        (
          await page.post('/cart/participant', {
            lineItemId: plainLine,
            firstName: 'A',
            lastName: 'B',
            email: 'a@example.test',
          })
        ).status,
        'not a ticket',
      ).to.equal(404);
    });
  });

  describe('account', () => {
    it("lists the orders, shows one with its invoice and downloads the PDF; another customer's order is a 404", async () => {
      const user = await createTestCustomer({ company: 'History KG' });
      const page = await loggedInVisitor(user.email, user.password);
      const product = await insertProduct({ name: `History ${newId().slice(0, 6)}`, priceNet: 1234 });
      expect((await page.get('/account/orders')).text).to.contain('data-test="orders-empty"');
      await page.post('/cart/add', { productId: product.id, quantity: '2' });
      await page.get('/checkout');
      const placed = await page.post('/checkout/order', {});
      const orderUrl = locationOf(placed).split('?')[0]!;

      const list = await page.get('/account/orders');
      expect(list.status).to.equal(200);
      expect(list.text).to.contain(`href="${orderUrl}"`).and.contain('€29.37');
      const detail = await page.get(orderUrl);
      const documentUrl =
        /href="(\/account\/orders\/[0-9a-f]{32}\/documents\/[0-9a-f]{32})" data-test="order-document"/.exec(
          detail.text,
        )?.[1];
      expect(documentUrl, detail.text).to.be.a('string');
      expect(textOf(detail.text)).to.contain('Invoice').and.contain(product.name);
      const pdf = await page.agent.get(documentUrl!).buffer(true);
      expect(pdf.status).to.equal(200);
      expect(pdf.headers['content-type']).to.equal('application/pdf');
      // res.attachment() (Express 5) quotes the file name only when it is not a plain token.
      expect(pdf.headers['content-disposition']).to.match(/^attachment; filename=invoice-[\w-]+\.pdf$/);
      expect((pdf.body as Buffer).subarray(0, 5).toString()).to.equal('%PDF-');

      expect((await visitor.get(orderUrl)).status, 'another customer').to.equal(404);
      expect((await visitor.get(documentUrl!)).status, "another customer's document").to.equal(404);
      expect((await page.get(`/account/orders/${newId()}`)).status).to.equal(404);
      expect((await page.get(`${orderUrl}/documents/${newId()}`)).status).to.equal(404);
    });

    it('lists the addresses and changes the default billing and shipping address', async () => {
      const user = await createTestCustomer();
      const shop = await getShop();
      const other = newId();
      await shop.db('customer_addresses').insert({
        id: other,
        customer_id: user.customer.id,
        company: null,
        first_name: 'Second',
        last_name: 'Site',
        street: 'Depot Road 2',
        zipcode: '50667',
        city: 'Köln',
        country_code: 'DE',
        created_at: nowDb(),
      });
      const page = await loggedInVisitor(user.email, user.password);
      await page.post('/cart/add', { productId: (await insertProduct()).id, quantity: '1' });
      const list = await page.get('/account/addresses');
      expect(list.status).to.equal(200);
      expect(textOf(list.text))
        .to.contain('Depot Road 2')
        .and.contain('Test Street 1')
        .and.contain('Default billing address');
      const changed = await page.post('/account/addresses/default', { type: 'shipping', addressId: other });
      expect(changed.headers.location).to.equal('/account/addresses?done=shipping');
      const row = await shop
        .db('customers')
        .where({ id: user.customer.id })
        .first('default_shipping_address_id', 'default_billing_address_id');
      expect(row.default_shipping_address_id).to.equal(other);
      expect(row.default_billing_address_id).not.to.equal(other);
      expect((await page.get('/checkout')).text).to.match(
        new RegExp(`<option value="${other}" selected>[^<]*Depot Road 2`),
      );

      const foreign = (await createTestCustomer()).customer.id;
      const foreignAddress = (await shop.db('customers').where({ id: foreign }).first('default_billing_address_id'))
        .default_billing_address_id;
      expect(
        (await page.post('/account/addresses/default', { type: 'billing', addressId: foreignAddress })).status,
      ).to.equal(404);
      expect((await page.post('/account/addresses/default', { type: 'elsewhere', addressId: other })).status).to.equal(
        400,
      );
    });

    it('answers 403 with the missing permission to an employee whose role may not read orders, showing who is logged in', async () => {
      const company = await newCustomer();
      const orderer = await employee(company, ['orders.create']);
      const page = await loggedInVisitor(orderer.email, orderer.password);
      const refused = await page.get('/account/orders');
      expect(refused.status).to.equal(403);
      expect(textOf(refused.text))
        .to.contain('Not allowed')
        .and.contain('The permission "orders.read" is required.')
        .and.contain('Log out');
      expect((await page.get('/cart')).status, 'the cart is still theirs to use').to.equal(200);
    });

    it('links the shop pages from the account page and the layout', async () => {
      const account = await visitor.get('/account');
      expect(account.text)
        .to.contain('href="/account/orders"')
        .and.contain('href="/account/addresses"')
        .and.contain('href="/cart"');
      const home = await visitor.get('/');
      expect(home.text)
        .to.contain('action="/search"')
        .and.contain('data-test="cart-link"')
        .and.contain('href="/product/');
    });
  });
});
