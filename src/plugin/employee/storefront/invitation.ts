import { inTransaction, readBool } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import type { HostRuntime, StoreContext, StorefrontPage } from '../../../contract/index.js';
import { fullName } from '../common.js';
import { ACCEPT_INVITATION_RATE_LIMIT } from '../invitation/routes.js';
import { acceptInvitation, findInvitationBySecret, invitationStatus, invitedEmployee } from '../invitation/service.js';
import type { InvitationRow } from '../invitation/repository.js';
import { employeeIdentity, findEmployeeRow, type EmployeeRecord } from '../repository.js';
import {
  ACCOUNT_PAGE,
  formErrors,
  isSecret,
  linkProblemPage,
  nameProblem,
  newPasswordProblem,
  PASSWORD_RULES,
  secretText,
  text,
  type Form,
  type LinkProblem,
  type PageResult,
} from './forms.js';
import { page } from '../../storefront-kit.js';

const PATH = '/account/employee-invitation/:hash';

interface OpenInvitation {
  invitation: InvitationRow;
  companyName: string;
  /** The invited person's login when it has a password: they confirm with it instead of choosing one. */
  existingLogin: (EmployeeRecord & { password_hash: string }) | null;
  names: { firstName: string; lastName: string };
}

/** Messages for the refusals of acceptInvitation a visitor can fix or should understand. */
const ACCEPT_MESSAGES: Record<string, string> = {
  SUITE__EMAIL_TAKEN:
    'This e-mail address is the login of a customer account in this shop, so it cannot become an employee login as well. Please ask the company to invite another address.',
  SUITE__EMPLOYEE_INACTIVE: 'Your login is deactivated. Please contact the company that invited you.',
};

export function invitationPages(host: HostRuntime): StorefrontPage[] {
  async function open(ctx: StoreContext, hash: unknown): Promise<OpenInvitation | LinkProblem> {
    if (!isSecret(hash)) return 'unknown';
    const invitation = await findInvitationBySecret(host.db, hash, ctx.salesChannel.id);
    if (!invitation) return 'unknown';
    const status = invitationStatus(invitation);
    if (status !== 'pending') return status === 'accepted' ? 'used' : 'expired';
    const customer = await host.customers.get(host.db, invitation.customer_id);
    if (!customer?.active) return 'inactive';
    const employee = await invitedEmployee(host.db, invitation);
    return {
      invitation,
      companyName: customer.company || `${customer.firstName} ${customer.lastName}`,
      existingLogin: employee?.password_hash ? { ...employee, password_hash: employee.password_hash } : null,
      names: {
        firstName: employee?.first_name ?? invitation.first_name ?? '',
        lastName: employee?.last_name ?? invitation.last_name ?? '',
      },
    };
  }

  function form(
    hash: string,
    open: OpenInvitation,
    values: { firstName: string; lastName: string },
    error: string | null = null,
    status = 200,
  ): PageResult {
    return {
      template: 'employee-invitation',
      status,
      data: {
        title: `Join ${open.companyName}`,
        action: `/account/employee-invitation/${hash}`,
        email: open.invitation.email,
        companyName: open.companyName,
        existingLogin: open.existingLogin !== null,
        existingName: open.existingLogin ? fullName(open.existingLogin) : null,
        values,
        password: PASSWORD_RULES,
        error,
      },
    };
  }

  async function accept(ctx: StoreContext, hash: string, current: OpenInvitation, values: Form): Promise<PageResult> {
    const names = { firstName: text(values, 'firstName'), lastName: text(values, 'lastName') };
    let passwordHash: string | null = null;
    if (current.existingLogin) {
      const password = secretText(values, 'currentPassword');
      const valid =
        password.length > 0 &&
        password.length <= PASSWORD_RULES.maxLength &&
        (await host.auth.verifyPassword(password, current.existingLogin.password_hash));
      if (!valid) return form(hash, current, names, 'The password is wrong. Enter the password you log in with.', 400);
    } else {
      const problem =
        nameProblem('first name', names.firstName) ??
        nameProblem('last name', names.lastName) ??
        newPasswordProblem(secretText(values, 'password'), secretText(values, 'passwordRepeat'));
      if (problem) return form(hash, current, names, problem, 400);
      passwordHash = await host.auth.hashPassword(secretText(values, 'password'));
    }
    const input = current.existingLogin ? { passwordHash: null } : { passwordHash, ...names };
    const result = await formErrors(() =>
      inTransaction(host.db, async (trx) => {
        const accepted = await acceptInvitation(host, trx, ctx.salesChannel.id, hash, input);
        const row = await findEmployeeRow(trx, accepted.customerId, accepted.employeeId);
        // Throwing rolls the acceptance back: a link that cannot log anyone in changes nothing.
        if (!row || !readBool(row.employee_active) || !readBool(row.link_active))
          throw Errors.badRequest('SUITE__EMPLOYEE_INACTIVE', 'The employee login is not active.');
        return host.auth.createSession(trx, {
          ...employeeIdentity(
            { id: row.id, email: row.email, first_name: row.first_name, last_name: row.last_name },
            accepted.customerId,
          ),
          salesChannelId: ctx.salesChannel.id,
        });
      }),
    );
    if ('ok' in result) return { redirect: ACCOUNT_PAGE, login: { token: result.ok.token } };
    if (result.error.code === 'SUITE__INVITATION_INVALID') {
      const now = await open(ctx, hash);
      return linkProblemPage('invitation', typeof now === 'string' ? now : 'used');
    }
    return form(hash, current, names, ACCEPT_MESSAGES[result.error.code] ?? result.error.message, 400);
  }

  return [
    page({
      path: PATH,
      auth: 'public',
      async handler({ ctx, params }) {
        const current = await open(ctx, params.hash);
        if (typeof current === 'string') return linkProblemPage('invitation', current);
        return form(params.hash, current, current.names);
      },
    }),
    page({
      path: PATH,
      method: 'POST',
      auth: 'public',
      rateLimit: ACCEPT_INVITATION_RATE_LIMIT,
      async handler({ ctx, params, form: values }) {
        const current = await open(ctx, params.hash);
        if (typeof current === 'string') return linkProblemPage('invitation', current);
        return accept(ctx, params.hash, current, values);
      },
    }),
  ];
}
