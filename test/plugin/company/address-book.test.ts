import { expect } from 'chai';
import { placeOrder } from '../../helpers/checkout.js';
import { expectError } from '../../helpers/shop.js';
import { as as storeClient, employee, fillCart, newCustomer, product } from '../order-approval/helpers.js';
import { as } from '../sales-representative/helpers.js';
import { createUnit } from './helpers.js';

const BUYER = ['orders.create', 'orders.read'];
const ADDRESS = {
  company: 'ACME Plant 2',
  firstName: 'Goods',
  lastName: 'Receiving',
  street: 'Dock Road 7',
  zipcode: '20095',
  city: 'Hamburg',
  countryCode: 'de',
};

async function orderTo(token: string, addressId: string) {
  const item = await product({ priceNet: 500 });
  await (await storeClient(token)).delete('/checkout/cart');
  await fillCart(token, [{ productId: item.id, quantity: 1 }]);
  return placeOrder(token, { billingAddressId: addressId, shippingAddressId: addressId });
}

async function company() {
  const customer = await newCustomer();
  const admin = await as(customer.token);
  const plant = await createUnit(admin, 'Plant 2');
  const assembly = await createUnit(admin, 'Assembly', plant);
  const office = await createUnit(admin, 'Head office');
  const keeper = await employee(customer, ['address.manage', 'orders.create']);
  const plantBuyer = await employee(customer, BUYER);
  const officeBuyer = await employee(customer, BUYER);
  await admin.put(`/b2b/organisation-unit/${plant}/member/${keeper.id}`, {});
  await admin.put(`/b2b/organisation-unit/${assembly}/member/${plantBuyer.id}`, {});
  await admin.put(`/b2b/organisation-unit/${office}/member/${officeBuyer.id}`, {});
  return { customer, admin, plant, assembly, office, keeper, plantBuyer, officeBuyer };
}

describe('company address book', () => {
  it('an address an employee creates for their unit is offered only to that unit’s buyers, at checkout too', async () => {
    const c = await company();
    const keeper = await as(c.keeper.token);
    const created = await keeper.post('/b2b/address', { ...ADDRESS, unitIds: [c.plant] });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const address = created.body.address;
    expect(address).to.deep.include({
      company: 'ACME Plant 2',
      street: 'Dock Road 7',
      countryCode: 'DE',
      unitIds: [c.plant],
      offered: true,
      manageable: true,
    });

    const plantOffer = await (await as(c.plantBuyer.token)).get('/b2b/address/checkout');
    expect(plantOffer.status, JSON.stringify(plantOffer.body)).to.equal(200);
    expect(plantOffer.body.elements.map((a: { id: string }) => a.id)).to.include(address.id);
    const officeOffer = await (await as(c.officeBuyer.token)).get('/b2b/address/checkout');
    expect(officeOffer.body.elements.map((a: { id: string }) => a.id)).not.to.include(address.id);
    expectError(await (await as(c.officeBuyer.token)).get(`/b2b/address/${address.id}`), 404);

    const placed = await orderTo(c.plantBuyer.token, address.id);
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    const refused = expectError(await orderTo(c.officeBuyer.token, address.id), 400, 'SUITE__ADDRESS_NOT_ALLOWED');
    expect(refused.source?.pointer).to.equal('/billingAddressId');

    // A company address (no units) is offered to everyone.
    const shared = (await keeper.post('/b2b/address', { ...ADDRESS, company: 'ACME HQ', unitIds: [] })).body.address;
    expect((await orderTo(c.officeBuyer.token, shared.id)).status).to.equal(200);
    // The company admin sees and orders to every address.
    const all = await c.admin.post('/b2b/address/list', {});
    expect(all.body.elements.map((a: { id: string }) => a.id)).to.include.members([address.id, shared.id]);
  });

  it('lets the keeper change and delete their units’ addresses only, and set unit defaults the buyers get', async () => {
    const c = await company();
    const keeper = await as(c.keeper.token);
    expectError(await keeper.post('/b2b/address', { ...ADDRESS, unitIds: [c.office] }), 403);
    const officeAddress = (await c.admin.post('/b2b/address', { ...ADDRESS, company: 'Office', unitIds: [c.office] }))
      .body.address;
    expectError(await keeper.patch(`/b2b/address/${officeAddress.id}`, { city: 'Bremen' }), 404);
    const mine = (await keeper.post('/b2b/address', { ...ADDRESS, unitIds: [c.assembly] })).body.address;
    const changed = await keeper.patch(`/b2b/address/${mine.id}`, { city: 'Kiel', unitIds: [c.plant] });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body.address).to.deep.include({ city: 'Kiel', unitIds: [c.plant] });
    expectError(await keeper.patch(`/b2b/address/${mine.id}`, { unitIds: [c.office] }), 403);

    const defaults = await keeper.put(`/b2b/organisation-unit/${c.assembly}/default-address`, {
      billingAddressId: mine.id,
      shippingAddressId: mine.id,
    });
    expect(defaults.body).to.deep.equal({ unitId: c.assembly, billingAddressId: mine.id, shippingAddressId: mine.id });
    const offer = (await (await as(c.plantBuyer.token)).get('/b2b/address/checkout')).body;
    expect(offer).to.include({ defaultBillingAddressId: mine.id, defaultShippingAddressId: mine.id });
    expectError(
      await c.admin.put(`/b2b/organisation-unit/${c.office}/default-address`, { billingAddressId: mine.id }),
      400,
      'SUITE__ADDRESS_NOT_OFFERED_TO_UNIT',
    );

    expect((await keeper.delete(`/b2b/address/${mine.id}`)).status).to.equal(200);
    expectError(await keeper.get(`/b2b/address/${mine.id}`), 404);
    expect(
      (await (await as(c.plantBuyer.token)).get('/b2b/address/checkout')).body.defaultBillingAddressId,
      'the deleted default is gone',
    ).to.not.equal(mine.id);
    expect((await keeper.get(`/b2b/organisation-unit/${c.assembly}/default-address`)).body.billingAddressId).to.equal(
      null,
    );
  });

  it('refuses a country the shop does not know with 400 SUITE__UNKNOWN_COUNTRY, on create and on change', async () => {
    const c = await company();
    for (const countryCode of ['YY', 'XX', 'ZZ', 'QQ', 'qq'])
      expect(
        expectError(await c.admin.post('/b2b/address', { ...ADDRESS, countryCode }), 400, 'SUITE__UNKNOWN_COUNTRY')
          .source,
        countryCode,
      ).to.deep.equal({ pointer: '/countryCode' });
    const created = await c.admin.post('/b2b/address', { ...ADDRESS, countryCode: 'at', unitIds: [] });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body.address.countryCode).to.equal('AT');
    expectError(
      await c.admin.patch(`/b2b/address/${created.body.address.id}`, { countryCode: 'ZZ' }),
      400,
      'SUITE__UNKNOWN_COUNTRY',
    );
    expect((await c.admin.get(`/b2b/address/${created.body.address.id}`)).body.countryCode).to.equal('AT');
    const listed = await c.admin.post('/b2b/address/list', { limit: 100 });
    expect(listed.body.elements.map((a: { countryCode: string }) => a.countryCode)).not.to.include.members([
      'YY',
      'XX',
      'ZZ',
      'QQ',
    ]);
  });

  it('answers bad input 400, guests 401, missing permissions 403 and another company’s ids 404', async () => {
    const c = await company();
    const other = await company();
    const theirs = (await other.admin.post('/b2b/address', { ...ADDRESS, unitIds: [] })).body.address;
    expectError(
      await c.admin.post('/b2b/address', { ...ADDRESS, countryCode: 'Germany' }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(await c.admin.post('/b2b/address', { firstName: 'X' }), 400, 'SUITE__INVALID_INPUT');
    expectError(await c.admin.patch(`/b2b/address/${theirs.id}`, {}), 400, 'SUITE__INVALID_INPUT');
    expectError(await c.admin.post('/b2b/address/list', { limit: 501 }), 400, 'SUITE__INVALID_INPUT');
    const guest = await as(null);
    expectError(await guest.post('/b2b/address/list', {}), 401);
    expectError(await guest.post('/b2b/address', ADDRESS), 401);
    expectError(await guest.get('/b2b/address/checkout'), 401);
    const buyer = await as(c.plantBuyer.token);
    expectError(await buyer.post('/b2b/address', ADDRESS), 403);
    expectError(await buyer.put(`/b2b/organisation-unit/${c.plant}/default-address`, { billingAddressId: null }), 403);
    expectError(await c.admin.get(`/b2b/address/${theirs.id}`), 404);
    expectError(await c.admin.patch(`/b2b/address/${theirs.id}`, { city: 'Mine' }), 404);
    expectError(await c.admin.delete(`/b2b/address/${theirs.id}`), 404);
    expectError(await c.admin.post('/b2b/address', { ...ADDRESS, unitIds: [other.plant] }), 404);
    expectError(
      await c.admin.put(`/b2b/organisation-unit/${other.plant}/default-address`, { billingAddressId: null }),
      404,
    );
    expectError(
      await c.admin.put(`/b2b/organisation-unit/${c.plant}/default-address`, { billingAddressId: theirs.id }),
      404,
    );
    expect((await other.admin.get(`/b2b/address/${theirs.id}`)).body.city, 'theirs unchanged').to.equal('Hamburg');
  });
});
