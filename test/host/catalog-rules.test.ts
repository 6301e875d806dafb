import { expect } from 'chai';
import { newId } from '../../src/lib/ids.js';
import { writeJson } from '../../src/lib/db.js';
import { nowDb } from '../../src/lib/time.js';
import type { Condition } from '../../src/host/catalog/rule-engine.js';
import type { CustomerRef, StoreContext } from '../../src/contract/index.js';
import { inZone } from '../../src/host/plugins/zones.js';
import { createTestCustomer, defaultSalesChannelId, getShop } from '../helpers/shop.js';

type ContextShape = Partial<Pick<StoreContext, 'customer' | 'employee' | 'salesRepresentative' | 'actor'>>;

async function contextFor(shape: ContextShape = {}): Promise<StoreContext> {
  const shop = await getShop();
  const salesChannel = (await shop.runtime.customers.salesChannel(shop.db, await defaultSalesChannelId(shop)))!;
  const customer = shape.customer ?? null;
  const ctx: StoreContext = {
    requestId: newId(),
    ip: '127.0.0.1',
    token: null,
    sessionId: null,
    salesChannel,
    customer,
    actor:
      shape.actor ??
      (customer
        ? { type: 'customer', id: customer.id, name: 'x', email: customer.email }
        : { type: 'guest', id: null, name: 'Guest', email: null }),
    attributes: {},
    employee: shape.employee ?? null,
    salesRepresentative: shape.salesRepresentative ?? null,
    permissions: new Set(),
    can: () => false,
    // Host code a plugin reaches through the context: in the host's zone, as the host's own contexts run it.
    ruleIds: inZone('host', () => shop.runtime.rules.matchingRuleIds(shop.db, ctx)),
  };
  return ctx;
}

async function createRule(conditions: Condition | Record<string, unknown>): Promise<string> {
  const shop = await getShop();
  const id = newId();
  await shop.db('rules').insert({
    id,
    name: `rule ${id.slice(0, 6)}`,
    priority: 0,
    conditions: writeJson(conditions),
    created_at: nowDb(),
  });
  await shop.runtime.catalog.visibilityChanged(shop.db);
  return id;
}

async function matches(ruleId: string, ctx: StoreContext): Promise<boolean> {
  const shop = await getShop();
  return (await shop.runtime.rules.matchingRuleIds(shop.db, ctx)).includes(ruleId);
}

describe('host: rule engine', () => {
  let customer: CustomerRef;
  let groupId: string;

  before(async () => {
    const shop = await getShop();
    groupId = newId();
    await shop.db('customer_groups').insert({ id: groupId, name: 'Rule test group', created_at: nowDb() });
    customer = (await createTestCustomer({ groupId, tags: ['vip', 'north'] })).customer;
  });

  it('evaluates containers, alwaysValid and customerLoggedIn', async () => {
    const loggedIn = await createRule({ type: 'customerLoggedIn', value: true });
    const guestOnly = await createRule({ type: 'customerLoggedIn', value: false });
    const always = await createRule({ type: 'alwaysValid' });
    const and = await createRule({
      type: 'andContainer',
      children: [{ type: 'alwaysValid' }, { type: 'customerLoggedIn', value: true }],
    });
    const or = await createRule({
      type: 'orContainer',
      children: [
        { type: 'customerLoggedIn', value: true },
        { type: 'isEmployee', value: true },
      ],
    });
    const not = await createRule({ type: 'notContainer', children: [{ type: 'customerLoggedIn', value: true }] });
    const emptyOr = await createRule({ type: 'orContainer', children: [] });
    const guest = await contextFor();
    const buyer = await contextFor({ customer });
    expect(await matches(loggedIn, buyer)).to.equal(true);
    expect(await matches(loggedIn, guest)).to.equal(false);
    expect(await matches(guestOnly, guest)).to.equal(true);
    expect(await matches(always, guest)).to.equal(true);
    expect(await matches(and, buyer)).to.equal(true);
    expect(await matches(and, guest)).to.equal(false);
    expect(await matches(or, buyer)).to.equal(true);
    expect(await matches(or, guest)).to.equal(false);
    expect(await matches(not, guest)).to.equal(true);
    expect(await matches(not, buyer)).to.equal(false);
    expect(await matches(emptyOr, buyer)).to.equal(false);
  });

  it('compares customer id, number, group, tag and sales channel with = and != (a missing value matches !=)', async () => {
    const buyer = await contextFor({ customer });
    const other = await contextFor({
      customer: { ...customer, id: newId(), customerNumber: 'X-1', groupId: null, tags: [] },
    });
    const guest = await contextFor();
    const cases: Array<[Condition, boolean, boolean, boolean]> = [
      [{ type: 'customerId', operator: '=', value: customer.id }, true, false, false],
      [{ type: 'customerId', operator: '!=', value: [customer.id] }, false, true, true],
      [{ type: 'customerNumber', operator: '=', value: [customer.customerNumber, 'other'] }, true, false, false],
      [{ type: 'customerGroup', operator: '=', value: groupId }, true, false, false],
      // Without a value (no group, no tags, a guest) `!=` matches: everyone else, guests included.
      [{ type: 'customerGroup', operator: '!=', value: groupId }, false, true, true],
      [{ type: 'customerTag', operator: '=', value: ['north', 'south'] }, true, false, false],
      [{ type: 'customerTag', operator: '!=', value: 'vip' }, false, true, true],
      [{ type: 'salesChannel', operator: '=', value: buyer.salesChannel.id }, true, true, true],
      [{ type: 'salesChannel', operator: '!=', value: buyer.salesChannel.id }, false, false, false],
    ];
    for (const [condition, forBuyer, forOther, forGuest] of cases) {
      const id = await createRule(condition);
      expect(await matches(id, buyer), JSON.stringify(condition)).to.equal(forBuyer);
      expect(await matches(id, other), JSON.stringify(condition)).to.equal(forOther);
      expect(await matches(id, guest), JSON.stringify(condition)).to.equal(forGuest);
    }
  });

  it('recognises employees, sales representatives and employee roles', async () => {
    const roleId = newId();
    const employee = { id: newId(), roleId, roleName: 'Buyer', email: 'e@example.test', firstName: 'E', lastName: 'M' };
    const asEmployee = await contextFor({
      customer,
      employee,
      actor: { type: 'employee', id: employee.id, name: 'E M', email: employee.email },
    });
    const asRepresentative = await contextFor({
      customer,
      salesRepresentative: { id: newId(), email: 'r@example.test', name: 'Rep' },
      actor: { type: 'salesRepresentative', id: newId(), name: 'Rep', email: 'r@example.test' },
    });
    const asCustomer = await contextFor({ customer });
    const isEmployee = await createRule({ type: 'isEmployee', value: true });
    const notEmployee = await createRule({ type: 'isEmployee', value: false });
    const isRep = await createRule({ type: 'isSalesRepresentative', value: true });
    const role = await createRule({ type: 'employeeRole', operator: '=', value: [roleId] });
    const otherRole = await createRule({ type: 'employeeRole', operator: '!=', value: roleId });
    expect(await matches(isEmployee, asEmployee)).to.equal(true);
    expect(await matches(isEmployee, asCustomer)).to.equal(false);
    expect(await matches(notEmployee, asCustomer)).to.equal(true);
    expect(await matches(isRep, asRepresentative)).to.equal(true);
    expect(await matches(isRep, asEmployee)).to.equal(false);
    expect(await matches(role, asEmployee)).to.equal(true);
    expect(await matches(role, asCustomer)).to.equal(false);
    expect(await matches(otherRole, asEmployee)).to.equal(false);
    expect(await matches(otherRole, asCustomer), 'not an employee: no role, so "every role but" matches').to.equal(
      true,
    );
  });

  it('never matches unknown or malformed conditions, and sees rule changes at once', async () => {
    const shop = await getShop();
    const buyer = await contextFor({ customer });
    const unknown = await createRule({ type: 'cartAmount', operator: '>', value: 10 });
    const malformed = await createRule({ type: 'customerId', operator: 'like', value: customer.id });
    const nested = await createRule({
      type: 'andContainer',
      children: [{ type: 'alwaysValid' }, { type: 'somethingNew' }],
    });
    expect(await matches(unknown, buyer)).to.equal(false);
    expect(await matches(malformed, buyer)).to.equal(false);
    expect(await matches(nested, buyer)).to.equal(false);
    await shop
      .db('rules')
      .where({ id: unknown })
      .update({ conditions: writeJson({ type: 'alwaysValid' }) });
    await shop.runtime.catalog.visibilityChanged(shop.db);
    expect(await matches(unknown, buyer)).to.equal(true);
    expect(await shop.runtime.rules.exists(shop.db, unknown)).to.equal(true);
    expect(await shop.runtime.rules.exists(shop.db, newId())).to.equal(false);
    expect(await shop.runtime.rules.exists(shop.db, 'not-an-id')).to.equal(false);
  });

  it('matchingRuleIds reads through the executor: a transaction matches the rules it wrote, kept by no one after its rollback', async () => {
    const shop = await getShop();
    const buyer = await contextFor({ customer });
    const id = newId();
    await shop.db
      .transaction(async (trx) => {
        await trx('rules').insert({
          id,
          name: `rule ${id.slice(0, 6)}`,
          priority: 0,
          conditions: writeJson({ type: 'alwaysValid' }),
          created_at: nowDb(),
        });
        await shop.runtime.catalog.visibilityChanged(trx);
        expect(await shop.runtime.rules.matchingRuleIds(trx, buyer)).to.include(id);
        throw new Error('rolled back');
      })
      .catch((error: Error) => expect(error.message).to.equal('rolled back'));
    // The version the transaction moved may be reached again by a committed write with other rules.
    await shop.runtime.catalog.visibilityChanged(shop.db);
    expect(await shop.runtime.rules.matchingRuleIds(shop.db, buyer)).to.not.include(id);
  });

  it('counts visibility changes in the database', async () => {
    const shop = await getShop();
    const before = await shop.runtime.catalog.visibilityVersion!(shop.db);
    await shop.runtime.catalog.visibilityChanged(shop.db);
    expect(await shop.runtime.catalog.visibilityVersion!(shop.db)).to.equal(before + 1);
  });
});

describe('host: prices and products', () => {
  it('takes a price provider first, then the tier price for the quantity, then the list price', async () => {
    const shop = await getShop();
    const productId = newId();
    await shop.db('products').insert({
      id: productId,
      version_id: newId(),
      product_number: `P-${productId.slice(0, 10)}`,
      name: 'Tiered',
      stock: 5,
      active: true,
      tax_rate_bp: 1900,
      price_net: 1000,
      created_at: nowDb(),
    });
    await shop.db('product_tier_prices').insert([
      { id: newId(), product_id: productId, min_quantity: 10, price_net: 900 },
      { id: newId(), product_id: productId, min_quantity: 50, price_net: 801 },
    ]);
    const [product] = await shop.runtime.catalog.products(shop.db, [productId]);
    const ctx = await contextFor();
    expect(await shop.runtime.prices.calculate(shop.runtime.db, ctx, product!, 1)).to.deep.equal({
      unitNet: 1000,
      quantity: 1,
      totalNet: 1000,
      taxRateBp: 1900,
      totalTax: 190,
      totalGross: 1190,
      source: 'list',
    });
    expect((await shop.runtime.prices.calculate(shop.runtime.db, ctx, product!, 10)).unitNet).to.equal(900);
    const fifty = await shop.runtime.prices.calculate(shop.runtime.db, ctx, product!, 51);
    expect(fifty).to.include({ unitNet: 801, totalNet: 40851, totalTax: 7762, source: 'tier' });
    shop.runtime.prices.addPriceProvider(async (_executor, _ctx, p) =>
      p.id === productId ? { unitNet: 500, source: 'customer-price' } : null,
    );
    expect(await shop.runtime.prices.calculate(shop.runtime.db, ctx, product!, 10)).to.include({
      unitNet: 500,
      totalNet: 5000,
      source: 'customer-price',
    });
  });

  it('returns products by id in the order asked, and only visible active ones to a context', async () => {
    const shop = await getShop();
    const ids = [newId(), newId(), newId()];
    for (const [i, id] of ids.entries())
      await shop.db('products').insert({
        id,
        version_id: newId(),
        product_number: `V-${id.slice(0, 10)}`,
        name: `Visible ${i}`,
        stock: 1,
        active: i !== 1,
        tax_rate_bp: 700,
        price_net: 100,
        created_at: nowDb(),
      });
    const all = await shop.runtime.catalog.products(shop.db, [ids[2]!, ids[0]!, ids[1]!, newId()]);
    expect(all.map((p) => p.id)).to.deep.equal([ids[2], ids[0], ids[1]]);
    expect(all[0]).to.include({ taxRateBp: 700, priceNet: 100, active: true });
    const hidden = ids[2]!;
    shop.runtime.catalog.addVisibilityFilter(async (_executor, _ctx, entity) =>
      entity === 'product' ? { kind: 'exclude', ids: [hidden] } : { kind: 'all' },
    );
    const visible = await shop.runtime.catalog.visibleProducts(shop.runtime.db, await contextFor(), ids);
    expect(visible.map((p) => p.id)).to.deep.equal([ids[0]]);
    expect(await shop.runtime.catalog.entityVersionId(shop.db, 'product', ids[0]!)).to.equal(all[1]!.versionId);
    expect(await shop.runtime.catalog.entityVersionId(shop.db, 'category', ids[0]!)).to.equal(null);
  });
});
