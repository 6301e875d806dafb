import { expect } from 'chai';
import { getShop } from '../helpers/shop.js';
import { criteriaSchema, searchByCriteria, type CriteriaSpec } from '../../src/lib/criteria.js';
import { validateOrThrow } from '../../src/lib/validation.js';
import { newId } from '../../src/lib/ids.js';
import { nowDb } from '../../src/lib/time.js';

const spec: CriteriaSpec = {
  fields: { name: { column: 'products.name', type: 'string' }, stock: { column: 'products.stock', type: 'number' } },
  termColumns: ['products.name'],
  defaultSort: [{ column: 'products.id', order: 'asc' }],
  idColumn: 'products.id',
};

describe('lib: criteria', () => {
  it('refuses a limit above 500 and unknown fields with a 400, not a silent clamp', () => {
    const schema = criteriaSchema(Object.keys(spec.fields));
    expect(() => validateOrThrow(schema, { limit: 501 }, 'body')).to.throw(/must be <= 500/);
    expect(() => validateOrThrow(schema, { filter: [{ type: 'equals', field: 'secret', value: 1 }] }, 'body')).to.throw();
    expect(validateOrThrow<{ limit: number; page: number }>(schema, {}, 'body')).to.include({ limit: 25, page: 1 });
  });

  it('filters with LIKE wildcards taken literally, and reuses a cached total only under the same key', async () => {
    const shop = await getShop();
    const marker = `crit-${newId().slice(0, 8)}`;
    const rows = ['100% cotton', '100 cotton', 'cotton_blend'].map((name, i) => ({ id: newId(), version_id: newId(), product_number: `${marker}-${i}`, name: `${marker} ${name}`, stock: i, active: true, tax_rate_bp: 1900, price_net: 100, created_at: nowDb() }));
    await shop.db('products').insert(rows);
    const base = () => shop.db('products').where('products.product_number', 'like', `${marker}-%`);
    const percent = await searchByCriteria(base(), { filter: [{ type: 'contains', field: 'name', value: '100%' }] }, spec, (q) => q.select('products.name'));
    expect(percent.total).to.equal(1);
    const underscore = await searchByCriteria(base(), { term: 'n_b' }, spec, (q) => q.select('products.name'));
    expect(underscore.total).to.equal(1);

    const key = `test:${marker}`;
    const first = await searchByCriteria(base(), {}, spec, (q) => q.select('products.id'), { totalCacheKey: key });
    expect(first.total).to.equal(3);
    await shop.db('products').insert({ ...rows[0], id: newId(), version_id: newId(), product_number: `${marker}-9` });
    const cached = await searchByCriteria(base(), {}, spec, (q) => q.select('products.id'), { totalCacheKey: key });
    expect(cached.total, 'same key: the kept total').to.equal(3);
    expect(cached.rows, 'the page itself is live').to.have.length(4);
    const otherKey = await searchByCriteria(base(), {}, spec, (q) => q.select('products.id'), { totalCacheKey: `${key}:v2` });
    expect(otherKey.total).to.equal(4);
    const filtered = await searchByCriteria(base(), { filter: [{ type: 'range', field: 'stock', parameters: { gte: 1 } }] }, spec, (q) => q.select('products.id'), { totalCacheKey: key });
    expect(filtered.total, 'other filters: another entry').to.equal(2);

    const shortKey = `${key}:short`;
    expect((await searchByCriteria(base(), {}, spec, (q) => q.select('products.id'), { totalCacheKey: shortKey, totalCacheTtlMs: 50 })).total).to.equal(4);
    await shop.db('products').insert({ ...rows[0], id: newId(), version_id: newId(), product_number: `${marker}-8` });
    await new Promise((resolve) => setTimeout(resolve, 80));
    const expired = await searchByCriteria(base(), {}, spec, (q) => q.select('products.id'), { totalCacheKey: shortKey, totalCacheTtlMs: 50 });
    expect(expired.total, 'after its time a total is counted again').to.equal(5);
  });
});
