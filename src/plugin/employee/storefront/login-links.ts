import { inTransaction } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import type { HostRuntime, LoginIdentity, StoreContext, StorefrontPage } from '../../../contract/index.js';
import { LOGIN_LINK_USE_RATE_LIMIT, loginRoutes, RECOVERY_CONFIRM_RATE_LIMIT } from '../login/routes.js';
import { loginIdentityFor, resetPasswordWithLink } from '../login/service.js';
import { SCANNER_REUSE_SECONDS, tokenState, type TokenPurpose } from '../login/tokens.js';
import {
  ACCOUNT_PAGE,
  formErrors,
  isSecret,
  linkProblemPage,
  newPasswordProblem,
  PASSWORD_RULES,
  secretText,
  type LinkKind,
  type LinkProblem,
  type PageResult,
} from './forms.js';
import { attempt, page, routeCaller, routesByName } from '../../storefront-kit.js';

const LOGIN_PATH = '/account/passwordless-login/:hash';
const RECOVERY_PATH = '/account/employee-recovery/:hash';

/** Reads a mailed login or reset link without using it, and whom it is for. */
async function inspect(
  host: HostRuntime,
  ctx: StoreContext,
  purpose: TokenPurpose,
  hash: unknown,
): Promise<LoginIdentity | LinkProblem> {
  if (!isSecret(hash)) return 'unknown';
  const found = await tokenState(
    host.db,
    purpose,
    hash,
    ctx.salesChannel.id,
    purpose === 'passwordless-login' ? SCANNER_REUSE_SECONDS : 0,
  );
  if (found.state === 'unknown') return 'unknown';
  if (purpose === 'password-recovery' && found.actorType !== 'employee') return 'unknown';
  if (found.state !== 'usable') return found.state;
  return (await loginIdentityFor(host, host.db, found.actorType, found.actorId, ctx.salesChannel)) ?? 'inactive';
}

/** After a refused use: why, for the page (a concurrent use may have won the race). */
async function refusal(
  host: HostRuntime,
  ctx: StoreContext,
  purpose: TokenPurpose,
  kind: LinkKind,
  hash: string,
): Promise<PageResult> {
  const now = await inspect(host, ctx, purpose, hash);
  return linkProblemPage(kind, typeof now === 'string' ? now : 'used');
}

export function loginLinkPages(host: HostRuntime): StorefrontPage[] {
  const routes = routesByName(loginRoutes(host));
  const call = routeCaller();
  return [
    {
      // Mail scanners fetch links: the GET only shows a button, the POST uses the link.
      path: LOGIN_PATH,
      auth: 'public',
      async handler({ ctx, params }) {
        const identity = await inspect(host, ctx, 'passwordless-login', params.hash);
        if (typeof identity === 'string') return linkProblemPage('login', identity);
        return {
          template: 'employee-passwordless-login',
          data: {
            title: 'Log in',
            action: `/account/passwordless-login/${params.hash}`,
            name: identity.actor.name,
            email: identity.actor.email,
          },
        };
      },
    },
    {
      path: LOGIN_PATH,
      method: 'POST',
      auth: 'public',
      rateLimit: LOGIN_LINK_USE_RATE_LIMIT,
      async handler({ ctx, params }) {
        const hash = params.hash;
        if (!isSecret(hash)) return linkProblemPage('login', 'unknown');
        const used = await attempt(() => call(ctx, routes.passwordlessLogin, { params: { hash }, body: {} }));
        if ('error' in used) return refusal(host, ctx, 'passwordless-login', 'login', hash);
        return { redirect: ACCOUNT_PAGE, login: { token: used.ok.contextToken } };
      },
    },
  ];
}

export function recoveryPages(host: HostRuntime): StorefrontPage[] {
  const form = (hash: string, identity: LoginIdentity, error: string | null = null, status = 200): PageResult => ({
    template: 'employee-recovery',
    status,
    data: {
      title: 'Choose a new password',
      action: `/account/employee-recovery/${hash}`,
      name: identity.actor.name,
      email: identity.actor.email,
      password: PASSWORD_RULES,
      error,
    },
  });

  return [
    page({
      path: RECOVERY_PATH,
      auth: 'public',
      async handler({ ctx, params }) {
        const identity = await inspect(host, ctx, 'password-recovery', params.hash);
        if (typeof identity === 'string') return linkProblemPage('recovery', identity);
        return form(params.hash, identity);
      },
    }),
    {
      path: RECOVERY_PATH,
      method: 'POST',
      auth: 'public',
      rateLimit: RECOVERY_CONFIRM_RATE_LIMIT,
      async handler({ ctx, params, form: values }) {
        const hash = params.hash;
        const identity = await inspect(host, ctx, 'password-recovery', hash);
        if (typeof identity === 'string') return linkProblemPage('recovery', identity);
        const password = secretText(values, 'password');
        const problem = newPasswordProblem(password, secretText(values, 'passwordRepeat'));
        if (problem) return form(hash!, identity, problem, 400);
        const passwordHash = await host.auth.hashPassword(password);
        const outcome = await formErrors(() =>
          inTransaction(host.db, async (trx) => {
            const employeeId = await resetPasswordWithLink(host, trx, ctx.salesChannel.id, hash!, passwordHash);
            if (!employeeId) return null;
            const loginAs = await loginIdentityFor(host, trx, 'employee', employeeId, ctx.salesChannel);
            // Rolls the reset back: a link that cannot log anyone in changes nothing.
            if (!loginAs) throw Errors.badRequest('SUITE__EMPLOYEE_INACTIVE', 'The employee login is not active.');
            return host.auth.createSession(trx, { ...loginAs, salesChannelId: ctx.salesChannel.id });
          }),
        );
        if ('error' in outcome) return linkProblemPage('recovery', 'inactive');
        if (!outcome.ok) return refusal(host, ctx, 'password-recovery', 'recovery', hash!);
        return { redirect: ACCOUNT_PAGE, login: { token: outcome.ok.token } };
      },
    },
  ];
}
