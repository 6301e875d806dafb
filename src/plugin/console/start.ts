import { consolePage, type ConsoleContext, type ConsoleKit, type JsonApiDocument } from './kit.js';

interface Count {
  label: string;
  figure: number;
  href: string;
  hint: string;
  test: string;
}

/** An order approval pending longer than this is "pending long" (the reminder job has mailed its approvers by then). */
const APPROVAL_PENDING_LONG_HOURS = 48;
/** Events starting within this many days are "starting soon". */
const EVENTS_SOON_DAYS = 7;
const HOUR = 3600 * 1000;

/**
 * The start page: what waits for the operator, as far as the declared Admin API routes can tell —
 * account requests waiting for a decision, order approvals pending long, published events starting
 * soon, offers requested, mails and jobs given up after their retries — and the size of what the console manages. Each figure links to its page where there is
 * one. A figure whose route the host does not declare is left out.
 */
export function startPages(kit: ConsoleKit) {
  async function total(
    ctx: ConsoleContext,
    operationId: string,
    query: Record<string, unknown> = {},
  ): Promise<number | null> {
    if (!kit.console.has(operationId)) return null;
    return (await kit.call<JsonApiDocument<unknown>>(ctx, operationId, { query: { ...query, limit: 1 } })).meta.total;
  }

  return [
    consolePage({
      path: '/',
      menu: { label: 'Start', position: 0 },
      async handler({ ctx }) {
        const now = Date.now();
        const [
          openRequests,
          approvalsPendingLong,
          eventsSoon,
          offersRequested,
          failedMails,
          failedJobs,
          prices,
          representatives,
        ] = await Promise.all([
          total(ctx, 'listAccountRequests', { status: 'open' }),
          total(ctx, 'listOrderApprovalsAdmin', {
            status: 'pending',
            createdBefore: new Date(now - APPROVAL_PENDING_LONG_HOURS * HOUR).toISOString(),
          }),
          total(ctx, 'listEventsAdmin', {
            status: 'published',
            startsAfter: new Date(now).toISOString(),
            startsBefore: new Date(now + EVENTS_SOON_DAYS * 24 * HOUR).toISOString(),
          }),
          total(ctx, 'listOffersAdmin', { status: 'requested' }),
          total(ctx, 'listMailOutbox', { state: 'failed' }),
          total(ctx, 'listJobs', { state: 'failed' }),
          total(ctx, 'listSuiteCustomerPrices'),
          total(ctx, 'listSalesRepresentatives'),
        ]);
        const waiting: Count[] = [];
        if (openRequests !== null)
          waiting.push({
            label: 'Account requests waiting',
            figure: openRequests,
            href: kit.href('/account-requests', { status: 'open' }),
            hint: openRequests ? 'Accept or decline them.' : 'Nothing to decide.',
            test: 'open-account-requests',
          });
        if (approvalsPendingLong !== null)
          waiting.push({
            label: `Order approvals pending for more than ${APPROVAL_PENDING_LONG_HOURS} hours`,
            figure: approvalsPendingLong,
            href: '',
            hint: approvalsPendingLong
              ? 'The companies’ approvers decide in the storefront; the reminder job has mailed them. Look at the company if it stays.'
              : 'None.',
            test: 'approvals-pending-long',
          });
        if (eventsSoon !== null)
          waiting.push({
            label: `Events starting in the next ${EVENTS_SOON_DAYS} days`,
            figure: eventsSoon,
            href: kit.href('/events', { status: 'published' }),
            hint: eventsSoon ? 'Check participants and the waiting list.' : 'None published.',
            test: 'events-soon',
          });
        if (offersRequested !== null)
          waiting.push({
            label: 'Offers requested',
            figure: offersRequested,
            href: '',
            hint: offersRequested
              ? 'Customers wait for a price: the sales representatives make the offers in the storefront.'
              : 'None waiting.',
            test: 'offers-requested',
          });
        if (failedMails !== null)
          waiting.push({
            label: 'Mails that failed',
            figure: failedMails,
            href: kit.href('/failed-mails'),
            hint: failedMails
              ? 'They were given up after their retries: retry or discard them.'
              : 'Every mail went out or is queued.',
            test: 'failed-mails',
          });
        if (failedJobs !== null)
          waiting.push({
            label: 'Jobs that failed',
            figure: failedJobs,
            href: kit.href('/failed-jobs'),
            hint: failedJobs ? 'They were given up after their retries: retry or discard them.' : 'No job failed.',
            test: 'failed-jobs',
          });
        const managed: Count[] = [];
        if (prices !== null)
          managed.push({
            label: 'Customer prices',
            figure: prices,
            href: kit.href('/customer-prices'),
            hint: 'Search, change, import.',
            test: 'customer-prices',
          });
        if (representatives !== null)
          managed.push({
            label: 'Sales representatives',
            figure: representatives,
            href: kit.href('/sales-representatives'),
            hint: 'Logins and their customers.',
            test: 'sales-representatives',
          });
        return { template: 'start', data: { title: 'Start', waiting, managed } };
      },
    }),
  ];
}
