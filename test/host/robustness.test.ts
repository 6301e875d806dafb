import { expect } from 'chai';
import { adminToken, getShop, http, loginNewCustomer } from '../helpers/shop.js';
import type { AnyRoute } from '../../src/lib/routes.js';
import type { ShopApp } from '../../src/host/app.js';

const ID = '0123456789abcdef0123456789abcdef';

/** Fills path parameters with values of the right shape (a real-looking id) or a hostile one. */
function concretePath(route: AnyRoute, hostile: boolean): string {
  return route.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => {
    if (hostile) return encodeURIComponent(`../${name}%00'"<x>`);
    if (name === 'type') return 'billing';
    if (name === 'quantity') return '1';
    return ID;
  });
}

function wrongTypes(schema: Record<string, any> | undefined): Record<string, unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.keys(properties).map((key) => [key, { nested: [1, 'x', null] }]));
}

/**
 * Sends every declared route malformed JSON, wrong types, unknown fields and hostile path values,
 * logged in and as an admin: whatever happens, no 500.
 */
describe('host: no input produces a 500', function () {
  this.timeout(120000);

  const apis: Array<[string, string, (shop: ShopApp) => AnyRoute[]]> = [
    ['Store API', '/store-api', (shop) => shop.internals.storeApi.routes],
    ['Admin API', '/api', (shop) => shop.internals.adminApi.routes],
  ];
  for (const [name, prefix, routesOf] of apis)
    it(`survives malformed bodies on every ${name} route`, async () => {
      const shop = await getShop();
      const agent = await http();
      const { token } = await loginNewCustomer();
      const bearer = `Bearer ${await adminToken()}`;
      const failures: string[] = [];
      for (const route of routesOf(shop)) {
        if (route.operationId === 'logout') continue;
        const attempts: Array<{ name: string; path: string; body?: string }> = [
          { name: 'malformed JSON', path: concretePath(route, false), body: '{"a":' },
          { name: 'array body', path: concretePath(route, false), body: '[1,2,3]' },
          {
            name: 'wrong types',
            path: concretePath(route, false),
            body: JSON.stringify(wrongTypes(route.schemas.body)),
          },
          { name: 'unknown field', path: concretePath(route, false), body: JSON.stringify({ unknownFieldXyz: true }) },
          { name: 'hostile path', path: concretePath(route, true), body: '{}' },
          { name: 'hostile query', path: `${concretePath(route, false)}?limit=-1&page=abc&depth=%27`, body: '{}' },
        ];
        // A route's attempts at once (a few hundred routes one after the other took most of the timeout on MariaDB).
        await Promise.all(
          attempts.map(async (attempt) => {
            const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
            let request = agent[method](`${prefix}${attempt.path}`)
              .set('suite-context-token', token)
              .set('authorization', bearer);
            if (route.method !== 'GET' && attempt.body !== undefined)
              request = request.set('content-type', 'application/json').send(attempt.body);
            const res = await request;
            if (res.status >= 500)
              failures.push(
                `${route.method} ${prefix}${route.path} (${attempt.name}): ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`,
              );
            else if (res.status >= 400) {
              const error = res.body?.errors?.[0];
              if (!error || error.status !== String(res.status) || typeof error.code !== 'string')
                failures.push(
                  `${route.method} ${prefix}${route.path} (${attempt.name}): ${res.status} without the error body`,
                );
            }
          }),
        );
      }
      expect(failures, failures.join('\n')).to.deep.equal([]);
    });
});
