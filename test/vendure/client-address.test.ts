import { expect } from 'chai';
import { newId } from '../../src/lib/ids.js';
import { bootShop, type ShopClient } from './helpers/shop.js';

/**
 * Behind a reverse proxy on the same machine (loopback), the client's address is the one the proxy
 * forwards (`x-forwarded-for`), as on the reference host: the login rate limit (10 per minute per
 * address and e-mail) counts each client, not the proxy. The example shop sets Vendure's
 * `apiOptions.trustProxy: 'loopback'` itself (the plugin leaves the setting to the shop, decision 0057);
 * Vendure's default `false` counts every client as 127.0.0.1 and the plugin warns at boot.
 */
describe("Vendure: the client's address behind a proxy on loopback", function () {
  this.timeout(120_000);
  let client: ShopClient;

  before(async function () {
    this.timeout(240_000);
    client = await bootShop({ label: 'vendure_client_address' });
  });

  after(async () => {
    await client?.close();
  });

  it('eleven failed logins from one forwarded address are limited (429); a login from another forwarded address is not', async () => {
    const run = newId().slice(0, 8);
    // A new e-mail each time: the limit counts the address and the e-mail apart, so only the address's counter fills.
    const login = (address: string, i: number) =>
      client.rest(
        'POST',
        '/store-api/account/login',
        { 'x-forwarded-for': address },
        { email: `nobody-${run}-${i}@proxy.test`, password: 'wrong-password' },
      );
    const first: number[] = [];
    for (let i = 0; i < 10; i++) first.push((await login('203.0.113.7', i)).status);
    expect(first).to.deep.equal(Array(10).fill(401));
    expect((await login('203.0.113.7', 10)).status).to.equal(429);
    expect((await login('198.51.100.23', 11)).status).to.equal(401);
  });
});
