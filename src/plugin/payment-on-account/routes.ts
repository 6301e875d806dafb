import {
  defineAdminRoute,
  defineStoreRoute,
  type AdminRoute,
  type HostRuntime,
  type StoreRoute,
} from '../../host/contract.js';
import { Errors } from '../../lib/errors.js';
import { toMinor } from '../../lib/money.js';
import { noContent } from '../../lib/routes.js';
import { findUnit } from '../company/units/repository.js';
import {
  deleteUnitPaymentTerms,
  getCreditLine,
  getPaymentTerms,
  saveCreditLine,
  savePaymentTerms,
  unitPaymentTerms,
} from './repository.js';
import {
  accountResponse,
  ADMIN_TAG,
  creditLineBody,
  creditLineResponse,
  customerParams,
  customerUnitParams,
  TAG,
  termsResponse,
  termsSchema,
} from './schemas.js';
import { accountView, creditLineView, termsView } from './service.js';

/** The buyer's view at checkout: the credit line's room and the company's payment terms. */
export function paymentOnAccountStoreRoutes(host: HostRuntime): StoreRoute[] {
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

/** Operators set each company's credit line and payment terms. */
export function paymentOnAccountAdminRoutes(host: HostRuntime): AdminRoute[] {
  const customerPrecision = async (customerId: string) => {
    const customer = await host.customers.get(host.db, customerId);
    if (!customer) throw Errors.notFound('Customer', customerId);
    return (await host.customers.salesChannel(host.db, customer.salesChannelId))?.currencyPrecision ?? 2;
  };
  /** Another company's unit is a 404 like an unknown one. */
  const companyUnit = async (customerId: string, unitId: string) => {
    await customerPrecision(customerId);
    if (!(await findUnit(host.db, customerId, unitId))) throw Errors.notFound('Organisation unit', unitId);
  };
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
      handler: async ({ params }) => creditLineAnswer(params.customerId, await customerPrecision(params.customerId)),
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
        const precision = await customerPrecision(params.customerId);
        await saveCreditLine(host.db, params.customerId, toMinor(body.limit, precision), body.currencyIso);
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
        await customerPrecision(params.customerId);
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
        await customerPrecision(params.customerId);
        const terms = termsOfBody(params.customerId, body);
        await savePaymentTerms(host.db, terms);
        return { data: { id: params.customerId, type: 'b2b_payment_terms', attributes: termsView(terms) } };
      },
    }),
    defineAdminRoute({
      method: 'GET',
      path: '/b2b/payment-terms/{customerId}/unit/{unitId}',
      operationId: 'readUnitPaymentTerms',
      summary:
        "An organisation unit's own payment terms; its buyers' orders carry them instead of the company's (404 when the unit has none).",
      tags: [ADMIN_TAG],
      auth: 'admin',
      permission: null,
      schemas: { params: customerUnitParams, responses: { 200: termsResponse } },
      async handler({ params }) {
        await companyUnit(params.customerId, params.unitId);
        const terms = (await unitPaymentTerms(host.db, params.customerId)).get(params.unitId);
        if (!terms) throw Errors.notFound('Payment terms', params.unitId);
        return { data: { id: params.unitId, type: 'b2b_payment_terms', attributes: termsView(terms) } };
      },
    }),
    defineAdminRoute({
      method: 'PUT',
      path: '/b2b/payment-terms/{customerId}/unit/{unitId}',
      operationId: 'setUnitPaymentTerms',
      summary:
        "Sets an organisation unit's payment terms: the orders of the buyers in the unit and below it carry them instead of the company's.",
      description:
        "A buyer in several units with terms gets the deepest unit's (ties: the unit first by name). A discount needs days within the days net (400 SUITE__PAYMENT_TERMS_INVALID).",
      tags: [ADMIN_TAG],
      auth: 'admin',
      permission: null,
      schemas: {
        params: customerUnitParams,
        body: termsSchema,
        bodyName: 'PaymentTerms',
        responses: { 200: termsResponse },
      },
      async handler({ params, body }) {
        await companyUnit(params.customerId, params.unitId);
        const terms = termsOfBody(params.customerId, body);
        await savePaymentTerms(host.db, terms, params.unitId);
        return { data: { id: params.unitId, type: 'b2b_payment_terms', attributes: termsView(terms) } };
      },
    }),
    defineAdminRoute({
      method: 'DELETE',
      path: '/b2b/payment-terms/{customerId}/unit/{unitId}',
      operationId: 'deleteUnitPaymentTerms',
      summary: "Removes an organisation unit's own payment terms: its buyers get the unit above's, else the company's.",
      tags: [ADMIN_TAG],
      auth: 'admin',
      permission: null,
      schemas: { params: customerUnitParams, responses: { 204: null } },
      async handler({ params }) {
        await companyUnit(params.customerId, params.unitId);
        if ((await deleteUnitPaymentTerms(host.db, params.unitId)) === 0)
          throw Errors.notFound('Payment terms', params.unitId);
        return noContent();
      },
    }),
  ];
}

function termsOfBody(customerId: string, body: { daysNet: number; discountPercent: number; discountDays: number }) {
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
