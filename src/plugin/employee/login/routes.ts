import { inTransaction, readBool } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import type { RateLimitRule } from '../../../lib/routes.js';
import { objectSchema, successResponse } from '../../../lib/schemas.js';
import { nowDb } from '../../../lib/time.js';
import { defineStoreRoute, type HostRuntime, type LoginIdentity } from '../../../contract/index.js';
import {
  answerNoSoonerThan,
  emailSchema,
  fullName,
  hashParam,
  normaliseEmail,
  passwordSchema,
  storefrontLink,
  storefrontUrlSchema,
  TAG,
} from '../common.js';
import { MAIL } from '../mail.js';
import {
  defaultLink,
  employeeIdentity,
  findEmployeeByEmail,
  findEmployeeRecord,
  updateEmployeeRecord,
} from '../repository.js';
import { deleteActorTokens } from './repository.js';
import { loginIdentityFor, loginWithLink, resetPasswordWithLink } from './service.js';
import { issueToken, LOGIN_LINK_TTL_SECONDS, RECOVERY_TTL_SECONDS, SCANNER_REUSE_SECONDS } from './tokens.js';
import { declaredCustomer, declaredEmployee } from '../../declared.js';

const CONTEXT_TOKEN_HEADER = 'suite-context-token';
/** Known and unknown e-mails get their answer after the same floor, so timing tells nothing. */
const ANSWER_FLOOR_MS = 300;
const PER_EMAIL = { limit: 5, windowSeconds: 15 * 60 };
const PER_IP = { limit: 30, windowSeconds: 15 * 60 };

/** Shared with the storefront pages behind the mailed links, so both doors count against one limit. */
export const LOGIN_LINK_USE_RATE_LIMIT: RateLimitRule = {
  name: 'passwordless-login-use',
  limit: PER_IP.limit,
  windowSeconds: PER_IP.windowSeconds,
  by: ['ip'],
};
export const RECOVERY_CONFIRM_RATE_LIMIT: RateLimitRule = {
  name: 'password-recovery-confirm',
  limit: PER_IP.limit,
  windowSeconds: PER_IP.windowSeconds,
  by: ['ip'],
};

const contextTokenResponse = objectSchema({ contextToken: { type: 'string' } }, ['contextToken']);

export function loginRoutes(host: HostRuntime) {
  return [...passwordlessLoginRoutes(host), ...employeePasswordRoutes(host)];
}

/** Passwordless login: the link by mail, and the login by its hash. */
function passwordlessLoginRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/passwordless-login',
      operationId: 'requestPasswordlessLogin',
      summary:
        'Mails a login link (valid 30 minutes) to an employee or customer login; the answer is the same for unknown e-mails.',
      tags: [TAG],
      auth: 'public',
      permission: null,
      rateLimit: [
        { name: 'passwordless-login-ip', limit: PER_IP.limit, windowSeconds: PER_IP.windowSeconds, by: ['ip'] },
        { name: 'passwordless-login-email', ...PER_EMAIL, by: ['body.email'] },
      ],
      schemas: {
        body: objectSchema({ email: emailSchema, storefrontUrl: storefrontUrlSchema }, ['email']),
        responses: { 200: successResponse },
      },
      async handler({ ctx, body }) {
        const startedAt = Date.now();
        const email = normaliseEmail(body.email);
        const linkFor = (secret: string) =>
          storefrontLink(host, ctx.salesChannel, `/account/passwordless-login/${secret}`, body.storefrontUrl);
        linkFor('check');
        if (!(await host.config.get<boolean>('passwordlessLoginEnabled')))
          throw Errors.badRequest(
            'SUITE__PASSWORDLESS_LOGIN_DISABLED',
            'Password-less login is switched off in this shop.',
          );
        await inTransaction(host.db, async (trx) => {
          const employee = await findEmployeeByEmail(trx, email);
          let identity: LoginIdentity | null = null;
          if (employee) identity = await loginIdentityFor(host, trx, 'employee', employee.id, ctx.salesChannel);
          else {
            const customer = await host.customers.findByEmail(trx, email);
            if (customer) identity = await loginIdentityFor(host, trx, 'customer', customer.id, ctx.salesChannel);
          }
          if (!identity?.actor.id) return;
          const { secret } = await issueToken(trx, {
            purpose: 'passwordless-login',
            actorType: identity.actor.type,
            actorId: identity.actor.id,
            salesChannelId: ctx.salesChannel.id,
            ttlSeconds: LOGIN_LINK_TTL_SECONDS,
          });
          await host.mail.enqueue(trx, {
            template: MAIL.passwordlessLogin,
            to: email,
            salesChannelId: ctx.salesChannel.id,
            data: { name: identity.actor.name, link: linkFor(secret), validMinutes: LOGIN_LINK_TTL_SECONDS / 60 },
          });
        });
        await answerNoSoonerThan(startedAt, ANSWER_FLOOR_MS);
        return { success: true };
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/passwordless-login/{hash}',
      operationId: 'passwordlessLogin',
      summary: 'Logs in with the secret of a mailed login link and returns a context token.',
      description: `The link works for ${LOGIN_LINK_TTL_SECONDS / 60} minutes; after its first use it works only ${SCANNER_REUSE_SECONDS} seconds longer (mail scanners open links first).`,
      tags: [TAG],
      auth: 'public',
      permission: null,
      rateLimit: LOGIN_LINK_USE_RATE_LIMIT,
      schemas: {
        params: objectSchema({ hash: hashParam }, ['hash']),
        body: objectSchema({}),
        responses: { 200: contextTokenResponse },
      },
      async handler({ ctx, params, headers }) {
        const session = await loginWithLink(host, ctx.salesChannel, params.hash);
        if (!session)
          throw Errors.badRequest(
            'SUITE__LOGIN_LINK_INVALID',
            'The login link is not valid, has expired or was used already.',
          );
        headers.setHeader(CONTEXT_TOKEN_HEADER, session.token);
        return { contextToken: session.token };
      },
    }),
  ];
}

/** An employee's password: recovery by mail, its confirmation, and the change. */
function employeePasswordRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/employee/recovery-password',
      operationId: 'requestEmployeePasswordRecovery',
      summary:
        'Step 1 of the password reset: mails a reset link on `storefrontUrl` (one of the sales channel’s domains; without it the channel’s first) if the e-mail is an employee’s; the answer is the same otherwise.',
      tags: [TAG],
      auth: 'public',
      permission: null,
      rateLimit: [
        { name: 'password-recovery-ip', limit: PER_IP.limit, windowSeconds: PER_IP.windowSeconds, by: ['ip'] },
        { name: 'password-recovery-email', ...PER_EMAIL, by: ['body.email'] },
      ],
      schemas: {
        // The specification requires storefrontUrl; a client that leaves it out gets the link on the channel's
        // first domain instead of a 400 (a Vendure storefront configured with storefrontUrls sends none).
        body: objectSchema({ email: emailSchema, storefrontUrl: storefrontUrlSchema }, ['email']),
        responses: { 200: successResponse },
      },
      async handler({ ctx, body }) {
        const startedAt = Date.now();
        const email = normaliseEmail(body.email);
        const linkFor = (secret: string) =>
          storefrontLink(host, ctx.salesChannel, `/account/employee-recovery/${secret}`, body.storefrontUrl);
        linkFor('check');
        await inTransaction(host.db, async (trx) => {
          const employee = await findEmployeeByEmail(trx, email);
          if (
            !employee ||
            !readBool(employee.active) ||
            !(await defaultLink(host, trx, employee.id, ctx.salesChannel.id))
          )
            return;
          const { secret } = await issueToken(trx, {
            purpose: 'password-recovery',
            actorType: 'employee',
            actorId: employee.id,
            salesChannelId: ctx.salesChannel.id,
            ttlSeconds: RECOVERY_TTL_SECONDS,
            replacePrevious: true,
          });
          await host.mail.enqueue(trx, {
            template: MAIL.passwordRecovery,
            to: email,
            salesChannelId: ctx.salesChannel.id,
            data: { name: fullName(employee), link: linkFor(secret), validMinutes: RECOVERY_TTL_SECONDS / 60 },
          });
        });
        await answerNoSoonerThan(startedAt, ANSWER_FLOOR_MS);
        return { success: true };
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/employee/recovery-password/confirm',
      operationId: 'confirmEmployeePasswordRecovery',
      summary:
        'Step 2 of the password reset: sets the new password with the mailed secret (once) and ends every session of the employee.',
      tags: [TAG],
      auth: 'public',
      permission: null,
      rateLimit: RECOVERY_CONFIRM_RATE_LIMIT,
      schemas: {
        body: objectSchema({ hash: hashParam, newPassword: passwordSchema }, ['hash', 'newPassword']),
        responses: { 200: successResponse },
      },
      async handler({ ctx, body }) {
        const passwordHash = await host.auth.hashPassword(body.newPassword);
        const done = await inTransaction(host.db, (trx) =>
          resetPasswordWithLink(host, trx, ctx.salesChannel.id, body.hash, passwordHash),
        );
        if (!done)
          throw Errors.badRequest(
            'SUITE__RECOVERY_LINK_INVALID',
            'The reset link is not valid, has expired or was used already.',
            { pointer: '/hash' },
          );
        return { success: true };
      },
    }),
    defineStoreRoute({
      method: 'POST',
      path: '/b2b/employee/change-password',
      operationId: 'changeEmployeePassword',
      summary:
        'An employee changes their own password; every other session ends, and a fresh context token is returned.',
      tags: [TAG],
      auth: 'login',
      actors: ['employee'],
      permission: null,
      rateLimit: { name: 'employee-change-password', limit: 10, windowSeconds: 15 * 60, by: ['ip'] },
      schemas: {
        body: objectSchema(
          { currentPassword: { type: 'string', minLength: 1, maxLength: 1024 }, newPassword: passwordSchema },
          ['currentPassword', 'newPassword'],
        ),
        responses: { 200: contextTokenResponse },
      },
      async handler({ ctx, body, headers }) {
        const employeeId = declaredEmployee(ctx).id;
        // An employee always acts for one of its customers.
        const customerId = declaredCustomer(ctx).id;
        const row = await findEmployeeRecord(host.db, employeeId);
        if (!row?.password_hash || !(await host.auth.verifyPassword(body.currentPassword, row.password_hash)))
          throw Errors.badRequest('SUITE__WRONG_PASSWORD', 'The current password is wrong.', {
            pointer: '/currentPassword',
          });
        const passwordHash = await host.auth.hashPassword(body.newPassword);
        const session = await inTransaction(host.db, async (trx) => {
          await updateEmployeeRecord(trx, employeeId, { password_hash: passwordHash, updated_at: nowDb() });
          await host.auth.revokeActorSessions(trx, 'employee', employeeId);
          await deleteActorTokens(trx, 'employee', employeeId);
          return host.auth.createSession(trx, {
            ...employeeIdentity(row, customerId),
            salesChannelId: ctx.salesChannel.id,
          });
        });
        headers.setHeader(CONTEXT_TOKEN_HEADER, session.token);
        return { contextToken: session.token };
      },
    }),
  ];
}
