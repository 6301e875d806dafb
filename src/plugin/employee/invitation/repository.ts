import { readInt, selectRow, selectRows, type Executor } from '../../../lib/db.js';

export const INVITATIONS = 'b2b_employee_invitations';

export interface InvitationRow {
  id: string;
  customer_id: string;
  sales_channel_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  department: string | null;
  role_id: string | null;
  /** The employee record made already by POST /b2b/employee/add, if any. */
  employee_id: string | null;
  token_hash: string;
  status: string;
  expires_at: string;
  accepted_at: string | null;
  created_at: string;
  updated_at: string | null;
}

/** An invitation with the name of its role. */
export type ListedInvitationRow = InvitationRow & { role_name: string | null };

export async function insertInvitation(executor: Executor, row: Omit<InvitationRow, 'updated_at'>): Promise<void> {
  await executor(INVITATIONS).insert(row);
}

/** Deletes the customer's invitation of one e-mail (there is at most one). */
export async function deleteInvitationOf(executor: Executor, customerId: string, email: string): Promise<void> {
  await executor(INVITATIONS).where({ customer_id: customerId, email }).delete();
}

/** Deletes one invitation of the customer; the number of rows deleted. */
export async function deleteCustomerInvitation(executor: Executor, customerId: string, id: string): Promise<number> {
  return executor(INVITATIONS).where({ id, customer_id: customerId }).delete();
}

export async function findInvitation(executor: Executor, id: string): Promise<InvitationRow | undefined> {
  return executor<InvitationRow>(INVITATIONS).where({ id }).first();
}

export async function findCustomerInvitation(
  executor: Executor,
  customerId: string,
  id: string,
): Promise<InvitationRow | undefined> {
  return executor<InvitationRow>(INVITATIONS).where({ id, customer_id: customerId }).first();
}

export async function findInvitationByTokenHash(
  executor: Executor,
  tokenHash: string,
): Promise<InvitationRow | undefined> {
  return executor<InvitationRow>(INVITATIONS).where({ token_hash: tokenHash }).first();
}

/** Marks a pending invitation accepted; the number of rows changed (0: it was not pending any more). */
export async function claimPendingInvitation(executor: Executor, id: string, now: string): Promise<number> {
  return executor(INVITATIONS)
    .where({ id, status: 'pending' })
    .update({ status: 'accepted', accepted_at: now, updated_at: now });
}

/** The customer's invitations not accepted yet, newest first. */
export async function openInvitationsOf(
  executor: Executor,
  customerId: string,
  limit: number,
): Promise<InvitationRow[]> {
  return selectRows<InvitationRow>(
    executor(INVITATIONS)
      .where({ customer_id: customerId })
      .whereNot({ status: 'accepted' })
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }])
      .limit(limit),
  );
}

export async function countInvitationsOf(executor: Executor, customerId: string): Promise<number> {
  const [count] = await selectRows<{ n: unknown }>(
    executor(INVITATIONS).where({ customer_id: customerId }).count({ n: '*' }),
  );
  return readInt(count?.n);
}

function listedInvitationsOf(executor: Executor, customerId: string) {
  return executor(`${INVITATIONS} as i`)
    .leftJoin('b2b_employee_roles as r', 'r.id', 'i.role_id')
    .where('i.customer_id', customerId)
    .select('i.*', 'r.name as role_name');
}

/** One page of the customer's invitations with their role names, newest first. */
export async function listedInvitationsPage(
  executor: Executor,
  customerId: string,
  limit: number,
  offset: number,
): Promise<ListedInvitationRow[]> {
  return selectRows<ListedInvitationRow>(
    listedInvitationsOf(executor, customerId)
      .orderBy('i.created_at', 'desc')
      .orderBy('i.id')
      .limit(limit)
      .offset(offset),
  );
}

export async function findListedInvitation(
  executor: Executor,
  customerId: string,
  id: string,
): Promise<ListedInvitationRow | undefined> {
  return selectRow<ListedInvitationRow>(listedInvitationsOf(executor, customerId).where('i.id', id).first());
}
