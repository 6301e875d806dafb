import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { projectPath } from '../src/host-kit/paths.js';
import { http } from './helpers/shop.js';

const read = (...parts: string[]) => readFileSync(projectPath(...parts), 'utf8');

/** What the docs say is missing must be missing: a built feature called "not built" sends users away. */
describe('docs: no built feature is called missing', () => {
  it('organisation-units.md does not call checkout methods or assortment rules per unit "not built" while their routes are served', async () => {
    const agent = await http();
    const store = (await agent.get('/store-api/_info/openapi3.json')).body as { paths: Record<string, unknown> };
    const admin = (await agent.get('/api/_info/openapi3.json')).body as { paths: Record<string, unknown> };
    expect(store.paths).to.have.property('/b2b/organisation-unit/{id}/checkout-methods');
    expect(admin.paths).to.have.property('/b2b/organisation-unit/{unitId}/partial-assortment-rules');
    const doc = read('docs', 'organisation-units.md').replace(/\s+/g, ' ');
    const notBuilt = /not built yet[^.]*/i.exec(doc)?.[0] ?? '';
    expect(notBuilt).not.to.match(/payment|shipping|assortment/i);
  });

  it('the README does not list accepting account requests as 501 on Vendure while the adapter creates customers', () => {
    const customers = read('src', 'adapters', 'vendure', 'customers.ts');
    expect(customers).not.to.match(/notSupported\('customers\.create/);
    const readme = read('README.md').replace(/\s+/g, ' ');
    const still501 = /Still 501[^.]*\./.exec(readme)?.[0] ?? '';
    expect(still501, 'the README names what still answers 501 on Vendure').not.to.equal('');
    expect(still501).not.to.match(/account request/i);
  });
});
