import { expect } from 'chai';
import supertest from 'supertest';
import type { ShopApp } from '../../src/host/app.js';
import { DEMO_CUSTOMER } from '../../src/host/seed/demo.js';
import { DEMO_APPROVER, DEMO_PURCHASER } from '../../src/plugin/employee/demo.js';
import { startDemoShop, type DemoShop } from '../helpers/demo-shop.js';

/**
 * The demo shop `npm start` seeds, walked as its printed logins would: it has its own embedded
 * database (the demo's fixed e-mail addresses would collide with other tests' data).
 */
describe('e2e: the demo shop', function () {
  this.timeout(60000);
  let shop: ShopApp;
  let demo: DemoShop | undefined;

  before(async () => {
    demo = await startDemoShop('demo');
    shop = demo.shop;
    expect(demo.banner).to.contain(DEMO_PURCHASER.email).and.contain(DEMO_APPROVER.email);
  });

  after(async () => {
    await demo?.close();
  });

  const agent = () => supertest.agent(shop.app).set('x-forwarded-for', '10.77.0.1');
  async function login(email: string, password: string): Promise<string> {
    const res = await agent().post('/store-api/account/login').send({ email, password });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.contextToken;
  }

  it('lets the purchaser order only through an approval that the approver grants', async () => {
    const purchaser = await login(DEMO_PURCHASER.email, DEMO_PURCHASER.password);
    const products = await agent().post('/store-api/product').set('suite-context-token', purchaser).send({ limit: 2 });
    expect(products.body.total).to.be.at.least(40);
    const cart = await agent()
      .post('/store-api/checkout/cart/line-item')
      .set('suite-context-token', purchaser)
      .send({ items: [{ productId: products.body.elements[0].id, quantity: 1 }] });
    expect(cart.status).to.equal(200);
    const direct = await agent().post('/store-api/checkout/order').set('suite-context-token', purchaser).send({});
    expect(direct.status).to.equal(400);
    expect(direct.body.errors[0].code).to.equal('SUITE__ORDER_APPROVAL_REQUIRED');

    const created = await agent()
      .post('/store-api/order-approval/create')
      .set('suite-context-token', purchaser)
      .send({ cartToken: cart.body.token, customerComment: 'For the workshop' });
    expect(created.status).to.equal(200);
    const list = await agent().post('/store-api/order-approval/list').set('suite-context-token', purchaser).send({});
    const approvalId = list.body.data[0].id;

    const approver = await login(DEMO_APPROVER.email, DEMO_APPROVER.password);
    const approved = await agent()
      .post(`/store-api/b2b/order-approval/${approvalId}/approve`)
      .set('suite-context-token', approver)
      .send({ comment: 'Go ahead' });
    expect(approved.status, JSON.stringify(approved.body)).to.equal(200);

    const executed = await agent()
      .post(`/store-api/b2b/order-approval/${approvalId}/execute`)
      .set('suite-context-token', purchaser)
      .send({});
    expect(executed.status, JSON.stringify(executed.body)).to.equal(200);
    expect(executed.body.executionResult.success).to.equal(true);
    const admin = await login(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    const orders = await agent().post('/store-api/order').set('suite-context-token', admin).send({});
    expect(orders.body.orders.elements.map((o: { id: string }) => o.id)).to.include(
      executed.body.executionResult.orderId,
    );
  });

  it('lets the sales representative act for the demo customer', async () => {
    const rep = await login('sales@demo-shop.test', 'demo-sales-2026');
    const customers = await agent()
      .post('/store-api/sales-representative/customers')
      .set('suite-context-token', rep)
      .send({});
    expect(customers.status).to.equal(200);
    expect(JSON.stringify(customers.body)).to.contain(DEMO_CUSTOMER.company);
  });
});
