import { expect } from 'chai';
import { DEMO_CUSTOMER, PARTNER_CUSTOMER, PARTNER_GROUP } from '../../examples/vendure-shop/shop.js';
import type { StoreContext } from '../../src/contract/index.js';
import { bearer, bootShop, type ShopClient } from './helpers/shop.js';

/**
 * Rules on Vendure (decision 0035): the reference host's rule and look-up routes the console calls,
 * on Vendure's customer groups and collections, and which rules a customer or a guest matches.
 */
describe('Vendure: rules are customer groups (createRule, deleteRule, searchRule, listCustomerGroup, searchCategory)', function () {
  this.timeout(60_000);
  let t: ShopClient;
  let admin: Record<string, string>;
  let demo: { id: string; customerNumber: string };
  let partner: { id: string; customerNumber: string };
  let partners: string;

  before(async function () {
    this.timeout(240_000);
    t = await bootShop({ label: 'vendure_rules', runJobs: false });
    admin = bearer(await t.vendureLogin('admin-api', 'superadmin', 'superadmin'));
    const { db, runtime } = t.shop.state;
    demo = (await runtime.customers.findByEmail(db, DEMO_CUSTOMER.email))!;
    partner = (await runtime.customers.findByEmail(db, PARTNER_CUSTOMER.email))!;
    const groups = await t.rest('GET', '/b2b-admin-api/customer-group', admin);
    partners = (groups.body.data as Array<{ id: string; attributes: { name: string } }>).find(
      (group) => group.attributes.name === PARTNER_GROUP,
    )!.id;
  });

  after(async function () {
    this.timeout(60_000);
    await t?.close();
  });

  const createRule = (name: string, conditions: unknown) =>
    t.rest('POST', '/b2b-admin-api/rule', admin, { name, conditions });
  /** The rule ids the contract answers for a customer (null: a guest). */
  const matching = async (customerId: string | null) => {
    const customer = customerId ? await t.shop.state.runtime.customers.get(t.shop.state.db, customerId) : null;
    return t.shop.state.runtime.rules.matchingRuleIds(t.shop.state.db, { customer } as unknown as StoreContext);
  };

  it('a rule of customers, of everyone but a customer, of a group and of everyone but a group: each matches whom it says', async () => {
    const only = await createRule('only demo', { type: 'customerNumber', operator: '=', value: demo.customerNumber });
    expect(only.status, JSON.stringify(only.body)).to.equal(201);
    const allBut = await createRule('all but demo', {
      type: 'customerNumber',
      operator: '!=',
      value: [demo.customerNumber],
    });
    const group = await createRule('partners', { type: 'customerGroup', operator: '=', value: partners });
    const notGroup = await createRule('not partners', { type: 'customerGroup', operator: '!=', value: [partners] });
    const [onlyId, allButId, groupId, notGroupId] = [only, allBut, group, notGroup].map(
      (r) => r.body.data.id as string,
    );
    expect(allBut.body.data).to.deep.equal({ id: allButId, type: 'rule', attributes: { name: 'all but demo' } });

    expect(await matching(demo.id)).to.have.members([onlyId, notGroupId]);
    expect(await matching(partner.id)).to.have.members([partners, allButId, groupId]);
    expect(await matching(null)).to.have.members([allButId, notGroupId]);

    // The console's rules are rules (searchRule) but not customer groups to choose (listCustomerGroup).
    const rules = await t.rest('POST', '/b2b-admin-api/search/rule', admin, { ids: [onlyId, partners] });
    expect(rules.body.data.map((r: { attributes: { name: string } }) => r.attributes.name)).to.have.members([
      'only demo',
      PARTNER_GROUP,
    ]);
    const groups = await t.rest('GET', '/b2b-admin-api/customer-group', admin);
    expect(groups.body.data.map((g: { id: string }) => g.id)).to.deep.equal([partners]);
  });

  it('refuses unknown customers and groups and other conditions with a 400 naming the field; deletes only its own rules', async () => {
    const unknown = await createRule('x', { type: 'customerNumber', operator: '=', value: ['999999'] });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.errors[0]).to.deep.include({ code: 'SUITE__UNKNOWN_REFERENCE' });
    expect(unknown.body.errors[0].source).to.deep.equal({ pointer: '/conditions/value' });
    const group = await createRule('x', { type: 'customerGroup', operator: '=', value: 'f'.repeat(32) });
    expect(group.status).to.equal(400);
    const other = await createRule('x', { type: 'customerTag', operator: '=', value: 'vip' });
    expect(other.status).to.equal(400);

    expect((await t.rest('DELETE', `/b2b-admin-api/rule/${partners}`, admin)).status).to.equal(404);
    const made = await createRule('short-lived', {
      type: 'customerNumber',
      operator: '=',
      value: partner.customerNumber,
    });
    expect((await t.rest('DELETE', `/b2b-admin-api/rule/${made.body.data.id}`, admin)).status).to.equal(204);
    const left = await t.gql('admin-api', '{ customerGroups { items { name } } }', {}, admin);
    expect(left.data.customerGroups.items.map((g: { name: string }) => g.name)).to.not.include('short-lived');
  });

  it("searchCategory answers Vendure's collections by name", async () => {
    const created = await t.gql(
      'admin-api',
      'mutation ($input: CreateCollectionInput!) { createCollection(input: $input) { id } }',
      { input: { translations: [{ languageCode: 'en', name: 'Lamps', slug: 'lamps', description: '' }], filters: [] } },
      admin,
    );
    expect(created.errors, JSON.stringify(created)).to.equal(undefined);
    await t.settleJobs();
    const found = await t.rest('POST', '/b2b-admin-api/search/category', admin, { term: 'amp' });
    expect(found.status, JSON.stringify(found.body)).to.equal(200);
    expect(found.body.data).to.deep.equal([
      {
        id: t.shop.state.ids.toPlugin(created.data.createCollection.id),
        type: 'category',
        attributes: { name: 'Lamps' },
      },
    ]);
  });
});
