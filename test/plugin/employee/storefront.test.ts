import { expect } from 'chai';
import type supertest from 'supertest';
import { deliverMail, getShop, http, testMailbox } from '../../helpers/shop.js';
import type { ReceivedMail } from '../../helpers/smtp.js';
import {
  as,
  createEmployee,
  createRole,
  employeeWith,
  linkSecret,
  loginAs,
  newCustomer,
  STORE,
  uniqueEmail,
  type Customer,
} from './helpers.js';

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
const sessionCookie = (res: supertest.Response) =>
  ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('suite-session='));
const tokenOf = (cookie: string | undefined) =>
  decodeURIComponent(/^suite-session=([^;]*)/.exec(cookie ?? '')?.[1] ?? '');
const PAST = '2000-01-01 00:00:00.000';

/** A browser-like visitor: keeps cookies, sends the CSRF field of the last form it saw (the login form's at first). */
async function visitor() {
  const agent = await http();
  let csrf = csrfOf((await agent.get('/account/login')).text);
  return {
    agent,
    async get(path: string) {
      const res = await agent.get(path);
      if (csrfOf(res.text)) csrf = csrfOf(res.text);
      return res;
    },
    post(path: string, form: Record<string, string> = {}) {
      return agent
        .post(path)
        .type('form')
        .send({ _csrf: csrf, ...form });
    },
    postWithoutCsrf(path: string, form: Record<string, string> = {}) {
      return agent.post(path).type('form').send(form);
    },
  };
}

function expectLinkRefused(res: supertest.Response, status: number, problem: string) {
  expect(res.status, res.text).to.equal(status);
  expect(res.type).to.equal('text/html');
  expect(res.text).to.contain(`data-problem="${problem}"`);
  expect(res.text).not.to.match(/action="\/account\/(employee-invitation|passwordless-login|employee-recovery)\//);
  expect(sessionCookie(res)).to.equal(undefined);
}

/** Runs `send`, delivers the outbox and returns the path of the link in the new mail to `to` (not an older one). */
async function mailedLinkPath(
  to: string,
  subjectPart: string,
  linkPath: string,
  send: () => Promise<void>,
): Promise<string> {
  const mailbox = await testMailbox();
  const matches = (m: ReceivedMail) => m.envelopeTo.includes(to) && String(m.subject).includes(subjectPart);
  const seen = new Set(mailbox.messages.filter(matches));
  await send();
  await deliverMail();
  const mail = await mailbox.waitFor((m) => matches(m) && !seen.has(m));
  return new URL(linkSecret(mail, linkPath).url).pathname;
}

async function invite(owner: Customer, body: Record<string, unknown>): Promise<{ id: string; path: string }> {
  let id = '';
  const path = await mailedLinkPath(String(body.email), 'invites you', '/account/employee-invitation', async () => {
    const created = await (await as(owner.token)).post('/create-invitation', body);
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    id = created.body.id;
  });
  return { id, path };
}

async function invitationStatus(owner: Customer, id: string): Promise<string> {
  return (await (await as(owner.token)).get(`/b2b/employee-invitation/${id}`)).body.status;
}

describe('employees: storefront pages behind the mailed links', () => {
  describe('/account/employee-invitation/{hash}', () => {
    it('shows the form, refuses a POST without CSRF and bad passwords, then creates the login and logs the employee in', async () => {
      const owner = await newCustomer();
      const role = await createRole(owner.token, ['orders.read']);
      const email = uniqueEmail('invitee');
      const { id, path } = await invite(owner, { email, firstName: 'Ivy', lastName: 'Invited', roleId: role.id });
      const browser = await visitor();

      const form = await browser.get(path);
      expect(form.status).to.equal(200);
      expect(form.text).to.contain(`Join ${owner.customer.company}`);
      expect(form.text).to.contain(`data-test="invitation-email">${email}<`);
      expect(form.text).to.contain('value="Ivy"').and.contain('value="Invited"');
      expect(form.text).to.contain('minlength="8"');
      expect((await browser.get(path)).status, 'opening the link again still works').to.equal(200);
      expect(await invitationStatus(owner, id)).to.equal('pending');

      const forged = await browser.postWithoutCsrf(path, {
        firstName: 'Ivy',
        lastName: 'Invited',
        password: 'a-good-password',
        passwordRepeat: 'a-good-password',
      });
      expect(forged.status).to.equal(403);
      expect(forged.text).to.contain('The form has expired or did not come from this shop.');
      expect(sessionCookie(forged)).to.equal(undefined);

      const short = await browser.post(path, {
        firstName: 'Ivy',
        lastName: 'Invited',
        password: 'short',
        passwordRepeat: 'short',
      });
      expect(short.status).to.equal(400);
      expect(short.text).to.contain('Choose a password of at least 8 characters.');
      const differ = await browser.post(path, {
        firstName: 'Ivy',
        lastName: 'Invited',
        password: 'a-good-password',
        passwordRepeat: 'another-password',
      });
      expect(differ.status).to.equal(400);
      expect(differ.text).to.contain('The two passwords differ.');
      const noName = await browser.post(path, {
        firstName: ' ',
        lastName: 'Invited',
        password: 'a-good-password',
        passwordRepeat: 'a-good-password',
      });
      expect(noName.status).to.equal(400);
      expect(noName.text).to.contain('Please enter your first name.');
      expect(await invitationStatus(owner, id), 'refused forms change nothing').to.equal('pending');

      const accepted = await browser.post(path, {
        firstName: 'Ivy',
        lastName: 'Ingram',
        password: 'a-good-password',
        passwordRepeat: 'a-good-password',
      });
      expect(accepted.status).to.equal(303);
      expect(accepted.headers.location).to.equal('/account');
      expect(sessionCookie(accepted))
        .to.match(/HttpOnly/i)
        .and.match(/SameSite=Lax/i);

      const account = await browser.get('/account');
      expect(account.status).to.equal(200);
      expect(account.text).to.contain('<p data-test="account-name">Ivy Ingram</p>');
      expect(account.text).to.contain(`data-test="account-company">${owner.customer.company}<`);
      const context = await (await as(tokenOf(sessionCookie(accepted)))).get('/context');
      expect(context.body.employee).to.include({ firstName: 'Ivy', lastName: 'Ingram', roleId: role.id });
      expect(await loginAs(email, 'a-good-password')).to.be.a('string');
      expect(await invitationStatus(owner, id)).to.equal('accepted');

      expectLinkRefused(await browser.get(path), 400, 'used');
      expectLinkRefused(
        await browser.post(path, {
          firstName: 'X',
          lastName: 'Y',
          password: 'other-password',
          passwordRepeat: 'other-password',
        }),
        400,
        'used',
      );
      await loginAs(email, 'a-good-password');
    });

    it('refuses an expired, renewed or unknown link with a friendly page and changes nothing', async () => {
      const owner = await newCustomer();
      const email = uniqueEmail('invitee');
      const first = await invite(owner, { email, firstName: 'Old', lastName: 'Link' });
      const second = await invite(owner, { email, firstName: 'New', lastName: 'Link' });
      const browser = await visitor();
      expectLinkRefused(await browser.get(first.path), 404, 'unknown');

      const form = await browser.get(second.path);
      expect(form.status).to.equal(200);
      await (await getShop()).db('b2b_employee_invitations').where({ id: second.id }).update({ expires_at: PAST });
      expectLinkRefused(await browser.get(second.path), 400, 'expired');
      const late = await browser.post(second.path, {
        firstName: 'New',
        lastName: 'Link',
        password: 'a-good-password',
        passwordRepeat: 'a-good-password',
      });
      expectLinkRefused(late, 400, 'expired');
      expect(late.text).to.contain('This invitation link has expired.');
      expect(await invitationStatus(owner, second.id)).to.equal('expired');
      expect(
        (await (await http()).post(`${STORE}/account/login`).send({ email, password: 'a-good-password' })).status,
      ).to.equal(401);

      expectLinkRefused(await browser.get(`/account/employee-invitation/${'a'.repeat(43)}`), 404, 'unknown');
      expectLinkRefused(await browser.get('/account/employee-invitation/not*a*secret'), 404, 'unknown');
      expectLinkRefused(
        await browser.post(`/account/employee-invitation/${'b'.repeat(43)}`, {
          password: 'a-good-password',
          passwordRepeat: 'a-good-password',
        }),
        404,
        'unknown',
      );
    });

    it('asks a person who has a login already for its password, then logs them in for the inviting company', async () => {
      const elsewhere = await employeeWith(['orders.read']);
      const owner = await newCustomer();
      const { id, path } = await invite(owner, { email: elsewhere.employee.email });
      const browser = await visitor();
      const form = await browser.get(path);
      expect(form.status).to.equal(200);
      expect(form.text).to.contain('data-test="invitation-existing-login"');
      expect(form.text).to.contain('name="currentPassword"');
      expect(form.text).not.to.contain('name="passwordRepeat"');

      const wrong = await browser.post(path, { currentPassword: 'not-the-password' });
      expect(wrong.status).to.equal(400);
      expect(wrong.text).to.contain('The password is wrong.');
      expect(await invitationStatus(owner, id)).to.equal('pending');

      const accepted = await browser.post(path, {
        currentPassword: elsewhere.employee.password,
        password: 'ignored-password',
        passwordRepeat: 'ignored-password',
      });
      expect(accepted.status).to.equal(303);
      const account = await browser.get('/account');
      expect(account.text).to.contain('<p data-test="account-name">Erin Employee</p>');
      expect(account.text).to.contain(`data-test="account-company">${owner.customer.company}<`);
      expect(await loginAs(elsewhere.employee.email, elsewhere.employee.password), 'the password is unchanged').to.be.a(
        'string',
      );
      const targets = await (await as(tokenOf(sessionCookie(accepted)))).post('/b2b/employee-customers', {});
      expect(targets.status).to.equal(200);
      expect(JSON.stringify(targets.body)).to.contain(owner.customer.id).and.contain(elsewhere.customer.customer.id);
    });

    it('ends the browser’s previous session when the invitation logs someone else in', async () => {
      const visitorAccount = await newCustomer();
      const owner = await newCustomer();
      const email = uniqueEmail('invitee');
      const { path } = await invite(owner, { email, firstName: 'Sam', lastName: 'Switch' });
      const browser = await visitor();
      await browser.get('/account/login');
      const login = await browser.post('/account/login', {
        email: visitorAccount.email,
        password: visitorAccount.password,
      });
      const previousToken = tokenOf(sessionCookie(login));
      expect((await (await as(previousToken)).get('/context')).status).to.equal(200);

      await browser.get(path);
      const accepted = await browser.post(path, {
        firstName: 'Sam',
        lastName: 'Switch',
        password: 'a-good-password',
        passwordRepeat: 'a-good-password',
      });
      expect(accepted.status).to.equal(303);
      expect((await browser.get('/account')).text).to.contain('<p data-test="account-name">Sam Switch</p>');
      expect((await (await as(previousToken)).get('/context')).status).to.equal(401);
    });

    it('shares the Store API’s rate limit for accepting invitations', async () => {
      const browser = await visitor();
      for (let i = 0; i < 30; i++)
        await browser.agent
          .post(`${STORE}/invitation-employee/${'c'.repeat(43)}`)
          .send({ password: 'a-good-password' });
      await browser.get(`/account/employee-invitation/${'c'.repeat(43)}`);
      const limited = await browser.post(`/account/employee-invitation/${'c'.repeat(43)}`, {
        password: 'a-good-password',
        passwordRepeat: 'a-good-password',
      });
      expect(limited.status).to.equal(429);
      expect(limited.headers['retry-after']).to.match(/^\d+$/);
      expect(limited.text).to.contain('Too many requests');
    });
  });

  describe('/account/passwordless-login/{hash}', () => {
    const mailedLoginLink = (email: string) =>
      mailedLinkPath(email, 'login link', '/account/passwordless-login', async () => {
        expect((await (await as(null)).post('/passwordless-login', { email })).body).to.deep.equal({ success: true });
      });

    it('shows a confirm button without using the link; the POST with CSRF logs the employee in', async () => {
      const { employee, customer } = await employeeWith(['orders.read']);
      const path = await mailedLoginLink(employee.email);
      const browser = await visitor();
      const db = (await getShop()).db;

      const page = await browser.get(path);
      expect(page.status).to.equal(200);
      expect(page.text).to.contain('data-test="passwordless-name">Erin Employee<');
      expect(page.text).to.contain('data-test="passwordless-submit"');
      expect(sessionCookie(page)).to.equal(undefined);
      await (await visitor()).get(path);
      const token = await db('b2b_login_tokens')
        .where({ actor_id: employee.id, purpose: 'passwordless-login' })
        .first();
      expect(token.used_at, 'opening the link (a mail scanner) does not use it').to.equal(null);

      const forged = await browser.postWithoutCsrf(path);
      expect(forged.status).to.equal(403);
      expect(sessionCookie(forged)).to.equal(undefined);

      const login = await browser.post(path);
      expect(login.status).to.equal(303);
      expect(login.headers.location).to.equal('/account');
      const account = await browser.get('/account');
      expect(account.text).to.contain('<p data-test="account-name">Erin Employee</p>');
      expect(account.text).to.contain(`data-test="account-company">${customer.customer.company}<`);
      expect((await (await as(tokenOf(sessionCookie(login)))).get('/context')).body.actor).to.include({
        type: 'employee',
        id: employee.id,
      });

      await db('b2b_login_tokens')
        .where({ actor_id: employee.id, purpose: 'passwordless-login' })
        .update({ used_at: PAST });
      const again = await visitor();
      expectLinkRefused(await again.get(path), 400, 'used');
      expectLinkRefused(await again.post(path), 400, 'used');
    });

    it('refuses an expired or unknown link, and one of a deactivated employee', async () => {
      const { employee, customer } = await employeeWith([]);
      const path = await mailedLoginLink(employee.email);
      const db = (await getShop()).db;
      const browser = await visitor();
      await db('b2b_login_tokens')
        .where({ actor_id: employee.id, purpose: 'passwordless-login' })
        .update({ expires_at: PAST });
      expectLinkRefused(await browser.get(path), 400, 'expired');
      expectLinkRefused(await browser.get(`/account/passwordless-login/${'d'.repeat(43)}`), 404, 'unknown');
      await browser.get('/');
      expectLinkRefused(await browser.post(`/account/passwordless-login/${'d'.repeat(43)}`), 404, 'unknown');

      const fresh = await mailedLoginLink(employee.email);
      expect(
        (await (await as(customer.token)).patch(`/b2b/employee/${employee.id}`, { active: false })).status,
      ).to.equal(200);
      expectLinkRefused(await browser.get(fresh), 400, 'inactive');
      expectLinkRefused(await browser.post(fresh), 400, 'inactive');
    });

    it('logs a customer login in too', async () => {
      const owner = await newCustomer();
      const path = await mailedLoginLink(owner.email);
      const browser = await visitor();
      await browser.get(path);
      expect((await browser.post(path)).status).to.equal(303);
      expect((await browser.get('/account')).text).to.contain('<p data-test="account-name">Test Customer</p>');
    });
  });

  describe('/account/employee-recovery/{hash}', () => {
    const mailedResetLink = (email: string) =>
      mailedLinkPath(email, 'Reset your password', '/account/employee-recovery', async () => {
        const res = await (
          await as(null)
        ).post('/b2b/employee/recovery-password', { email, storefrontUrl: 'http://shop.test' });
        expect(res.body).to.deep.equal({ success: true });
      });

    it('sets the new password once, ends the other sessions and logs the employee in', async () => {
      const { employee, token: oldSession } = await employeeWith(['orders.read']);
      const path = await mailedResetLink(employee.email);
      const browser = await visitor();

      const form = await browser.get(path);
      expect(form.status).to.equal(200);
      expect(form.text).to.contain('data-test="recovery-name">Erin Employee<');
      expect(form.text).to.contain('name="passwordRepeat"');
      expect((await browser.get(path)).status).to.equal(200);

      const forged = await browser.postWithoutCsrf(path, {
        password: 'brand-new-password',
        passwordRepeat: 'brand-new-password',
      });
      expect(forged.status).to.equal(403);
      const short = await browser.post(path, { password: 'short', passwordRepeat: 'short' });
      expect(short.status).to.equal(400);
      expect(short.text).to.contain('Choose a password of at least 8 characters.');
      const differ = await browser.post(path, { password: 'brand-new-password', passwordRepeat: 'brand-new-passw0rd' });
      expect(differ.status).to.equal(400);
      expect(await loginAs(employee.email, employee.password), 'refused forms change nothing').to.be.a('string');

      const saved = await browser.post(path, { password: 'brand-new-password', passwordRepeat: 'brand-new-password' });
      expect(saved.status).to.equal(303);
      expect(saved.headers.location).to.equal('/account');
      expect((await browser.get('/account')).text).to.contain('<p data-test="account-name">Erin Employee</p>');
      expect((await (await as(oldSession)).get('/context')).status, 'other sessions end').to.equal(401);
      expect(
        (
          await (
            await http()
          )
            .post(`${STORE}/account/login`)
            .send({ email: employee.email, password: employee.password })
        ).status,
      ).to.equal(401);
      expect(await loginAs(employee.email, 'brand-new-password')).to.be.a('string');

      const again = await visitor();
      expectLinkRefused(await again.get(path), 400, 'used');
      expectLinkRefused(
        await again.post(path, { password: 'third-password', passwordRepeat: 'third-password' }),
        400,
        'used',
      );
      expect(await loginAs(employee.email, 'brand-new-password')).to.be.a('string');
    });

    it('refuses an expired, replaced or unknown link and changes nothing', async () => {
      const owner = await newCustomer();
      const employee = await createEmployee(owner.token);
      const first = await mailedResetLink(employee.email);
      const second = await mailedResetLink(employee.email);
      const browser = await visitor();
      expectLinkRefused(await browser.get(first), 404, 'unknown');
      await browser.get(second);
      await (
        await getShop()
      )
        .db('b2b_login_tokens')
        .where({ actor_id: employee.id, purpose: 'password-recovery' })
        .update({ expires_at: PAST });
      expectLinkRefused(
        await browser.post(second, { password: 'brand-new-password', passwordRepeat: 'brand-new-password' }),
        400,
        'expired',
      );
      expect(await loginAs(employee.email, employee.password)).to.be.a('string');
      expectLinkRefused(await browser.get(`/account/employee-recovery/${'e'.repeat(43)}`), 404, 'unknown');
      expectLinkRefused(await browser.get('/account/employee-recovery/short'), 404, 'unknown');
    });
  });
});
