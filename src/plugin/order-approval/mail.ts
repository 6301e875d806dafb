import type { HostRuntime, SalesChannel } from '../../contract/index.js';
import type { Executor } from '../../lib/db.js';
import { fromMinor } from '../../lib/money.js';
import type { ApprovalLine, ApprovalRow } from './repository.js';

export const MAIL = {
  requested: 'order-approval-requested',
  approved: 'order-approval-approved',
  declined: 'order-approval-declined',
  reminder: 'order-approval-reminder',
  changes: 'order-approval-changes',
} as const;

/** What every approval mail can print (templates/mail/order-approval-*): a type alias, so it is a mail's `data` record. */
export type ApprovalMailData = {
  approval: {
    id: string;
    number: string;
    requesterName: string;
    customerComment: string | null;
    netTotal: string;
    total: string;
    reasons: string[];
    url: string;
  };
  lineItems: Array<{
    label: string;
    productNumber: string | null;
    quantity: number;
    unitPrice: string;
    totalPrice: string;
  }>;
};

/** What every approval mail can print: number, requester, totals, lines and a link to it. */
export function approvalMailData(
  host: HostRuntime,
  salesChannel: SalesChannel,
  approval: ApprovalRow,
  lines: ApprovalLine[],
): ApprovalMailData {
  const precision = salesChannel.currencyPrecision;
  const money = (minor: number) => `${fromMinor(minor, precision).toFixed(precision)} ${approval.currencyIso}`;
  return {
    approval: {
      id: approval.id,
      number: approval.approvalNumber,
      requesterName: approval.requesterName,
      customerComment: approval.customerComment,
      netTotal: money(approval.netTotal),
      total: money(approval.total),
      reasons: approval.reasons,
      url: host.storefront.url(salesChannel, `/account/order-approval/${approval.id}`),
    },
    lineItems: lines.map((l) => ({
      label: l.label,
      productNumber: l.productNumber,
      quantity: l.quantity,
      unitPrice: money(l.unitNet),
      totalPrice: money(l.totalNet),
    })),
  };
}

export async function enqueueApprovalMail(
  host: HostRuntime,
  executor: Executor,
  input: {
    template: string;
    to: string | null;
    cc?: string[];
    salesChannel: SalesChannel;
    dedupeKey?: string;
    data: ApprovalMailData & Record<string, unknown>;
  },
): Promise<boolean> {
  if (!input.to) return false;
  const cc = [...new Set((input.cc ?? []).filter((address) => address && address !== input.to))];
  await host.mail.enqueue(executor, {
    template: input.template,
    to: input.to,
    cc,
    salesChannelId: input.salesChannel.id,
    dedupeKey: input.dedupeKey,
    data: input.data,
  });
  return true;
}
