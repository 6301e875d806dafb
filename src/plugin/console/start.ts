import { HOST_ADMIN_ROUTES } from '../../contract/index.js';
import { routeRefs } from '../../lib/routes.js';
import type { CustomerPriceAdminRoute } from '../customer-price/index.js';
import type { EmployeeAdminRoute } from '../employee/index.js';
import type { EventAdminRoute } from '../event-manager/index.js';
import type { OfferAdminRoute } from '../offer/index.js';
import type { OrderApprovalAdminRoute } from '../order-approval/index.js';
import type { SalesRepresentativeAdminRoute } from '../sales-representative/index.js';
import { consolePage, type ConsoleKit } from './kit.js';
import { nowMs as currentTimeMs } from '../../lib/time.js';

const routes = routeRefs<
  | CustomerPriceAdminRoute
  | EmployeeAdminRoute
  | EventAdminRoute
  | OfferAdminRoute
  | OrderApprovalAdminRoute
  | SalesRepresentativeAdminRoute
>();

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
  /** The total of a list the host serves (one row asked), or null where it does not serve the route. */
  async function total(route: { operationId: string }, list: () => Promise<{ meta: { total: number } }>) {
    return kit.console.has(route) ? (await list()).meta.total : null;
  }

  return [
    consolePage({
      path: '/',
      menu: { label: 'Start', position: 0 },
      async handler({ ctx }) {
        const now = currentTimeMs();
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
          total(routes.listAccountRequests, () =>
            kit.call(ctx, routes.listAccountRequests, { query: { status: 'open', limit: 1 } }),
          ),
          total(routes.listOrderApprovalsAdmin, () =>
            kit.call(ctx, routes.listOrderApprovalsAdmin, {
              query: {
                status: 'pending',
                createdBefore: new Date(now - APPROVAL_PENDING_LONG_HOURS * HOUR).toISOString(),
                limit: 1,
              },
            }),
          ),
          total(routes.listEventsAdmin, () =>
            kit.call(ctx, routes.listEventsAdmin, {
              query: {
                status: 'published',
                startsAfter: new Date(now).toISOString(),
                startsBefore: new Date(now + EVENTS_SOON_DAYS * 24 * HOUR).toISOString(),
                limit: 1,
              },
            }),
          ),
          total(routes.listOffersAdmin, () =>
            kit.call(ctx, routes.listOffersAdmin, { query: { status: 'requested', limit: 1 } }),
          ),
          total(HOST_ADMIN_ROUTES.listMailOutbox, () =>
            kit.call(ctx, HOST_ADMIN_ROUTES.listMailOutbox, { query: { state: 'failed', limit: 1 } }),
          ),
          total(HOST_ADMIN_ROUTES.listJobs, () =>
            kit.call(ctx, HOST_ADMIN_ROUTES.listJobs, { query: { state: 'failed', limit: 1 } }),
          ),
          total(routes.listSuiteCustomerPrices, () =>
            kit.call(ctx, routes.listSuiteCustomerPrices, { query: { limit: 1 } }),
          ),
          total(routes.listSalesRepresentatives, () =>
            kit.call(ctx, routes.listSalesRepresentatives, { query: { limit: 1 } }),
          ),
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
