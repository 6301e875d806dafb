import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DEMO_CUSTOMER, PARTNER_GROUP } from '../../examples/vendure-shop/shop.js';
import { browserFor } from '../helpers/browser.js';
import { bearer, bootShop, freePort, type ShopClient } from './helpers/shop.js';

/** Screenshots for a person to look at (outside the repository). */
const SCREENSHOTS = process.env.SCREENSHOTS_DIR ?? join(tmpdir(), 'suite-b2b-screenshots', 'vendure-dashboard');
const ROOT = resolve(import.meta.dirname, '..', '..');
const APP_DIR = join(ROOT, 'var', 'dashboard');
/** What the build reads of this repository: a change to any of them makes the test build again. */
const BUILD_INPUTS = [
  join(ROOT, 'src', 'adapters', 'vendure', 'dashboard'),
  join(ROOT, 'examples', 'vendure-shop', 'dashboard'),
  join(ROOT, 'scripts', 'build-dashboard.mjs'),
  join(ROOT, 'package-lock.json'),
];

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

/** `npm run build:dashboard` unless var/dashboard is newer than everything the build reads. */
function buildDashboard(): void {
  const index = join(APP_DIR, 'index.html');
  if (existsSync(index) && statSync(index).mtimeMs > Math.max(...BUILD_INPUTS.filter(existsSync).map(newestChange)))
    return;
  const output = execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-dashboard.mjs')], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 600_000,
  });
  console.log(`      ${output.trim().split('\n').pop()}`);
}

/**
 * Vendure's Dashboard (`@vendure/dashboard` 3.7) built with the Suite B2B extension
 * (src/adapters/vendure/dashboard) and served by the example shop's DashboardPlugin: a superadmin
 * logs in in Chromium and works in the B2B section, whose pages read and write through the
 * plugin's Admin API with the Dashboard's own session.
 */
describe('Vendure: the B2B section of the Dashboard', function () {
  this.timeout(120_000);
  let client: ShopClient;
  let browser: Browser;
  let admin: Record<string, string>;
  let page: Page;
  const base = 'http://shop.test/dashboard';

  before(async function () {
    this.timeout(900_000);
    buildDashboard();
    client = await bootShop({
      label: 'vendure_dashboard',
      runJobs: false,
      dashboard: { appDir: APP_DIR, viteDevServerPort: await freePort() },
    });
    admin = bearer(await client.vendureLogin('admin-api', 'superadmin', 'superadmin'));
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await browserFor(this, Number(new URL(client.shop.url).port));
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await page.goto(`${base}/`);
    await page.fill('input[name=username]', 'superadmin');
    await page.fill('input[name=password]', 'superadmin');
    await page.click('button[type=submit]');
    await page.waitForSelector('text=B2B', { timeout: 60_000 });
  });

  after(async function () {
    this.timeout(60_000);
    await browser?.close();
    await client?.close();
  });

  // Finite CSS animations (the Dashboard fades blocks and sections in) are finished before the picture.
  const shot = (name: string, on: Page = page) =>
    on.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true, animations: 'disabled' });

  /** The entries of the sidebar's open sections (on a B2B page: the B2B section, opened by its route). */
  const openSectionEntries = async (on: Page) =>
    (await on.locator('[data-sidebar=menu-sub-item]:visible').allInnerTexts()).map((text) => text.trim());

  it('the B2B section is in the sidebar with its pages', async () => {
    await page.goto(`${base}/suite-b2b/console`);
    await page.locator('[data-sidebar=menu-sub-button]', { hasText: 'Partial assortments' }).waitFor();
    expect(await openSectionEntries(page)).to.deep.equal([
      'Account requests',
      'Customer prices',
      'Partial assortments',
      'B2B console',
    ]);
    await shot('sidebar');
  });

  it('account requests: a request made on the storefront is listed; accepting it creates the customer', async () => {
    const email = 'dashboard-prospect@example.test';
    const made = await client.rest(
      'POST',
      '/store-api/account-request',
      {},
      { company: 'Dashboard Prospect KG', firstName: 'Dora', lastName: 'Dash', email },
    );
    expect(made.status, JSON.stringify(made.body)).to.equal(200);
    await page.goto(`${base}/suite-b2b/account-requests`);
    const row = page.locator('tr', { hasText: 'Dashboard Prospect KG' });
    await row.waitFor();
    expect(await row.textContent())
      .to.contain(email)
      .and.contain('open');
    await row.locator('button:has-text("Decide")').click();
    await page.locator('[data-testid=suite-b2b-account-request]').waitFor();
    await shot('account-request-open');
    await page.click('[data-testid=suite-b2b-account-request] button:has-text("Accept")');
    await page.locator('[data-testid=suite-b2b-account-request] strong:has-text("accepted")').waitFor();
    await shot('account-request-accepted');
    const customers = await client.gql(
      'admin-api',
      'query ($e: String!) { customers(options: { filter: { emailAddress: { eq: $e } } }) { items { lastName } } }',
      { e: email },
      admin,
    );
    expect(customers.data.customers.items).to.deep.equal([{ lastName: 'Dash' }]);
  });

  it('account requests: declining asks for the reason and keeps it', async () => {
    const made = await client.rest(
      'POST',
      '/store-api/account-request',
      {},
      {
        company: 'Declined Prospect GmbH',
        firstName: 'Dirk',
        lastName: 'Nay',
        email: 'declined-prospect@example.test',
      },
    );
    expect(made.status, JSON.stringify(made.body)).to.equal(200);
    await page.goto(`${base}/suite-b2b/account-requests`);
    const row = page.locator('tr', { hasText: 'Declined Prospect GmbH' });
    await row.locator('button:has-text("Decide")').click();
    const panel = page.locator('[data-testid=suite-b2b-account-request]');
    await panel.locator('button:has-text("Decline")').click();
    await panel.locator('text=Give the reason for declining.').waitFor();
    await page.fill('#suite-b2b-decision-comment', 'No trade register entry.');
    await panel.locator('button:has-text("Decline")').click();
    await panel.locator('strong:has-text("declined")').waitFor();
    expect(await panel.textContent()).to.contain('Note: No trade register entry.');
    await page.getByRole('button', { name: 'Declined', exact: true }).click();
    await page.locator('tr', { hasText: 'Declined Prospect GmbH' }).waitFor();
    await shot('account-request-declined');
  });

  it('customer prices: a price is listed with the customer and variant names; the form changes it, the API refusal shows at its field', async () => {
    const ids = client.shop.state.ids;
    const buyer = await client.gql(
      'admin-api',
      'query ($e: String!) { customers(options: { filter: { emailAddress: { eq: $e } } }) { items { id } } }',
      { e: DEMO_CUSTOMER.email },
      admin,
    );
    const buyerId = String(buyer.data.customers.items[0].id);
    const variants = await client.gql(
      'admin-api',
      '{ productVariants(options: { take: 1, sort: { id: ASC } }) { items { id name sku } } }',
      {},
      admin,
    );
    const variant = variants.data.productVariants.items[0] as { id: string; name: string; sku: string };
    const set = await client.rest('POST', '/b2b-admin-api/suite-customer-price', admin, {
      customerId: ids.toPlugin(buyerId),
      productId: ids.toPlugin(variant.id),
      minQuantity: 1,
      price: 123.45,
      currency: 'EUR',
    });
    expect(set.status, JSON.stringify(set.body)).to.equal(201);

    await page.goto(`${base}/suite-b2b/customer-prices`);
    const row = page.locator('tr', { hasText: variant.sku });
    await row.waitFor();
    const text = (await row.textContent())!;
    expect(text).to.contain(`${variant.name} (${variant.sku})`).and.contain(DEMO_CUSTOMER.email).and.contain('123.45');
    await shot('customer-prices');

    await row.locator('button:has-text("Change")').click();
    await page.fill('#suite-b2b-price-price', '99.5');
    await page.click('button:has-text("Save price")');
    await page.locator('text=The price is saved.').waitFor();
    await page.locator('tr', { hasText: '99.50' }).waitFor();
    const listed = await client.rest(
      'GET',
      `/b2b-admin-api/suite-customer-price?customerId=${ids.toPlugin(buyerId)}`,
      admin,
    );
    expect(listed.body.data.map((p: { attributes: { price: number } }) => p.attributes.price)).to.deep.equal([99.5]);

    // A product that does not exist: the API's message next to the product field, the input kept.
    await page.fill('#suite-b2b-price-productId', '999999');
    await page.click('button:has-text("Save price")');
    await page.locator('#suite-b2b-price-productId-error').waitFor();
    expect(await page.textContent('#suite-b2b-price-productId-error')).to.equal('There is no product "999999".');
    expect(await page.inputValue('#suite-b2b-price-productId')).to.equal('999999');
    await shot('customer-price-refused');

    // Searching by another customer: nothing, and the list says what to do.
    await page.fill('#suite-b2b-search-customer', '999999');
    await page.click('button:has-text("Search")');
    await page.locator('text=No customer prices match the search').waitFor();
  });

  it('partial assortments: a product rule is listed with the variant and customer group names', async () => {
    const ids = client.shop.state.ids;
    const groups = await client.gql('admin-api', '{ customerGroups { items { id name } } }', {}, admin);
    const group = (groups.data.customerGroups.items as Array<{ id: string; name: string }>).find(
      (g) => g.name === PARTNER_GROUP,
    )!;
    const variants = await client.gql(
      'admin-api',
      '{ productVariants(options: { take: 1, sort: { id: DESC } }) { items { id name sku } } }',
      {},
      admin,
    );
    const variant = variants.data.productVariants.items[0] as { id: string; name: string; sku: string };
    const assigned = await client.rest('POST', '/b2b-admin-api/suite-partial-assortment-product-rule', admin, {
      productId: ids.toPlugin(variant.id),
      ruleId: ids.toPlugin(group.id),
    });
    expect(assigned.status, JSON.stringify(assigned.body)).to.equal(204);

    await page.goto(`${base}/suite-b2b/partial-assortments`);
    const row = page.locator('tr', { hasText: variant.sku });
    await row.waitFor();
    expect(await row.textContent())
      .to.contain(variant.name)
      .and.contain(PARTNER_GROUP);
    await shot('partial-assortments');
  });

  it('a read-only operator (SuiteB2BAdminReadOnly) sees only the link to the console in the B2B section', async () => {
    const role = await client.gql(
      'admin-api',
      'mutation ($i: CreateRoleInput!) { createRole(input: $i) { id } }',
      { i: { code: 'b2b-viewer', description: 'B2B viewer', permissions: ['SuiteB2BAdminReadOnly'] } },
      admin,
    );
    const created = await client.gql(
      'admin-api',
      'mutation ($i: CreateAdministratorInput!) { createAdministrator(input: $i) { id } }',
      {
        i: {
          firstName: 'Vera',
          lastName: 'Viewer',
          emailAddress: 'viewer@shop.test',
          password: 'viewer-pass-2026',
          roleIds: [role.data.createRole.id],
        },
      },
      admin,
    );
    expect(created.errors, JSON.stringify(created.errors)).to.equal(undefined);
    const viewer = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await viewer.goto(`${base}/`);
    await viewer.fill('input[name=username]', 'viewer@shop.test');
    await viewer.fill('input[name=password]', 'viewer-pass-2026');
    await viewer.click('button[type=submit]');
    await viewer.getByRole('button', { name: 'B2B', exact: true }).waitFor();
    await viewer.goto(`${base}/suite-b2b/console`);
    await viewer.locator('[data-sidebar=menu-sub-button]', { hasText: 'B2B console' }).waitFor();
    expect(await openSectionEntries(viewer)).to.deep.equal(['B2B console']);
    await shot('read-only-sidebar', viewer);
    await viewer.context().close();
  });

  it('the B2B console page links to the console, which answers its login', async () => {
    await page.goto(`${base}/suite-b2b/console`);
    const link = page.locator('a:has-text("Quantity rules")');
    await link.waitFor();
    expect(await link.getAttribute('href')).to.equal('/b2b-admin/quantity-rules');
    await shot('console-links');
    await link.click();
    await page.waitForURL(/\/b2b-admin\/login/);
  });
});
