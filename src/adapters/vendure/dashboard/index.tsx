/**
 * Suite B2B in Vendure's React Dashboard (Vendure 3.7, `@vendure/dashboard`): a "B2B" section in the
 * sidebar whose entries open the operator's console pages (/b2b-admin, served by the adapter,
 * src/adapters/vendure/console.ts). The console keeps its own login (a Vendure administrator's
 * credentials) and answers `frame-ancestors 'none'`, so an entry opens the page rather than framing it.
 *
 * Built by the shop's Dashboard build (Vite, `vendureDashboardPlugin`), which finds this file through
 * the plugin's `dashboard` property (plugin.ts). This repository does not install `@vendure/dashboard`
 * (React, Vite, Tailwind and ~70 further packages): the file is outside tsconfig and is not built in
 * CI here (docs/vendure.md, "Dashboard").
 */
import { defineDashboardExtension } from '@vendure/dashboard';
import { useEffect } from 'react';

const CONSOLE = '/b2b-admin';
/** The console's pages that get a Dashboard entry, in the console's menu order. */
const PAGES = [
  { id: 'start', title: 'B2B console', path: '' },
  { id: 'companies', title: 'Companies', path: '/companies' },
  { id: 'account-requests', title: 'Account requests', path: '/account-requests' },
  { id: 'customer-prices', title: 'Customer prices', path: '/customer-prices' },
  { id: 'partial-assortments', title: 'Partial assortments', path: '/partial-assortments' },
  { id: 'quantity-rules', title: 'Quantity rules', path: '/quantity-rules' },
  { id: 'sales-representatives', title: 'Sales representatives', path: '/sales-representatives' },
  { id: 'events', title: 'Events', path: '/events' },
  { id: 'failed-mails', title: 'Failed mails', path: '/failed-mails' },
  { id: 'failed-jobs', title: 'Failed jobs', path: '/failed-jobs' },
  { id: 'settings', title: 'Settings', path: '/settings' },
];

function OpenConsole({ href, title }: { href: string; title: string }) {
  useEffect(() => {
    window.location.assign(href);
  }, [href]);
  return (
    <p style={{ padding: '1rem' }}>
      Opening the B2B console: <a href={href}>{title}</a>
    </p>
  );
}

defineDashboardExtension({
  navSections: [{ id: 'suite-b2b', title: 'B2B', placement: 'top', order: 450 }],
  routes: PAGES.map((page) => ({
    path: `/suite-b2b/${page.id}`,
    component: () => <OpenConsole href={`${CONSOLE}${page.path}`} title={page.title} />,
    navMenuItem: {
      sectionId: 'suite-b2b',
      id: `suite-b2b-${page.id}`,
      title: page.title,
      requiresPermission: ['SuiteB2BAdmin', 'SuiteB2BAdminReadOnly'],
    },
  })),
});
