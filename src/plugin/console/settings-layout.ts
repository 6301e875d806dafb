/**
 * How the settings page arranges plugin.json's settings (decision 0054): grouped by what they are
 * for, in a fixed order, each with a label an operator reads, and the values of a choice named. A
 * setting not listed here still shows, under "Other settings", with a label made from its key.
 */
export interface SettingsGroup {
  id: string;
  heading: string;
  intro?: string;
  keys: string[];
}

export const SETTINGS_GROUPS: SettingsGroup[] = [
  {
    id: 'access',
    heading: 'Login and access',
    intro: 'How buyers get in, and which shops show prices only to logged-in buyers.',
    keys: ['passwordlessLoginEnabled', 'closedShopSalesChannelIds'],
  },
  {
    id: 'approvals',
    heading: 'Order approvals',
    keys: ['approvalReminderIntervalSeconds', 'approvalRefreshMinIntervalSeconds'],
  },
  { id: 'offers', heading: 'Offers', keys: ['offerDefaultValidityDays', 'offerExpiryReminderDays'] },
  { id: 'recurring', heading: 'Recurring orders', keys: ['recurringOrderMissedOccurrences'] },
  {
    id: 'events',
    heading: 'Events',
    keys: [
      'eventRegistrationStatuses',
      'eventLanguages',
      'eventReminderHoursBefore',
      'eventCategoryUrl',
      'eventCategoryId',
    ],
  },
  { id: 'imports', heading: 'Imports', keys: ['customerProductNumberImportMaxRows'] },
  {
    id: 'account-menu',
    heading: 'Account menu in the storefront',
    intro: 'Entries are named by their keys (see the preview below).',
    keys: ['accountMenuOrder', 'accountMenuLabels', 'accountMenuHidden'],
  },
];

export const SETTINGS_LABELS: Record<string, string> = {
  passwordlessLoginEnabled: 'Login links by e-mail',
  closedShopSalesChannelIds: 'Closed shop in these sales channels',
  approvalReminderIntervalSeconds: 'Time between two reminders to an approver (seconds)',
  approvalRefreshMinIntervalSeconds: 'Time between two price refreshes of an approval (seconds)',
  offerDefaultValidityDays: 'Validity of a new offer (days)',
  offerExpiryReminderDays: 'Remind the customer before an offer expires (days before)',
  recurringOrderMissedOccurrences: 'Orders missed while the shop was down',
  eventRegistrationStatuses: 'Event statuses that take registrations',
  eventLanguages: 'Languages of events',
  eventReminderHoursBefore: 'Remind participants before an event (hours before)',
  eventCategoryUrl: 'Address of the "All events" page',
  eventCategoryId: 'Category of all events (its id)',
  customerProductNumberImportMaxRows: 'Most lines in one customer product number import',
  accountMenuOrder: 'Order of the entries',
  accountMenuLabels: 'Own labels of entries',
  accountMenuHidden: 'Hidden entries',
};

/** The values of a choice (an enum setting) as an operator reads them; an unknown value shows as it is. */
export const SETTINGS_CHOICES: Record<string, Record<string, string>> = {
  recurringOrderMissedOccurrences: {
    'place-once': 'Place one order when the shop is back, however many were missed',
    skip: 'Skip them: the next order is the next one due',
  },
};

/** Settings whose value is a list of sales channel ids: chosen by name. */
export const SALES_CHANNEL_SETTINGS = new Set(['closedShopSalesChannelIds']);
