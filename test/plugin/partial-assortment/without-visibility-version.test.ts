import { expect } from 'chai';
import { createVisibilityFilter } from '../../../src/plugin/partial-assortment/visibility.js';
import { applyVisibility } from '../../../src/host/catalog/visibility.js';
import type { HostRuntime, StoreContext } from '../../../src/contract/index.js';
import { storeContextFor } from '../../helpers/checkout.js';
import { createTestCustomer, getShop } from '../../helpers/shop.js';
import { nowDb } from '../../../src/lib/time.js';
import { KINDS, createProduct, createRule } from './fixtures.js';

const PRODUCT = KINDS.find((k) => k.segment === 'product')!;

// Contract 4.0: `catalog.visibilityVersion` is an optional performance hook. A host without it gets
// the same answers from the partial assortment's filter, read from its tables on every request.
describe('partial assortment on a host without catalog.visibilityVersion', () => {
  it('hides and shows the same products as with the hook, and sees a rule change at once', async () => {
    const shop = await getShop();
    const allowed = await createTestCustomer();
    const other = await createTestCustomer();
    const restricted = await createProduct('Restricted to one customer');
    const open = await createProduct('Open to all');
    const ruleId = await createRule({ type: 'customerId', operator: '=', value: [allowed.customer.id] });
    await shop.db(PRODUCT.table).insert({
      product_id: restricted.id,
      product_version_id: restricted.versionId,
      rule_id: ruleId,
      created_at: nowDb(),
    });
    await shop.runtime.catalog.visibilityChanged(shop.db);

    const withHook = createVisibilityFilter(shop.runtime);
    const withoutHook = createVisibilityFilter({
      ...shop.runtime,
      catalog: { ...shop.runtime.catalog, visibilityVersion: undefined },
    } as HostRuntime);
    const visibleIds = async (filter: typeof withHook, ctx: StoreContext) => {
      const query = shop.db('products').whereIn('products.id', [restricted.id, open.id]);
      await applyVisibility([filter], ctx, 'product', query, 'products.id', shop.db);
      return (await query.pluck('products.id')).sort();
    };

    for (const filter of [withHook, withoutHook]) {
      expect(await visibleIds(filter, await storeContextFor(allowed.customer))).to.deep.equal(
        [restricted.id, open.id].sort(),
      );
      expect(await visibleIds(filter, await storeContextFor(other.customer))).to.deep.equal([open.id]);
    }

    // Without a version nothing is cached: the rule's removal shows on the next request.
    await shop.db(PRODUCT.table).where({ product_id: restricted.id }).delete();
    expect(await visibleIds(withoutHook, await storeContextFor(other.customer))).to.deep.equal(
      [restricted.id, open.id].sort(),
    );
  });
});
