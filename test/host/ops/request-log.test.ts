import { expect } from 'chai';
import supertest from 'supertest';
import { AppError } from '../../../src/lib/errors.js';
import { createTestCustomer, expectError } from '../../helpers/shop.js';
import { sideApp } from '../../helpers/side-app.js';

const LOG_FIELDS = [
  'level',
  'time',
  'pid',
  'hostname',
  'requestId',
  'method',
  'route',
  'status',
  'durationMs',
  'actorType',
  'msg',
].sort();

describe('host: request logs and request ids', () => {
  it('logs one line per request at info with method, route pattern, status, duration, request id and actor type, and nothing secret', async () => {
    const { shop, logLines } = await sideApp();
    const customer = await createTestCustomer();
    const agent = supertest(shop.app);
    const login = await agent
      .post('/store-api/account/login')
      .set('x-forwarded-for', '10.91.0.1')
      .send({ email: customer.email, password: customer.password });
    expect(login.status).to.equal(200);
    const token = login.body.contextToken as string;
    const missing = await agent
      .get('/store-api/product/0123456789abcdef0123456789abcdef')
      .set('suite-context-token', token);
    expect(missing.status).to.equal(404);
    await agent.get('/account').set('cookie', 'nothing=1');
    await agent.get(`/store-api/no-such-route?email=${encodeURIComponent(customer.email)}`);
    await agent.get('/health/ready');
    await shop.close();

    const requestLines = logLines.filter((line) => line.msg === 'request');
    expect(requestLines.map((line) => `${line.method} ${line.route} ${line.status} ${line.actorType}`)).to.deep.equal([
      'POST /store-api/account/login 200 guest',
      'GET /store-api/product/{productId} 404 customer',
      'GET /account 302 guest',
      'GET unmatched 404 none',
    ]);
    for (const line of requestLines) {
      expect(Object.keys(line).sort()).to.deep.equal(LOG_FIELDS);
      expect(line.level).to.equal(30);
      expect(line.durationMs).to.be.a('number');
      expect(line.requestId).to.match(/^[0-9a-f-]{36}$/);
    }
    expect(requestLines[1]!.requestId).to.equal(missing.headers['x-request-id']);
    const everything = JSON.stringify(logLines);
    for (const secret of [customer.email, customer.password, token]) expect(everything).not.to.include(secret);
  });

  it('logs a 503 at warn and a 500 at error, with the same fields; below the log level nothing is written', async () => {
    const { shop, logLines } = await sideApp({ logLevel: 'warn' });
    const failing = (path: string, error: () => Error) =>
      shop.internals.storeApi.add({
        method: 'GET',
        path,
        operationId: path.slice(1),
        summary: 'Fails.',
        tags: ['Test'],
        auth: 'public',
        permission: null,
        schemas: { responses: { 200: { type: 'object' } } },
        handler: () => Promise.reject(error()),
      });
    failing('/test-log-unavailable', () => new AppError(503, 'SUITE__TEST_UNAVAILABLE', 'Down for the test.'));
    failing('/test-log-bug', () => new Error('a planted bug'));
    const agent = supertest(shop.app);
    expect((await agent.get('/store-api/test-log-unavailable')).status).to.equal(503);
    expect((await agent.get('/store-api/test-log-bug')).status).to.equal(500);
    expect((await agent.get('/store-api/context')).status).to.equal(200);
    await shop.close();
    const requestLines = logLines.filter((line) => line.msg === 'request');
    expect(requestLines.map((line) => `${line.level} ${line.route} ${line.status}`)).to.deep.equal([
      '40 /store-api/test-log-unavailable 503',
      '50 /store-api/test-log-bug 500',
    ]);
    for (const line of requestLines) expect(Object.keys(line).sort()).to.deep.equal(LOG_FIELDS);
  });

  it('answers with x-request-id and carries it in every error body; a well-formed incoming id is kept', async () => {
    const { shop } = await sideApp({ logLevel: 'silent' });
    const agent = supertest(shop.app);
    const invalid = await agent.post('/store-api/product').send({ limit: 'many' });
    const error = expectError(invalid, 400) as { meta?: { requestId?: string } };
    expect(error.meta?.requestId).to.equal(invalid.headers['x-request-id']);
    const unauthorized = await agent.get('/api/product').set('x-request-id', 'trace-abc_123');
    expect(unauthorized.headers['x-request-id']).to.equal('trace-abc_123');
    expect((expectError(unauthorized, 401) as { meta?: { requestId?: string } }).meta?.requestId).to.equal(
      'trace-abc_123',
    );
    const forged = await agent.get('/health/live').set('x-request-id', 'has spaces and {braces}');
    expect(forged.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    await shop.close();
  });
});
