import type supertest from 'supertest';
import { expect } from 'chai';
import { hashPassword } from '../../../src/host-kit/passwords.js';
import { newId, newSecret } from '../../../src/lib/ids.js';
import { nowDb } from '../../../src/lib/time.js';
import { adminToken, getShop, http } from '../../helpers/shop.js';

export const CONSOLE = '/b2b-admin';

export interface Operator {
  username: string;
  password: string;
  agent: supertest.Agent;
  /** The session's CSRF token, read from a console page as a browser would. */
  csrf(): Promise<string>;
  /** Posts a console form with the session's CSRF token. */
  post(path: string, form?: Record<string, string>): Promise<supertest.Response>;
}

/** An admin user of the reference host (admin_users; `readOnly`: the console's read-only role). */
export async function createAdminUser(readOnly = false): Promise<{ username: string; password: string; id: string }> {
  const shop = await getShop();
  const username = `operator-${newId().slice(0, 10)}`;
  const password = `pw-${newSecret(9)}`;
  const id = newId();
  await shop.db('admin_users').insert({
    id,
    username,
    email: `${username}@shop.test`,
    password_hash: await hashPassword(password),
    active: true,
    read_only: readOnly,
    created_at: nowDb(),
  });
  return { username, password, id };
}

export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF field in the page: ${html.slice(0, 300)}`);
  return match[1]!;
}

/** A managing or read-only operator, logged in to the console through its login form. */
export async function loginOperator(readOnly = false): Promise<Operator> {
  const { username, password } = await createAdminUser(readOnly);
  const agent = await http();
  const form = await agent.get(`${CONSOLE}/login`);
  expect(form.status).to.equal(200);
  const login = await agent
    .post(`${CONSOLE}/login`)
    .type('form')
    .send({ _csrf: csrfOf(form.text), username, password, redirect: CONSOLE });
  expect(login.status, login.text).to.equal(303);
  const csrf = async () => csrfOf((await agent.get(CONSOLE)).text);
  return {
    username,
    password,
    agent,
    csrf,
    async post(path, fields = {}) {
      return agent
        .post(`${CONSOLE}${path}`)
        .type('form')
        .send({ _csrf: await csrf(), ...fields });
    },
  };
}

/** A business account request, as a company sends it from the storefront. */
export async function requestAccount(company = 'Prospect GmbH'): Promise<{ id: string; email: string }> {
  const email = `prospect-${newId().slice(0, 10)}@example.test`;
  const res = await (
    await http()
  )
    .post('/store-api/account-request')
    .send({ company, firstName: 'Pia', lastName: 'Prospect', email });
  expect(res.status).to.equal(200);
  return { id: (await accountRequestByEmail(email)).id, email };
}

/** The account request of this e-mail address, read through the Admin API. */
export async function accountRequestByEmail(email: string): Promise<{
  id: string;
  attributes: { status: string; email: string; customerId: string | null; decisionComment?: string | null };
}> {
  const list = await (
    await http()
  )
    .get('/api/b2b-account-request?limit=500')
    .set('authorization', `Bearer ${await adminToken()}`);
  expect(list.status).to.equal(200);
  return (
    list.body.data as Array<{ id: string; attributes: { status: string; email: string; customerId: string | null } }>
  ).find((request) => request.attributes.email === email)!;
}
