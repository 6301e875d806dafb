import { AppError } from '../../../lib/errors.js';
import { sentenceOfRule } from '../../../lib/validation-sentences.js';
import type { HostRuntime, StoreContext, StorefrontPage } from '../../../contract/index.js';
import { accountRequestStoreRoutes } from '../account-request/routes.js';
import { loginRoutes } from '../login/routes.js';
import { LOGIN_LINK_TTL_SECONDS, RECOVERY_TTL_SECONDS } from '../login/tokens.js';
import { noticeOf, page, routeCaller, routesByName, text, type Form, type PageResult } from '../../storefront-kit.js';

/** Where a company asks for a business account (the console's empty request list points here). */
export const ACCOUNT_REQUEST_PAGE = '/account/request';
/** Where a login without a password (an accepted company admin) asks for a login link. */
export const LOGIN_LINK_PAGE = '/account/login-link';
/** Where an employee who forgot their password asks for a reset link. */
export const PASSWORD_FORGOTTEN_PAGE = '/account/password-forgotten';

const REQUEST_FIELDS = [
  'company',
  'vatId',
  'firstName',
  'lastName',
  'email',
  'phone',
  'street',
  'zipcode',
  'city',
  'countryCode',
  'message',
] as const;
const ADDRESS_FIELDS = ['street', 'zipcode', 'city', 'countryCode'] as const;

interface FormProblems {
  fields: Record<string, string>;
  general: string[];
}

/**
 * A refusal of the route as the form shows it: a schema refusal as a sentence next to its field
 * (`/address/countryCode` → `countryCode`), a 429 and the others above the form. 403, 404 and bugs
 * go on to the error page.
 */
function problemsOf(error: unknown): FormProblems {
  if (!(error instanceof AppError) || ![400, 409, 429].includes(error.status)) throw error;
  if (error.status === 429) return { fields: {}, general: ['Too many requests from here. Please wait and try again.'] };
  const problems: FormProblems = { fields: {}, general: [] };
  for (const item of error.toBody().errors) {
    const field = item.source?.pointer?.split('/').filter(Boolean).at(-1);
    const message =
      (item.code === 'SUITE__INVALID_INPUT' ? sentenceOfRule(item.meta) : null) ?? item.detail ?? item.title;
    if (field && !(field in problems.fields)) problems.fields[field] = message;
    else if (!field) problems.general.push(message);
  }
  return problems;
}

const noProblems = (): FormProblems => ({ fields: {}, general: [] });

/** The request body of the form: empty optional fields left out, the address only when one of its fields is filled. */
function requestBody(values: Record<string, string>) {
  const optional = (name: string) => (values[name] ? { [name]: values[name] } : {});
  const address: { [K in (typeof ADDRESS_FIELDS)[number]]?: string } = Object.fromEntries(
    ADDRESS_FIELDS.filter((name) => values[name]).map((name) => [name, values[name]]),
  );
  // Every field of the form is there (as typed, '' when left empty): the route refuses a missing one.
  return {
    company: values.company ?? '',
    firstName: values.firstName ?? '',
    lastName: values.lastName ?? '',
    email: values.email ?? '',
    ...optional('vatId'),
    ...optional('phone'),
    ...optional('message'),
    ...(Object.keys(address).length ? { address } : {}),
  };
}

/** The storefront's form for a business account: company, VAT id, contact, address, consent (decision 0052). */
export function accountRequestPages(host: HostRuntime): StorefrontPage[] {
  const routes = routesByName(accountRequestStoreRoutes(host));
  const call = routeCaller();
  const form = (values: Record<string, string>, problems = noProblems(), status = 200): PageResult => ({
    template: 'account-request',
    status,
    data: { title: 'Ask for a business account', values, problems },
  });
  return [
    page({
      path: ACCOUNT_REQUEST_PAGE,
      auth: 'public',
      handler: ({ query }) => {
        const sent = noticeOf(query, {
          sent: 'Thank you: your request has arrived. We have sent you a confirmation by e-mail and will write again when it is decided.',
        });
        return Promise.resolve(
          sent
            ? {
                template: 'message',
                data: { title: 'Request sent', message: sent, link: { href: '/', label: 'Back to the shop' } },
              }
            : form({}),
        );
      },
    }),
    page({
      path: ACCOUNT_REQUEST_PAGE,
      method: 'POST',
      auth: 'public',
      async handler({ ctx, form: posted }) {
        const values = Object.fromEntries(REQUEST_FIELDS.map((name) => [name, text(posted, name, 5000)]));
        values.countryCode = values.countryCode!.toUpperCase();
        values.consent = posted.consent === 'on' ? 'on' : '';
        if (!values.consent)
          return form(
            values,
            { fields: { consent: 'Please agree so that we may keep your details for the request.' }, general: [] },
            400,
          );
        try {
          await call(ctx, routes.requestBusinessAccount, { body: requestBody(values) });
        } catch (error) {
          return form(values, problemsOf(error), 400);
        }
        return { redirect: `${ACCOUNT_REQUEST_PAGE}?done=sent` };
      },
    }),
  ];
}

/** An e-mail form that runs one route and answers the same whether or not the address is known. */
function mailLinkPages(
  host: HostRuntime,
  options: {
    path: string;
    template: string;
    title: string;
    sent: string;
    send(ctx: StoreContext, email: string): Promise<unknown>;
    switchedOff?: () => Promise<string | null>;
  },
): StorefrontPage[] {
  const form = async (email: string, problems = noProblems(), status = 200): Promise<PageResult> => ({
    template: options.template,
    status,
    data: { title: options.title, email, problems, switchedOff: (await options.switchedOff?.()) ?? null },
  });
  return [
    page({
      path: options.path,
      auth: 'public',
      handler: async ({ query }) => {
        const sent = noticeOf(query, { sent: options.sent });
        if (sent)
          return {
            template: 'message',
            data: { title: options.title, message: sent, link: { href: '/account/login', label: 'Back to the login' } },
          };
        return form('');
      },
    }),
    page({
      path: options.path,
      method: 'POST',
      auth: 'public',
      async handler({ ctx, form: posted }: { ctx: StoreContext; form: Form }) {
        const email = text(posted, 'email', 255);
        if (!email) return form(email, { fields: { email: 'Please enter your e-mail address.' }, general: [] }, 400);
        try {
          await options.send(ctx, email);
        } catch (error) {
          return form(email, problemsOf(error), 400);
        }
        return { redirect: `${options.path}?done=sent` };
      },
    }),
  ];
}

/**
 * The login page's help (decision 0052): a login link by e-mail (an accepted company admin has no
 * password) and a password reset link for employees. Both run the add-on's Store API routes, which
 * answer the same for unknown addresses.
 */
export function loginHelpPages(host: HostRuntime): StorefrontPage[] {
  const routes = routesByName(loginRoutes(host));
  const call = routeCaller();
  return [
    ...mailLinkPages(host, {
      path: LOGIN_LINK_PAGE,
      template: 'login-link-request',
      title: 'Log in with a link',
      sent: `If this address belongs to a login of this shop, a login link is on its way. It works for ${LOGIN_LINK_TTL_SECONDS / 60} minutes.`,
      send: (ctx, email) => call(ctx, routes.requestPasswordlessLogin, { body: { email } }),
      switchedOff: async () =>
        (await host.config.get<boolean>('passwordlessLoginEnabled'))
          ? null
          : 'Login links are switched off in this shop. Log in with your password, or ask the shop for help.',
    }),
    ...mailLinkPages(host, {
      path: PASSWORD_FORGOTTEN_PAGE,
      template: 'password-forgotten',
      title: 'Forgot your password?',
      sent: `If this address belongs to an employee login, a link to choose a new password is on its way. It works for ${RECOVERY_TTL_SECONDS / 3600} hours.`,
      send: (ctx, email) =>
        call(ctx, routes.requestEmployeePasswordRecovery, {
          body: { email, storefrontUrl: ctx.salesChannel.domains[0] ?? host.storefront.url(ctx.salesChannel, '/') },
        }),
    }),
  ];
}
