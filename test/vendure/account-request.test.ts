import { expect } from 'chai';
import { newId } from '../../src/lib/ids.js';
import { bearer, bootShop, type ShopClient } from './helpers/shop.js';

/**
 * `customers.create` on Vendure: an accepted account request is a Vendure customer made by
 * CustomerService in the plugin's transaction of the acceptance (decision 0012).
 */
describe('Vendure: an accepted account request creates the Vendure customer', function () {
  this.timeout(120_000);
  let t: ShopClient;
  let admin: Record<string, string>;

  before(async function () {
    this.timeout(240_000);
    t = await bootShop({ label: 'vendure_account_requests' });
    admin = bearer(await t.vendureLogin('admin-api', 'superadmin', 'superadmin'));
  });

  after(async () => {
    await t?.close();
  });

  const requestAccount = async (email: string) => {
    const asked = await t.rest(
      'POST',
      '/store-api/account-request',
      {},
      {
        company: 'Acme Tools GmbH',
        firstName: 'Ada',
        lastName: 'Lovelace',
        email,
      },
    );
    expect(asked.status, JSON.stringify(asked.body)).to.equal(200);
    const list = await t.rest('GET', '/b2b-admin-api/b2b-account-request?limit=500', admin);
    expect(list.status, JSON.stringify(list.body)).to.equal(200);
    const row = (list.body.data as Array<{ id: string; attributes: { email: string } }>).find(
      (r) => r.attributes.email === email,
    );
    expect(row, 'the request is listed').to.not.equal(undefined);
    return row!.id;
  };

  const vendureCustomer = async (email: string) =>
    (
      await t.gql(
        'admin-api',
        `query ($email: String!) { customers(options: { filter: { emailAddress: { eq: $email } } }) {
          items { id firstName lastName emailAddress user { id } groups { name } } } }`,
        { email },
        admin,
      )
    ).data.customers.items as Array<{
      id: string;
      firstName: string;
      lastName: string;
      emailAddress: string;
      user: { id: string } | null;
      groups: Array<{ name: string }>;
    }>;

  it('accepting makes a Vendure customer with a user in the chosen group; the request names it, and a second accept is refused', async () => {
    const email = `ada-${newId().slice(0, 8)}@acme-tools.test`;
    const requestId = await requestAccount(email);
    expect(await vendureCustomer(email)).to.deep.equal([]);

    const groups = await t.gql('admin-api', '{ customerGroups { items { id name } } }', {}, admin);
    const partners = (groups.data.customerGroups.items as Array<{ id: string; name: string }>).find(
      (g) => g.name === 'Partners',
    )!;
    const accepted = await t.rest('POST', `/b2b-admin-api/_action/b2b-account-request/${requestId}/accept`, admin, {
      groupId: t.shop.state.ids.toPlugin(partners.id),
    });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
    expect(accepted.body.data.attributes.status).to.equal('accepted');

    const [customer, ...more] = await vendureCustomer(email);
    expect(more).to.deep.equal([]);
    expect(customer).to.deep.include({ firstName: 'Ada', lastName: 'Lovelace', emailAddress: email });
    // A Vendure user of its own (verified at once: the example shop sets no `requireVerification`).
    expect(customer!.user).to.not.equal(null);
    expect(customer!.groups.map((g) => g.name)).to.deep.equal(['Partners']);
    expect(accepted.body.data.attributes.customerId).to.equal(t.shop.state.ids.toPlugin(customer!.id));

    const again = await t.rest('POST', `/b2b-admin-api/_action/b2b-account-request/${requestId}/accept`, admin, {});
    expect(again.status).to.equal(400);
    expect(again.body.errors[0].code).to.equal('SUITE__ACCOUNT_REQUEST_DECIDED');
    expect(await vendureCustomer(email)).to.have.length(1);
  });

  it('a request for an e-mail address a Vendure customer has is refused with nothing created', async () => {
    const email = `twice-${newId().slice(0, 8)}@acme-tools.test`;
    const first = await requestAccount(email);
    const second = await requestAccount(email);
    expect(
      (await t.rest('POST', `/b2b-admin-api/_action/b2b-account-request/${first}/accept`, admin, {})).status,
    ).to.equal(200);
    const refused = await t.rest('POST', `/b2b-admin-api/_action/b2b-account-request/${second}/accept`, admin, {});
    expect(refused.status).to.equal(400);
    expect(refused.body.errors[0].code).to.equal('SUITE__EMAIL_TAKEN');
    expect(await vendureCustomer(email)).to.have.length(1);
    const list = await t.rest('GET', `/b2b-admin-api/b2b-account-request/${second}`, admin);
    expect(list.body.data.attributes.status).to.equal('open');
  });
});
