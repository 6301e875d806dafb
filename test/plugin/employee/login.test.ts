import { expect } from 'chai';
import { expectError, getShop, http } from '../../helpers/shop.js';
import { as, employeeWith, linkSecret, loginAs, newCustomer, outboxRows, receiveMail, uniqueEmail } from './helpers.js';

describe('employees: password-less login and password recovery', () => {
  describe('POST /passwordless-login and /passwordless-login/{hash}', () => {
    it('mails an employee a link valid 30 minutes that logs them in and returns a context token', async () => {
      const { employee, customer } = await employeeWith(['orders.read']);
      const res = await (await as(null)).post('/passwordless-login', { email: employee.email });
      expect(res.body).to.deep.equal({ success: true });
      const mail = await receiveMail(employee.email, 'login link');
      expect(mail.text).to.contain('30 minutes');
      const { url, secret } = linkSecret(mail, '/account/passwordless-login');
      expect(url.startsWith('http://shop.test/account/passwordless-login/')).to.equal(true);
      const row = await (await getShop()).db('b2b_login_tokens').where({ actor_id: employee.id }).first();
      expect(row.token_hash).not.to.contain(secret);
      expect(new Date(`${row.expires_at.replace(' ', 'T')}Z`).getTime() - Date.now()).to.be.within(
        29 * 60_000,
        30 * 60_000,
      );
      const login = await (await as(null)).post(`/passwordless-login/${secret}`);
      expect(login.status).to.equal(200);
      expect(login.headers['suite-context-token']).to.equal(login.body.contextToken);
      const context = await (await as(login.body.contextToken)).get('/context');
      expect(context.body.actor).to.include({ type: 'employee', id: employee.id });
      expect(context.body.customer.id).to.equal(customer.customer.id);
    });

    it('lets a mail scanner and the owner use a link within a minute, never after, and never an expired one', async () => {
      const { employee } = await employeeWith([]);
      await (await as(null)).post('/passwordless-login', { email: employee.email });
      const { secret } = linkSecret(await receiveMail(employee.email, 'login link'), '/account/passwordless-login');
      expect((await (await as(null)).post(`/passwordless-login/${secret}`)).status).to.equal(200);
      expect((await (await as(null)).post(`/passwordless-login/${secret}`)).status).to.equal(200);
      const db = (await getShop()).db;
      await db('b2b_login_tokens').where({ actor_id: employee.id }).update({ used_at: '2000-01-01 00:00:00.000' });
      expectError(await (await as(null)).post(`/passwordless-login/${secret}`), 400, 'SUITE__LOGIN_LINK_INVALID');
      await db('b2b_login_tokens')
        .where({ actor_id: employee.id })
        .update({ used_at: null, expires_at: '2000-01-01 00:00:00.000' });
      expectError(await (await as(null)).post(`/passwordless-login/${secret}`), 400, 'SUITE__LOGIN_LINK_INVALID');
      expectError(
        await (await as(null)).post(`/passwordless-login/${'a'.repeat(43)}`),
        400,
        'SUITE__LOGIN_LINK_INVALID',
      );
      expectError(await (await as(null)).post('/passwordless-login/short'), 400, 'SUITE__INVALID_INPUT');
    });

    it('works for a customer login too', async () => {
      const owner = await newCustomer();
      await (await as(null)).post('/passwordless-login', { email: owner.email });
      const { secret } = linkSecret(await receiveMail(owner.email, 'login link'), '/account/passwordless-login');
      const login = await (await as(null)).post(`/passwordless-login/${secret}`);
      expect((await (await as(login.body.contextToken)).get('/context')).body.actor).to.include({
        type: 'customer',
        id: owner.customer.id,
      });
    });

    it('answers an unknown e-mail exactly like a known one, and sends nothing', async () => {
      const { employee } = await employeeWith([]);
      const unknown = uniqueEmail('nobody');
      const known = await (await as(null)).post('/passwordless-login', { email: employee.email });
      const missing = await (await as(null)).post('/passwordless-login', { email: unknown });
      expect(missing.status).to.equal(known.status);
      expect(missing.body).to.deep.equal(known.body);
      expect(await outboxRows(unknown, 'employee-passwordless-login')).to.have.length(0);
      expect(await outboxRows(employee.email, 'employee-passwordless-login')).to.have.length(1);
    });

    it('refuses invalid input and a storefrontUrl outside the sales channel’s domains', async () => {
      expectError(await (await as(null)).post('/passwordless-login', {}), 400, 'SUITE__INVALID_INPUT');
      expectError(await (await as(null)).post('/passwordless-login', { email: 'x' }), 400, 'SUITE__INVALID_INPUT');
      expectError(
        await (
          await as(null)
        ).post('/passwordless-login', { email: uniqueEmail(), storefrontUrl: 'https://attacker.example' }),
        400,
        'SUITE__INVALID_STOREFRONT_URL',
      );
    });

    it('is rate limited per e-mail and per address', async () => {
      const email = uniqueEmail('limited');
      const client = await http();
      const statuses = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await client.post('/store-api/passwordless-login').send({ email })).status);
      expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429]);
      const fromElsewhere = await (await http()).post('/store-api/passwordless-login').send({ email });
      expectError(fromElsewhere, 429, 'SUITE__RATE_LIMITED');
      const sameAddress = await http();
      const ip = `192.0.2.${1 + Math.floor(Math.random() * 250)}`;
      const codes = [];
      for (let i = 0; i < 31; i++)
        codes.push(
          (
            await sameAddress
              .post('/store-api/passwordless-login/' + 'b'.repeat(43))
              .set('x-forwarded-for', ip)
              .send({})
          ).status,
        );
      expect(codes.slice(0, 30).every((c) => c === 400)).to.equal(true);
      expect(codes[30]).to.equal(429);
    });
  });

  describe('POST /b2b/employee/recovery-password and /confirm', () => {
    it('mails a reset link on the given storefront domain; the new password works once and ends every session', async () => {
      const { employee, token } = await employeeWith(['orders.read']);
      const res = await (
        await as(null)
      ).post('/b2b/employee/recovery-password', { email: employee.email, storefrontUrl: 'http://shop.test' });
      expect(res.body).to.deep.equal({ success: true });
      const { url, secret } = linkSecret(
        await receiveMail(employee.email, 'Reset your password'),
        '/account/employee-recovery',
      );
      expect(url.startsWith('http://shop.test/account/employee-recovery/')).to.equal(true);
      expect(
        (
          await (
            await as(null)
          ).post('/b2b/employee/recovery-password/confirm', { hash: secret, newPassword: 'brand-new-password' })
        ).status,
      ).to.equal(200);
      expectError(await (await as(token)).get('/context'), 401);
      await loginAs(employee.email, 'brand-new-password');
      expectError(
        await (
          await http()
        )
          .post('/store-api/account/login')
          .send({ email: employee.email, password: employee.password }),
        401,
      );
      expectError(
        await (
          await as(null)
        ).post('/b2b/employee/recovery-password/confirm', { hash: secret, newPassword: 'another-password' }),
        400,
        'SUITE__RECOVERY_LINK_INVALID',
      );
    });

    it('without a storefrontUrl mails the link on the sales channel’s first domain', async () => {
      const { employee } = await employeeWith([]);
      const res = await (await as(null)).post('/b2b/employee/recovery-password', { email: employee.email });
      expect(res.body).to.deep.equal({ success: true });
      const { url } = linkSecret(
        await receiveMail(employee.email, 'Reset your password'),
        '/account/employee-recovery',
      );
      expect(url.startsWith('http://shop.test/account/employee-recovery/')).to.equal(true);
    });

    it('answers the same for unknown e-mails, refuses foreign storefront URLs, validates input', async () => {
      const unknown = uniqueEmail('nobody');
      const { employee } = await employeeWith([]);
      const known = await (
        await as(null)
      ).post('/b2b/employee/recovery-password', { email: employee.email, storefrontUrl: 'http://shop.test' });
      const missing = await (
        await as(null)
      ).post('/b2b/employee/recovery-password', { email: unknown, storefrontUrl: 'http://shop.test' });
      expect(missing.body).to.deep.equal(known.body);
      expect(await outboxRows(unknown, 'employee-password-recovery')).to.have.length(0);
      expectError(
        await (
          await as(null)
        ).post('/b2b/employee/recovery-password', { email: unknown, storefrontUrl: 'https://evil.example' }),
        400,
        'SUITE__INVALID_STOREFRONT_URL',
      );
      expectError(
        await (await as(null)).post('/b2b/employee/recovery-password', { storefrontUrl: 'http://shop.test' }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await (
          await as(null)
        ).post('/b2b/employee/recovery-password/confirm', { hash: 'c'.repeat(43), newPassword: 'short' }),
        400,
        'SUITE__INVALID_INPUT',
      );
      expectError(
        await (
          await as(null)
        ).post('/b2b/employee/recovery-password/confirm', {
          hash: 'c'.repeat(43),
          newPassword: 'long-enough-password',
        }),
        400,
        'SUITE__RECOVERY_LINK_INVALID',
      );
    });
  });

  describe('POST /b2b/employee/change-password', () => {
    it('changes the password, ends the other sessions and returns a fresh token', async () => {
      const { employee, token } = await employeeWith(['orders.read']);
      const other = await loginAs(employee.email, employee.password);
      expectError(
        await (
          await as(token)
        ).post('/b2b/employee/change-password', { currentPassword: 'wrong', newPassword: 'changed-password' }),
        400,
        'SUITE__WRONG_PASSWORD',
      );
      const res = await (
        await as(token)
      ).post('/b2b/employee/change-password', { currentPassword: employee.password, newPassword: 'changed-password' });
      expect(res.status).to.equal(200);
      expectError(await (await as(other)).get('/context'), 401);
      expect((await (await as(res.body.contextToken)).get('/context')).body.actor.id).to.equal(employee.id);
      await loginAs(employee.email, 'changed-password');
      expectError(
        await (
          await as(null)
        ).post('/b2b/employee/change-password', { currentPassword: 'x', newPassword: 'changed-password' }),
        401,
      );
      expectError(
        await (
          await as(res.body.contextToken)
        ).post('/b2b/employee/change-password', { currentPassword: 'x', newPassword: 'short' }),
        400,
      );
      expectError(
        await (
          await as((await newCustomer()).token)
        ).post('/b2b/employee/change-password', { currentPassword: 'x', newPassword: 'changed-password' }),
        403,
        'SUITE__EMPLOYEE_ONLY',
      );
    });
  });
});
