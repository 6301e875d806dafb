import { consolePage, type ConsoleContext, type ConsoleKit, type JsonApiDocument } from './kit.js';

interface Count {
  label: string;
  figure: number;
  href: string;
  hint: string;
  test: string;
}

/**
 * The start page: what waits for the operator, as far as the declared Admin API routes can tell —
 * account requests waiting for a decision, and the size of what the console manages. Each figure
 * links to its page. A figure whose route the host does not declare is left out.
 */
export function startPages(kit: ConsoleKit) {
  async function total(ctx: ConsoleContext, operationId: string, query: Record<string, unknown> = {}): Promise<number | null> {
    if (!kit.console.has(operationId)) return null;
    return (await kit.call<JsonApiDocument<unknown>>(ctx, operationId, { query: { ...query, limit: 1 } })).meta.total;
  }

  return [
    consolePage({
      path: '/',
      menu: { label: 'Start', position: 0 },
      async handler({ ctx }) {
        const [openRequests, prices, representatives] = await Promise.all([
          total(ctx, 'listAccountRequests', { status: 'open' }),
          total(ctx, 'listSuiteCustomerPrices'),
          total(ctx, 'listSalesRepresentatives'),
        ]);
        const waiting: Count[] = [];
        if (openRequests !== null)
          waiting.push({ label: 'Account requests waiting', figure: openRequests, href: kit.href('/account-requests', { status: 'open' }), hint: openRequests ? 'Accept or decline them.' : 'Nothing to decide.', test: 'open-account-requests' });
        const managed: Count[] = [];
        if (prices !== null) managed.push({ label: 'Customer prices', figure: prices, href: kit.href('/customer-prices'), hint: 'Search, change, import.', test: 'customer-prices' });
        if (representatives !== null) managed.push({ label: 'Sales representatives', figure: representatives, href: '', hint: 'Through the Admin API for now.', test: 'sales-representatives' });
        return { template: 'start', data: { title: 'Start', waiting, managed } };
      },
    }),
  ];
}
