import { expect } from 'chai';
import { adminToken, expectError, getShop, http } from '../../helpers/shop.js';
import { as, linkSecret, receiveMail, uniqueEmail } from './helpers.js';

const request = (email: string) => ({
  company: 'Prospect GmbH',
  firstName: 'Pia',
  lastName: 'Prospect',
  email,
  phone: '+49 30 1234',
  vatId: 'DE123',
  address: { street: 'Way 1', zipcode: '10115', city: 'Berlin', countryCode: 'DE' },
  message: 'We buy a lot.',
});

describe('employees: account requests', () => {
  it('stores a request, confirms it by mail; the operator accepts it, which creates a customer who can log in by link', async () => {
    const email = uniqueEmail('prospect');
    const res = await (await as(null)).post('/account-request', request(email));
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({});
    expect((await receiveMail(email, 'We received your business account request')).text).to.contain('Prospect GmbH');

    const admin = await adminToken();
    const list = await (
      await http()
    )
      .get('/api/b2b-account-request?status=open&limit=500')
      .set('authorization', `Bearer ${admin}`);
    expect(list.status).to.equal(200);
    const mine = list.body.data.find((r: { attributes: { email: string } }) => r.attributes.email === email);
    expect(mine.attributes).to.include({ status: 'open', company: 'Prospect GmbH', vatId: 'DE123' });
    const read = await (
      await http()
    )
      .get(`/api/b2b-account-request/${mine.id}`)
      .set('authorization', `Bearer ${admin}`);
    expect(read.body.data.attributes.address).to.deep.equal({
      street: 'Way 1',
      zipcode: '10115',
      city: 'Berlin',
      countryCode: 'DE',
    });

    const accepted = await (
      await http()
    )
      .post(`/api/_action/b2b-account-request/${mine.id}/accept`)
      .set('authorization', `Bearer ${admin}`)
      .send({});
    expect(accepted.status).to.equal(200);
    expect(accepted.body.data.attributes.status).to.equal('accepted');
    const customerId = accepted.body.data.attributes.customerId;
    const customer = await (await getShop()).runtime.customers.get((await getShop()).db, customerId);
    expect(customer).to.include({ email, company: 'Prospect GmbH' });
    expect((await receiveMail(email, 'is ready')).text).to.contain('http://shop.test/account/login');
    expectError(
      await (
        await http()
      )
        .post(`/api/_action/b2b-account-request/${mine.id}/accept`)
        .set('authorization', `Bearer ${admin}`)
        .send({}),
      400,
      'SUITE__ACCOUNT_REQUEST_DECIDED',
    );

    await (await as(null)).post('/passwordless-login', { email });
    const { secret } = linkSecret(await receiveMail(email, 'login link'), '/account/passwordless-login');
    const login = await (await as(null)).post(`/passwordless-login/${secret}`);
    expect((await (await as(login.body.contextToken)).get('/context')).body.customer.id).to.equal(customerId);
  });

  it('the operator can decline; unknown ids are 404; the Admin API needs a bearer token', async () => {
    const email = uniqueEmail('prospect');
    await (await as(null)).post('/account-request', request(email));
    const admin = await adminToken();
    const id = (await (await getShop()).db('b2b_account_requests').where({ email }).first('id')).id;
    const declined = await (
      await http()
    )
      .post(`/api/_action/b2b-account-request/${id}/decline`)
      .set('authorization', `Bearer ${admin}`)
      .send({ comment: 'Consumers only' });
    expect(declined.body.data.attributes).to.include({ status: 'declined', decisionComment: 'Consumers only' });
    expectError(
      await (await http()).get(`/api/b2b-account-request/${'0'.repeat(32)}`).set('authorization', `Bearer ${admin}`),
      404,
    );
    expectError(
      await (
        await http()
      )
        .post(`/api/_action/b2b-account-request/${'0'.repeat(32)}/accept`)
        .set('authorization', `Bearer ${admin}`)
        .send({}),
      404,
    );
    expectError(
      await (
        await http()
      )
        .post(`/api/_action/b2b-account-request/${id}/accept`)
        .set('authorization', `Bearer ${admin}`)
        .send({ groupId: 'x' }),
      400,
    );
    expectError(await (await http()).get('/api/b2b-account-request'), 401);
    expectError(
      await (await http()).get('/api/b2b-account-request?limit=0').set('authorization', `Bearer ${admin}`),
      400,
    );
  });

  it('refuses invalid input and is rate limited per e-mail', async () => {
    expectError(await (await as(null)).post('/account-request', { company: 'X' }), 400, 'SUITE__INVALID_INPUT');
    expectError(
      await (await as(null)).post('/account-request', { ...request('not-mail') }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expectError(
      await (
        await as(null)
      ).post('/account-request', { ...request(uniqueEmail()), address: { countryCode: 'Germany' } }),
      400,
      'SUITE__INVALID_INPUT',
    );
    const email = uniqueEmail('eager');
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await (await as(null)).post('/account-request', request(email))).status);
    expect(codes).to.deep.equal([200, 200, 200, 429]);
  });
});
