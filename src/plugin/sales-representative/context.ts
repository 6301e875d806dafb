import { readBool } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { actorRefusal } from '../../lib/pipeline.js';
import type { ContextEnricher, HostRuntime, LoginProvider, StoreContext } from '../../contract/index.js';
import { PERMISSION_KEYS } from '../employee/index.js';
import {
  findRepresentative,
  findRepresentativeByEmail,
  firstAssignedCustomer,
  isAssignedCustomer,
  representativeIdentity,
  representativeName,
} from './repository.js';

export const TAG = 'Sales representatives';

/** What a representative may not do for a customer: manage its people and roles, or act as its administrator. */
const WITHHELD = new Set(['employee.manage', 'invitation.manage', 'role.manage', 'admin']);

/** Everything the company admin may, except managing employees, invitations and roles. */
export const REPRESENTATIVE_PERMISSIONS: ReadonlySet<string> = new Set(
  PERMISSION_KEYS.filter((key) => !WITHHELD.has(key)),
);

export function representativeLoginProvider(host: HostRuntime): LoginProvider {
  return async (trx, email, password, salesChannel) => {
    const row = await findRepresentativeByEmail(trx, email);
    if (!row) return null;
    // The address is a representative's: a refusal is 'wrong-password', so the host spends no second password check.
    if (!(await host.auth.verifyPassword(password, row.password_hash)) || !readBool(row.active))
      return 'wrong-password';
    // A representative without customers (yet) logs in acting for none: their customer list says so.
    return representativeIdentity(row, await firstAssignedCustomer(host, trx, row.id, salesChannel.id));
  };
}

/**
 * Per request: a deactivated representative, or one whose customer was unassigned, loses the
 * session at once (401).
 */
export const representativeContextEnricher: ContextEnricher = async (executor, ctx) => {
  if (ctx.actor.type !== 'salesRepresentative') return;
  const attribute = ctx.attributes.salesRepresentativeId;
  const id = typeof attribute === 'string' ? attribute : (ctx.actor.id ?? '');
  const row = await findRepresentative(executor, id);
  if (!row || !readBool(row.active))
    throw Errors.unauthorized(
      'The sales representative account is not active.',
      'SUITE__SALES_REPRESENTATIVE_INACTIVE',
    );
  if (ctx.customer && !(await isAssignedCustomer(executor, row.id, ctx.salesChannel.id, ctx.customer)))
    throw Errors.unauthorized(
      'The customer is no longer assigned to this sales representative.',
      'SUITE__SALES_REPRESENTATIVE_INACTIVE',
    );
  ctx.salesRepresentative = { id: row.id, email: row.email, name: representativeName(row) };
  ctx.permissions = REPRESENTATIVE_PERMISSIONS;
};

export function requireRepresentative(ctx: StoreContext): NonNullable<StoreContext['salesRepresentative']> {
  if (ctx.actor.type !== 'salesRepresentative' || !ctx.salesRepresentative) throw actorRefusal(['salesRepresentative']);
  return ctx.salesRepresentative;
}

export const emailTaken = () =>
  Errors.badRequest('SUITE__EMAIL_TAKEN', 'This e-mail address already has a login.', { pointer: '/email' });
