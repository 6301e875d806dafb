import { readInt, selectRows, type Executor } from '../../../lib/db.js';

const REQUESTS = 'b2b_account_requests';

export type AccountRequestStatus = 'open' | 'accepted' | 'declined';

export interface AccountRequestRow {
  id: string;
  sales_channel_id: string;
  status: AccountRequestStatus;
  company: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  vat_id: string | null;
  address: unknown;
  message: string | null;
  customer_id: string | null;
  decision_comment: string | null;
  decided_at: string | null;
  created_at: string;
  updated_at: string | null;
}

export async function findAccountRequest(executor: Executor, id: string): Promise<AccountRequestRow | undefined> {
  return executor<AccountRequestRow>(REQUESTS).where({ id }).first();
}

export async function insertAccountRequest(
  executor: Executor,
  row: Omit<AccountRequestRow, 'customer_id' | 'decision_comment' | 'decided_at' | 'updated_at'>,
): Promise<void> {
  await executor(REQUESTS).insert(row);
}

/** Writes the decision onto a request that is still open; the number of rows changed (0: decided meanwhile). */
export async function decideOpenAccountRequest(
  executor: Executor,
  id: string,
  decision: Record<string, unknown> & { status: Exclude<AccountRequestStatus, 'open'> },
): Promise<number> {
  return executor(REQUESTS).where({ id, status: 'open' }).update(decision);
}

/** One page of the requests (all, or those with the status) and the total, sorted by the date or the company. */
export async function accountRequestsPage(
  executor: Executor,
  options: {
    status?: AccountRequestStatus;
    sortBy: 'created_at' | 'company';
    order: 'asc' | 'desc';
    limit: number;
    offset: number;
  },
): Promise<{ rows: AccountRequestRow[]; total: number }> {
  const base = executor(REQUESTS);
  if (options.status) base.where({ status: options.status });
  const [count] = await selectRows<{ n: unknown }>(base.clone().count({ n: '*' }));
  const total = readInt(count?.n);
  const rows = await selectRows<AccountRequestRow>(
    base.clone().orderBy(options.sortBy, options.order).orderBy('id').limit(options.limit).offset(options.offset),
  );
  return { rows, total };
}
