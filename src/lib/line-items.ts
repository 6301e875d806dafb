import { readInt, readJson, writeJson } from './db.js';
import { fromMinor } from './money.js';

/**
 * A stored line item (of an order, an order approval or an offer): amounts in integer minor
 * units, the tax rate in basis points. The line tables share these columns; reading them is
 * done here once, so every line converts its numbers the same way.
 */
export interface LineItem {
  id: string;
  type: string;
  productId: string | null;
  productNumber: string | null;
  label: string;
  quantity: number;
  unitNet: number;
  totalNet: number;
  taxRateBp: number;
  payload: Record<string, unknown>;
  position: number;
}

/** The columns the line tables share, as the driver returns them (numbers possibly strings or bigints). */
export interface LineItemDbRow {
  id: string;
  type: string;
  product_id?: string | null;
  product_number?: string | null;
  label: string;
  quantity: unknown;
  unit_net: unknown;
  total_net: unknown;
  tax_rate_bp: unknown;
  payload: unknown;
  position: unknown;
}

/** A line item row (snake_case columns, numbers possibly strings or bigints from the driver). */
export function lineItemFromRow(row: LineItemDbRow): LineItem {
  return {
    id: row.id,
    type: row.type,
    productId: row.product_id ?? null,
    productNumber: row.product_number ?? null,
    label: row.label,
    quantity: readInt(row.quantity),
    unitNet: readInt(row.unit_net),
    totalNet: readInt(row.total_net),
    taxRateBp: readInt(row.tax_rate_bp),
    payload: readJson<Record<string, unknown>>(row.payload, {}),
    position: readInt(row.position),
  };
}

/** Lines written per INSERT: well below SQLite's bound-variable limit whatever the table adds. */
export const LINE_INSERT_CHUNK = 200;

/** The shared columns of a line item row at `position`: the inverse of lineItemFromRow. */
export function lineItemRow(
  line: Omit<LineItem, 'id' | 'position' | 'payload'> & { payload?: Record<string, unknown> },
  position: number,
): Record<string, unknown> {
  return {
    type: line.type,
    product_id: line.productId,
    product_number: line.productNumber,
    label: line.label.slice(0, 255),
    quantity: line.quantity,
    unit_net: line.unitNet,
    total_net: line.totalNet,
    tax_rate_bp: line.taxRateBp,
    payload: writeJson(line.payload ?? {}),
    position,
  };
}

/** Net, tax and gross sums of lines, in minor units. */
export interface Totals {
  netTotal: number;
  taxTotal: number;
  total: number;
}

/** Tax per line, rounded half up, so a cart, an order, an approval, an offer and an invoice always agree. */
export function lineTax(line: { totalNet: number; taxRateBp: number }): number {
  return Math.round((line.totalNet * line.taxRateBp) / 10000);
}

/** Totals as the checkout computes them: net sum, tax rounded per line. */
export function totalsOf(lines: Array<{ totalNet: number; taxRateBp: number }>): Totals {
  let netTotal = 0;
  let taxTotal = 0;
  for (const line of lines) {
    netTotal += line.totalNet;
    taxTotal += lineTax(line);
  }
  return { netTotal, taxTotal, total: netTotal + taxTotal };
}

export interface LineItemView {
  id: string;
  type: string;
  productId: string | null;
  productNumber: string | null;
  label: string;
  quantity: number;
  unitPrice: number;
  totalPrice: number;
  /** Percent, e.g. 19 or 7.7. */
  taxRate: number;
  position: number;
  payload: Record<string, unknown>;
}

/** A line item at the API edge: prices in currency units with the given precision. */
export function lineItemView(line: LineItem, precision: number): LineItemView {
  return {
    id: line.id,
    type: line.type,
    productId: line.productId,
    productNumber: line.productNumber,
    label: line.label,
    quantity: line.quantity,
    unitPrice: fromMinor(line.unitNet, precision),
    totalPrice: fromMinor(line.totalNet, precision),
    taxRate: line.taxRateBp / 100,
    position: line.position,
    payload: line.payload,
  };
}

const text = { type: 'string' } as const;
const nullableText = { anyOf: [text, { type: 'null' }] } as const;
const amount = { type: 'number' } as const;

/** The properties of a line item view, for response schemas that add their own (an offer's list price). */
export const lineItemViewProperties = {
  id: text,
  type: text,
  productId: nullableText,
  productNumber: nullableText,
  label: text,
  quantity: { type: 'integer' },
  unitPrice: amount,
  totalPrice: amount,
  taxRate: amount,
  position: { type: 'integer' },
  payload: { type: 'object', additionalProperties: true },
} as const;

/** The response schema of a line item view. */
export const lineItemViewSchema = {
  type: 'object',
  additionalProperties: false,
  properties: lineItemViewProperties,
  required: Object.keys(lineItemViewProperties) as Array<keyof typeof lineItemViewProperties>,
} as const;
