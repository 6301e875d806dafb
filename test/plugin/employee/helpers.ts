import { expect } from 'chai';
import type supertest from 'supertest';
import { newId } from '../../../src/lib/ids.js';
import { deliverMail, getShop, http, loginNewCustomer, testMailbox, type TestCustomer } from '../../helpers/shop.js';
import type { ReceivedMail } from '../../helpers/smtp.js';

export const STORE = '/store-api';
export const TOKEN = 'suite-context-token';

export type Customer = TestCustomer & { token: string };

export function uniqueEmail(prefix = 'employee'): string {
  return `${prefix}-${newId().slice(0, 12)}@example.test`;
}

export async function newCustomer(): Promise<Customer> {
  return loginNewCustomer();
}

export async function as(token: string | null) {
  const agent = await http();
  const wrap = (req: supertest.Test) => (token ? req.set(TOKEN, token) : req);
  return {
    agent,
    get: (path: string) => wrap(agent.get(`${STORE}${path}`)),
    post: (path: string, body: unknown = {}) => wrap(agent.post(`${STORE}${path}`)).send(body as object),
    patch: (path: string, body: unknown = {}) => wrap(agent.patch(`${STORE}${path}`)).send(body as object),
    delete: (path: string) => wrap(agent.delete(`${STORE}${path}`)),
    csv: (path: string, text: string) =>
      wrap(agent.post(`${STORE}${path}`))
        .set('content-type', 'text/csv')
        .send(text),
  };
}

export async function createRole(
  token: string,
  permissions: string[],
  extra: Record<string, unknown> = {},
): Promise<{ id: string; name: string }> {
  const name = `Role ${newId().slice(0, 8)}`;
  const res = await (await as(token)).post('/b2b/employee-roles/create', { name, permissions, ...extra });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.role;
}

export interface Employee {
  id: string;
  email: string;
  password: string;
}

/** An employee with a password, created by the customer admin through the Store API. */
export async function createEmployee(
  adminToken: string,
  input: { roleId?: string | null; permissions?: string[]; email?: string; department?: string } = {},
): Promise<Employee> {
  const roleId =
    input.roleId !== undefined
      ? input.roleId
      : input.permissions
        ? (await createRole(adminToken, input.permissions)).id
        : null;
  const email = input.email ?? uniqueEmail();
  const password = `pw-${newId().slice(0, 12)}`;
  const res = await (
    await as(adminToken)
  ).post('/b2b/employee', {
    email,
    firstName: 'Erin',
    lastName: 'Employee',
    department: input.department ?? 'Purchasing',
    roleId,
    password,
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return { id: res.body.id, email, password };
}

export async function loginAs(email: string, password: string): Promise<string> {
  const res = await (await http()).post(`${STORE}/account/login`).send({ email, password });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.contextToken;
}

/** A logged-in employee of a fresh customer whose role holds exactly these permissions. */
export async function employeeWith(
  permissions: string[],
  customer?: Customer,
): Promise<{ customer: Customer; employee: Employee; token: string }> {
  const owner = customer ?? (await newCustomer());
  const employee = await createEmployee(owner.token, { permissions });
  return { customer: owner, employee, token: await loginAs(employee.email, employee.password) };
}

/** Sends what the outbox holds and returns the mail for this recipient and template (subject match). */
export async function receiveMail(to: string, subjectPart: string): Promise<ReceivedMail> {
  await deliverMail();
  return (await testMailbox()).waitFor((m) => m.envelopeTo.includes(to) && String(m.subject).includes(subjectPart));
}

export function linkSecret(mail: ReceivedMail, path: string): { url: string; secret: string } {
  const match = new RegExp(`(https?://[^\\s"<]+${path}/([A-Za-z0-9_-]+))`).exec(mail.text ?? '');
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return { url: match[1]!, secret: match[2]! };
}

export async function outboxRows(to: string, template: string): Promise<Array<Record<string, any>>> {
  return (await getShop()).db('mail_outbox').where({ recipient: to, template }).orderBy('created_at');
}
