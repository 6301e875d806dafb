import { hashSecret, newId, newSecret } from '../../../lib/ids.js';
import { isDuplicateKeyError, type Executor, type Trx } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { addSeconds, now as currentTime, nowDb, toDbTime } from '../../../lib/time.js';
import type { CustomerRef, HostRuntime, SalesChannel, StoreContext } from '../../../contract/index.js';
import { storefrontLink } from '../common.js';
import { MAIL } from '../mail.js';
import {
  findEmployeeByEmail,
  findEmployeeRecord,
  insertEmployeeLink,
  insertEmployeeRecord,
  isLinked,
  updateEmployeeRecord,
  type EmployeeRecord,
} from '../repository.js';
import { emailTaken } from '../service.js';
import {
  claimPendingInvitation,
  deleteInvitationOf,
  findInvitationByTokenHash,
  insertInvitation,
  type InvitationRow,
} from './repository.js';

export const INVITATION_TTL_SECONDS = 7 * 24 * 3600;

export interface InvitationInput {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  department?: string | null;
  roleId?: string | null;
  /** The employee record made already by POST /b2b/employee/add; accepting sets its password. */
  employeeId?: string | null;
  storefrontUrl?: string | null;
}

/** Who sends an invitation: the sales channel its link points into, and the name the mail gives as the inviter. */
export interface Inviter {
  salesChannel: SalesChannel;
  inviterName: string;
  customer?: CustomerRef | null;
}

/** Creates (or renews: the old link stops working) the invitation of one e-mail to the caller's customer and mails the activation link. */
export async function createInvitation(
  host: HostRuntime,
  trx: Trx,
  ctx: StoreContext,
  customerId: string,
  input: InvitationInput,
): Promise<string> {
  return issueInvitation(
    host,
    trx,
    { salesChannel: ctx.salesChannel, inviterName: ctx.actor.name, customer: ctx.customer },
    customerId,
    input,
  );
}

/** createInvitation for any inviter (the operator's console resends one with the shop as the inviter). */
export async function issueInvitation(
  host: HostRuntime,
  trx: Trx,
  inviter: Inviter,
  customerId: string,
  input: InvitationInput,
): Promise<string> {
  const secret = newSecret();
  const link = storefrontLink(
    host,
    inviter.salesChannel,
    `/account/employee-invitation/${secret}`,
    input.storefrontUrl,
  );
  const now = currentTime();
  const expiresAt = addSeconds(now, INVITATION_TTL_SECONDS);
  const id = newId();
  await deleteInvitationOf(trx, customerId, input.email);
  await insertInvitation(trx, {
    id,
    customer_id: customerId,
    sales_channel_id: inviter.salesChannel.id,
    email: input.email,
    first_name: input.firstName ?? null,
    last_name: input.lastName ?? null,
    department: input.department ?? null,
    role_id: input.roleId ?? null,
    employee_id: input.employeeId ?? null,
    token_hash: hashSecret(secret),
    status: 'pending',
    expires_at: toDbTime(expiresAt),
    accepted_at: null,
    created_at: toDbTime(now),
  });
  const customer = inviter.customer ?? (await host.customers.get(trx, customerId));
  await host.mail.enqueue(trx, {
    template: MAIL.invitation,
    to: input.email,
    salesChannelId: inviter.salesChannel.id,
    data: {
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      inviterName: inviter.inviterName || (customer ? `${customer.firstName} ${customer.lastName}` : ''),
      companyName: customer?.company || (customer ? `${customer.firstName} ${customer.lastName}` : ''),
      link,
      expiresAt: expiresAt.toISOString(),
    },
  });
  return id;
}

export function invitationStatus(
  row: Pick<InvitationRow, 'status' | 'expires_at'>,
): 'pending' | 'accepted' | 'expired' {
  if (row.status === 'accepted') return 'accepted';
  return row.expires_at <= nowDb() ? 'expired' : 'pending';
}

export const invalidInvitation = () =>
  Errors.badRequest('SUITE__INVITATION_INVALID', 'The invitation is not valid, has expired or was accepted already.');

/** The invitation a mailed secret belongs to, in this sales channel; null when there is none. */
export async function findInvitationBySecret(
  executor: Executor,
  secret: string,
  salesChannelId: string,
): Promise<InvitationRow | null> {
  const row = await findInvitationByTokenHash(executor, hashSecret(secret));
  return row && row.sales_channel_id === salesChannelId ? row : null;
}

/** The login an invitation is for: the employee made by /b2b/employee/add, or the one with the invited e-mail; null for a new person. */
export async function invitedEmployee(executor: Executor, invitation: InvitationRow): Promise<EmployeeRecord | null> {
  if (invitation.employee_id) return findEmployeeRecord(executor, invitation.employee_id);
  return findEmployeeByEmail(executor, invitation.email);
}

export interface AcceptInvitationInput {
  /** Required when the person has no password yet; an existing password is never changed. */
  passwordHash: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

/** Accepts an invitation once: creates the employee (or sets the password of one made without), and links them to the customer. */
export async function acceptInvitation(
  host: HostRuntime,
  trx: Trx,
  salesChannelId: string,
  secret: string,
  input: AcceptInvitationInput,
): Promise<{ employeeId: string; customerId: string }> {
  const invitation = await findInvitationBySecret(trx, secret, salesChannelId);
  if (!invitation || invitationStatus(invitation) !== 'pending') throw invalidInvitation();
  const customer = await host.customers.get(trx, invitation.customer_id);
  if (!customer?.active) throw invalidInvitation();
  const now = nowDb();
  const claimed = await claimPendingInvitation(trx, invitation.id, now);
  if (claimed !== 1) throw invalidInvitation();

  const employee = await invitedEmployee(trx, invitation);
  let employeeId: string;
  const requirePassword = () => {
    if (!input.passwordHash)
      throw Errors.badRequest('SUITE__PASSWORD_REQUIRED', 'Choose a password to activate the account.', {
        pointer: '/password',
      });
    return input.passwordHash;
  };
  if (!employee) {
    if (await host.customers.findByEmail(trx, invitation.email)) throw emailTaken();
    const firstName = input.firstName ?? invitation.first_name;
    const lastName = input.lastName ?? invitation.last_name;
    if (!firstName || !lastName)
      throw Errors.badRequest('SUITE__INVALID_INPUT', 'firstName and lastName are required.', {
        pointer: firstName ? '/lastName' : '/firstName',
      });
    employeeId = newId();
    try {
      await insertEmployeeRecord(trx, {
        id: employeeId,
        email: invitation.email,
        password_hash: requirePassword(),
        first_name: firstName,
        last_name: lastName,
        active: true,
        created_at: now,
      });
    } catch (error) {
      if (isDuplicateKeyError(error)) throw emailTaken();
      throw error;
    }
  } else {
    employeeId = employee.id;
    if (!employee.password_hash) {
      const names: Record<string, string> = {};
      if (input.firstName) names.first_name = input.firstName;
      if (input.lastName) names.last_name = input.lastName;
      // An employee added by e-mail and role only gives the names here.
      const firstName = names.first_name ?? employee.first_name;
      const lastName = names.last_name ?? employee.last_name;
      if (!firstName || !lastName)
        throw Errors.badRequest('SUITE__INVALID_INPUT', 'firstName and lastName are required.', {
          pointer: firstName ? '/lastName' : '/firstName',
        });
      await updateEmployeeRecord(trx, employeeId, { ...names, password_hash: requirePassword(), updated_at: now });
    }
  }
  if (!(await isLinked(trx, employeeId, customer.id)))
    await insertEmployeeLink(trx, {
      id: newId(),
      employee_id: employeeId,
      customer_id: customer.id,
      role_id: invitation.role_id ?? null,
      department: invitation.department ?? null,
      active: true,
      created_at: now,
    });
  return { employeeId, customerId: customer.id };
}
