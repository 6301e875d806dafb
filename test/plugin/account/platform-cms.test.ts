import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { writeJson } from '../../../src/lib/db.js';
import { nowDb } from '../../../src/lib/time.js';
import { expectError, getShop, http } from '../../helpers/shop.js';
import {
  assign,
  createCategory,
  createLandingPage,
  createProduct,
  createRule,
  KINDS,
} from '../partial-assortment/fixtures.js';
import { newCustomer } from '../sales-representative/helpers.js';

const [CATEGORY, LANDING_PAGE, PRODUCT] = KINDS;

async function cmsPage(sections: unknown[], title = 'Workshop news'): Promise<string> {
  const id = newId();
  await (
    await getShop()
  )
    .db('cms_pages')
    .insert({ id, name: `Page ${id.slice(0, 6)}`, title, sections: writeJson(sections), created_at: nowDb() });
  return id;
}

async function fetchPage(id: string, token?: string) {
  const req = (await http()).get(`/store-api/platform-cms/${id}`);
  return token ? req.set('suite-context-token', token) : req;
}

const onlyFor = (customerId: string) => createRule({ type: 'customerId', operator: '=', value: [customerId] });

describe('account: GET /platform-cms/{id}', () => {
  it('renders a page as escaped HTML with the products the caller may see', async () => {
    const visible = await createProduct('Visible hammer');
    const hidden = await createProduct('Hidden saw');
    await assign(PRODUCT, hidden.id, await onlyFor(newId()));
    const id = await cmsPage([
      { type: 'text', content: 'Hello <script>alert(1)</script> workshop' },
      { type: 'image', url: '/static/tools.jpg', alt: 'Tools "on" sale' },
      { type: 'image', url: 'javascript:alert(1)', alt: 'evil' },
      { type: 'product-listing', title: 'Picks', productIds: [visible.id, hidden.id, 'junk'] },
      { type: 'unknown', content: 'ignored' },
    ]);
    const res = await fetchPage(id);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/html/);
    expect(res.text).to.contain(`data-cms-page="${id}"`);
    expect(res.text).to.contain('<h1>Workshop news</h1>');
    expect(res.text).to.contain('Hello &lt;script&gt;alert(1)&lt;/script&gt; workshop');
    expect(res.text).to.not.contain('<script>');
    expect(res.text).to.contain('src="/static/tools.jpg" alt="Tools &quot;on&quot; sale"');
    expect(res.text).to.not.contain('javascript:');
    expect(res.text).to.contain('Visible hammer');
    expect(res.text).to.contain('10.00');
    expect(res.text).to.not.contain('Hidden saw');
    expect(res.text).to.not.contain('ignored');
  });

  it('shows a page used by a category or landing page only to contexts that may see one of them', async () => {
    const insider = await newCustomer();
    const outsider = await newCustomer();
    const categoryPage = await cmsPage([{ type: 'text', content: 'Members only' }]);
    const category = await createCategory();
    await (await getShop()).db('categories').where({ id: category.id }).update({ cms_page_id: categoryPage });
    await assign(CATEGORY, category.id, await onlyFor(insider.customer.id));
    expectError(await fetchPage(categoryPage), 404);
    expectError(await fetchPage(categoryPage, outsider.token), 404);
    const seen = await fetchPage(categoryPage, insider.token);
    expect(seen.status).to.equal(200);
    expect(seen.text).to.contain('Members only');

    // A second, unrestricted landing page using the same page makes it public.
    const landing = await createLandingPage();
    await (await getShop()).db('landing_pages').where({ id: landing.id }).update({ cms_page_id: categoryPage });
    expect((await fetchPage(categoryPage, outsider.token)).status).to.equal(200);
    await assign(LANDING_PAGE, landing.id, await onlyFor(insider.customer.id));
    expectError(await fetchPage(categoryPage, outsider.token), 404);

    const inactivePage = await cmsPage([{ type: 'text', content: 'Retired' }]);
    const retired = await createCategory();
    await (
      await getShop()
    )
      .db('categories')
      .where({ id: retired.id })
      .update({ cms_page_id: inactivePage, active: false });
    expectError(await fetchPage(inactivePage, insider.token), 404);
  });

  it('answers 404 for unknown pages, 400 for malformed ids and 401 for an invalid token', async () => {
    expectError(await fetchPage(newId()), 404);
    expectError(await fetchPage('not-an-id'), 400);
    expectError(await fetchPage(await cmsPage([]), 'garbage'), 401);
  });
});
