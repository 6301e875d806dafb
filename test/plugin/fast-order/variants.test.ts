import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { expectError, getShop } from '../../helpers/shop.js';
import { admin, as, employeeWith, hide, newCustomer, product, setPrice, type Product } from './helpers.js';

/** A property group with options, through the Admin API: option name → option id. */
async function propertyGroup(
  name: string,
  options: string[],
  position = 0,
): Promise<{ id: string; name: string; options: Record<string, string> }> {
  const api = await admin();
  const group = await api.post('/property-group', { name, position });
  expect(group.status, JSON.stringify(group.body)).to.equal(201);
  const ids: Record<string, string> = {};
  for (const [index, option] of options.entries()) {
    const res = await api.post('/property-group-option', {
      groupId: group.body.data.id,
      name: option,
      position: index,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    ids[option] = res.body.data.id;
  }
  return { id: group.body.data.id, name, options: ids };
}

async function patchProduct(id: string, body: Record<string, unknown>) {
  const res = await (await admin()).patch(`/product/${id}`, body);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

/** A main product with three variants (red S, red M, blue S; numbers in that order). */
async function family(): Promise<{
  main: Product;
  variants: Product[];
  colour: Awaited<ReturnType<typeof propertyGroup>>;
  size: Awaited<ReturnType<typeof propertyGroup>>;
}> {
  const tag = newId().slice(0, 6);
  const colour = await propertyGroup(`Colour ${tag}`, ['red', 'blue'], 1);
  const size = await propertyGroup(`Size ${tag}`, ['S', 'M'], 2);
  const main = await product({ number: `VAR-${tag}`, name: `Shirt ${tag}` });
  const variants: Product[] = [];
  for (const [suffix, options, stock] of [
    ['1', [colour.options.red, size.options.S], 5],
    ['2', [colour.options.red, size.options.M], 0],
    ['3', [colour.options.blue, size.options.S], 7],
  ] as const) {
    const variant = await product({ number: `VAR-${tag}.${suffix}`, name: `Shirt ${tag}`, stock, priceNet: 1200 });
    await patchProduct(variant.id, { parentId: main.id, optionIds: options });
    variants.push(variant);
  }
  return { main, variants, colour, size };
}

describe('fast order: GET /variant-list/{productId}', () => {
  it('answers POST /variant-list/{productId} with a criteria body (as the real product’s connector calls it)', async () => {
    const buyer = await newCustomer();
    const { main, variants } = await family();
    const client = await as(buyer.token);
    const got = await client.get(`/variant-list/${main.id}`);
    const posted = await client.post(`/variant-list/${main.id}`, {});
    expect(posted.status, JSON.stringify(posted.body)).to.equal(200);
    expect(posted.body).to.deep.include({ total: 3, page: 1, parentId: main.id, apiAlias: 'product_listing' });
    expect(posted.body.elements).to.deep.equal(got.body.elements);
    const second = await client.post(`/variant-list/${main.id}`, { page: 2, limit: 2, includes: { product: ['id'] } });
    expect(second.status, JSON.stringify(second.body)).to.equal(200);
    expect(second.body).to.include({ total: 3, page: 2, limit: 2, parentId: main.id });
    expect(second.body.elements.map((v: { id: string }) => v.id)).to.deep.equal([variants[2]!.id]);
    expectError(
      await client.post(`/variant-list/${main.id}`, { filter: [{ type: 'equals', field: 'stock', value: 1 }] }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(await client.post(`/variant-list/${newId()}`, {}), 404);
    expectError(await (await as(null)).post(`/variant-list/${main.id}`, {}), 401);
  });

  it("lists a product's variants with the caller's prices, stock and options, from the main product or a variant", async () => {
    const buyer = await newCustomer();
    const { main, variants, colour, size } = await family();
    await setPrice({ customerId: buyer.customer.id, productId: variants[2]!.id, price: 9.5 });
    const client = await as(buyer.token);
    const res = await client.get(`/variant-list/${main.id}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ total: 3, parentId: main.id, apiAlias: 'product_listing' });
    expect(res.body.elements.map((v: { productNumber: string }) => v.productNumber)).to.deep.equal(
      variants.map((v) => v.number),
    );
    const [redS, redM, blueS] = res.body.elements;
    expect(redS).to.deep.include({ id: variants[0]!.id, parentId: main.id, stock: 5, available: true });
    expect(redS.options).to.deep.equal([
      { groupId: colour.id, group: colour.name, optionId: colour.options.red, option: 'red' },
      { groupId: size.id, group: size.name, optionId: size.options.S, option: 'S' },
    ]);
    expect(redM).to.deep.include({ stock: 0, available: false });
    expect(redS.calculatedPrice).to.deep.include({ unitPrice: 12, source: 'list' });
    expect(blueS.calculatedPrice).to.deep.include({ unitPrice: 9.5, source: 'customer-price' });

    const fromVariant = await client.get(`/variant-list/${variants[1]!.id}`);
    expect(fromVariant.status).to.equal(200);
    expect(fromVariant.body.elements.map((v: { id: string }) => v.id)).to.deep.equal(variants.map((v) => v.id));

    // Another customer does not see the customer price.
    const other = await newCustomer();
    const theirs = await (await as(other.token)).get(`/variant-list/${main.id}`);
    expect(theirs.body.elements[2].calculatedPrice).to.deep.include({ unitPrice: 12, source: 'list' });

    // A product without variants: an empty list.
    const single = await product();
    const none = await client.get(`/variant-list/${single.id}`);
    expect(none.status).to.equal(200);
    expect(none.body).to.include({ total: 0, parentId: single.id });
    expect(none.body.elements).to.deep.equal([]);
  });

  it('leaves hidden and inactive variants out; a hidden product or main product is a 404 like an unknown id', async () => {
    const buyer = await newCustomer();
    const { main, variants } = await family();
    await hide(variants[0]!.id);
    await (await getShop()).db('products').where({ id: variants[2]!.id }).update({ active: false });
    const client = await as(buyer.token);
    const res = await client.get(`/variant-list/${main.id}`);
    expect(res.body.elements.map((v: { id: string }) => v.id)).to.deep.equal([variants[1]!.id]);

    const unknownId = newId();
    const unknown = expectError(await client.get(`/variant-list/${unknownId}`), 404, 'SUITE__NOT_FOUND');
    const hiddenVariant = expectError(await client.get(`/variant-list/${variants[0]!.id}`), 404, 'SUITE__NOT_FOUND');
    expect(hiddenVariant.detail!.replace(variants[0]!.id, '<id>')).to.equal(unknown.detail!.replace(unknownId, '<id>'));
    await hide(main.id);
    expectError(await client.get(`/variant-list/${main.id}`), 404, 'SUITE__NOT_FOUND');
    expectError(await client.get(`/variant-list/${variants[1]!.id}`), 404, 'SUITE__NOT_FOUND');
  });

  it('answers bad ids 400, guests 401, employees without orders.create 403', async () => {
    const { main } = await family();
    expectError(
      await (await as((await newCustomer()).token)).get('/variant-list/not-an-id'),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(await (await as(null)).get(`/variant-list/${main.id}`), 401);
    const { token } = await employeeWith(['orders.read']);
    expectError(await (await as(token)).get(`/variant-list/${main.id}`), 403);
    const allowed = await employeeWith(['orders.create']);
    expect((await (await as(allowed.token)).get(`/variant-list/${main.id}`)).status).to.equal(200);
  });

  it('keeps variants one level deep and deletes them with their main product', async () => {
    const { main, variants } = await family();
    const api = await admin();
    expectError(
      await api.patch(`/product/${main.id}`, { parentId: variants[0]!.id }),
      400,
      'SUITE__INVALID_PARENT_PRODUCT',
    );
    const other = await product();
    expectError(
      await api.patch(`/product/${other.id}`, { parentId: variants[0]!.id }),
      400,
      'SUITE__INVALID_PARENT_PRODUCT',
    );
    expectError(await api.patch(`/product/${other.id}`, { optionIds: [newId()] }), 400, 'SUITE__UNKNOWN_REFERENCE');
    const read = await api.get(`/product/${variants[0]!.id}`);
    expect(read.body.data.attributes).to.include({ parentId: main.id });
    expect(read.body.data.attributes.optionIds).to.have.length(2);
    expect((await api.delete(`/product/${main.id}`)).status).to.equal(204);
    expect(
      await (
        await getShop()
      )
        .db('products')
        .whereIn(
          'id',
          variants.map((v) => v.id),
        )
        .count({ n: '*' })
        .first(),
    ).to.satisfy((row: { n: unknown }) => Number(row.n) === 0);
  });
});

describe('fast order: GET /b2b/property-similar-products/{productId}', () => {
  it('ranks the visible products by shared property values, leaves the own family out, and limits', async () => {
    const buyer = await newCustomer();
    const tag = newId().slice(0, 6);
    const material = await propertyGroup(`Material ${tag}`, ['steel', 'brass']);
    const thread = await propertyGroup(`Thread ${tag}`, ['M8', 'M10']);
    const finish = await propertyGroup(`Finish ${tag}`, ['matt']);
    const subject = await product({ number: `SIM-${tag}-0` });
    const variant = await product({ number: `SIM-${tag}-0.1` });
    const three = await product({ number: `SIM-${tag}-3` });
    const twoB = await product({ number: `SIM-${tag}-2b` });
    const twoA = await product({ number: `SIM-${tag}-2a` });
    const one = await product({ number: `SIM-${tag}-1` });
    const unrelated = await product({ number: `SIM-${tag}-x` });
    const hidden = await product({ number: `SIM-${tag}-h` });
    const mine = [material.options.steel, thread.options.M8, finish.options.matt];
    await patchProduct(subject.id, { propertyIds: mine });
    await patchProduct(variant.id, { parentId: subject.id, propertyIds: mine });
    await patchProduct(three.id, { propertyIds: mine });
    await patchProduct(twoA.id, { propertyIds: [material.options.steel, thread.options.M8, thread.options.M10] });
    await patchProduct(twoB.id, { propertyIds: [material.options.steel, finish.options.matt] });
    await patchProduct(one.id, { propertyIds: [thread.options.M8, material.options.brass] });
    await patchProduct(unrelated.id, { propertyIds: [material.options.brass] });
    await patchProduct(hidden.id, { propertyIds: mine });
    await hide(hidden.id);

    const client = await as(buyer.token);
    const res = await client.get(`/b2b/property-similar-products/${subject.id}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.elements.map((p: { productNumber: string }) => p.productNumber)).to.deep.equal([
      three.number,
      twoA.number,
      twoB.number,
      one.number,
    ]);
    expect(res.body.elements.map((p: { sharedPropertyCount: number }) => p.sharedPropertyCount)).to.deep.equal([
      3, 2, 2, 1,
    ]);
    expect(res.body.elements[3].sharedProperties).to.deep.equal([
      { groupId: thread.id, group: `Thread ${tag}`, optionId: thread.options.M8, option: 'M8' },
    ]);
    expect(res.body.properties.map((p: { option: string }) => p.option)).to.have.members(['steel', 'M8', 'matt']);
    expect(res.body.elements[0].calculatedPrice).to.deep.include({ unitPrice: 10 });

    const limited = await client.get(`/b2b/property-similar-products/${subject.id}?limit=2`);
    expect(limited.body.elements.map((p: { id: string }) => p.id)).to.deep.equal([three.id, twoA.id]);
    expect(limited.body.limit).to.equal(2);

    const without = await client.get(`/b2b/property-similar-products/${unrelated.id}`);
    expect(without.body.elements.map((p: { id: string }) => p.id)).to.deep.equal([one.id]);
    const noProperties = await client.get(`/b2b/property-similar-products/${(await product()).id}`);
    expect(noProperties.body).to.include({ total: 0 });
  });

  it("answers the same to a POST with limit in the body, the way the real product's client asks (400, 401 and 404 as the GET)", async () => {
    const buyer = await newCustomer();
    const tag = newId().slice(0, 6);
    const material = await propertyGroup(`Material ${tag}`, ['steel']);
    const thread = await propertyGroup(`Thread ${tag}`, ['M8']);
    const subject = await product({ number: `SIMP-${tag}-0` });
    const two = await product({ number: `SIMP-${tag}-2` });
    const one = await product({ number: `SIMP-${tag}-1` });
    const hidden = await product({ number: `SIMP-${tag}-h` });
    await patchProduct(subject.id, { propertyIds: [material.options.steel, thread.options.M8] });
    await patchProduct(two.id, { propertyIds: [material.options.steel, thread.options.M8] });
    await patchProduct(one.id, { propertyIds: [thread.options.M8] });
    await patchProduct(hidden.id, { propertyIds: [material.options.steel] });
    await hide(hidden.id);
    const client = await as(buyer.token);

    const posted = await client.post(`/b2b/property-similar-products/${subject.id}`, {});
    expect(posted.status, JSON.stringify(posted.body)).to.equal(200);
    expect(posted.body.elements.map((p: { id: string }) => p.id)).to.deep.equal([two.id, one.id]);
    expect(posted.body).to.deep.equal((await client.get(`/b2b/property-similar-products/${subject.id}`)).body);
    const limited = await client.post(`/b2b/property-similar-products/${subject.id}`, { limit: 1 });
    expect(limited.body.elements.map((p: { id: string }) => p.id)).to.deep.equal([two.id]);
    expect(limited.body.limit).to.equal(1);

    expectError(
      await client.post(`/b2b/property-similar-products/${subject.id}`, { limit: 51 }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(
      await client.post(`/b2b/property-similar-products/${subject.id}`, { limit: 'all' }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(await client.post('/b2b/property-similar-products/nope', {}), 400, 'SUITE__INVALID_INPUT');
    expectError(await client.post(`/b2b/property-similar-products/${hidden.id}`, {}), 404, 'SUITE__NOT_FOUND');
    expectError(await client.post(`/b2b/property-similar-products/${newId()}`, {}), 404, 'SUITE__NOT_FOUND');
    expectError(await (await as(null)).post(`/b2b/property-similar-products/${subject.id}`, {}), 401);
    // No 403 to test: like the GET it needs no permission key (any login of the customer may read product information).
    const { token } = await employeeWith([]);
    expect((await (await as(token)).post(`/b2b/property-similar-products/${subject.id}`, {})).status).to.equal(200);
  });

  it('answers a hidden product 404 like an unknown one, bad input 400, guests 401', async () => {
    const buyer = await newCustomer();
    const item = await product();
    const hidden = await product();
    await hide(hidden.id);
    const client = await as(buyer.token);
    const unknownId = newId();
    const unknown = expectError(
      await client.get(`/b2b/property-similar-products/${unknownId}`),
      404,
      'SUITE__NOT_FOUND',
    );
    const seen = expectError(await client.get(`/b2b/property-similar-products/${hidden.id}`), 404, 'SUITE__NOT_FOUND');
    expect(seen.detail!.replace(hidden.id, '<id>')).to.equal(unknown.detail!.replace(unknownId, '<id>'));
    expectError(await client.get('/b2b/property-similar-products/nope'), 400, 'SUITE__INVALID_INPUT');
    expectError(await client.get(`/b2b/property-similar-products/${item.id}?limit=0`), 400, 'SUITE__INVALID_INPUT');
    expectError(await client.get(`/b2b/property-similar-products/${item.id}?limit=51`), 400, 'SUITE__INVALID_INPUT');
    expectError(await (await as(null)).get(`/b2b/property-similar-products/${item.id}`), 401);
    // Any login may read it (no permission key: it is product information, like the product price).
    const { token } = await employeeWith([]);
    expect((await (await as(token)).get(`/b2b/property-similar-products/${item.id}`)).status).to.equal(200);
  });
});
