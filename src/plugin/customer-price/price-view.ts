import { fromMinor } from '../../lib/money.js';
import { objectSchema } from '../../lib/schemas.js';
import type { CalculatedPrice } from '../../host/contract.js';

const money = { type: 'number' };

/** The calculated price as the host's product routes show it, so clients read one shape everywhere. */
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

export function priceView(price: CalculatedPrice, precision: number) {
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
