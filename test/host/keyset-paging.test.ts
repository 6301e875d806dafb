import { expect } from 'chai';
import { newId } from '../../src/lib/ids.js';
import { nowDb } from '../../src/lib/time.js';
import { adminToken, expectError, getShop, http } from '../helpers/shop.js';

/**
 * Keyset paging (src/lib/keyset.ts): walking a list by `cursor` answers every row once, in the
 * order page numbers give, whatever the sort — ties, NULLs, descending — and the cursor of one sort
 * or a forged one is a 400.
 */
describe('host: keyset paging (cursor) on Store and Admin lists', () => {
  const prefix = `KS${newId().slice(0, 6)}-`;
  const byPrefix = [{ type: 'prefix', field: 'productNumber', value: prefix }];

  before(async () => {
    const db = (await getShop()).db;
    // 23 products: names repeat (ties broken by id), every third has no manufacturer (NULL keys).
    const rows = Array.from({ length: 23 }, (_, i) => ({
      id: newId(),
      version_id: newId(),
      product_number: `${prefix}${String(i).padStart(3, '0')}`,
      name: `Keyset product ${i % 5}`,
      manufacturer: i % 3 === 0 ? null : `Maker ${i % 4}`,
      description: 'keyset',
      stock: i,
      active: true,
      tax_rate_bp: 1900,
      price_net: 1000 + (i % 7) * 10,
      created_at: nowDb(),
    }));
    await db('products').insert(rows);
  });

  async function walkByCursor(
    body: Record<string, unknown>,
  ): Promise<{ numbers: string[]; pages: number; totals: number[] }> {
    const numbers: string[] = [];
    const totals: number[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const res = await (await http()).post('/store-api/product').send({ ...body, cursor });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      numbers.push(...(res.body.elements as Array<{ productNumber: string }>).map((p) => p.productNumber));
      totals.push(res.body.total as number);
      cursor = res.body.nextCursor as string | null;
      pages += 1;
      expect(pages, 'the walk ends').to.be.below(30);
    }
    return { numbers, pages, totals };
  }

  async function walkByPage(body: Record<string, unknown>): Promise<string[]> {
    const numbers: string[] = [];
    for (let page = 1; page < 30; page++) {
      const res = await (await http()).post('/store-api/product').send({ ...body, page });
      const elements = res.body.elements as Array<{ productNumber: string }>;
      if (elements.length === 0) break;
      numbers.push(...elements.map((p) => p.productNumber));
    }
    return numbers;
  }

  for (const sort of [
    [],
    [{ field: 'name', order: 'DESC' }],
    [{ field: 'manufacturer', order: 'ASC' }],
    [
      { field: 'manufacturer', order: 'DESC' },
      { field: 'price', order: 'ASC' },
    ],
  ]) {
    it(`walks every product once, in page order, sorted by ${JSON.stringify(sort.map((s) => `${s.field} ${s.order}`))}`, async () => {
      const body = { limit: 4, filter: byPrefix, sort };
      const { numbers, pages, totals } = await walkByCursor(body);
      expect(numbers).to.have.length(23);
      expect(new Set(numbers).size).to.equal(23);
      expect(pages).to.equal(6);
      expect(totals.every((total) => total === 23)).to.equal(true);
      if (sort.length === 0) expect(numbers).to.deep.equal(await walkByPage(body));
    });
  }

  it('counts the total on the first page only: later pages answer it from the cursor, or count again when asked', async () => {
    const first = await (await http()).post('/store-api/product').send({ limit: 4, filter: byPrefix, cursor: '' });
    expect(first.body.total).to.equal(23);
    const db = (await getShop()).db;
    const lateId = newId();
    await db('products').insert({
      id: lateId,
      version_id: newId(),
      product_number: `${prefix}late`,
      name: 'Keyset product late',
      manufacturer: null,
      description: 'keyset',
      stock: 1,
      active: true,
      tax_rate_bp: 1900,
      price_net: 1000,
      created_at: nowDb(),
    });
    try {
      const cursor = first.body.nextCursor as string;
      const second = await (await http()).post('/store-api/product').send({ limit: 4, filter: byPrefix, cursor });
      expect(second.status).to.equal(200);
      expect(second.body.total, 'the total the first page counted').to.equal(23);
      const recounted = await (
        await http()
      )
        .post('/store-api/product')
        .send({ limit: 4, filter: byPrefix, cursor, 'total-count-mode': 'exact' });
      expect(recounted.body.total, 'counted again on request').to.equal(24);
      const fresh = await (await http()).post('/store-api/product').send({ limit: 4, filter: byPrefix, cursor: '' });
      expect(fresh.body.total, 'a new walk counts anew').to.equal(24);
    } finally {
      await db('products').where('id', lateId).delete();
    }
  });

  it('orders NULL first when ascending and last when descending, on every database', async () => {
    const ascending = await walkByCursor({
      limit: 5,
      filter: byPrefix,
      sort: [{ field: 'manufacturer', order: 'ASC' }],
    });
    const descending = await walkByCursor({
      limit: 5,
      filter: byPrefix,
      sort: [{ field: 'manufacturer', order: 'DESC' }],
    });
    const withoutMaker = (n: string) => Number(n.slice(prefix.length)) % 3 === 0;
    expect(ascending.numbers.slice(0, 8).every(withoutMaker)).to.equal(true);
    expect(descending.numbers.slice(-8).every(withoutMaker)).to.equal(true);
  });

  it('answers nextCursor null on a list that fits one page, and no nextCursor without a cursor', async () => {
    const res = await (await http()).post('/store-api/product').send({ limit: 50, filter: byPrefix, cursor: '' });
    expect(res.body.elements).to.have.length(23);
    expect(res.body.nextCursor).to.equal(null);
    const paged = await (await http()).post('/store-api/product').send({ limit: 50, filter: byPrefix });
    expect(paged.body).not.to.have.property('nextCursor');
  });

  it('refuses a forged cursor, a cursor of another sort and a cursor with a page number (400, nothing read)', async () => {
    const first = await (await http()).post('/store-api/product').send({ limit: 4, filter: byPrefix, cursor: '' });
    const cursor = first.body.nextCursor as string;
    expectError(
      await (await http()).post('/store-api/product').send({ limit: 4, filter: byPrefix, cursor: 'bm90IGEgY3Vyc29y' }),
      400,
      'SUITE__INVALID_CURSOR',
    );
    const forged = Buffer.from(JSON.stringify(['x', [1, 2]])).toString('base64url');
    expectError(
      await (await http()).post('/store-api/product').send({ limit: 4, filter: byPrefix, cursor: forged }),
      400,
      'SUITE__INVALID_CURSOR',
    );
    expectError(
      await (
        await http()
      )
        .post('/store-api/product')
        .send({ limit: 4, filter: byPrefix, cursor, sort: [{ field: 'price', order: 'ASC' }] }),
      400,
      'SUITE__INVALID_CURSOR',
    );
    expectError(
      await (await http()).post('/store-api/product').send({ limit: 4, filter: byPrefix, cursor, page: 2 }),
      400,
      'SUITE__CURSOR_WITH_PAGE',
    );
  });

  it('pages the Admin API entity list by cursor: links.next carries the next cursor until the last page', async () => {
    const token = await adminToken();
    let path: string | undefined = '/api/search/product';
    const seen: string[] = [];
    let body: Record<string, unknown> = { limit: 10, filter: byPrefix, cursor: '' };
    while (path) {
      const res = await (await http()).post(path).set('authorization', `Bearer ${token}`).send(body);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      seen.push(
        ...(res.body.data as Array<{ attributes: { productNumber: string } }>).map((r) => r.attributes.productNumber),
      );
      const next = res.body.meta.nextCursor as string | null;
      expect(Boolean(res.body.links.next)).to.equal(next !== null);
      path = next === null ? undefined : '/api/search/product';
      body = { ...body, cursor: next };
    }
    expect(seen).to.have.length(23);
    expect(new Set(seen).size).to.equal(23);

    const get = await (
      await http()
    )
      .get('/api/product')
      .query({ limit: 2, cursor: '' })
      .set('authorization', `Bearer ${token}`);
    expect(get.status).to.equal(200);
    expect(get.body.links.next).to.match(/^\/api\/product\?limit=2&cursor=/);
    const second = await (await http()).get(get.body.links.next as string).set('authorization', `Bearer ${token}`);
    expect(second.status).to.equal(200);
    expect(second.body.data[0].id).not.to.equal(get.body.data[1].id);
  });

  it('documents the cursor in the OpenAPI documents', async () => {
    const store = await (await http()).get('/store-api/_info/openapi3.json');
    const listing = store.body.paths['/product'].post;
    const requestBody = listing.requestBody.$ref
      ? store.body.components.requestBodies[String(listing.requestBody.$ref).split('/').pop()!]
      : listing.requestBody;
    expect(requestBody.content['application/json'].schema.properties).to.have.property('cursor');
    expect(listing.responses['200'].content['application/json'].schema.properties).to.have.property('nextCursor');
    const admin = await (
      await http()
    )
      .get('/api/_info/openapi3.json')
      .set('authorization', `Bearer ${await adminToken()}`);
    const parameters = admin.body.paths['/product'].get.parameters as Array<{ name: string }>;
    expect(parameters.map((p) => p.name)).to.include('cursor');
  });
});
