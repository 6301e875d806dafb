import { expect } from 'chai';
import { expectError } from '../../helpers/shop.js';
import { as, representativeWith, switchTo } from '../sales-representative/helpers.js';

/**
 * Organisation units and changes to the address book are the company's own administration: a
 * sales representative acting for the company is refused (403), while the addresses offered at
 * checkout stay readable for the orders the representative places.
 */
describe('company administration: a sales representative acting for the company', () => {
  it('is refused the unit routes and the address book changes, and still reads the checkout addresses', async () => {
    const { token, customers } = await representativeWith(1);
    const acting = await switchTo(token, customers[0]!.customer.id);
    const rep = await as(acting);
    expectError(await rep.get('/b2b/organisation-unit/tree'), 403);
    expectError(await rep.post('/b2b/organisation-unit', { name: 'Sales office' }), 403);
    expectError(
      await rep.post('/b2b/address', {
        firstName: 'Rita',
        lastName: 'Rep',
        street: 'Main Street 1',
        zipcode: '10115',
        city: 'Berlin',
        countryCode: 'de',
      }),
      403,
    );
    expect((await rep.get('/b2b/address/checkout')).status).to.equal(200);

    // The company's own admin still has both.
    const admin = await as(customers[0]!.token);
    expect((await admin.get('/b2b/organisation-unit/tree')).status).to.equal(200);
  });
});
