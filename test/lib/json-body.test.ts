import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { expectError, http } from '../helpers/shop.js';

/**
 * The APIs' JSON bodies: the common request is read by hand (src/lib/json-body.ts), every other one
 * by express.json; both must answer alike, and nothing a client sends may answer 500.
 */
describe('lib: JSON request bodies', () => {
  const listing = async (
    body: string | Buffer,
    headers: Record<string, string> = { 'content-type': 'application/json' },
  ) => {
    const request = (await http()).post('/store-api/product').serialize((raw: unknown) => raw as string);
    for (const [name, value] of Object.entries(headers)) request.set(name, value);
    return request.send(body as string);
  };

  it('reads a plain JSON body, with a UTF-8 charset, a +json type, a byte order mark, and an empty body as {}', async () => {
    expect((await listing('{"limit":1}')).body.limit).to.equal(1);
    expect((await listing('{"limit":2}', { 'content-type': 'application/json; charset=UTF-8' })).body.limit).to.equal(
      2,
    );
    expect((await listing('{"limit":3}', { 'content-type': 'application/vnd.api+json' })).body.limit).to.equal(3);
    expect(
      (await listing(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"limit":4}')]))).body.limit,
    ).to.equal(4);
    expect((await listing('')).status).to.equal(200);
    expect((await listing('{"limit":"ü"}')).body.errors[0].code).to.equal('SUITE__INVALID_INPUT');
    expect((await listing('{}')).status).to.equal(200);
    expect((await listing('', {})).status, 'no content type, no body').to.equal(200);
  });

  it('refuses an empty JSON array where an object is declared (it is not read as an empty body)', async () => {
    expectError(await listing('[]'), 400, 'SUITE__INVALID_INPUT');
  });

  it('refuses malformed JSON and a scalar with 400, a body over 1 MB with 413, another charset with 415', async () => {
    expectError(await listing('{"limit":'), 400, 'SUITE__MALFORMED_JSON');
    expectError(await listing('"limit"'), 400, 'SUITE__MALFORMED_JSON');
    expectError(await listing('  7'), 400, 'SUITE__MALFORMED_JSON');
    expectError(await listing(`{"term":"${'x'.repeat(1024 * 1024)}"}`), 413, 'SUITE__PAYLOAD_TOO_LARGE');
    expectError(
      await listing('{"limit":1}', { 'content-type': 'application/json; charset=latin1' }),
      415,
      'SUITE__UNSUPPORTED_ENCODING',
    );
  });

  it('leaves compressed bodies to express.json, which inflates them; a body that does not inflate is a 400', async () => {
    const res = await listing(gzipSync('{"limit":5}'), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.limit).to.equal(5);
    expectError(
      await listing('{"limit":5}', { 'content-type': 'application/json', 'content-encoding': 'gzip' }),
      400,
      'SUITE__MALFORMED_BODY',
    );
  });
});
