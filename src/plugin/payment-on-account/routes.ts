import { defineAdminRoute, defineStoreRoute, type HostRuntime } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { exactMinor } from '../../lib/money.js';
import { getCreditLine, getPaymentTerms, saveCreditLine, savePaymentTerms } from './repository.js';
import {
  accountResponse,
  ADMIN_TAG,
  creditLineBody,
  creditLineResponse,
  customerParams,
  TAG,
  termsResponse,
  termsSchema,
} from './schemas.js';
import { accountView, creditLineView, termsView } from './service.js';

/** The buyer's view at checkout: the credit line's room and the company's payment terms. */
export function paymentOnAccountStoreRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'GET',
      path: '/b2b/payment-on-account',
      operationId: 'readPaymentOnAccount',
      summary:
        "The company's credit line (limit, balance, remaining, currency) and payment terms, as checkout shows them; null when none is set.",
      description:
        'An order paid by the `on-account` method (`paymentMethod` of /checkout/order) over the remaining credit line is refused with 400 SUITE__CREDIT_LINE_EXCEEDED.',
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: 'orders.create',
      schemas: { responses: { 200: accountResponse } },
      handler: ({ ctx }) => accountView(host, ctx, ctx.customer!.id),
    }),
  ];
}

/** The currency precision of a company's sales channel; an unknown customer is a 404. */
export async function customerPrecision(host: HostRuntime, customerId: string): Promise<number> {
  const customer = await host.customers.get(host.db, customerId);
  if (!customer) throw Errors.notFound('Customer', customerId);
  return (await host.customers.salesChannel(host.db, customer.salesChannelId))?.currencyPrecision ?? 2;
}

/** Operators set each company's credit line and payment terms (a unit's: unit-terms-routes.ts). */
export function paymentOnAccountAdminRoutes(host: HostRuntime) {
  const creditLineAnswer = async (customerId: string, precision: number) => {
    const line = await getCreditLine(host.db, customerId);
    if (!line) throw Errors.notFound('Credit line', customerId);
    return { data: { id: customerId, type: 'b2b_credit_line', attributes: creditLineView(line, precision) } };
  };
  return [
    defineAdminRoute({
      method: 'GET',
      path: '/b2b/credit-line/{customerId}',
      operationId: 'readCreditLine',
      summary: "A company's credit line: limit, currency, balance (what its open orders on account owe) and remaining.",
      tags: [ADMIN_TAG],
      auth: 'admin',
      permission: null,
      schemas: { params: customerParams, responses: { 200: creditLineResponse } },
      handler: async ({ params }) =>
        creditLineAnswer(params.customerId, await customerPrecision(host, params.customerId)),
    }),
    defineAdminRoute({
      method: 'PUT',
      path: '/b2b/credit-line/{customerId}',
      operationId: 'setCreditLine',
      summary:
        "Sets a company's credit limit and its currency; the balance stays. A limit below the balance refuses further orders on account.",
      tags: [ADMIN_TAG],
      auth: 'admin',
      permission: null,
      schemas: {
        params: customerParams,
        body: creditLineBody,
        bodyName: 'CreditLine',
        responses: { 200: creditLineResponse },
      },
      async handler({ params, body }) {
        const precision = await customerPrecision(host, params.customerId);
        await saveCreditLine(host.db, params.customerId, exactMinor(body.limit, precision, '/limit'), body.currencyIso);
        return creditLineAnswer(params.customerId, precision);
      },
    }),
    defineAdminRoute({
      method: 'GET',
      path: '/b2b/payment-terms/{customerId}',
      operationId: 'readPaymentTerms',
      summary: "A company's payment terms: days net, and a discount percent when paid within a number of days.",
      tags: [ADMIN_TAG],
      auth: 'admin',
      permission: null,
      schemas: { params: customerParams, responses: { 200: termsResponse } },
      async handler({ params }) {
        await customerPrecision(host, params.customerId);
        const terms = await getPaymentTerms(host.db, params.customerId);
        if (!terms) throw Errors.notFound('Payment terms', params.customerId);
        return { data: { id: params.customerId, type: 'b2b_payment_terms', attributes: termsView(terms) } };
      },
    }),
    defineAdminRoute({
      method: 'PUT',
      path: '/b2b/payment-terms/{customerId}',
      operationId: 'setPaymentTerms',
      summary:
        "Sets a company's payment terms; every order placed afterwards carries them (order custom field `paymentTerms`, invoice text).",
      description:
        'A discount needs a number of days and the days within the net days (400 SUITE__PAYMENT_TERMS_INVALID).',
      tags: [ADMIN_TAG],
      auth: 'admin',
      permission: null,
      schemas: {
        params: customerParams,
        body: termsSchema,
        bodyName: 'PaymentTerms',
        responses: { 200: termsResponse },
      },
      async handler({ params, body }) {
        await customerPrecision(host, params.customerId);
        const terms = termsOfBody(params.customerId, body);
        await savePaymentTerms(host.db, terms);
        return { data: { id: params.customerId, type: 'b2b_payment_terms', attributes: termsView(terms) } };
      },
    }),
  ];
}

export function termsOfBody(
  customerId: string,
  body: { daysNet: number; discountPercent: number; discountDays: number },
) {
  if (body.discountPercent > 0 && (body.discountDays === 0 || body.discountDays > body.daysNet))
    throw Errors.badRequest('SUITE__PAYMENT_TERMS_INVALID', 'A discount needs a number of days within the days net.', {
      pointer: '/discountDays',
    });
  return {
    customerId,
    daysNet: body.daysNet,
    discountBp: Math.round(body.discountPercent * 100),
    discountDays: body.discountDays,
  };
}
