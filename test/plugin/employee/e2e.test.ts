import { expect } from 'chai';
import { deliverMail, expectError, http, loginNewCustomer, testMailbox } from '../../helpers/shop.js';
import { insertProduct } from '../../helpers/checkout.js';
import { uniqueEmail } from './helpers.js';

/** A client's view: only HTTP calls and the mails a real SMTP server on loopback received. */
describe('employees: onboarding end to end', () => {
  it('admin creates a role and invites; the employee accepts by mail, logs in by a mailed link and sees only what the role allows', async () => {
    const admin = await loginNewCustomer();
    const client = await http();
    const asAdmin = (method: 'get' | 'post' | 'patch', path: string) =>
      client[method](`/store-api${path}`).set('suite-context-token', admin.token);

    const role = await asAdmin('post', '/b2b/employee-roles/create').send({
      name: 'Orderer',
      permissions: ['orders.create', 'orders.read'],
    });
    expect(role.status).to.equal(200);
    const email = uniqueEmail('onboarding');
    const invited = await asAdmin('post', '/create-invitation').send({
      email,
      firstName: 'Olga',
      lastName: 'Onboard',
      roleId: role.body.role.id,
      storefrontUrl: 'http://shop.test',
    });
    expect(invited.status).to.equal(200);

    await deliverMail();
    const mailbox = await testMailbox();
    const invitation = await mailbox.waitFor(
      (m) => m.envelopeTo.includes(email) && /invites you/.test(String(m.subject)),
    );
    expect(invitation.html).to.contain('href="http://shop.test/account/employee-invitation/');
    const invitationSecret = /\/account\/employee-invitation\/([A-Za-z0-9_-]+)/.exec(invitation.text ?? '')![1]!;
    const accepted = await (
      await http()
    )
      .post(`/store-api/invitation-employee/${invitationSecret}`)
      .send({ password: 'olgas-own-password' });
    expect(accepted.status).to.equal(200);

    const employeeClient = await http();
    expect((await employeeClient.post('/store-api/passwordless-login').send({ email })).body).to.deep.equal({
      success: true,
    });
    await deliverMail();
    const loginMail = await mailbox.waitFor(
      (m) => m.envelopeTo.includes(email) && /login link/.test(String(m.subject)),
    );
    const loginSecret = /\/account\/passwordless-login\/([A-Za-z0-9_-]+)/.exec(loginMail.text ?? '')![1]!;
    const login = await employeeClient.post(`/store-api/passwordless-login/${loginSecret}`).send({});
    expect(login.status).to.equal(200);
    const token = login.body.contextToken as string;
    const asEmployee = (method: 'get' | 'post', path: string) =>
      employeeClient[method](`/store-api${path}`).set('suite-context-token', token);

    const context = await asEmployee('get', '/context');
    expect(context.body.actor).to.include({ type: 'employee', name: 'Olga Onboard', email });
    expect(context.body.customer.id).to.equal(admin.customer.id);
    expect(context.body.permissions).to.deep.equal(['orders.create', 'orders.read']);

    expect((await asEmployee('post', '/b2b/employee-orders').send({})).body.orders.total).to.equal(0);
    expectError(await asEmployee('post', '/b2b/employees').send({}), 403, 'SUITE__PERMISSION_DENIED');
    expectError(await asEmployee('post', '/b2b/employee-roles').send({}), 403);
    expectError(await asEmployee('post', '/create-invitation').send({ email: uniqueEmail() }), 403);
    expectError(await asEmployee('post', '/b2b/employee-export').send({}), 403);

    const product = await insertProduct();
    expect(
      (await asEmployee('post', '/checkout/cart/line-item').send({ items: [{ productId: product.id, quantity: 1 }] }))
        .status,
    ).to.be.oneOf([200, 201]);
    const ordered = await asEmployee('post', '/checkout/order').send({});
    expect(ordered.status).to.equal(200);
    const mine = await asEmployee('post', '/b2b/employee-orders').send({});
    expect(mine.body.orders.elements.map((o: { id: string }) => o.id)).to.deep.equal([ordered.body.id]);
    expect(
      (
        await asAdmin('post', '/b2b/employee-orders').send({
          filter: [{ type: 'equals', field: 'employeeId', value: accepted.body.employeeId }],
        })
      ).body.orders.total,
    ).to.equal(1);
  });
});
