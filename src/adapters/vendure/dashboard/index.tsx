/**
 * Suite B2B in Vendure's Dashboard (Vendure 3.7, `@vendure/dashboard`): a "B2B" section with the
 * account requests, customer prices and partial assortment pages built from the Dashboard's own
 * components (Page, PageLayout, PageBlock, DataTable, Button, Input), reading and writing through the
 * plugin's Admin API (/b2b-admin-api) with the Dashboard's Vendure session (api.ts), and an overview
 * that links to every page of the operator's console (/b2b-admin, src/adapters/vendure/console.ts),
 * which keeps its own login and answers `frame-ancestors 'none'` (linked, not framed).
 *
 * Found by the Dashboard build (Vite, `vendureDashboardPlugin`) through the plugin's `dashboard`
 * metadata (plugin.ts); built here by `npm run build:dashboard` (decision 0034).
 */
import { defineDashboardExtension, Page, PageBlock, PageLayout, PageTitle } from '@vendure/dashboard';
import { AccountRequestsPage } from './account-requests.js';
import { ADMIN_PERMISSION, READ_ONLY_PERMISSION } from './api.js';
import { CustomerPricesPage } from './customer-prices.js';
import { PartialAssortmentsPage } from './partial-assortments.js';
import { ConsoleLink } from './shared.js';

/** The console's pages, in its menu order. */
const CONSOLE_PAGES = [
  { title: 'Start: what waits', path: '' },
  { title: 'Companies', path: '/companies' },
  { title: 'Account requests', path: '/account-requests' },
  { title: 'Customer prices', path: '/customer-prices' },
  { title: 'Price import', path: '/customer-prices/import' },
  { title: 'Customer product numbers', path: '/customer-product-numbers' },
  { title: 'Partial assortments', path: '/partial-assortments' },
  { title: 'Quantity rules', path: '/quantity-rules' },
  { title: 'Sales representatives', path: '/sales-representatives' },
  { title: 'Activity types', path: '/activity-types' },
  { title: 'Events', path: '/events' },
  { title: 'Mail templates', path: '/mail-templates' },
  { title: 'Failed mails', path: '/failed-mails' },
  { title: 'Failed jobs', path: '/failed-jobs' },
  { title: 'Settings', path: '/settings' },
];

function ConsolePage() {
  return (
    <Page pageId="suite-b2b-console">
      <PageTitle>B2B console</PageTitle>
      <PageLayout>
        <PageBlock column="main" blockId="suite-b2b-console-links" title="The operator's console">
          <p className="text-sm text-muted-foreground mb-3">
            Every B2B page of the shop. The console asks for your Vendure user name and password once more.
          </p>
          <ul className="list-disc pl-6 space-y-1">
            {CONSOLE_PAGES.map((page) => (
              <li key={page.path}>
                <ConsoleLink path={page.path}>{page.title}</ConsoleLink>
              </li>
            ))}
          </ul>
        </PageBlock>
      </PageLayout>
    </Page>
  );
}

const SECTION = 'suite-b2b';

defineDashboardExtension({
  navSections: [{ id: SECTION, title: 'B2B', placement: 'top', order: 450 }],
  routes: [
    {
      path: '/suite-b2b/account-requests',
      loader: () => ({ breadcrumb: 'Account requests' }),
      component: () => <AccountRequestsPage />,
      navMenuItem: {
        sectionId: SECTION,
        id: 'suite-b2b-account-requests',
        title: 'Account requests',
        order: 100,
        requiresPermission: ADMIN_PERMISSION,
      },
    },
    {
      path: '/suite-b2b/customer-prices',
      loader: () => ({ breadcrumb: 'Customer prices' }),
      component: () => <CustomerPricesPage />,
      navMenuItem: {
        sectionId: SECTION,
        id: 'suite-b2b-customer-prices',
        title: 'Customer prices',
        order: 200,
        requiresPermission: ADMIN_PERMISSION,
      },
    },
    {
      path: '/suite-b2b/partial-assortments',
      loader: () => ({ breadcrumb: 'Partial assortments' }),
      component: () => <PartialAssortmentsPage />,
      navMenuItem: {
        sectionId: SECTION,
        id: 'suite-b2b-partial-assortments',
        title: 'Partial assortments',
        order: 300,
        requiresPermission: ADMIN_PERMISSION,
      },
    },
    {
      path: '/suite-b2b/console',
      loader: () => ({ breadcrumb: 'B2B console' }),
      component: () => <ConsolePage />,
      navMenuItem: {
        sectionId: SECTION,
        id: 'suite-b2b-console',
        title: 'B2B console',
        order: 900,
        requiresPermission: [ADMIN_PERMISSION, READ_ONLY_PERMISSION],
      },
    },
  ],
});
