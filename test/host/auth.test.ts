import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { adminToken, createTestCustomer, expectError, http, login, TEST_APP_SECRET } from '../helpers/shop.js';
import { moveToWindowStart } from '../helpers/clock.js';

describe('host: authentication', () => {
  it('logs a customer in, returning the token in the body and the suite-context-token header', async () => {
    const { email, password } = await createTestCustomer();
    const res = await (await http()).post('/store-api/account/login').send({ email, password });
    expect(res.status).to.equal(200);
    expect(res.body.contextToken).to.be.a('string');
    expect(res.headers['suite-context-token']).to.equal(res.body.contextToken);
    const me = await (
      await http()
    )
      .get('/store-api/account/customer')
      .set('suite-context-token', res.body.contextToken);
    expect(me.status).to.equal(200);
    expect(me.body.email).to.equal(email);
  });

  it('refuses a wrong password and an unknown e-mail with the same 401', async () => {
    const { email } = await createTestCustomer();
    const wrong = await (await http()).post('/store-api/account/login').send({ email, password: 'nope' });
    const unknown = await (
      await http()
    )
      .post('/store-api/account/login')
      .send({ email: 'nobody@example.test', password: 'nope' });
    expect(expectError(wrong, 401).code).to.equal(expectError(unknown, 401).code);
  });

  it("accepts the shop platform's `username` for the e-mail, and refuses a body with both or neither", async () => {
    const { email, password } = await createTestCustomer();
    const agent = await http();
    const res = await agent.post('/store-api/account/login').send({ username: email, password });
    expect(res.status).to.equal(200);
    expect(res.body.contextToken).to.be.a('string');
    expectError(
      await agent.post('/store-api/account/login').send({ username: email, password: 'wrong' }),
      401,
      'SUITE__INVALID_CREDENTIALS',
    );
    expectError(await agent.post('/store-api/account/login').send({ password }), 400);
    expectError(await agent.post('/store-api/account/login').send({ email, username: email, password }), 400);
  });

  it('answers 400 with the error body for a malformed login body', async () => {
    const agent = await http();
    expectError(
      await agent.post('/store-api/account/login').set('content-type', 'application/json').send('{"email":'),
      400,
      'SUITE__MALFORMED_JSON',
    );
    const missing = expectError(
      await agent.post('/store-api/account/login').send({ email: 'a@b.c' }),
      400,
      'SUITE__INVALID_INPUT',
    );
    expect(missing.source?.pointer).to.equal('/password');
    expectError(await agent.post('/store-api/account/login').send({ email: 1, password: [] }), 400);
    expectError(await agent.post('/store-api/account/login').send({ email: 'a@b.c', password: 'x', extra: true }), 400);
  });

  it('revokes the token on logout', async () => {
    const { email, password } = await createTestCustomer();
    const token = await login(email, password);
    const agent = await http();
    expect((await agent.post('/store-api/account/logout').set('suite-context-token', token).send({})).status).to.equal(
      200,
    );
    expectError(await agent.get('/store-api/account/customer').set('suite-context-token', token), 401);
  });

  it('refuses expired, tampered, alg:none and admin tokens on the Store API', async () => {
    const { email, password } = await createTestCustomer();
    const token = await login(email, password);
    const claims = jwt.decode(token) as jwt.JwtPayload;
    const agent = await http();
    const expired = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, TEST_APP_SECRET, {
      algorithm: 'HS256',
    });
    const [header, payload] = token.split('.');
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url')}.${token.split('.')[2]}`;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const admin = await adminToken();
    for (const bad of [expired, tampered, none, admin, 'garbage']) {
      expectError(await agent.get('/store-api/account/customer').set('suite-context-token', bad), 401);
    }
  });

  it('issues admin tokens for integrations and refuses Store API tokens on the Admin API', async () => {
    const token = await adminToken();
    const agent = await http();
    const ok = await agent.get('/api/_action/plugin-config/suite-b2b').set('authorization', `Bearer ${token}`);
    expect(ok.status).to.equal(200);
    const { email, password } = await createTestCustomer();
    const storeToken = await login(email, password);
    expectError(
      await agent.get('/api/_action/plugin-config/suite-b2b').set('authorization', `Bearer ${storeToken}`),
      401,
    );
    expectError(await agent.get('/api/_action/plugin-config/suite-b2b'), 401);
    expectError(
      await agent
        .post('/api/oauth/token')
        .send({ grant_type: 'client_credentials', client_id: 'x', client_secret: 'y' }),
      401,
    );
  });

  it('rate limits logins per address, with Retry-After', async () => {
    // The counters are fixed 60 s windows: start early in one so the twelve attempts share it.
    moveToWindowStart(60);
    const agent = await http();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (await agent.post('/store-api/account/login').send({ email: `probe-${i}@example.test`, password: 'x' })).status,
      );
    expect(statuses.slice(0, 10)).to.deep.equal(Array(10).fill(401));
    const limited = await agent.post('/store-api/account/login').send({ email: 'probe@example.test', password: 'x' });
    expectError(limited, 429, 'SUITE__RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).to.be.within(1, 60);
  });

  it('answers unknown API routes with a 404 error body', async () => {
    expectError(await (await http()).get('/store-api/does-not-exist'), 404, 'SUITE__ROUTE_NOT_FOUND');
  });
});
