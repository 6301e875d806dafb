import { MAIL_SEND_JOB } from '../../src/lib/mail-outbox.js';
import { buildStoreContext } from '../../src/host/auth/store-context.js';
import { insertProduct } from '../helpers/checkout.js';
import { createTestCustomer, getShop, testMailbox } from '../helpers/shop.js';
import type { ConformanceFixture } from './fixture.js';
import { describeConformance } from './suite.js';

/** The conformance suite on the reference host: the shared app of the test process (getShop()). */
const referenceHost: ConformanceFixture = {
  runtime() {
    return shop().runtime;
  },
  async newCustomer() {
    return (await createTestCustomer()).customer;
  },
  async product() {
    return (await insertProduct({ priceNet: 1250, stock: 100 })).id;
  },
  async storeContext(customer) {
    // The customer's own login: a session (the reference host keeps a cart per session) and the
    // context the Store API builds from its token.
    const { runtime, db, internals } = shop();
    const { token } = await runtime.auth.createSession(db, {
      salesChannelId: customer.salesChannelId,
      customerId: customer.id,
      actor: {
        type: 'customer',
        id: customer.id,
        name: `${customer.firstName} ${customer.lastName}`,
        email: customer.email,
      },
      attributes: {},
    });
    return buildStoreContext(internals, { header: () => undefined, ip: '127.0.0.1', requestId: '' }, token, true);
  },
  async runJobs(only) {
    await shop().jobs.runDue({ only });
  },
  async deliverMail() {
    await shop().jobs.runDue({ only: [MAIL_SEND_JOB] });
  },
  mailbox: testMailbox,
  differences: {},
};

let app: Awaited<ReturnType<typeof getShop>> | null = null;
const shop = () => {
  if (!app) throw new Error('the shared app is not started');
  return app;
};

describe('conformance: the reference host', function () {
  before(async function () {
    this.timeout(60_000);
    app = await getShop();
  });
  describeConformance('the reference host', referenceHost);
});
