import type { HostRuntime, StoreContext, StorefrontPage } from '../../contract/index.js';
import type { SchemaInput } from '../../lib/routes.js';
import { csvOf, routeCaller, routesByName, type Form, type PageResult } from '../storefront-kit.js';
import { fastOrderRoutes } from './routes.js';
import { MAX_ADD_ITEMS, MAX_QUANTITY, type addToCartResponse } from './schemas.js';

export const FAST_ORDER_PATH = '/account/fast-order';
const ORDERING = 'orders.create';
const ROWS = 5;

/** The add-to-cart answer (its response schema's type) and one item of it. */
type AddedToCart = SchemaInput<typeof addToCartResponse>;
type ItemResult = AddedToCart['items'][number];

/** A row of the form's number and quantity fields, as typed. */
interface FieldRow {
  productNumber: string;
  quantity: string;
}

export interface RequestedLine {
  line: number;
  productNumber: string;
  quantity: number;
}

/**
 * Lines of "number quantity" as a buyer types or pastes them (a CSV export from their own system):
 * the number and quantity separated by a semicolon, comma, tab or spaces; quantity 1 when absent;
 * a first line naming the columns (product_number;quantity) is skipped.
 */
export function parseOrderLines(source: string): { lines: RequestedLine[]; problems: string[] } {
  const lines: RequestedLine[] = [];
  const problems: string[] = [];
  source.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const row = raw.trim();
    if (row === '') return;
    const cells = row.split(/\s*[;,\t]\s*|\s+/).map((cell) => cell.replace(/^"(.*)"$/, '$1').trim());
    const [number = '', quantityText = ''] = cells;
    if (index === 0 && /number|nummer|sku/i.test(number) && !/\d/.test(quantityText)) return;
    const quantity = quantityText === '' ? 1 : /^\d{1,6}$/.test(quantityText) ? Number(quantityText) : NaN;
    if (number.length < 1 || number.length > 64)
      problems.push(`Line ${index + 1}: the product number must have 1 to 64 characters.`);
    else if (!(quantity >= 1 && quantity <= MAX_QUANTITY))
      problems.push(`Line ${index + 1}: the quantity of ${number} must be a whole number from 1 to ${MAX_QUANTITY}.`);
    else lines.push({ line: index + 1, productNumber: number, quantity });
  });
  return { lines, problems };
}

/**
 * Fast order: many lines at once by shop or customer product number (fields, pasted lines or a
 * pasted CSV file), put into the cart with the add-on's add-to-cart route; lines it could not add
 * are shown with the reason, the others are in the cart.
 */
export function fastOrderStorefrontPages(host: HostRuntime): StorefrontPage[] {
  const routes = routesByName(fastOrderRoutes(host));
  const call = routeCaller();

  function page(
    ctx: StoreContext,
    extra: { lines?: string; rows?: FieldRow[]; problems?: string[]; results?: ItemResult[] } = {},
    status = 200,
  ): PageResult {
    const rows = extra.rows ?? [];
    return {
      template: 'b2b/fast-order',
      status,
      data: {
        title: 'Fast order',
        rows: Array.from({ length: Math.max(ROWS, rows.length) }, (_, index) => ({
          index: index + 1,
          productNumber: rows[index]?.productNumber ?? '',
          quantity: rows[index]?.quantity ?? '',
        })),
        lines: extra.lines ?? '',
        problems: extra.problems ?? [],
        results: extra.results ?? [],
        failed: (extra.results ?? []).filter((result) => !result.added).length,
        maxItems: MAX_ADD_ITEMS,
      },
    };
  }

  function fieldRows(form: Form): FieldRow[] {
    const numbers = form.productNumber;
    const quantities = form.quantity;
    const asList = (value: unknown) =>
      (Array.isArray(value) ? value : typeof value === 'string' ? [value] : []).map((item) =>
        typeof item === 'string' ? item.trim() : '',
      );
    const numberList = asList(numbers);
    const quantityList = asList(quantities);
    return numberList.map((productNumber, index) => ({
      productNumber: productNumber.slice(0, 64),
      quantity: (quantityList[index] ?? '').slice(0, 6),
    }));
  }

  return [
    {
      path: FAST_ORDER_PATH,
      auth: 'login',
      anyPermission: [ORDERING],
      needsCustomer: true,
      handler: ({ ctx }) => Promise.resolve(page(ctx)),
    },
    {
      path: FAST_ORDER_PATH,
      method: 'POST',
      auth: 'login',
      anyPermission: [ORDERING],
      needsCustomer: true,
      async handler({ ctx, form }) {
        const rows = fieldRows(form);
        // A chosen CSV file (multipart) or the pasted lines.
        const pasted = csvOf(form, 'csvFile', 'lines').csv.slice(0, 200_000);
        const fromFields = parseOrderLines(
          rows
            .filter((row) => row.productNumber !== '')
            .map((row) => `${row.productNumber};${row.quantity || '1'}`)
            .join('\n'),
        );
        const fromText = parseOrderLines(pasted);
        const problems = [
          ...fromFields.problems.map((problem) => problem.replace(/^Line (\d+)/, 'Row $1')),
          ...fromText.problems,
        ];
        const lines = [...fromFields.lines, ...fromText.lines];
        if (lines.length === 0 && problems.length === 0) problems.push('Enter at least one product number.');
        if (lines.length > MAX_ADD_ITEMS) problems.push(`At most ${MAX_ADD_ITEMS} lines at once, please.`);
        if (problems.length) return page(ctx, { lines: pasted, rows, problems }, 400);
        const result = await call(ctx, routes.fastOrderAddToCart, {
          body: { items: lines.map(({ productNumber, quantity }) => ({ productNumber, quantity })) },
        });
        if (result.success) return { redirect: '/cart?done=added' };
        const results: ItemResult[] = result.items.map((item) => ({
          ...item,
          productNumber: item.productNumber ?? item.customerProductNumber ?? lines[item.index]?.productNumber ?? null,
        }));
        // What was added is in the cart; the form keeps only the lines that failed, to correct them.
        const failedLines = results
          .filter((item) => !item.added)
          .map((item) => `${lines[item.index]!.productNumber};${lines[item.index]!.quantity}`);
        return page(ctx, { lines: failedLines.join('\n'), results }, 400);
      },
    },
  ];
}
