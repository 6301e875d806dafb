import { fromMinor } from './money.js';
import { objectSchema } from './schemas.js';

const money = { type: 'number' };

/** The figures of a calculated price (the contract's CalculatedPrice), in minor units. */
export interface PriceFigures {
  unitNet: number;
  quantity: number;
  totalNet: number;
  taxRateBp: number;
  totalTax: number;
  totalGross: number;
  source: string;
}

/** A calculated price as every route shows it (host product routes and add-ons alike): net B2B prices in currency units. */
export const calculatedPriceSchema = objectSchema(
  {
    unitPrice: money,
    totalPrice: money,
    quantity: { type: 'integer' },
    netPrice: money,
    taxAmount: money,
    grossPrice: money,
    taxRate: { type: 'number' },
    source: { type: 'string' },
  },
  ['unitPrice', 'totalPrice', 'quantity', 'netPrice', 'taxAmount', 'grossPrice', 'taxRate', 'source'],
);

export function priceView(price: PriceFigures, precision: number) {
  return {
    unitPrice: fromMinor(price.unitNet, precision),
    totalPrice: fromMinor(price.totalNet, precision),
    quantity: price.quantity,
    netPrice: fromMinor(price.totalNet, precision),
    taxAmount: fromMinor(price.totalTax, precision),
    grossPrice: fromMinor(price.totalGross, precision),
    taxRate: price.taxRateBp / 100,
    source: price.source,
  };
}
