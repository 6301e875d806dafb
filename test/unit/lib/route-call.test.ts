import { expect } from 'chai';
import { AppError, Errors } from '../../../src/lib/errors.js';
import type { IdempotencyStore, StoredResponse } from '../../../src/lib/idempotency.js';
import { callRoute, type CallerContext } from '../../../src/lib/route-call.js';
import type { AnyRoute } from '../../../src/lib/routes.js';

/** Idempotency keys in memory: the in-process adapter only needs the store's three operations. */
function memoryStore(): IdempotencyStore {
  const keys = new Map<string, { hash: string; response: StoredResponse | null }>();
  return {
    async claim(scope, key, requestBody) {
      const hash = JSON.stringify(requestBody);
      const found = keys.get(`${scope}|${key}`);
      if (!found) {
        keys.set(`${scope}|${key}`, { hash, response: null });
        return { claimed: true };
      }
      if (found.hash !== hash) throw Errors.unprocessable('SUITE__IDEMPOTENCY_KEY_REUSED', 'Reused.');
      if (!found.response) throw Errors.conflict('Running.', 'SUITE__IDEMPOTENCY_IN_PROGRESS');
      return { replay: found.response };
    },
    async complete(scope, key, response) {
      keys.get(`${scope}|${key}`)!.response = response;
    },
    async release(scope, key) {
      keys.delete(`${scope}|${key}`);
    },
  };
}

describe('lib: the in-process route caller (callRoute)', () => {
  let runs = 0;
  const send: AnyRoute = {
    method: 'POST',
    path: '/send',
    operationId: 'send',
    summary: 'Send',
    tags: ['test'],
    auth: 'login',
    permission: null,
    idempotent: true,
    schemas: {
      body: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      responses: { 200: { type: 'object' } },
    },
    async handler({ body }) {
      runs += 1;
      if (body.text === 'fail') throw Errors.badRequest('SUITE__TEST_FAILED', 'Failed.');
      return { run: runs, text: body.text };
    },
  };
  const ctx = (id: string): CallerContext => ({
    actor: { type: 'employee', id },
    customer: { id: 'c1' },
    sessionId: null,
    ip: '127.0.0.1',
    can: () => true,
  });

  it('runs an idempotent route once per key and caller, answering the first result to a repeat', async () => {
    runs = 0;
    const store = memoryStore();
    const once = { ctx: ctx('e1'), body: { text: 'hi' }, idempotency: { key: 'form-1', store } };
    const first = await callRoute(send, once);
    expect(await callRoute(send, once)).to.deep.equal(first);
    expect(runs).to.equal(1);
    await callRoute(send, { ...once, idempotency: { key: 'form-2', store } });
    await callRoute(send, { ...once, ctx: ctx('e2') });
    await callRoute(send, { ctx: ctx('e1'), body: { text: 'hi' } });
    expect(runs, 'another key, another caller, no key: each runs').to.equal(4);

    const failing = { ctx: ctx('e1'), body: { text: 'fail' }, idempotency: { key: 'form-3', store } };
    for (let i = 0; i < 2; i++) {
      const error = await callRoute(send, failing).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(AppError).and.to.have.property('code', 'SUITE__TEST_FAILED');
    }
    expect(runs, 'a refused first attempt releases its key').to.equal(6);
  });
});
