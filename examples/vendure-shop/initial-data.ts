import { LanguageCode, type InitialData } from '@vendure/core';

/** The least a Vendure shop needs to sell: a zone with a tax rate, a shipping method and a payment method. */
export const initialData: InitialData = {
  defaultLanguage: LanguageCode.en,
  defaultZone: 'Europe',
  taxRates: [{ name: 'Standard Tax', percentage: 19 }],
  shippingMethods: [{ name: 'Standard Shipping', price: 500 }],
  paymentMethods: [
    {
      name: 'Invoice',
      handler: { code: 'dummy-payment-handler', arguments: [{ name: 'automaticSettle', value: 'false' }] },
    },
  ],
  countries: [{ name: 'Germany', code: 'DE', zone: 'Europe' }],
  collections: [],
};
