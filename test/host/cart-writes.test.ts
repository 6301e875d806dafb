import { expect } from 'chai';
import { newId } from '../../src/lib/ids.js';
import { nowDb, toDbTime } from '../../src/lib/time.js';
import { getShop, http, isPostgres, loginNewCustomer } from '../helpers/shop.js';
import { addToCart, insertProduct, type TestProduct } from '../helpers/checkout.js';
import { setNumber } from '../plugin/fast-order/helpers.js';
import { statementsDuring } from '../helpers/statements.js';

/**
 * What a cart write reads once instead of again: the cart row (from the token the session read
 * brought), the line products of the answer (in the write's transaction), a customer product number
 * (once per request). Each shortcut must still answer what a fresh read would.
 */

/** Runs once, for the session it names, after the request's context was built and before its handler: another request of the session acting in between. */
const betweenContextAndLock = new Map<string, () => Promise<void>>();
let registered = false;
const hiddenIds = new Set<string>();

async function register(): Promise<void> {
  if (registered) return;
  registered = true;
  const shop = await getShop();
  shop.runtime.auth.addContextEnricher(async (_executor, ctx) => {
    const action = ctx.sessionId ? betweenContextAndLock.get(ctx.sessionId) : undefined;
    if (!action) return;
    betweenContextAndLock.delete(ctx.sessionId!);
    await action();
  });
  shop.runtime.catalog.addVisibilityFilter(async (_executor, _ctx, entity) =>
    entity === 'product' ? { kind: 'exclude', ids: [...hiddenIds] } : { kind: 'all' },
  );
}

async function sessionOf(token: string): Promise<{ id: string; cart_token: string | null }> {
  const db = (await getShop()).db;
  const [, payload] = token.split('.');
  const jti = (JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { jti: string }).jti;
  return db('sessions').where({ id: jti }).first('id', 'cart_token');
}

async function getCart(token: string) {
  const res = await (await http()).get('/store-api/checkout/cart').set('suite-context-token', token);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

describe('host: cart writes read once', () => {
  before(register);

  it('answers every line at its current price, tier and availability, though only the added line changed', async () => {
    const db = (await getShop()).db;
    const { token } = await loginNewCustomer();
    const a = await insertProduct({ priceNet: 1000 });
    const b = await insertProduct({ priceNet: 2000, stock: 10 });
    const c = await insertProduct({ priceNet: 500 });
    const d = await insertProduct({ priceNet: 700 });
    const first = await addToCart(token, [
      { productId: a.id, quantity: 2 },
      { productId: b.id, quantity: 5 },
    ]);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body.price.netPrice).to.equal(120);

    // Between two adds: a's list price moves, b gets a tier for its quantity, then less stock than
    // its line holds (stock is checked for the added products only, as before).
    await db('products').where({ id: a.id }).update({ price_net: 1100 });
    await db('product_tier_prices').insert({ id: newId(), product_id: b.id, min_quantity: 5, price_net: 1500 });
    await db('products').where({ id: b.id }).update({ stock: 1 });
    const second = await addToCart(token, [{ productId: c.id, quantity: 1 }]);
    expect(second.status, JSON.stringify(second.body)).to.equal(200);
    expect(
      second.body.lineItems.map((l: { productId: string; price: { unitPrice: number } }) => [
        l.productId,
        l.price.unitPrice,
      ]),
    ).to.deep.equal([
      [a.id, 11],
      [b.id, 15],
      [c.id, 5],
    ]);
    expect(second.body.price.netPrice).to.equal(22 + 75 + 5);
    expect(second.body).to.deep.equal(await getCart(token));

    // A line whose product was hidden since is answered as an error, as a fresh read answers it.
    hiddenIds.add(c.id);
    const third = await addToCart(token, [{ productId: d.id, quantity: 1 }]);
    expect(third.status, JSON.stringify(third.body)).to.equal(200);
    expect(third.body.lineItems.map((l: { productId: string }) => l.productId)).to.deep.equal([a.id, b.id, d.id]);
    expect(third.body.errors).to.have.length(1);
    expect(third.body.errors[0]).to.include({ code: 'SUITE__PRODUCT_NOT_AVAILABLE', productId: c.id });
    expect(third.body).to.deep.equal(await getCart(token));

    // The same for a change of quantity.
    const lineA = third.body.lineItems[0].id as string;
    await db('products').where({ id: d.id }).update({ price_net: 800 });
    const patched = await (
      await http()
    )
      .patch('/store-api/checkout/cart/line-item')
      .set('suite-context-token', token)
      .send({ items: [{ id: lineA, quantity: 3 }] });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect(patched.body.lineItems.map((l: { price: { totalPrice: number } }) => l.price.totalPrice)).to.deep.equal([
      33, 75, 8,
    ]);
    expect(patched.body).to.deep.equal(await getCart(token));
  });

  it("writes the session's open cart even when it was ordered or deleted after the request's session was read", async () => {
    const db = (await getShop()).db;
    const { token } = await loginNewCustomer();
    const a = await insertProduct();
    const b = await insertProduct();
    const added = await addToCart(token, [{ productId: a.id, quantity: 1 }]);
    const ordered = added.body.token as string;
    const session = await sessionOf(token);
    expect(session.cart_token).to.equal(ordered);

    // Ordered in between (as a checkout of another request of the session): the add starts a new cart.
    betweenContextAndLock.set(session.id, async () => {
      await db('carts').where({ token: ordered }).update({ order_id: newId(), updated_at: nowDb() });
    });
    const afterOrder = await addToCart(token, [{ productId: b.id, quantity: 1 }]);
    expect(afterOrder.status, JSON.stringify(afterOrder.body)).to.equal(200);
    expect(afterOrder.body.token).to.not.equal(ordered);
    expect(afterOrder.body.lineItems.map((l: { productId: string }) => l.productId)).to.deep.equal([b.id]);
    expect(
      (await db('cart_line_items').where({ cart_token: ordered })).map((l: { product_id: string }) => l.product_id),
    ).to.deep.equal([a.id]);
    expect((await sessionOf(token)).cart_token).to.equal(afterOrder.body.token);

    // Deleted in between (as DELETE /checkout/cart): the add starts a new cart again.
    const deleted = afterOrder.body.token as string;
    betweenContextAndLock.set(session.id, async () => {
      await db('carts').where({ token: deleted }).delete();
      await db('sessions').where({ id: session.id }).update({ cart_token: null });
    });
    const afterDelete = await addToCart(token, [{ productId: a.id, quantity: 2 }]);
    expect(afterDelete.status, JSON.stringify(afterDelete.body)).to.equal(200);
    expect(afterDelete.body.token).to.not.be.oneOf([ordered, deleted]);
    expect(
      afterDelete.body.lineItems.map((l: { productId: string; quantity: number }) => [l.productId, l.quantity]),
    ).to.deep.equal([[a.id, 2]]);
    expect((await getCart(token)).token).to.equal(afterDelete.body.token);
  });

  it('finds a cart started again after DELETE /checkout/cart without reading the session, and keeps adding to it', async () => {
    const shop = await getShop();
    const { token } = await loginNewCustomer();
    const a = await insertProduct();
    const b = await insertProduct();
    const first = await addToCart(token, [{ productId: a.id, quantity: 1 }]);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect((await (await http()).delete('/store-api/checkout/cart').set('suite-context-token', token)).status).to.equal(
      204,
    );
    const restarted = await addToCart(token, [{ productId: b.id, quantity: 1 }]);
    expect(restarted.body.token).to.not.equal(first.body.token);

    const { result: next, statements: sessionReads } = await statementsDuring(
      shop.db,
      /^select [`"]cart_token[`"] from [`"]sessions[`"]/,
      () => addToCart(token, [{ productId: b.id, quantity: 2 }]),
    );
    expect(next.status, JSON.stringify(next.body)).to.equal(200);
    expect(sessionReads).to.deep.equal([]);
    expect(next.body.token).to.equal(restarted.body.token);
    expect(
      next.body.lineItems.map((l: { productId: string; quantity: number }) => [l.productId, l.quantity]),
    ).to.deep.equal([[b.id, 3]]);
    expect(next.body).to.deep.equal(await getCart(token));
    expect((await sessionOf(token)).cart_token).to.equal(restarted.body.token);
  });

  it("touches the cart row (its updated_at, which orders a customer's open carts) at most once a minute", async () => {
    const shop = await getShop();
    const { token } = await loginNewCustomer();
    const a = await insertProduct();
    const first = await addToCart(token, [{ productId: a.id, quantity: 1 }]);
    const cartToken = first.body.token as string;
    const updatedAt = async () =>
      String((await shop.db('carts').where({ token: cartToken }).first('updated_at')).updated_at);
    const twoMinutesAgo = toDbTime(Date.now() - 120_000);
    await shop.db('carts').where({ token: cartToken }).update({ updated_at: twoMinutesAgo });

    expect((await addToCart(token, [{ productId: a.id, quantity: 1 }])).status).to.equal(200);
    const touched = await updatedAt();
    expect(touched > twoMinutesAgo, touched).to.equal(true);

    const { result: again, statements: cartWrites } = await statementsDuring(shop.db, /^update [`"]carts[`"]/, () =>
      addToCart(token, [{ productId: a.id, quantity: 1 }]),
    );
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body.lineItems[0].quantity).to.equal(3);
    expect(cartWrites).to.deep.equal([]);
    expect(await updatedAt()).to.equal(touched);
  });

  it('reads a customer product number at most once per numbers version, even when an add merges into a line, and shows a changed number on the next add', async () => {
    const shop = await getShop();
    const buyer = await loginNewCustomer();
    const item = await insertProduct();
    await setNumber(buyer.token, item.id, 'MINE-1');
    expect((await addToCart(buyer.token, [{ productId: item.id, quantity: 1 }])).status).to.equal(200);

    const reads: string[] = [];
    const listener = (query: { sql: string }) => {
      if (query.sql.includes('suite_customer_product_numbers')) reads.push(query.sql);
    };
    shop.db.on('query', listener);
    let merged;
    try {
      merged = await addToCart(buyer.token, [{ productId: item.id, quantity: 2 }]);
    } finally {
      shop.db.removeListener('query', listener);
    }
    expect(merged.status, JSON.stringify(merged.body)).to.equal(200);
    // Kept since the first add (customer product numbers version, read with the context).
    expect(reads).to.deep.equal([]);
    expect(merged.body.lineItems).to.have.length(1);
    expect(merged.body.lineItems[0]).to.deep.include({ quantity: 3, payload: { customerProductNumber: 'MINE-1' } });

    // A changed number moves the version: it shows on the next add (as a line of its own, since the payload differs — as before).
    await setNumber(buyer.token, item.id, 'MINE-2');
    const next = await addToCart(buyer.token, [{ productId: item.id, quantity: 1 }]);
    expect(
      next.body.lineItems.map((l: { payload: { customerProductNumber?: string } }) => l.payload.customerProductNumber),
    ).to.deep.equal(['MINE-1', 'MINE-2']);
  });
});

describe('host: statements of a cart add', () => {
  it('adds to a 20-line cart in 5 statements: versions, BEGIN, the cart with its lines, one write, COMMIT (products, customer prices and numbers kept)', async () => {
    const shop = await getShop();
    const { token } = await loginNewCustomer();
    const products: TestProduct[] = [];
    for (let i = 0; i < 20; i++)
      products.push(await insertProduct({ priceNet: 1000 + i, tiers: i === 1 ? [[3, 900]] : [] }));
    for (const product of products)
      expect((await addToCart(token, [{ productId: product.id, quantity: 1 }])).status).to.equal(200);
    expect((await addToCart(token, [{ productId: products[1]!.id, quantity: 1 }])).status).to.equal(200);

    // Identifiers as knex quotes them: `name` on SQLite and MySQL/MariaDB, "name" on PostgreSQL.
    const kinds: Array<[string, RegExp]> = [
      ['context versions', /^select 0 as source, [`"]name[`"], [`"]value[`"] from [`"]catalog_counters[`"]/],
      ['begin', /^BEGIN/],
      // PostgreSQL locks the cart in a statement of its own before reading its lines (CartService.lockWithLines).
      ...(isPostgres()
        ? [['cart lock', /^select "token" from "carts" where "token" = .* for update$/] as [string, RegExp]]
        : []),
      [
        'cart and its lines',
        /^select [`"]c[`"]\.[`"]token[`"] as [`"]c_token[`"], .* from [`"]carts[`"] as [`"]c[`"] left join [`"]cart_line_items[`"] as [`"]l[`"] /,
      ],
      ['line write', /^update cart_line_items set quantity = (\?|\$1), updated_at = (\?|\$2) where id = (\?|\$3)/],
      ['commit', /^COMMIT/],
    ];
    const { result, statements } = await statementsDuring(shop.db, /./, () =>
      addToCart(token, [{ productId: products[1]!.id, quantity: 1 }]),
    );
    expect(result.status, JSON.stringify(result.body)).to.equal(200);
    expect(statements.map((sql) => kinds.find(([, pattern]) => pattern.test(sql))?.[0] ?? sql)).to.deep.equal(
      kinds.map(([kind]) => kind),
    );
    // The tier of the third unit, every line priced, as a fresh read answers it.
    expect(result.body.lineItems).to.have.length(20);
    expect(result.body.lineItems[1]).to.deep.include({ productId: products[1]!.id, quantity: 3 });
    expect(result.body.lineItems[1].price).to.deep.include({ unitPrice: 9, totalPrice: 27 });
    expect(result.body).to.deep.equal(await getCart(token));
  });
});
