import { expect } from 'chai';
import { getShop } from '../helpers/shop.js';
import { criteriaSchema, leafMatches, searchByCriteria, type CriteriaSpec } from '../../src/lib/criteria.js';
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
    expect(() =>
      validateOrThrow(schema, { filter: [{ type: 'equals', field: 'secret', value: 1 }] }, 'body'),
    ).to.throw();
    expect(validateOrThrow<{ limit: number; page: number }>(schema, {}, 'body')).to.include({ limit: 25, page: 1 });
  });

  it('filters with LIKE wildcards taken literally, and reuses a cached total only under the same key', async () => {
    const shop = await getShop();
    const marker = `crit-${newId().slice(0, 8)}`;
    const rows = ['100% cotton', '100 cotton', 'cotton_blend'].map((name, i) => ({
      id: newId(),
      version_id: newId(),
      product_number: `${marker}-${i}`,
      name: `${marker} ${name}`,
      stock: i,
      active: true,
      tax_rate_bp: 1900,
      price_net: 100,
      created_at: nowDb(),
    }));
    await shop.db('products').insert(rows);
    const base = () => shop.db('products').where('products.product_number', 'like', `${marker}-%`);
    const percent = await searchByCriteria(
      base(),
      { filter: [{ type: 'contains', field: 'name', value: '100%' }] },
      spec,
      (q) => q.select('products.name'),
    );
    expect(percent.total).to.equal(1);
    const underscore = await searchByCriteria(base(), { term: 'n_b' }, spec, (q) => q.select('products.name'));
    expect(underscore.total).to.equal(1);

    // Full pages (limit 2), so the total is counted (or kept), not read off a last page.
    const key = `test:${marker}`;
    const first = await searchByCriteria(base(), { limit: 2 }, spec, (q) => q.select('products.id'), {
      totalCacheKey: key,
    });
    expect(first.total).to.equal(3);
    await shop.db('products').insert({ ...rows[0], id: newId(), version_id: newId(), product_number: `${marker}-9` });
    const cached = await searchByCriteria(base(), { limit: 2, page: 2 }, spec, (q) => q.select('products.id'), {
      totalCacheKey: key,
    });
    expect(cached.total, 'same key: the kept total').to.equal(3);
    expect(cached.rows, 'the page itself is live').to.have.length(2);
    const otherKey = await searchByCriteria(base(), { limit: 2 }, spec, (q) => q.select('products.id'), {
      totalCacheKey: `${key}:v2`,
    });
    expect(otherKey.total).to.equal(4);
    const filtered = await searchByCriteria(
      base(),
      { limit: 1, filter: [{ type: 'range', field: 'stock', parameters: { gte: 1 } }] },
      spec,
      (q) => q.select('products.id'),
      { totalCacheKey: key },
    );
    expect(filtered.total, 'other filters: another entry').to.equal(2);

    const shortKey = `${key}:short`;
    expect(
      (
        await searchByCriteria(base(), { limit: 2 }, spec, (q) => q.select('products.id'), {
          totalCacheKey: shortKey,
          totalCacheTtlMs: 50,
        })
      ).total,
    ).to.equal(4);
    await shop.db('products').insert({ ...rows[0], id: newId(), version_id: newId(), product_number: `${marker}-8` });
    await new Promise((resolve) => setTimeout(resolve, 80));
    const expired = await searchByCriteria(base(), { limit: 2 }, spec, (q) => q.select('products.id'), {
      totalCacheKey: shortKey,
      totalCacheTtlMs: 50,
    });
    expect(expired.total, 'after its time a total is counted again').to.equal(5);
  });

  it('takes LIKE wildcards in a contains, prefix or suffix filter on a date field literally, as on text fields (SQL and in memory)', async () => {
    const shop = await getShop();
    const marker = `date-${newId().slice(0, 8)}`;
    const dated: CriteriaSpec = {
      ...spec,
      fields: { ...spec.fields, createdAt: { column: 'products.created_at', type: 'date' } },
    };
    await shop.db('products').insert({
      id: newId(),
      version_id: newId(),
      product_number: `${marker}-1`,
      name: marker,
      stock: 1,
      active: true,
      tax_rate_bp: 1900,
      price_net: 100,
      created_at: '2026-03-04 05:06:07.089',
    });
    const base = () => shop.db('products').where('products.product_number', 'like', `${marker}-%`);
    const count = async (type: 'contains' | 'prefix' | 'suffix', value: string) =>
      (
        await searchByCriteria(base(), { filter: [{ type, field: 'createdAt', value }] }, dated, (q) =>
          q.select('products.id'),
        )
      ).total;
    expect(await count('contains', '2026-03-04'), 'a literal part of the date matches').to.equal(1);
    for (const value of ['%', '_', '2026%04', '2026_03', '!%'])
      for (const type of ['contains', 'prefix', 'suffix'] as const)
        expect(await count(type, value), `${type} ${value}`).to.equal(0);
    // The in-memory filter (figures another party computed, e.g. /ordered-products' lastOrderDate) agrees.
    for (const value of ['%', '_', '2026%04'])
      expect(
        leafMatches('date', '2026-03-04 05:06:07.089', { type: 'contains', field: 'createdAt', value }),
        value,
      ).to.equal(false);
    expect(
      leafMatches('date', '2026-03-04 05:06:07.089', { type: 'contains', field: 'createdAt', value: '03-04' }),
    ).to.equal(true);
  });

  it('counts nothing when a page is not full: the total is the rows before it and its own', async () => {
    const shop = await getShop();
    const marker = `last-${newId().slice(0, 8)}`;
    await shop.db('products').insert(
      [0, 1, 2, 3, 4].map((i) => ({
        id: newId(),
        version_id: newId(),
        product_number: `${marker}-${i}`,
        name: `${marker} ${i}`,
        stock: i,
        active: true,
        tax_rate_bp: 1900,
        price_net: 100,
        created_at: nowDb(),
      })),
    );
    const base = () => shop.db('products').where('products.product_number', 'like', `${marker}-%`);
    const counts: string[] = [];
    const listen = (query: { sql: string }) => {
      if (/count\(/i.test(query.sql)) counts.push(query.sql);
    };
    shop.db.on('query', listen);
    try {
      const search = (criteria: Parameters<typeof searchByCriteria>[1]) =>
        searchByCriteria(base(), criteria, spec, (q) => q.select('products.id'));
      expect(await search({ limit: 10 })).to.include({ total: 5 });
      expect(await search({ limit: 2, page: 3 })).to.include({ total: 5 });
      expect(await search({ limit: 2, page: 3, 'total-count-mode': 'next-pages' })).to.include({ total: 5 });
      expect(counts, 'pages that are not full are counted by their rows').to.have.length(0);
      expect(await search({ limit: 2, page: 9 }), 'an empty page past the end: counted').to.include({ total: 5 });
      expect(await search({ limit: 5 }), 'a full page: counted').to.include({ total: 5 });
      expect(counts).to.have.length(2);
    } finally {
      shop.db.off('query', listen);
    }
  });
});
