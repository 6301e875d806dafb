import { expect } from 'chai';
import supertest from 'supertest';
import type { ShopApp } from '../../src/host/app.js';
import { newId } from '../../src/lib/ids.js';
import { nowDb } from '../../src/lib/time.js';
import { createTestCustomer, expectError, getShop, http, type TestCustomer } from '../helpers/shop.js';

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
const cookieHeader = (res: supertest.Response, name: string) =>
  ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${name}=`));

/** A browser-like visitor: keeps cookies, reads the CSRF field from the last form it saw. */
async function visitor() {
  const agent = await http();
  let csrf = '';
  return {
    agent,
    async get(path: string) {
      const res = await agent.get(path);
      if (csrfOf(res.text)) csrf = csrfOf(res.text);
      return res;
    },
    post(path: string, form: Record<string, string>) {
      return agent
        .post(path)
        .type('form')
        .send({ _csrf: csrf, ...form });
    },
    async login(user: TestCustomer, extra: Record<string, string> = {}) {
      await this.get('/account/login');
      return this.post('/account/login', { email: user.email, password: user.password, ...extra });
    },
  };
}

describe('host: storefront', () => {
  let shop: ShopApp;
  const whoAmI = `/test/who-am-i-${newId().slice(0, 8)}`;
  const orderForm = `/test/order-note-${newId().slice(0, 8)}`;
  const received: Array<Record<string, unknown>> = [];

  before(async () => {
    shop = await getShop();
    shop.runtime.storefront.page({
      path: whoAmI,
      auth: 'login',
      handler: async ({ ctx, query }) => ({
        template: 'message',
        data: {
          title: 'Who am I',
          message: `Hello ${ctx.actor.name} of ${ctx.customer?.company} (${String(query.tab ?? 'none')})`,
        },
      }),
    });
    shop.runtime.storefront.page({
      path: orderForm,
      method: 'POST',
      auth: 'login',
      handler: async ({ form }) => {
        received.push(form);
        return { redirect: `${whoAmI}?tab=saved` };
      },
    });
  });

  it('renders the home page with the shop name, a login link, the catalog and protective headers', async () => {
    const now = nowDb();
    const category = { id: newId(), name: `Fasteners ${newId().slice(0, 6)}` };
    const product = { id: newId(), name: `Hex bolt <M8> ${newId().slice(0, 6)}` };
    await shop
      .db('categories')
      .insert({ ...category, version_id: newId(), parent_id: null, position: -1000, active: true, created_at: now });
    await shop.db('products').insert({
      ...product,
      version_id: newId(),
      product_number: `SF-${newId().slice(0, 10)}`,
      stock: 0,
      active: true,
      tax_rate_bp: 1900,
      price_net: 123456,
      created_at: now,
    });
    const res = await (await visitor()).get('/');
    expect(res.status).to.equal(200);
    expect(res.type).to.equal('text/html');
    expect(res.text).to.contain('<title>Storefront · Storefront</title>');
    expect(res.text).to.contain('href="/account/login"');
    expect(res.text).to.contain(
      `<li data-test="category"><a href="/category/${category.id}">${category.name}</a></li>`,
    );
    expect(res.text).to.contain(`<strong>${product.name.replace('<', '&lt;').replace('>', '&gt;')}</strong>`);
    expect(res.text).to.contain('€1,234.56');
    expect(res.text).to.contain('Out of stock');
    expect(res.headers['content-security-policy']).to.contain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).to.equal('nosniff');
    expect(cookieHeader(res, 'suite-csrf'))
      .to.match(/HttpOnly/i)
      .and.match(/SameSite=Lax/i);
  });

  it('logs in through the form: an httpOnly SameSite=Lax session cookie, then pages show the customer', async () => {
    const user = await createTestCustomer({ company: 'Acme & Sons' });
    await shop.db('customers').where({ id: user.customer.id }).update({ first_name: '<script>alert(1)</script>' });
    const browser = await visitor();
    const form = await browser.get('/account/login');
    expect(form.status).to.equal(200);
    expect(form.text).to.contain('name="password"');

    const login = await browser.post('/account/login', { email: user.email, password: user.password });
    expect(login.status).to.equal(303);
    expect(login.headers.location).to.equal('/account');
    const session = cookieHeader(login, 'suite-session');
    expect(session)
      .to.match(/HttpOnly/i)
      .and.match(/SameSite=Lax/i)
      .and.match(/Path=\//);

    const account = await browser.get('/account');
    expect(account.status).to.equal(200);
    expect(account.text).to.contain('&lt;script&gt;alert(1)&lt;/script&gt; Customer');
    expect(account.text).not.to.contain('<script>alert(1)</script>');
    expect(account.text).to.contain('Acme &amp; Sons');

    const page = await browser.get(`${whoAmI}?tab=orders`);
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('Hello &lt;script&gt;alert(1)&lt;/script&gt; Customer of Acme &amp; Sons (orders)');
    expect(page.text).to.contain('data-test="logout"');
    expect(
      page.text.match(/<html/g),
      'a template that wraps itself in {{#> layout}} gets the layout once',
    ).to.have.length(1);
    expect(page.text).to.contain('<title>Who am I · Storefront</title>');
  });

  it('refuses a POST without the CSRF token, or with a wrong one, with a 403 page and no session', async () => {
    const user = await createTestCustomer();
    const browser = await visitor();
    await browser.get('/account/login');
    const missing = await browser.agent
      .post('/account/login')
      .type('form')
      .send({ email: user.email, password: user.password });
    expect(missing.status).to.equal(403);
    expect(missing.type).to.equal('text/html');
    expect(missing.text).to.contain('The form has expired or did not come from this shop.');
    expect(cookieHeader(missing, 'suite-session')).to.equal(undefined);

    const wrong = await browser.post('/account/login', {
      email: user.email,
      password: user.password,
      _csrf: 'x'.repeat(43),
    });
    expect(wrong.status).to.equal(403);
    expect(cookieHeader(wrong, 'suite-session')).to.equal(undefined);

    const stranger = await visitor();
    const noCookie = await stranger.agent
      .post('/account/login')
      .type('form')
      .send({ email: user.email, password: user.password, _csrf: 'a'.repeat(43) });
    expect(noCookie.status, 'a token without its cookie').to.equal(403);
  });

  it('shows the form again with a message for a wrong password or an empty field', async () => {
    const user = await createTestCustomer();
    const browser = await visitor();
    const wrong = await browser.login(user, { password: 'not-the-password' });
    expect(wrong.status).to.equal(401);
    expect(wrong.text).to.contain('The e-mail address or password is wrong.');
    expect(wrong.text).to.contain(`value="${user.email}"`);
    expect(cookieHeader(wrong, 'suite-session')).to.equal(undefined);
    const empty = await browser.post('/account/login', { email: '', password: '' });
    expect(empty.status).to.equal(400);
    expect(empty.text).to.contain('Please enter your e-mail address and password.');
  });

  it('sends a visitor of a login page to the login form and back to that page afterwards', async () => {
    const user = await createTestCustomer();
    const browser = await visitor();
    const guarded = await browser.get(`${whoAmI}?tab=a%26b`);
    expect(guarded.status).to.equal(302);
    expect(guarded.headers.location).to.equal(`/account/login?redirect=${encodeURIComponent(`${whoAmI}?tab=a%26b`)}`);
    const form = await browser.get(guarded.headers.location!);
    expect(form.text).to.contain(`name="redirect" value="${whoAmI}?tab&#x3D;a%26b"`);
    const login = await browser.post('/account/login', {
      email: user.email,
      password: user.password,
      redirect: `${whoAmI}?tab=a%26b`,
    });
    expect(login.status).to.equal(303);
    expect(login.headers.location).to.equal(`${whoAmI}?tab=a%26b`);
    expect((await browser.get(login.headers.location!)).text).to.contain('(a&amp;b)');
  });

  it('never redirects to another site after login', async () => {
    const user = await createTestCustomer();
    for (const target of ['//evil.test/x', 'https://evil.test/', '/\\evil.test', 'javascript:alert(1)']) {
      const res = await (await visitor()).login(user, { redirect: target });
      expect(res.status).to.equal(303);
      expect(res.headers.location, target).to.equal('/account');
    }
  });

  it('passes posted form fields (without the CSRF token) to an add-on page and follows its redirect', async () => {
    const user = await createTestCustomer();
    const browser = await visitor();
    await browser.login(user);
    await browser.get(whoAmI);
    const res = await browser.post(orderForm, { note: 'Deliver to gate 3', qty: '4' });
    expect(res.status).to.equal(303);
    expect(res.headers.location).to.equal(`${whoAmI}?tab=saved`);
    expect(received.at(-1)).to.deep.equal({ note: 'Deliver to gate 3', qty: '4' });
    const forged = await browser.agent.post(orderForm).type('form').send({ note: 'forged' });
    expect(forged.status).to.equal(403);
    expect(received.at(-1)).to.deep.equal({ note: 'Deliver to gate 3', qty: '4' });
  });

  it('logs out with the form: the session is revoked everywhere and the cookie cleared', async () => {
    const user = await createTestCustomer();
    const browser = await visitor();
    const login = await browser.login(user);
    const token = decodeURIComponent(/suite-session=([^;]+)/.exec(cookieHeader(login, 'suite-session')!)![1]!);
    expect((await (await http()).get('/store-api/account/customer').set('suite-context-token', token)).status).to.equal(
      200,
    );

    await browser.get('/account');
    const refused = await browser.agent.post('/account/logout').type('form').send({});
    expect(refused.status, 'logout without CSRF').to.equal(403);
    expect((await (await http()).get('/store-api/account/customer').set('suite-context-token', token)).status).to.equal(
      200,
    );

    const logout = await browser.post('/account/logout', {});
    expect(logout.status).to.equal(303);
    expect(logout.headers.location).to.equal('/');
    expect(cookieHeader(logout, 'suite-session')).to.match(/Expires=Thu, 01 Jan 1970/);
    expectError(await (await http()).get('/store-api/account/customer').set('suite-context-token', token), 401);
    const after = await browser.get('/account');
    expect(after.status).to.equal(302);
    expect(after.headers.location).to.match(/^\/account\/login/);
  });

  it('treats a revoked or forged session cookie as a guest and clears it', async () => {
    const res = await (await http()).get('/').set('Cookie', 'suite-session=forged.token.value');
    expect(res.status).to.equal(200);
    expect(res.text).to.contain('href="/account/login"');
    expect(cookieHeader(res, 'suite-session')).to.match(/Expires=Thu, 01 Jan 1970/);
  });

  it('answers an unknown storefront path with a 404 page, and a malformed one with a 400 page', async () => {
    const res = await (await visitor()).get(`/no-such-page-${newId()}`);
    expect(res.status).to.equal(404);
    expect(res.type).to.equal('text/html');
    expect(res.text).to.contain('Page not found');
    const item = `/test/item-${newId().slice(0, 8)}`;
    shop.runtime.storefront.page({
      path: `${item}/:slug`,
      auth: 'public',
      handler: async ({ params }) => ({ template: 'message', data: { title: params.slug!, message: 'item' } }),
    });
    expect((await (await visitor()).get(`${item}/%3Cb%3E`)).text).to.contain('<h1>&lt;b&gt;</h1>');
    const malformed = await (await visitor()).get(`${item}/%E0%A4%A`);
    expect(malformed.status).to.equal(400);
    expect(malformed.type).to.equal('text/html');
  });

  it("builds storefront links on the sales channel's first domain", async () => {
    const channel = (await shop.runtime.customers.salesChannel(
      shop.db,
      (await createTestCustomer()).customer.salesChannelId,
    ))!;
    expect(
      shop.runtime.storefront.url(
        { ...channel, domains: ['https://b2b.example.test/', 'https://other.test'] },
        '/account/login',
      ),
    ).to.equal('https://b2b.example.test/account/login');
    expect(shop.runtime.storefront.url({ ...channel, domains: ['https://b2b.example.test'] }, 'events')).to.equal(
      'https://b2b.example.test/events',
    );
  });

  it('refuses to register a page inside the APIs', async () => {
    expect(() =>
      shop.runtime.storefront.page({ path: '/store-api/x', auth: 'public', handler: async () => ({ redirect: '/' }) }),
    ).to.throw(/outside \/store-api/);
  });
});
