import { expect } from 'chai';
import { http } from '../../helpers/shop.js';

/** Every route of the organisation units and the address book, as the Store API's OpenAPI document must carry it. */
const ROUTES: Array<[string, string, boolean]> = [
  ['post', '/b2b/organisation-unit/list', true],
  ['get', '/b2b/organisation-unit/tree', false],
  ['post', '/b2b/organisation-unit', true],
  ['post', '/b2b/organisation-unit/move-employee', true],
  ['get', '/b2b/organisation-unit/{id}', false],
  ['patch', '/b2b/organisation-unit/{id}', true],
  ['delete', '/b2b/organisation-unit/{id}', false],
  ['put', '/b2b/organisation-unit/{id}/member/{employeeId}', true],
  ['delete', '/b2b/organisation-unit/{id}/member/{employeeId}', false],
  ['post', '/b2b/organisation-unit-import', true],
  ['post', '/b2b/organisation-unit-export', true],
  ['post', '/b2b/organisation-unit-member-import', true],
  ['post', '/b2b/organisation-unit-member-export', true],
  ['get', '/b2b/organisation-unit/{id}/default-address', false],
  ['get', '/b2b/organisation-unit/{id}/cost-center', false],
  ['put', '/b2b/organisation-unit/{id}/cost-center', true],
  ['put', '/b2b/organisation-unit/{id}/default-address', true],
  ['post', '/b2b/address/list', true],
  ['get', '/b2b/address/checkout', false],
  ['post', '/b2b/address', true],
  ['get', '/b2b/address/{id}', false],
  ['patch', '/b2b/address/{id}', true],
  ['delete', '/b2b/address/{id}', false],
];

describe('organisation units and address book: the OpenAPI document', () => {
  it('carries every new route with its request body, answer and permission', async () => {
    const doc = (await (await http()).get('/store-api/_info/openapi3.json')).body;
    for (const [method, path, hasBody] of ROUTES) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).to.be.an('object');
      expect(operation.responses['200'], `${method} ${path}`).to.be.an('object');
      if (hasBody) expect(operation.requestBody, `${method} ${path}`).to.be.an('object');
      expect(operation.tags, `${method} ${path}`).to.satisfy(
        (tags: string[]) =>
          tags.includes('Organisation units') || tags.includes('Company address book') || tags.includes('Cost centers'),
      );
    }
    expect(doc.paths['/b2b/address'].post['x-permission']).to.equal('address.manage');
    expect(doc.paths['/b2b/organisation-unit'].post['x-permission']).to.equal('organisation-unit.manage');
    expect(JSON.stringify(doc.paths['/budget'].post.requestBody)).to.contain('unitIds');
  });
});
