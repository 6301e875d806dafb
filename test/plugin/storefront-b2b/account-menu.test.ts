import { expect } from 'chai';
import { getShop } from '../../helpers/shop.js';
import { companyAdmin, employeeBrowser, expectPage } from './helpers.js';

/** The account menu beside a page: the side navigation's links, in order. */
function sideMenuOf(html: string): { links: string[]; current: string[] } {
  const nav = /<nav class="account-menu"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
  return {
    links: [...nav.matchAll(/<a href="([^"]+)"/g)].map((match) => match[1]!),
    current: [...nav.matchAll(/<a href="([^"]+)" aria-current="page"/g)].map((match) => match[1]!),
  };
}

describe('storefront: the account menu on every account page', function () {
  this.timeout(60000);
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('shows the company admin the whole menu beside host and add-on account pages, the page shown marked', async () => {
    const { browser } = await companyAdmin();
    const pages: Array<[string, string]> = [
      ['/account/orders', '/account/orders'],
      ['/account/addresses', '/account/addresses'],
      ['/account/employees', '/account/employees'],
      ['/account/roles', '/account/roles'],
      ['/account/offers', '/account/offers'],
      ['/account/fast-order', '/account/fast-order'],
      ['/account/budgets', '/account/budgets'],
    ];
    for (const [path, current] of pages) {
      const menu = sideMenuOf(expectPage(await browser.get(path)));
      expect(menu.links, path).to.include.members([
        '/account',
        '/account/orders',
        '/account/employees',
        '/account/roles',
        '/account/offers',
        '/account/addresses',
      ]);
      expect(menu.current, path).to.deep.equal([current]);
    }
    const refused = await browser.post('/account/employees/invite', {
      email: 'not-an-email',
      firstName: 'A',
      lastName: 'B',
    });
    expect(refused.status, 'a refused form shows the page again').to.equal(400);
    expect(sideMenuOf(refused.text).current, 'with the menu beside it').to.deep.equal(['/account/employees']);
    const home = await browser.get('/');
    expect(sideMenuOf(home.text).links, 'not on shop pages').to.deep.equal([]);
    expect(
      sideMenuOf((await browser.get('/account')).text).links,
      'the overview has the menu as its body',
    ).to.deep.equal([]);
  });

  it('gives an employee only the entries the role may open, also beside a page refused by URL', async () => {
    const { customer } = await companyAdmin();
    const { browser } = await employeeBrowser(customer, ['orders.read']);
    const orders = sideMenuOf(expectPage(await browser.get('/account/orders')));
    expect(orders.links).to.include('/account/orders');
    for (const refused of ['/account/employees', '/account/roles', '/account/fast-order'])
      expect(orders.links, refused).not.to.include(refused);

    const forbidden = await browser.get('/account/employees');
    expect(forbidden.status).to.equal(403);
    const menu = sideMenuOf(forbidden.text);
    expect(menu.links, 'the 403 page still offers the way on').to.include('/account/orders');
    expect(menu.links).not.to.include('/account/employees');
    for (const link of menu.links) expect((await browser.get(link)).status, `menu entry ${link}`).to.equal(200);
  });
});
