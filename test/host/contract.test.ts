import { expect } from 'chai';
import supertest from 'supertest';
import { createApp, type ShopApp } from '../../src/host/app.js';
import { importPlugin } from '../../src/host-kit/plugin-loader.js';
import {
  CONTRACT_TEST_TEMPLATE,
  contractTestManifest,
  contractTestPlugin,
  observed,
  ROBOT,
} from './fixtures/contract-test-plugin.js';
import {
  adminToken,
  createTestCustomer,
  expectError,
  getShop,
  login,
  testDatabaseUrl,
  testMailbox,
  TEST_APP_SECRET,
} from '../helpers/shop.js';
import { insertProduct } from '../helpers/checkout.js';

/**
 * Every extension point of the HostRuntime contract, exercised by a test plugin loaded beside the
 * real one into a second app on the same database — as a third-party plugin would use them.
 */
describe('host: the plugin contract', function () {
  let shop: ShopApp;
  let robotCustomerId = '';
  let agent: supertest.Agent;

  before(async () => {
    const shared = await getShop();
    const mailbox = await testMailbox();
    shop = await createApp({
      db: shared.db,
      plugins: [
        await importPlugin(),
        { manifest: contractTestManifest, plugin: contractTestPlugin(() => robotCustomerId) },
      ],
      config: {
        databaseUrl: await testDatabaseUrl(),
        appSecret: TEST_APP_SECRET,
        publicUrl: 'http://shop.test',
        logLevel: 'silent',
        workers: false,
        validateResponses: true,
        mailerUrl: mailbox.url,
      },
    });
    shop.mail.registerTemplate('contract-test.hello', CONTRACT_TEST_TEMPLATE);
    robotCustomerId = (await createTestCustomer({ company: 'Robot Works' })).customer.id;
    agent = supertest.agent(shop.app).set('x-forwarded-for', '10.200.0.1');
  });

  after(async () => {
    await shop.close();
  });

  async function robotToken(): Promise<string> {
    const res = await agent.post('/store-api/account/login').send(ROBOT);
    expect(res.status).to.equal(200);
    return res.body.contextToken;
  }

  it('routes: a plugin route is validated, authorized by its permission key and documented', async () => {
    const token = await robotToken();
    const hello = await agent.get('/store-api/contract-test/hello').set('suite-context-token', token);
    expect(hello.status).to.equal(200);
    expect(hello.body).to.deep.equal({ greeting: 'hello', actor: 'Robot' });
    const doc = await agent.get('/store-api/_info/openapi3.json');
    expect(doc.body.paths['/contract-test/hello'].get['x-permission']).to.equal('contract.read');
    const admin = await agent
      .post('/api/contract-test/admin')
      .set('authorization', `Bearer ${await adminToken()}`)
      .send({});
    expect(admin.body).to.deep.equal({ principalType: 'integration' });
    expectError(await agent.post('/api/contract-test/admin').send({}), 401);
  });

  it('login provider and context enricher: a plugin login gets the permissions the plugin grants', async () => {
    const { email, password } = await createTestCustomer();
    const customerToken = await login(email, password);
    const context = await agent.get('/store-api/context').set('suite-context-token', await robotToken());
    expect(context.body.actor).to.include({ type: 'customer', name: 'Robot' });
    expect(context.body.permissions).to.deep.equal(['contract.read', 'orders.create']);
    expect(
      (await agent.get('/store-api/contract-test/hello').set('suite-context-token', customerToken)).status,
    ).to.equal(200);
  });

  it('visibility filter, price provider and line-item processor shape what the context sees and buys', async () => {
    const hidden = await insertProduct({ name: 'CONTRACT-HIDDEN widget', priceNet: 5000 });
    const priced = await insertProduct({ name: 'CONTRACT-priced widget', priceNet: 5000 });
    const { email, password } = await createTestCustomer();
    const customerToken = await login(email, password);
    expectError(await agent.get(`/store-api/product/${hidden.id}`).set('suite-context-token', customerToken), 404);
    const robot = await robotToken();
    const seen = await agent.get(`/store-api/product/${hidden.id}`).set('suite-context-token', robot);
    expect(seen.status).to.equal(200);
    const cart = await agent
      .post('/store-api/checkout/cart/line-item')
      .set('suite-context-token', robot)
      .send({ items: [{ productId: priced.id, quantity: 2 }] });
    expect(cart.status).to.equal(200);
    const line = cart.body.lineItems.find((l: { productId: string }) => l.productId === priced.id);
    expect(line.payload.stampedBy).to.equal('contract-test');
    expect(line.price.unitPrice).to.equal(1.23);
    expect(observed.processedPhases).to.include('add');
  });

  it('checkout interceptor refuses, order-placed hook runs inside the order transaction', async () => {
    const robot = await robotToken();
    const product = await insertProduct({ name: 'CONTRACT-order widget', priceNet: 1000, stock: 10 });
    await agent
      .post('/store-api/checkout/cart/line-item')
      .set('suite-context-token', robot)
      .send({ items: [{ productId: product.id, quantity: 1 }] });
    expectError(
      await agent
        .post('/store-api/checkout/order')
        .set('suite-context-token', robot)
        .send({ customerComment: 'refuse me' }),
      400,
      'SUITE__CONTRACT_TEST_REFUSED',
    );
    const before = observed.placedOrders.length;
    const order = await agent
      .post('/store-api/checkout/order')
      .set('suite-context-token', robot)
      .send({ customerComment: 'fine' });
    expect(order.status).to.equal(200);
    expect(observed.placedOrders.length).to.equal(before + 1);
    expect(observed.processedPhases).to.include('order');
    // The hook read the order through the contract on its transaction: it saw the uncommitted order.
    expect(observed.ordersReadInHook.at(-1)).to.include({ id: order.body.id, orderNumber: order.body.orderNumber });
  });

  it("mail is queued in the caller's transaction: sent after commit, gone after rollback; a plugin's job handler gets its payload", async () => {
    const mailbox = await testMailbox();
    const robot = await robotToken();
    const jobsBefore = observed.jobPayloads.length;
    expectError(
      await agent.post('/store-api/contract-test/mail').set('suite-context-token', robot).send({ fail: true }),
      400,
    );
    expect(
      (await agent.post('/store-api/contract-test/mail').set('suite-context-token', robot).send({})).status,
    ).to.equal(200);
    await shop.jobs.jobs.enqueue(shop.db, 'contract-test.job', { by: 'Robot' });
    await shop.jobs.runDue();
    const mail = await mailbox.waitFor((m) => m.subject === 'Hello Robot' && m.envelopeTo.includes(ROBOT.email));
    expect(mail.html).to.contain('<b>Robot</b>');
    expect(observed.jobPayloads.length).to.equal(jobsBefore + 1);
    expect(observed.jobPayloads.at(-1)).to.deep.equal({ by: 'Robot' });
    expect(
      await shop
        .db('mail_outbox')
        .where({ template: 'contract-test.hello', recipient: ROBOT.email })
        .count({ n: '*' })
        .then((r) => Number(r[0]!.n)),
    ).to.equal(1);
  });

  it('storefront: a plugin page renders for a logged-in visitor and sends others to the login form', async () => {
    const anonymous = await supertest(shop.app).get('/contract-test');
    expect(anonymous.status).to.equal(302);
    expect(anonymous.headers.location).to.match(/\/account\/login/);
  });
});
