import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { addToCart, insertProduct } from '../../helpers/checkout.js';
import { expectError, getShop, http } from '../../helpers/shop.js';
import { createUnit } from '../company/helpers.js';
import { employeeWith, newCustomer } from '../employee/helpers.js';
import { as } from '../sales-representative/helpers.js';
import { admin, assign, createRule, KINDS } from './fixtures.js';

const PRODUCT = KINDS.find((kind) => kind.segment === 'product')!;
const BUYER = ['orders.create', 'orders.read'];

/** A rule nobody matches: a product assigned only to it is hidden from everyone until something unlocks it. */
const ruleForNobody = () =>
  createRule({ type: 'customerNumber', operator: '=', value: `nobody-${newId().slice(0, 8)}` });

async function sees(token: string, productId: string): Promise<boolean> {
  const detail = await (await http()).get(`/store-api/product/${productId}`).set('suite-context-token', token);
  const listed = await (
    await http()
  )
    .post('/store-api/product')
    .set('suite-context-token', token)
    .send({ ids: [productId] });
  expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
  const inList = (listed.body.elements as Array<{ id: string }>).some((p) => p.id === productId);
  expect(inList, 'the listing agrees with the detail').to.equal(detail.status === 200);
  return detail.status === 200;
}

async function setUnitRules(unitId: string, ruleIds: string[]) {
  return (await admin()).put(`/api/b2b/organisation-unit/${unitId}/partial-assortment-rules`, { ruleIds });
}

describe('partial assortments: rules attached to organisation units', () => {
  before(getShop);

  it('a rule on a unit unlocks its subtree’s employees: detail, listing and cart; not a sibling unit’s nor another company’s', async () => {
    const company = await newCustomer();
    const client = await as(company.token);
    const sales = await createUnit(client, 'Sales');
    const north = await createUnit(client, 'North', sales);
    const purchasing = await createUnit(client, 'Purchasing');
    const northBuyer = await employeeWith(BUYER, company);
    const purchasingBuyer = await employeeWith(BUYER, company);
    await client.put(`/b2b/organisation-unit/${north}/member/${northBuyer.employee.id}`, {});
    await client.put(`/b2b/organisation-unit/${purchasing}/member/${purchasingBuyer.employee.id}`, {});
    const stranger = await employeeWith(BUYER);

    const product = await insertProduct({ name: 'Unit-only drill' });
    const rule = await ruleForNobody();
    await assign(PRODUCT, product.id, rule);
    expect(await sees(northBuyer.token, product.id), 'hidden before the rule is attached').to.equal(false);

    const attached = await setUnitRules(sales, [rule]);
    expect(attached.status, JSON.stringify(attached.body)).to.equal(200);
    expect(attached.body.data).to.deep.include({ id: sales, type: 'b2b_unit_partial_assortment_rules' });
    expect(attached.body.data.attributes).to.deep.equal({ customerId: company.customer.id, ruleIds: [rule] });

    expect(await sees(northBuyer.token, product.id), 'North is below Sales').to.equal(true);
    expect((await addToCart(northBuyer.token, [{ productId: product.id, quantity: 1 }])).status).to.equal(200);
    expect(await sees(purchasingBuyer.token, product.id), 'a sibling unit').to.equal(false);
    expectError(
      await addToCart(purchasingBuyer.token, [{ productId: product.id, quantity: 1 }]),
      400,
      'SUITE__PRODUCT_NOT_AVAILABLE',
    );
    expect(await sees(stranger.token, product.id), 'another company').to.equal(false);
    expect(await sees(company.token, product.id), 'the company admin is in no unit').to.equal(false);

    // Moving the buyer out of the subtree hides it on the next request; detaching the rule hides it for all.
    await client.post('/b2b/organisation-unit/move-employee', {
      employeeId: northBuyer.employee.id,
      fromUnitId: north,
      toUnitId: purchasing,
    });
    expect(await sees(northBuyer.token, product.id)).to.equal(false);
    await client.put(`/b2b/organisation-unit/${sales}/member/${purchasingBuyer.employee.id}`, {});
    expect(await sees(purchasingBuyer.token, product.id), 'now also in Sales').to.equal(true);
    expect((await setUnitRules(sales, [])).body.data.attributes.ruleIds).to.deep.equal([]);
    expect(await sees(purchasingBuyer.token, product.id)).to.equal(false);
  });

  it('deleting a unit drops its rules: they do not move to the moveTo unit, so a company admin cannot widen them', async () => {
    const company = await newCustomer();
    const client = await as(company.token);
    const sales = await createUnit(client, 'Sales');
    const everyone = await createUnit(client, 'Everyone');
    const salesBuyer = await employeeWith(BUYER, company);
    const otherBuyer = await employeeWith(BUYER, company);
    await client.put(`/b2b/organisation-unit/${sales}/member/${salesBuyer.employee.id}`, {});
    await client.put(`/b2b/organisation-unit/${everyone}/member/${otherBuyer.employee.id}`, {});
    const product = await insertProduct({ name: 'Sales-only catalogue' });
    const rule = await ruleForNobody();
    await assign(PRODUCT, product.id, rule);
    await setUnitRules(sales, [rule]);
    expect(await sees(salesBuyer.token, product.id)).to.equal(true);

    expect((await client.delete(`/b2b/organisation-unit/${sales}?moveTo=${everyone}`)).status).to.equal(200);
    expect(await sees(salesBuyer.token, product.id), 'moved to Everyone, which has no rule').to.equal(false);
    expect(await sees(otherBuyer.token, product.id), 'the rule did not travel to Everyone').to.equal(false);
    expect(
      (await (await admin()).get(`/api/b2b/organisation-unit/${everyone}/partial-assortment-rules`)).body.data
        .attributes.ruleIds,
    ).to.deep.equal([]);
    expectError(await (await admin()).get(`/api/b2b/organisation-unit/${sales}/partial-assortment-rules`), 404);
  });

  it('the console’s "see the shop as" preview counts an employee’s unit rules', async () => {
    const company = await newCustomer();
    const client = await as(company.token);
    const unit = await createUnit(client, 'Lab');
    const buyer = await employeeWith(BUYER, company);
    await client.put(`/b2b/organisation-unit/${unit}/member/${buyer.employee.id}`, {});
    const product = await insertProduct({ name: 'Lab scale' });
    const rule = await ruleForNobody();
    await assign(PRODUCT, product.id, rule);
    await setUnitRules(unit, [rule]);
    const preview = await (
      await admin()
    ).post('/api/_action/suite-partial-assortment/preview', {
      customerNumber: company.customer.customerNumber,
      employeeId: buyer.employee.id,
    });
    expect(preview.status, JSON.stringify(preview.body)).to.equal(200);
    expect(preview.body.data.ruleIds).to.include(rule);
    expect(preview.body.data.hidden.product.ids).not.to.include(product.id);
  });

  it('an unknown unit 404, an unknown rule 400 pointing at it (nothing written), bad input 400, no admin token 401', async () => {
    const company = await newCustomer();
    const unit = await createUnit(await as(company.token), 'Sales');
    const rule = await ruleForNobody();
    expectError(await setUnitRules(newId(), [rule]), 404);
    const unknown = newId();
    const refused = expectError(
      await setUnitRules(unit, [rule, unknown]),
      400,
      'SUITE__PARTIAL_ASSORTMENT_RULE_NOT_FOUND',
    ) as {
      source?: { pointer?: string };
    };
    expect(refused.source?.pointer).to.equal('/ruleIds/1');
    expect(
      (await (await admin()).get(`/api/b2b/organisation-unit/${unit}/partial-assortment-rules`)).body.data.attributes
        .ruleIds,
    ).to.deep.equal([]);
    expectError(await setUnitRules(unit, [rule, rule]), 400, 'SUITE__INVALID_INPUT');
    expectError(await setUnitRules(unit, ['not-an-id']), 400, 'SUITE__INVALID_INPUT');
    const anonymous = await (
      await http()
    )
      .put(`/api/b2b/organisation-unit/${unit}/partial-assortment-rules`)
      .send({ ruleIds: [] });
    expect(anonymous.status).to.equal(401);
    const storeToken = await (
      await http()
    )
      .put(`/api/b2b/organisation-unit/${unit}/partial-assortment-rules`)
      .set('suite-context-token', company.token)
      .send({ ruleIds: [] });
    expect(storeToken.status).to.equal(401);
  });
});
