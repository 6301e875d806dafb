import { expect } from 'chai';
import { deliverMail, expectError, getShop, testMailbox } from '../../helpers/shop.js';
import { as, createRole, employeeWith, linkSecret, loginAs, newCustomer, receiveMail, uniqueEmail } from './helpers.js';

describe('employees: invitations', () => {
  it('invites by mail with an activation link on the sales channel domain; accepting creates the employee with the role', async () => {
    const owner = await newCustomer();
    const role = await createRole(owner.token, ['orders.read']);
    const email = uniqueEmail('invitee');
    const created = await (
      await as(owner.token)
    ).post('/create-invitation', { email, firstName: 'Ivy', lastName: 'Invited', department: 'Ops', roleId: role.id });
    expect(created.status).to.equal(200);
    const mail = await receiveMail(email, 'invites you');
    expect(mail.text).to.contain('Ivy');
    const { url, secret } = linkSecret(mail, '/account/employee-invitation');
    expect(url).to.match(/^http:\/\/shop\.test\//);

    const invitation = await (await as(owner.token)).get(`/b2b/employee-invitation/${created.body.id}`);
    expect(invitation.body).to.include({
      email,
      status: 'pending',
      roleId: role.id,
      roleName: role.name,
      employeeId: null,
    });

    expectError(await (await as(null)).post(`/invitation-employee/${secret}`, {}), 400, 'SUITE__PASSWORD_REQUIRED');
    expectError(
      await (await as(null)).post(`/invitation-employee/${secret}`, { password: 'short' }),
      400,
      'SUITE__INVALID_INPUT',
    );
    const accepted = await (await as(null)).post(`/invitation-employee/${secret}`, { password: 'a-good-password' });
    expect(accepted.status).to.equal(200);
    const token = await loginAs(email, 'a-good-password');
    const context = await (await as(token)).get('/context');
    expect(context.body.employee).to.include({ firstName: 'Ivy', lastName: 'Invited', roleId: role.id });
    expect(context.body.permissions).to.deep.equal(['orders.read']);
    expectError(
      await (await as(null)).post(`/invitation-employee/${secret}`, { password: 'a-good-password' }),
      400,
      'SUITE__INVITATION_INVALID',
    );
    const list = await (await as(owner.token)).get('/b2b/employee-invitations');
    expect(list.body.elements[0]).to.include({ email, status: 'accepted', employeeId: null });
  });

  it('an expired, withdrawn or renewed invitation link does not work', async () => {
    const owner = await newCustomer();
    const email = uniqueEmail('invitee');
    const first = await (await as(owner.token)).post('/create-invitation', { email });
    const oldSecret = linkSecret(await receiveMail(email, 'invites you'), '/account/employee-invitation').secret;
    const renewed = await (
      await as(owner.token)
    ).post('/create-invitation', { email, firstName: 'Re', lastName: 'New' });
    expect(renewed.body.id).not.to.equal(first.body.id);
    expectError(
      await (
        await as(null)
      ).post(`/invitation-employee/${oldSecret}`, { password: 'a-good-password', firstName: 'A', lastName: 'B' }),
      400,
      'SUITE__INVITATION_INVALID',
    );
    const rows = await (await getShop()).db('mail_outbox').where({ recipient: email, template: 'employee-invitation' });
    expect(rows).to.have.length(2);
    await deliverMail();
    const secrets = (await testMailbox()).messages
      .filter((m) => m.envelopeTo.includes(email))
      .map((m) => linkSecret(m, '/account/employee-invitation').secret);
    const latest = secrets.find((s) => s !== oldSecret)!;
    await (
      await getShop()
    )
      .db('b2b_employee_invitations')
      .where({ id: renewed.body.id })
      .update({ expires_at: '2000-01-01 00:00:00.000' });
    expect((await (await as(owner.token)).get(`/b2b/employee-invitation/${renewed.body.id}`)).body.status).to.equal(
      'expired',
    );
    expectError(
      await (await as(null)).post(`/invitation-employee/${latest}`, { password: 'a-good-password' }),
      400,
      'SUITE__INVITATION_INVALID',
    );

    const third = await (await as(owner.token)).post('/create-invitation', { email });
    expect((await (await as(owner.token)).delete(`/b2b/employee-invitation/${third.body.id}`)).body).to.deep.equal({
      success: true,
    });
    expectError(await (await as(owner.token)).get(`/b2b/employee-invitation/${third.body.id}`), 404);
    expectError(await (await as(null)).post('/invitation-employee/not*valid', {}), 400);
  });

  it('refuses inviting an employee of the company, a foreign role, or a storefrontUrl that is not a sales channel domain', async () => {
    const owner = await newCustomer();
    const { employee } = await employeeWith(['orders.read'], owner);
    const client = await as(owner.token);
    expectError(await client.post('/create-invitation', { email: employee.email }), 400, 'SUITE__EMPLOYEE_EXISTS');
    expectError(await client.post('/create-invitation', { email: 'bad' }), 400, 'SUITE__INVALID_INPUT');
    expectError(
      await client.post('/create-invitation', { email: uniqueEmail(), storefrontUrl: 'http://shop.test.evil.example' }),
      400,
      'SUITE__INVALID_STOREFRONT_URL',
    );
    const foreign = await createRole((await newCustomer()).token, []);
    expectError(await client.post('/create-invitation', { email: uniqueEmail(), roleId: foreign.id }), 404);
    const withDomain = await client.post('/create-invitation', {
      email: uniqueEmail(),
      storefrontUrl: 'HTTP://SHOP.TEST/',
    });
    expect(withDomain.status).to.equal(200);
  });

  it('needs a login and invitation.manage on every invitation route; another customer’s invitation is a 404', async () => {
    const owner = await newCustomer();
    const invitation = await (await as(owner.token)).post('/create-invitation', { email: uniqueEmail() });
    const id = invitation.body.id;
    const noRights = await employeeWith(['employee.manage'], owner);
    const stranger = await newCustomer();
    for (const call of [
      (c: Awaited<ReturnType<typeof as>>) => c.post('/create-invitation', { email: uniqueEmail() }),
      (c: Awaited<ReturnType<typeof as>>) => c.get('/b2b/employee-invitations'),
      (c: Awaited<ReturnType<typeof as>>) => c.get(`/b2b/employee-invitation/${id}`),
      (c: Awaited<ReturnType<typeof as>>) => c.delete(`/b2b/employee-invitation/${id}`),
    ]) {
      expectError(await call(await as(null)), 401);
      expectError(await call(await as(noRights.token)), 403);
    }
    expectError(await (await as(stranger.token)).get(`/b2b/employee-invitation/${id}`), 404);
    expectError(await (await as(stranger.token)).delete(`/b2b/employee-invitation/${id}`), 404);
    expect((await (await as(stranger.token)).get('/b2b/employee-invitations')).body.total).to.equal(0);
    expectError(await (await as(owner.token)).get('/b2b/employee-invitations?limit=9999'), 400);
    const manager = await employeeWith(['invitation.manage'], owner);
    expect((await (await as(manager.token)).get('/b2b/employee-invitations?limit=1')).body.total).to.equal(1);
  });
});
