import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { ApiRouter, errorMiddleware } from '../../../src/lib/api-router.js';
import { STORE_ACTORS, type ApiDefinition } from '../../../src/lib/pipeline.js';
import type { Db } from '../../../src/lib/db.js';
import type { AnyRoute } from '../../../src/lib/routes.js';

/**
 * The HTTP adapter finds routes without path parameters by a look-up instead of express's walk over
 * the list: it must match exactly what express matched (any case, one trailing slash, the method).
 */
const api: ApiDefinition<{ actor: 'guest' }> = {
  name: 'test-api',
  actorsByAuth: { public: STORE_ACTORS },
  authenticate: () => Promise.resolve({ actor: 'guest' }),
  principal: () => ({ actor: 'guest', customerId: null, can: () => false, key: 'guest' }),
};

const route = (method: string, path: string, answer: string): AnyRoute =>
  ({
    method,
    path,
    operationId: `${method}${path}`,
    summary: answer,
    auth: 'public',
    permission: null,
    schemas: {
      ...(method === 'POST' ? { body: { type: 'object' } } : {}),
      ...(path.includes('{')
        ? { params: { type: 'object', properties: { itemId: { type: 'string' } }, required: ['itemId'] } }
        : {}),
      responses: { 200: { type: 'object', properties: { answer: { type: 'string' } } } },
    },
    handler: ({ params }: { params: Record<string, unknown> }) => Promise.resolve({ answer, ...params }),
  }) as unknown as AnyRoute;

function app() {
  const router = new ApiRouter(api, {
    db: null as unknown as Db,
    rateLimiter: { hit: () => Promise.resolve(1) },
    validateResponses: false,
  });
  router.add(route('GET', '/items/{itemId}', 'one item'));
  router.add(route('GET', '/items/search', 'search'));
  router.add(route('POST', '/items', 'create'));
  router.add(route('GET', '/items', 'list'));
  // Mounted as the app mounts an API: its dispatcher first, express's mount behind it for the rest.
  const server = express();
  server.use(router.dispatcher('/api', [express.json()]));
  server.use('/api', express.json(), router.router);
  server.use(errorMiddleware({ error: () => undefined, warn: () => undefined }));
  return server;
}

describe('lib: ApiRouter', () => {
  it('answers parameterless routes in any case and with one trailing slash, by method, as express does', async () => {
    const server = app();
    expect((await request(server).get('/api/items')).body).to.deep.equal({ answer: 'list' });
    expect((await request(server).post('/api/items').send({})).body).to.deep.equal({ answer: 'create' });
    expect((await request(server).get('/api/ITEMS/')).body).to.deep.equal({ answer: 'list' });
    expect((await request(server).get('/api/items//')).status).to.equal(404);
    expect((await request(server).delete('/api/items')).status).to.equal(404);
    expect((await request(server).head('/api/items')).status).to.equal(200);
    expect((await request(server).get('/apiitems')).status).to.equal(404);
    expect((await request(server).get('/api')).status).to.equal(404);
  });

  it('answers a literal path before a parameter that also matches it, whichever was declared first', async () => {
    const server = app();
    // /items/{itemId} is declared first; /items/search is the more specific path and answers.
    expect((await request(server).get('/api/items/search')).body).to.deep.equal({ answer: 'search' });
    expect((await request(server).get('/api/items/42')).body).to.deep.equal({ answer: 'one item', itemId: '42' });
  });

  it('finds routes with parameters by their first segment, decoding parameters as express does', async () => {
    const server = app();
    expect((await request(server).get('/api/Items/a%20b/')).body).to.deep.equal({ answer: 'one item', itemId: 'a b' });
    const malformed = await request(server).get('/api/items/%E0%A4%A');
    expect(malformed.status).to.equal(400);
    expect(malformed.body.errors[0].code).to.equal('SUITE__MALFORMED_URI');
    expect((await request(server).get('/api/items/42/more')).status).to.equal(404);
    expect((await request(server).get('/api/other/42')).status).to.equal(404);
  });

  it('leaves a route with its own body parser to express, and a route declared after it does not jump ahead', async () => {
    const router = new ApiRouter(api, {
      db: null as unknown as Db,
      rateLimiter: { hit: () => Promise.resolve(1) },
      validateResponses: false,
    });
    const csv = route('POST', '/imports/{itemId}', 'csv import') as AnyRoute & { schemas: Record<string, unknown> };
    csv.schemas = { ...csv.schemas, body: { type: 'string' }, bodyContentType: 'text/csv' };
    csv.handler = (({ params, body }: { params: Record<string, unknown>; body: unknown }) =>
      Promise.resolve({ answer: `csv ${String(body)}`, ...params })) as AnyRoute['handler'];
    router.add(csv);
    router.add(route('POST', '/{itemId}/7', 'json import'));
    const server = express();
    server.use(router.dispatcher('/api', [express.json()]));
    server.use('/api', express.json(), router.router);
    server.use(errorMiddleware({ error: () => undefined, warn: () => undefined }));
    const answer = await request(server).post('/api/imports/7').set('content-type', 'text/csv').send('a;b');
    expect(answer.body).to.deep.equal({ answer: 'csv a;b', itemId: '7' });
    expect((await request(server).post('/api/exports/7').send({})).body).to.deep.equal({
      answer: 'json import',
      itemId: 'exports',
    });
  });
  it('answers the routes of its table through the dispatcher alone, with the body parsed and parameters decoded, and leaves the rest to the mount', async () => {
    const router = new ApiRouter(api, {
      db: null as unknown as Db,
      rateLimiter: { hit: () => Promise.resolve(1) },
      validateResponses: false,
    });
    router.add(route('GET', '/items/{itemId}', 'one item'));
    router.add(route('POST', '/items', 'create'));
    const server = express();
    server.use(router.dispatcher('/api', [express.json()]));
    server.use(errorMiddleware({ error: () => undefined, warn: () => undefined }));
    expect((await request(server).get('/API/items/a%20b')).body).to.deep.equal({ answer: 'one item', itemId: 'a b' });
    expect((await request(server).post('/api/items').send({ any: 1 })).body).to.deep.equal({ answer: 'create' });
    expect(
      (await request(server).post('/api/items').set('content-type', 'application/json').send('{"any":')).status,
    ).to.equal(400);
    expect((await request(server).get('/api/items/%E0%A4%A')).status).to.equal(400);
    // Not in the table (HEAD, another API's prefix): left to whatever is mounted behind (here nothing: 404).
    expect((await request(server).head('/api/items/1')).status).to.equal(404);
    expect((await request(server).get('/store-api/items/1')).status).to.equal(404);
  });
});
