import { expect } from 'chai';
import type { Response } from 'supertest';
import { createEmployee, createRole, loginAs, newCustomer, type Customer, type Employee } from '../employee/helpers.js';
import { loggedInVisitor, type StorefrontVisitor } from '../../helpers/storefront.js';

export { newCustomer, type Customer };

/** Handlebars escapes "=" and "&" in attribute values; a browser reads them back. */
export const decoded = (html: string) => html.replace(/&#x3D;/g, '=').replace(/&amp;/g, '&');
export const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#x3D;/g, '=')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

/** The storefront visitor of a fresh company's admin login (the customer), with its Store API token. */
export async function companyAdmin(): Promise<{ customer: Customer; browser: StorefrontVisitor }> {
  const customer = await newCustomer();
  return { customer, browser: await loggedInVisitor(customer.email, customer.password) };
}

/** An employee of `customer` whose role holds exactly `permissions`, logged in to the storefront. */
export async function employeeBrowser(
  customer: Customer,
  permissions: string[],
): Promise<{ employee: Employee; token: string; browser: StorefrontVisitor }> {
  const role = await createRole(customer.token, permissions);
  const employee = await createEmployee(customer.token, { roleId: role.id });
  return {
    employee,
    token: await loginAs(employee.email, employee.password),
    browser: await loggedInVisitor(employee.email, employee.password),
  };
}

export function expectPage(res: Response, status = 200): string {
  expect(res.status, `${res.status} ${textOf(res.text ?? '').slice(0, 600)}`).to.equal(status);
  return res.text;
}

/** A refused page: the storefront's error page with this status (403 "Not allowed", 404 "Page not found"). */
export function expectRefused(res: Response, status: 403 | 404): void {
  expect(res.status, textOf(res.text ?? '').slice(0, 400)).to.equal(status);
  expect(res.text).to.contain(status === 403 ? 'Not allowed' : 'Page not found');
}
