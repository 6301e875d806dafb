import { expect } from 'chai';
import { DEMO_CUSTOMER, PARTNER_CUSTOMER } from '../../examples/vendure-shop/shop.js';
import { bearer, bootShop, type ShopClient } from './helpers/shop.js';

/**
 * Contract 3.5's address calls on Vendure (customers.createAddress, updateAddress, deleteAddress
 * through CustomerService), reached through the company address book's routes, and checked in
 * Vendure's own Shop API.
 */
describe('Suite B2B company address book inside a Vendure shop', function () {
  this.timeout(60_000);
  let t: ShopClient;
  let buyer: Record<string, string>;
  let partner: Record<string, string>;

  before(async function () {
    this.timeout(240_000);
    t = await bootShop({ label: 'vendure_address_book' });
    buyer = bearer(await t.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    partner = bearer(await t.vendureLogin('shop-api', PARTNER_CUSTOMER.email, PARTNER_CUSTOMER.password));
  });

  after(async function () {
    this.timeout(60_000);
    await t?.close();
  });

  const vendureAddresses = async (headers: Record<string, string>) =>
    (
      await t.gql(
        'shop-api',
        '{ activeCustomer { addresses { id fullName company streetLine1 city postalCode country { code } } } }',
        {},
        headers,
      )
    ).data.activeCustomer.addresses as Array<Record<string, any>>;

  it('creates, changes and deletes a unit address in Vendure’s address book; another customer’s is a 404', async () => {
    const unit = await t.rest('POST', '/store-api/b2b/organisation-unit', buyer, { name: 'Warehouse' });
    expect(unit.status, JSON.stringify(unit.body)).to.equal(200);
    const created = await t.rest('POST', '/store-api/b2b/address', buyer, {
      company: 'Demo Company',
      firstName: 'Goods',
      lastName: 'Receiving',
      street: 'Dock Road 7',
      zipcode: '20095',
      city: 'Hamburg',
      countryCode: 'DE',
      unitIds: [unit.body.unit.id],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const address = created.body.address;
    expect(address).to.deep.include({
      firstName: 'Goods Receiving',
      street: 'Dock Road 7',
      city: 'Hamburg',
      countryCode: 'DE',
      unitIds: [unit.body.unit.id],
    });
    const vendureId = String(t.shop.state.ids.toVendure(address.id));
    expect((await vendureAddresses(buyer)).find((a) => String(a.id) === vendureId)).to.deep.include({
      fullName: 'Goods Receiving',
      company: 'Demo Company',
      streetLine1: 'Dock Road 7',
      postalCode: '20095',
    });

    const changed = await t.rest('PATCH', `/store-api/b2b/address/${address.id}`, buyer, {
      city: 'Bremen',
      zipcode: '28195',
    });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect((await vendureAddresses(buyer)).find((a) => String(a.id) === vendureId)).to.deep.include({
      city: 'Bremen',
      postalCode: '28195',
    });

    const unknownCountry = await t.rest('POST', '/store-api/b2b/address', buyer, {
      firstName: 'A',
      lastName: 'B',
      street: 'C 1',
      zipcode: '1',
      city: 'D',
      countryCode: 'QQ',
    });
    expect(unknownCountry.status).to.equal(400);
    expect(unknownCountry.body.errors[0].code).to.equal('SUITE__UNKNOWN_COUNTRY');

    expect(
      (await t.rest('PATCH', `/store-api/b2b/address/${address.id}`, partner, { city: 'Theirs' })).status,
    ).to.equal(404);
    expect((await t.rest('DELETE', `/store-api/b2b/address/${address.id}`, partner)).status).to.equal(404);

    const deleted = await t.rest('DELETE', `/store-api/b2b/address/${address.id}`, buyer);
    expect(deleted.status, JSON.stringify(deleted.body)).to.equal(200);
    expect((await vendureAddresses(buyer)).map((a) => String(a.id))).to.not.include(vendureId);
  });
});
