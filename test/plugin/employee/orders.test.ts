import { expect } from 'chai';
import { addToCart, insertProduct, placeOrder } from '../../helpers/checkout.js';
import { expectError } from '../../helpers/shop.js';
import { as, createEmployee, createRole, employeeWith, loginAs, newCustomer } from './helpers.js';

async function orderAs(token: string): Promise<string> {
  const product = await insertProduct();
  expect((await addToCart(token, [{ productId: product.id, quantity: 1 }])).status).to.be.oneOf([200, 201]);
  const res = await placeOrder(token);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.id;
}

describe('employees: employee orders', () => {
  it('an employee sees the orders they placed; orders.read-all and the customer admin see all of the customer’s', async () => {
    const owner = await newCustomer();
    const buyerRole = await createRole(owner.token, ['orders.create', 'orders.read']);
    const buyerA = await createEmployee(owner.token, { roleId: buyerRole.id });
    const buyerB = await createEmployee(owner.token, { roleId: buyerRole.id });
    const tokenA = await loginAs(buyerA.email, buyerA.password);
    const tokenB = await loginAs(buyerB.email, buyerB.password);
    const orderA = await orderAs(tokenA);
    const orderB = await orderAs(tokenB);
    const orderOwner = await orderAs(owner.token);

    const mine = await (await as(tokenA)).post('/b2b/employee-orders', {});
    expect(mine.status).to.equal(200);
    expect(mine.body.orders.total).to.equal(1);
    expect(mine.body.orders.elements[0].id).to.equal(orderA);
    // Beside the order route response, the Store API list envelope that clients written for the platform read.
    expect(mine.body).to.include({ total: 1, page: 1, limit: 25, apiAlias: 'dal_entity_search_result' });
    expect(mine.body.elements).to.deep.equal(mine.body.orders.elements);
    expect((await (await as(tokenA)).get(`/b2b/employee-order/${orderA}`)).body.id).to.equal(orderA);
    expectError(await (await as(tokenA)).get(`/b2b/employee-order/${orderB}`), 404);

    const all = await (await as(owner.token)).post('/b2b/employee-orders', {});
    expect(all.body.orders.elements.map((o: { id: string }) => o.id)).to.have.members([orderA, orderB, orderOwner]);
    const byEmployee = await (
      await as(owner.token)
    ).post('/b2b/employee-orders', { filter: [{ type: 'equals', field: 'employeeId', value: buyerB.id }] });
    expect(byEmployee.body.orders.elements.map((o: { id: string }) => o.id)).to.deep.equal([orderB]);
    const supervisor = await employeeWith(['orders.read-all'], owner);
    const paged = await (await as(supervisor.token)).post('/b2b/employee-orders', { limit: 2, page: 2 });
    expect(paged.body.orders).to.include({ total: 3, limit: 2, page: 2 });
    expect(paged.body).to.include({ total: 3, limit: 2, page: 2 });
    expect(paged.body.elements).to.have.length(1).and.deep.equal(paged.body.orders.elements);
    expect((await (await as(supervisor.token)).get(`/b2b/employee-order/${orderB}`)).status).to.equal(200);
  });

  it('validates, needs a login and orders.read, and never shows another customer’s order', async () => {
    const owner = await newCustomer();
    const order = await orderAs(owner.token);
    const stranger = await newCustomer();
    expectError(await (await as(stranger.token)).get(`/b2b/employee-order/${order}`), 404);
    const strangers = await (await as(stranger.token)).post('/b2b/employee-orders', {});
    expect(strangers.body.orders.total).to.equal(0);
    expect(strangers.body).to.include({ total: 0 });
    expect(strangers.body.elements).to.deep.equal([]);
    expectError(await (await as(owner.token)).get('/b2b/employee-order/nope'), 400);
    expectError(await (await as(owner.token)).post('/b2b/employee-orders', { page: 0 }), 400);
    expectError(await (await as(null)).post('/b2b/employee-orders', {}), 401);
    expectError(await (await as(null)).get(`/b2b/employee-order/${order}`), 401);
    const noRights = await employeeWith(['employee.read'], owner);
    expectError(await (await as(noRights.token)).post('/b2b/employee-orders', {}), 403);
    expectError(await (await as(noRights.token)).get(`/b2b/employee-order/${order}`), 403);
  });
});
