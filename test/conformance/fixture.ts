import type { CustomerRef, HostRuntime, StoreContext } from '../../src/contract/index.js';
import type { TestMailbox } from '../helpers/smtp.js';

/**
 * What the conformance suite (suite.ts) needs of a host beyond the contract: how to reach its
 * runtime, make a buyer and a product, build a buyer's Store API context, run its jobs and read the
 * mail it delivered. Everything host-specific lives in a fixture; the tests call only `HostRuntime`.
 */
export interface ConformanceFixture {
  /** The host's HostRuntime (the one the plugin was loaded into). */
  runtime(): HostRuntime;
  /** A new active business customer of the host's sales channel, with a default billing and shipping address. */
  newCustomer(): Promise<CustomerRef>;
  /** The id of an active product the host sells to any customer, in stock for a few pieces, without tier or customer prices. */
  product(): Promise<string>;
  /** A Store API context of the customer's own login (actor `customer`, every permission), as a route handler gets it. */
  storeContext(customer: CustomerRef): Promise<StoreContext>;
  /** Runs the named scheduled jobs once now, as the host's job worker would. */
  runJobs(only: string[]): Promise<void>;
  /** Sends the queued mails (the host's outbox sender) to the test mailbox. */
  deliverMail(): Promise<void>;
  /** The SMTP server on loopback the host delivers to. */
  mailbox(): Promise<TestMailbox>;
  /**
   * Behaviours this host does not show yet, by the suite's key, each with the difference in a few
   * words: the test stays in the suite and shows as pending on this host (docs/vendure.md,
   * "Differences the conformance suite shows"). Remove a key when the host conforms.
   */
  differences: Partial<Record<ConformanceBehaviour, string>>;
}

/** The suite's behaviours that a fixture may name in `differences`. */
export type ConformanceBehaviour =
  | 'ids'
  | 'money'
  | 'totals.lines'
  | 'customers.lookup'
  | 'cart.lines'
  | 'checkout.cart'
  | 'checkout.comment'
  | 'checkout.givenLines'
  | 'cart.priceLines'
  | 'hooks.inTransaction'
  | 'hooks.rollback'
  | 'interceptor.veto'
  | 'interceptor.customFields'
  | 'visibility'
  | 'orders.search'
  | 'jobs.schedule'
  | 'mail.outbox';
