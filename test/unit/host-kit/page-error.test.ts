import { expect } from 'chai';
import { pageErrorOf } from '../../../src/host-kit/page-error.js';
import { Errors } from '../../../src/lib/errors.js';

describe('host-kit: pageErrorOf (the console and the storefront share it)', () => {
  const wording = { notFound: 'Page not found', failed: 'We could not show this page' };

  it('shows an AppError as it is, a request fault as not understood, anything else as a 500 with the request id', () => {
    const missing = pageErrorOf(Errors.notFound('Order'), 'r1', wording);
    expect(missing).to.deep.include({
      status: 404,
      title: 'Page not found',
      message: 'Order was not found.',
      unexpected: false,
    });
    expect(missing.appError).to.not.equal(null);
    expect(pageErrorOf(Object.assign(new Error('too large'), { status: 413 }), 'r2', wording)).to.deep.include({
      status: 413,
      message: 'The request could not be understood.',
      unexpected: false,
      appError: null,
    });
    expect(pageErrorOf(new Error('boom'), 'r3', wording)).to.deep.include({
      status: 500,
      title: 'Something went wrong',
      message: 'We could not show this page (request r3).',
      unexpected: true,
    });
  });
});
