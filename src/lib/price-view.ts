import { fromMinor } from './money.js';
import { objectSchema } from './schemas.js';

const money = { type: 'number' } as const;

/** The figures of a calculated price (the contract's CalculatedPrice), in minor units. */
export interface PriceFigures {
  unitNet: number;
  quantity: number;
  totalNet: number;
  taxRateBp: number;
  totalTax: number;
  totalGross: number;
  source: string;
  /** A pseudo (strike-through) net unit price, minor units. */
  listPriceNet?: number | null;
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
    listPrice: {
      type: 'object',
      additionalProperties: false,
      description:
        'The pseudo (strike-through) price, present when the price names one: its net unit price, the net total at that price, and the saving against it.',
      properties: { unitPrice: money, totalPrice: money, discount: money, percentage: { type: 'number' } },
      required: ['unitPrice', 'totalPrice', 'discount', 'percentage'],
    },
  },
  ['unitPrice', 'totalPrice', 'quantity', 'netPrice', 'taxAmount', 'grossPrice', 'taxRate', 'source'],
);

/** The pseudo price as the shop platform shows it: the saving against it and its percentage (two decimals). */
function listPriceView(price: PriceFigures, precision: number) {
  if (price.listPriceNet === undefined || price.listPriceNet === null) return {};
  const listTotal = price.listPriceNet * price.quantity;
  const discount = listTotal - price.totalNet;
  return {
    listPrice: {
      unitPrice: fromMinor(price.listPriceNet, precision),
      totalPrice: fromMinor(listTotal, precision),
      discount: fromMinor(discount, precision),
      percentage: listTotal > 0 ? Math.round((discount * 10000) / listTotal) / 100 : 0,
    },
  };
}

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
    ...listPriceView(price, precision),
  };
}
