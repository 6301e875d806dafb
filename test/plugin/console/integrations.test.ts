import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { startBrowser, type BrowserHarness } from '../../helpers/browser.js';
import { adminToken, getShop, http } from '../../helpers/shop.js';
import { axeFindings, consolePage, SCREENSHOTS } from './browser-helpers.js';
import { CONSOLE, loginOperator } from './helpers.js';

async function tokenFor(clientId: string, clientSecret: string) {
  return (await http())
    .post('/api/oauth/token')
    .send({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
}

/** The client id and secret of the one-time notice the page after creating shows (HTML entities undone). */
function createdOf(html: string): { clientId: string; clientSecret: string } {
  const notice = /data-test="notice">([^<]*)</.exec(html)?.[1]?.replace(/&#x3D;/g, '=') ?? '';
  const match = /Client id: (\S+) · Client secret: (\S+) —/.exec(notice);
  if (!match) throw new Error(`no credentials on the page: ${html.slice(0, 300)}`);
  return { clientId: match[1]!, clientSecret: match[2]! };
}

describe('console: integrations', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('creates an integration showing its secret once; the credentials work until it is deleted', async () => {
    const operator = await loginOperator();
    const label = `ERP export ${Date.now()}`;
    const posted = await operator.post('/integrations', { label });
    expect(posted.status, 'Post/Redirect/Get (decision 0051)').to.equal(303);
    expect(posted.headers.location).to.equal(`${CONSOLE}/integrations`);
    const created = await operator.agent.get(posted.headers.location as string);
    expect(created.text).to.contain('it is shown this once');
    const { clientId, clientSecret } = createdOf(created.text);
    expect(created.text.match(new RegExp(clientSecret, 'g')), 'the secret once on the page').to.have.length(1);

    const token = await tokenFor(clientId, clientSecret);
    expect(token.status, JSON.stringify(token.body)).to.equal(200);
    const bearer = `Bearer ${token.body.access_token}`;
    expect((await (await http()).get('/api/integration').set('authorization', bearer)).status).to.equal(200);

    const list = await operator.agent.get(`${CONSOLE}/integrations`);
    expect(list.text).to.contain(label).and.contain(clientId).and.not.contain(clientSecret);
    expect(list.text, 'the secret is not shown again').not.to.contain('it is shown this once');
    const api = await (await http()).get('/api/integration?limit=500').set('authorization', bearer);
    const row = (api.body.data as Array<{ id: string; attributes: Record<string, unknown> }>).find(
      (r) => r.attributes.clientId === clientId,
    );
    expect(row?.attributes).to.have.keys('clientId', 'label', 'createdAt');

    const deleted = await operator.post(`/integrations/${row!.id}/delete`);
    expect(deleted.status).to.equal(303);
    expect((await operator.agent.get(deleted.headers.location as string)).text)
      .to.contain('its credentials and tokens no longer work')
      .and.not.contain(clientId);
    expect((await (await http()).get('/api/integration').set('authorization', bearer)).status).to.equal(401);
    expect((await tokenFor(clientId, clientSecret)).status).to.equal(401);
    const again = await (
      await http()
    )
      .delete(`/api/integration/${row!.id}`)
      .set('authorization', `Bearer ${await adminToken()}`);
    expect(again.status).to.equal(404);
  });

  it('redirects after creating, so reloading the page shows the list and creates no second integration', async () => {
    const operator = await loginOperator();
    const label = `Reload check ${Date.now()}`;
    const posted = await operator.post('/integrations', { label });
    expect(posted.status).to.equal(303);
    const shown = await operator.agent.get(posted.headers.location as string);
    const { clientSecret } = createdOf(shown.text);
    const reloaded = await operator.agent.get(posted.headers.location as string);
    expect(reloaded.status).to.equal(200);
    expect(reloaded.text, 'the secret is shown once').not.to.contain(clientSecret);
    expect(shown.headers['cache-control']).to.contain('no-store');
    const all = await (
      await http()
    )
      .get('/api/integration?limit=500')
      .set('authorization', `Bearer ${await adminToken()}`);
    const labels = (all.body.data as Array<{ attributes: { label: string } }>).map((r) => r.attributes.label);
    expect(labels.filter((l) => l === label)).to.have.length(1);
  });

  it('shows the API’s message next to an empty label, and refuses changes without CSRF or for a read-only operator', async () => {
    const operator = await loginOperator();
    const empty = await operator.post('/integrations', { label: '   ' });
    expect(empty.status).to.equal(400);
    expect(empty.text).to.contain('data-test="field-error-label"').and.contain('aria-invalid="true"');
    const forged = await operator.agent.post(`${CONSOLE}/integrations`).type('form').send({ label: 'Forged' });
    expect(forged.status).to.equal(403);
    const reader = await loginOperator(true);
    expect((await reader.agent.get(`${CONSOLE}/integrations`)).status).to.equal(200);
    const refused = await reader.post('/integrations', { label: 'Read-only try' });
    expect(refused.status).to.equal(403);
    const all = await (
      await http()
    )
      .get('/api/integration?limit=500')
      .set('authorization', `Bearer ${await adminToken()}`);
    const labels = (all.body.data as Array<{ attributes: { label: string } }>).map((r) => r.attributes.label);
    expect(labels).not.to.include('Forged').and.not.to.include('Read-only try');
  });
});

describe('console in Chromium: integrations', function () {
  this.timeout(120000);
  let harness: BrowserHarness;

  before(async function () {
    harness = await startBrowser(this);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await harness?.close();
  });

  it('creates an integration from the menu and shows its credentials; axe finds nothing serious', async () => {
    const page = await consolePage(harness.browser);
    await page.click('nav a:has-text("Integrations")');
    expect(await page.textContent('h1')).to.equal('Integrations');
    const problems = await axeFindings(page);
    await page.fill('#label', `PIM ${Date.now()}`);
    await page.click('[data-test=create-integration]');
    expect(page.url(), 'redirected after the post').to.match(/\/b2b-admin\/integrations$/);
    expect(await page.textContent('[data-test=notice]')).to.contain('copy the secret now');
    problems.push(...(await axeFindings(page)));
    await page.screenshot({ path: `${SCREENSHOTS}/integration-created.png`, fullPage: true });
    const { clientId, clientSecret } = createdOf(await page.content());
    await page.reload();
    expect(await page.content(), 'a reload shows the secret no more').not.to.contain(clientSecret);
    await page.context().close();
    expect((await tokenFor(clientId, clientSecret)).status).to.equal(200);
    expect(problems).to.deep.equal([]);
  });
});
