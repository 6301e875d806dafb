import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { writeJson } from '../../../src/lib/db.js';
import { nowDb } from '../../../src/lib/time.js';
import { adminToken, expectError, getShop, http } from '../../helpers/shop.js';
import { as, employeeWith, newCustomer, representativeWith } from '../sales-representative/helpers.js';
import { loggedInVisitor } from '../../helpers/storefront.js';

/** A second sales channel in another language; requests pick it with the suite-access-key header. */
async function salesChannelIn(languageCode: string): Promise<string> {
  const accessKey = `SWSC${newId().slice(0, 20).toUpperCase()}`;
  await (await getShop()).db('sales_channels').insert({
    id: newId(),
    name: `Channel ${languageCode}`,
    access_key: accessKey,
    currency_iso: 'EUR',
    currency_precision: 2,
    language_code: languageCode,
    time_zone: 'Europe/Berlin',
    domains: writeJson(['http://other.test']),
    active: true,
    created_at: nowDb(),
  });
  return accessKey;
}

interface MenuEntry {
  key: string;
  label: string;
  path: string | null;
  level: number;
  childCount: number;
  children: MenuEntry[];
}

const keys = (entries: MenuEntry[]): unknown[] =>
  entries.map((e) => (e.children.length ? [e.key, keys(e.children)] : e.key));

describe('account: snippets and platform menu', () => {
  describe('GET /snippets', () => {
    it('answers the sales channel language’s snippets to anyone, filterable by prefix and term', async () => {
      const res = await (await http()).get('/store-api/snippets');
      expect(res.status).to.equal(200);
      expect(res.body.language).to.equal('en');
      expect(res.body.total).to.equal(res.body.elements.length);
      expect(res.body.elements).to.deep.include({
        id: 'b2b.menu.employees',
        key: 'b2b.menu.employees',
        value: 'Employees',
      });
      const keysSeen = res.body.elements.map((s: { key: string }) => s.key);
      expect(keysSeen).to.deep.equal([...keysSeen].sort());

      const menu = await (await http()).get('/store-api/snippets?prefix=b2b.menu.');
      expect(menu.body.elements.every((s: { key: string }) => s.key.startsWith('b2b.menu.'))).to.equal(true);
      expect(menu.body.total).to.be.below(res.body.total);
      const term = await (await http()).get('/store-api/snippets?term=Shipping%20address');
      expect(term.body.elements).to.deep.equal([
        { id: 'b2b.address.shipping', key: 'b2b.address.shipping', value: 'Shipping address' },
      ]);
      const paged = await (await http()).get('/store-api/snippets?limit=2&page=2');
      expect(paged.body.elements).to.have.length(2);
      expect(paged.body.elements[0].key).to.equal(keysSeen[2]);
    });

    it('answers German snippets on a German sales channel and English where a language has none', async () => {
      const german = await (
        await http()
      )
        .get('/store-api/snippets?prefix=b2b.menu.employees')
        .set('suite-access-key', await salesChannelIn('de-DE'));
      expect(german.body).to.deep.include({
        language: 'de',
        total: 1,
        elements: [{ id: 'b2b.menu.employees', key: 'b2b.menu.employees', value: 'Mitarbeiter' }],
      });
      const french = await (
        await http()
      )
        .get('/store-api/snippets?prefix=b2b.menu.employees')
        .set('suite-access-key', await salesChannelIn('fr-FR'));
      expect(french.body).to.deep.include({
        language: 'en',
        total: 1,
        elements: [{ id: 'b2b.menu.employees', key: 'b2b.menu.employees', value: 'Employees' }],
      });
    });

    it('refuses invalid queries (400) and an invalid context token (401)', async () => {
      expectError(await (await http()).get('/store-api/snippets?limit=501'), 400);
      expectError(await (await http()).get('/store-api/snippets?prefix=%25'), 400);
      expectError(await (await http()).get('/store-api/snippets?unknown=1'), 400);
      expectError(await (await http()).get('/store-api/snippets').set('suite-context-token', 'garbage'), 401);
    });
  });

  describe('GET|POST /b2b/platform-menu', () => {
    it('shows the company admin every customer entry, nested to the depth asked', async () => {
      const customer = await newCustomer();
      const res = await (await as(customer.token)).get('/b2b/platform-menu?depth=2');
      expect(res.status).to.equal(200);
      expect(keys(res.body.elements)).to.deep.equal([
        'overview',
        ['company', ['employees', 'roles', 'invitations', 'organisationUnits', 'addressBook']],
        // No 'expressCheckout': the reference storefront has no page at /account/express-checkout, and no entry may lead to a 404.
        [
          'ordering',
          [
            'orders',
            'orderApprovals',
            'approvalRules',
            'budgets',
            'fastOrder',
            'productLists',
            'myAssortment',
            'frequentlyOrdered',
            'recurringOrders',
            'customerProductNumbers',
            'customerPrices',
            'offers',
            'documents',
          ],
        ],
        'events',
      ]);
      expect(res.body.total).to.equal(4);
      expect(res.body.elements[1]).to.include({ label: 'Company', path: null, level: 1, childCount: 5 });
      expect(res.body.elements[1].children[0]).to.include({
        key: 'employees',
        label: 'Employees',
        path: '/account/employees',
        level: 2,
        childCount: 0,
      });

      const flat = await (await as(customer.token)).post('/b2b/platform-menu?depth=1', {});
      expect(flat.status).to.equal(200);
      expect(flat.body.elements.map((e: MenuEntry) => [e.key, e.childCount, e.children.length])).to.deep.equal([
        ['overview', 0, 0],
        ['company', 5, 0],
        ['ordering', 13, 0],
        ['events', 0, 0],
      ]);
    });

    it('shows an employee only what their role allows and a representative their own section', async () => {
      const reader = await employeeWith(['orders.read']);
      const menu = await (await as(reader.token)).post('/b2b/platform-menu?depth=3', {});
      expect(keys(menu.body.elements)).to.deep.equal(['overview', ['ordering', ['orders', 'documents']]]);
      const approver = await employeeWith(['order-approval.approve', 'employee.read']);
      expect(keys((await (await as(approver.token)).get('/b2b/platform-menu?depth=2')).body.elements)).to.deep.equal([
        'overview',
        ['company', ['employees']],
        ['ordering', ['orderApprovals']],
      ]);

      const { token, rep: representative } = await representativeWith(1);
      const rep = await (await as(token)).get('/b2b/platform-menu?depth=2');
      const top = rep.body.elements.map((e: MenuEntry) => e.key);
      expect(top).to.include('salesRepresentative');
      // The company's organisation units and address book are the company's own to keep: no entries for a representative.
      const company = rep.body.elements.find((e: MenuEntry) => e.key === 'company');
      expect(company.children.map((e: MenuEntry) => e.key)).to.deep.equal(['employees', 'roles']);
      const page = await (await loggedInVisitor(representative.email, representative.password)).get('/account');
      expect(page.status).to.equal(200);
      expect(page.text).to.contain('href="/account/employees"');
      expect(page.text).not.to.contain('href="/account/organisation-units"');
      expect(page.text).not.to.contain('href="/account/address-book"');
      const employeesPage = await (
        await loggedInVisitor(representative.email, representative.password)
      ).get('/account/employees');
      const sideMenu = /<nav class="account-menu"[\s\S]*?<\/nav>/.exec(employeesPage.text)![0];
      expect(sideMenu.match(/href="\/account"/g), 'the overview once in the side menu').to.have.length(1);
      expect(
        rep.body.elements.find((e: MenuEntry) => e.key === 'salesRepresentative').children.map((e: MenuEntry) => e.key),
      ).to.deep.equal(['customers', 'customerActivities', 'salesStatistics', 'abandonedCarts', 'eventManager']);
    });

    it('arranges, relabels and hides entries as the operator configured them (plugin settings), and lists only pages that exist', async () => {
      const agent = await http();
      const bearer = `Bearer ${await adminToken()}`;
      const configure = (settings: Record<string, unknown>) =>
        agent.patch('/api/_action/plugin-config/suite-b2b').set('authorization', bearer).send(settings);
      const customer = await newCustomer();
      try {
        expect(
          (
            await configure({
              accountMenuOrder: ['events', 'ordering', 'documents', 'orders'],
              accountMenuLabels: { documents: 'Invoices & delivery notes' },
              accountMenuHidden: ['company', 'budgets'],
            })
          ).status,
        ).to.equal(200);
        const res = await (await as(customer.token)).get('/b2b/platform-menu?depth=2');
        expect(keys(res.body.elements)).to.deep.equal([
          'events',
          [
            'ordering',
            [
              'documents',
              'orders',
              'orderApprovals',
              'approvalRules',
              'fastOrder',
              'productLists',
              'myAssortment',
              'frequentlyOrdered',
              'recurringOrders',
              'customerProductNumbers',
              'customerPrices',
              'offers',
            ],
          ],
          'overview',
        ]);
        expect(res.body.elements[1].children[0]).to.include({
          key: 'documents',
          label: 'Invoices & delivery notes',
          path: '/account/documents',
        });
        // Every entry the menu lists is a page the storefront serves to this caller.
        const paths: string[] = [];
        const walk = (entries: MenuEntry[]) => entries.forEach((e) => (e.path && paths.push(e.path), walk(e.children)));
        walk(res.body.elements);
        expect(paths).to.include('/account/documents');
        expectError(await configure({ accountMenuLabels: { documents: '' } }), 400);
        expectError(await configure({ accountMenuHidden: 'company' }), 400);
      } finally {
        await configure({ accountMenuOrder: [], accountMenuLabels: {}, accountMenuHidden: [] });
      }
      const reset = await (await as(customer.token)).get('/b2b/platform-menu?depth=1');
      expect(reset.body.elements.map((e: MenuEntry) => e.key)).to.deep.equal([
        'overview',
        'company',
        'ordering',
        'events',
      ]);
    });

    it('refuses a missing or out-of-range depth (400) and guests (401)', async () => {
      const customer = await newCustomer();
      for (const query of ['', '?depth=0', '?depth=6', '?depth=x']) {
        expectError(await (await as(customer.token)).get(`/b2b/platform-menu${query}`), 400);
        expectError(await (await as(customer.token)).post(`/b2b/platform-menu${query}`, {}), 400);
      }
      expectError(await (await as(customer.token)).post('/b2b/platform-menu?depth=1', { extra: true }), 400);
      expectError(await (await as(null)).get('/b2b/platform-menu?depth=1'), 401);
      expectError(await (await as(null)).post('/b2b/platform-menu?depth=1', {}), 401);
    });
  });
});
