import { AppError } from '../../lib/errors.js';
import { isId } from '../../lib/ids.js';
import {
  consolePage,
  formErrorsOf,
  noErrors,
  notFoundPage,
  text,
  type ConsoleContext,
  type ConsoleKit,
  type FormErrors,
} from './kit.js';
import { routeRefs } from '../../lib/routes.js';
import type { PaymentOnAccountAdminRoute } from '../payment-on-account/index.js';

const routes = routeRefs<PaymentOnAccountAdminRoute>();

const PATH = '/companies';

interface Terms {
  daysNet: number;
  discountPercent: number;
  discountDays: number;
}
type TermsForm = Record<keyof Terms, string>;
/** Which form an error or typed values belong to: the credit line, the company's terms, or a unit's. */
type FormName = 'creditLine' | 'terms' | `unit:${string}`;

const noTerms: TermsForm = { daysNet: '', discountPercent: '', discountDays: '' };
const termsForm = (terms: Terms | null): TermsForm =>
  terms
    ? {
        daysNet: String(terms.daysNet),
        discountPercent: String(terms.discountPercent),
        discountDays: String(terms.discountDays),
      }
    : noTerms;
/** A number typed into the form; '' counts as 0 for the discount fields, anything unreadable is NaN, which the API refuses (400). */
const numberOf = (value: string, emptyAs?: number): number =>
  value === '' && emptyAs !== undefined ? emptyAs : /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;

/**
 * A company's payment on account for the operator: its credit line (limit, currency, what open orders
 * owe), its payment terms, and the terms of its organisation units — through the payment-on-account
 * add-on's Admin API, so its checks answer here as over HTTP.
 */
export function paymentOnAccountPages(kit: ConsoleKit) {
  /** A read that answers 404 while nothing is set. */
  async function orNull<T>(read: Promise<{ data: { attributes: T } }>): Promise<T | null> {
    try {
      return (await read).data.attributes;
    } catch (error) {
      if (error instanceof AppError && error.status === 404) return null;
      throw error;
    }
  }

  async function page(
    ctx: ConsoleContext,
    customerId: string,
    failed?: { form: FormName; values: Record<string, string>; errors: FormErrors },
  ) {
    const customer = await kit.host.customers.get(kit.host.db, customerId);
    if (!customer) return notFoundPage('company');
    const params = { customerId };
    const [line, terms, units] = await Promise.all([
      orNull(kit.call(ctx, routes.readCreditLine, { params })),
      orNull(kit.call(ctx, routes.readPaymentTerms, { params })),
      kit.call(ctx, routes.listUnitPaymentTerms, { params }),
    ]);
    const valuesFor = <V>(form: FormName, fallback: V) =>
      failed?.form === form ? (failed.values as unknown as V) : fallback;
    const errorsFor = (form: FormName) => (failed?.form === form ? failed.errors : noErrors());
    return {
      template: 'payment-on-account',
      status: failed ? 400 : 200,
      data: {
        title: `Payment on account: ${customer.company || `${customer.firstName} ${customer.lastName}`}`,
        companyHref: kit.href(`${PATH}/${customerId}`),
        action: kit.href(`${PATH}/${customerId}/payment-on-account`),
        line,
        lineValues: valuesFor('creditLine', {
          limit: line ? String(line.limit) : '',
          currencyIso: line?.currencyIso ?? '',
        }),
        lineErrors: errorsFor('creditLine'),
        termsValues: valuesFor('terms', termsForm(terms)),
        termsErrors: errorsFor('terms'),
        units: units.data.map((unit) => ({
          id: unit.id,
          name: unit.attributes.path.join(' › '),
          indent: (unit.attributes.path.length - 1) * 1.5,
          hasOwn: unit.attributes.paymentTerms !== null,
          values: valuesFor(`unit:${unit.id}`, termsForm(unit.attributes.paymentTerms)),
          errors: errorsFor(`unit:${unit.id}`),
        })),
      },
    };
  }

  const termsBody = (values: TermsForm) => ({
    daysNet: numberOf(values.daysNet),
    discountPercent: numberOf(values.discountPercent, 0),
    discountDays: numberOf(values.discountDays, 0),
  });
  const termsValuesOf = (form: Record<string, unknown>): TermsForm => ({
    daysNet: text(form, 'daysNet'),
    discountPercent: text(form, 'discountPercent'),
    discountDays: text(form, 'discountDays'),
  });

  /** A POST of one of the page's forms: the API call, then back to the page with a notice, or the page with the refusal. */
  const post = (
    path: string,
    form: (params: Record<string, string>) => FormName,
    change: (
      ctx: ConsoleContext,
      ids: { customerId: string; unitId: string },
      values: Record<string, string>,
    ) => Promise<unknown>,
    valuesOf: (form: Record<string, unknown>) => Record<string, string>,
    notice: string,
  ) =>
    consolePage({
      path: `${PATH}/:id/payment-on-account${path}`,
      method: 'POST',
      async handler({ ctx, params, form: posted }) {
        if (!isId(params.id) || (params.unitId !== undefined && !isId(params.unitId))) return notFoundPage('company');
        const values = valuesOf(posted);
        try {
          // unitId: '' on the company's own forms, whose routes take none.
          await change(ctx, { customerId: params.id, unitId: params.unitId ?? '' }, values);
        } catch (error) {
          return page(ctx, params.id, { form: form(params), values, errors: formErrorsOf(error) });
        }
        return { redirect: kit.href(`${PATH}/${params.id}/payment-on-account`), notice };
      },
    });

  return [
    consolePage({
      path: `${PATH}/:id/payment-on-account`,
      handler: async ({ ctx, params }) => (isId(params.id) ? page(ctx, params.id) : notFoundPage('company')),
    }),
    post(
      '/credit-line',
      () => 'creditLine',
      (ctx, { customerId }, values) =>
        kit.call(ctx, routes.setCreditLine, {
          params: { customerId },
          body: { limit: numberOf(values.limit ?? ''), currencyIso: (values.currencyIso ?? '').toUpperCase() },
        }),
      (form) => ({ limit: text(form, 'limit'), currencyIso: text(form, 'currencyIso') }),
      'The credit line is saved.',
    ),
    post(
      '/terms',
      () => 'terms',
      (ctx, { customerId }, values) =>
        kit.call(ctx, routes.setPaymentTerms, {
          params: { customerId },
          body: termsBody(values as TermsForm),
        }),
      termsValuesOf,
      "The company's payment terms are saved; orders placed from now on carry them.",
    ),
    post(
      '/units/:unitId/terms',
      (params) => `unit:${params.unitId}`,
      (ctx, ids, values) =>
        kit.call(ctx, routes.setUnitPaymentTerms, {
          params: ids,
          body: termsBody(values as TermsForm),
        }),
      termsValuesOf,
      "The unit's payment terms are saved.",
    ),
    post(
      '/units/:unitId/terms/remove',
      (params) => `unit:${params.unitId}`,
      (ctx, ids) => kit.call(ctx, routes.deleteUnitPaymentTerms, { params: ids }),
      () => ({}),
      "The unit's own terms are removed: its buyers get the terms of the unit above, else the company's.",
    ),
  ];
}
