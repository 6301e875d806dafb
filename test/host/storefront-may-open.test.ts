import { expect } from 'chai';
import type { StoreContext } from '../../src/contract/index.js';
import { newId } from '../../src/lib/ids.js';
import { getShop } from '../helpers/shop.js';

describe('host: storefront.mayOpen', () => {
  it('ignores the query string: a link with ?orderId= is the page without it', async () => {
    const shop = await getShop();
    const ctx = {
      requestId: newId(),
      ip: '127.0.0.1',
      token: null,
      sessionId: null,
      customer: null,
      actor: { type: 'guest', id: null, name: 'Guest', email: null },
      attributes: {},
      employee: null,
      salesRepresentative: null,
      permissions: new Set<string>(),
      can: () => false,
    } as unknown as StoreContext;
    const mayOpen = (path: string) => shop.runtime.storefront.mayOpen(ctx, path);
    expect(mayOpen('/account')).to.equal(true);
    expect(mayOpen('/account?tab=orders')).to.equal(true);
    expect(mayOpen('/account/order-again?orderId=abc')).to.equal(mayOpen('/account/order-again'));
    expect(mayOpen('/no-such-page?x=1')).to.equal(false);
  });
});
