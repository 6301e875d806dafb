import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { CONSOLE } from '../../helpers/console-crawl.js';
import { bearer, type ShopClient } from './shop.js';

export interface Who {
  username: string;
  password: string;
}

export const SUPERADMIN: Who = { username: 'superadmin', password: 'superadmin' };

/** A console visitor with a cookie jar, talking to the running Vendure shop with fetch. */
export function consoleClient(base: string) {
  const jar = new Map<string, string>();
  const request = async (method: string, path: string, form?: Record<string, string>) => {
    const res = await fetch(`${base}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const value = pair!.slice(at + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(pair!.slice(0, at));
      else jar.set(pair!.slice(0, at), value);
    }
    const html = await res.text();
    return {
      status: res.status,
      html,
      type: (res.headers.get('content-type') ?? '').split(';')[0]!,
      location: res.headers.get('location') ?? undefined,
    };
  };
  const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  return {
    jar,
    get: (path: string) => request('GET', path),
    async post(path: string, form: Record<string, string> = {}) {
      const csrf = csrfOf((await request('GET', CONSOLE)).html);
      return request('POST', path, { _csrf: csrf, ...form });
    },
    async login(username: string, password: string) {
      const form = await request('GET', `${CONSOLE}/login`);
      expect(form.status).to.equal(200);
      return request('POST', `${CONSOLE}/login`, { _csrf: csrfOf(form.html), username, password, redirect: CONSOLE });
    },
  };
}

/** A Vendure administrator with a role of the given permissions (made through Vendure's Admin API as the superadmin). */
export async function createAdministrator(
  client: ShopClient,
  admin: Record<string, string>,
  who: Who,
  permissions: string[],
): Promise<void> {
  const role = await client.gql(
    'admin-api',
    'mutation ($i: CreateRoleInput!) { createRole(input: $i) { id } }',
    { i: { code: `role-${who.username.split('@')[0]}`, description: who.username, permissions } },
    admin,
  );
  expect(role.errors, JSON.stringify(role.errors)).to.equal(undefined);
  const created = await client.gql(
    'admin-api',
    'mutation ($i: CreateAdministratorInput!) { createAdministrator(input: $i) { id } }',
    {
      i: {
        firstName: 'Op',
        lastName: who.username.split('@')[0],
        emailAddress: who.username,
        password: who.password,
        roleIds: [role.data.createRole.id],
      },
    },
    admin,
  );
  expect(created.errors, JSON.stringify(created.errors)).to.equal(undefined);
}

/** A Chromium page of an operator logged in at the console's login form (the shop answers as http://shop.test). */
export async function consolePage(browser: Browser, who: Who): Promise<Page> {
  // The console's CSP allows no scripts; axe is the test's instrument, not the page's.
  const page = await (await browser.newContext({ bypassCSP: true })).newPage();
  await page.goto(`http://shop.test${CONSOLE}`);
  expect(page.url()).to.contain(`${CONSOLE}/login`);
  await page.fill('#username', who.username);
  await page.fill('#password', who.password);
  await Promise.all([
    page.waitForURL(`http://shop.test${CONSOLE}`),
    page.click('button[type=submit]:has-text("Log in")'),
  ]);
  return page;
}

export { bearer };
