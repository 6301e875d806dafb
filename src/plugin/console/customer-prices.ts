import { AppError } from '../../lib/errors.js';
import { isId } from '../../lib/ids.js';
import {
  consolePage,
  csvOfForm,
  formErrorsOf,
  importProblemsOf,
  noErrors,
  pageOf,
  paging,
  PAGE_SIZE,
  text,
  uploadedFileName,
  type ConsoleContext,
  type ConsoleKit,
  type FormErrors,
  notFoundPage,
} from './kit.js';
import { HOST_ADMIN_ROUTES } from '../../contract/index.js';
import { routeRefs } from '../../lib/routes.js';
import type { CustomerPriceAdminRoute } from '../customer-price/index.js';

const routes = routeRefs<CustomerPriceAdminRoute>();

const PATH = '/customer-prices';

/** The form's fields, as typed (kept as they are when the API refuses them). */
interface PriceForm {
  customerNumber: string;
  customerGroupId: string;
  productNumber: string;
  minQuantity: string;
  price: string;
  listPrice: string;
  validFrom: string;
  validUntil: string;
  currency: string;
}

const EMPTY_FORM: PriceForm = {
  customerNumber: '',
  customerGroupId: '',
  productNumber: '',
  minQuantity: '1',
  price: '',
  listPrice: '',
  validFrom: '',
  validUntil: '',
  currency: '',
};

/** API body field → form field (the API speaks ids, the form numbers). */
const FIELD_OF_POINTER: Record<string, keyof PriceForm> = {
  customerId: 'customerNumber',
  customerGroupId: 'customerGroupId',
  productId: 'productNumber',
  minQuantity: 'minQuantity',
  price: 'price',
  listPrice: 'listPrice',
  validFrom: 'validFrom',
  validUntil: 'validUntil',
  currency: 'currency',
};

/** A date field (YYYY-MM-DD) as the API's instant: the start of that day, UTC. */
function dayToInstant(day: string): string | null {
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`))
    ? `${day}T00:00:00.000Z`
    : null;
}

function amountOf(value: string): number | null {
  const normalised = value.replace(',', '.');
  return /^\d{1,12}(\.\d+)?$/.test(normalised) ? Number(normalised) : null;
}

/**
 * Customer prices: the list (filtered by customer number and product number, paged), the form that
 * sets one (upsertSuiteCustomerPrice: a price per customer or group, product and minimum quantity,
 * with validity, currency and a strike-through price), delete, and the CSV import with a preview
 * (importSuiteCustomerPrices with dryRun) that names every bad line before anything is written.
 */
export function customerPricePages(kit: ConsoleKit) {
  return [...priceListPages(kit), ...priceFormPages(kit), ...importPages(kit)];
}

/** The list, filtered by customer number and product number, paged; a row's delete button. */
function priceListPages(kit: ConsoleKit) {
  const { host } = kit;
  return [
    consolePage({
      path: PATH,
      menu: { label: 'Customer prices', position: 30 },
      async handler({ ctx, query }) {
        const customerNumber = text(query, 'customer');
        const productNumber = text(query, 'product');
        const page = pageOf(query);
        const filterErrors: Record<string, string> = {};
        const apiQuery: Record<string, unknown> = { page, limit: PAGE_SIZE };
        if (customerNumber) {
          const [customer] = await host.customers.findByNumbers(host.db, [customerNumber]);
          if (customer) apiQuery.customerId = customer.id;
          else filterErrors.customer = `There is no customer with the number "${customerNumber}".`;
        }
        if (productNumber) {
          const [product] = await host.catalog.productIdsByNumbers(host.db, [productNumber]);
          if (product) apiQuery.productId = product.id;
          else filterErrors.product = `There is no product with the number "${productNumber}".`;
        }
        const list = Object.keys(filterErrors).length
          ? { data: [], meta: { total: 0 } }
          : await kit.call(ctx, routes.listSuiteCustomerPrices, { query: apiQuery });
        const rows = list.data.map((row) => ({ id: row.id, ...row.attributes }));
        const [customers, groups, products] = await Promise.all([
          host.customers.getMany(host.db, [
            ...new Set(rows.flatMap((row) => (row.customerId ? [row.customerId] : []))),
          ]),
          host.customerGroups.getMany(host.db, [
            ...new Set(rows.flatMap((row) => (row.customerGroupId ? [row.customerGroupId] : []))),
          ]),
          host.catalog.products(host.db, [...new Set(rows.map((row) => row.productId))]),
        ]);
        const customerById = new Map(customers.map((c) => [c.id, c]));
        const groupById = new Map(groups.map((g) => [g.id, g]));
        const productById = new Map(products.map((p) => [p.id, p]));
        const currency =
          (await host.customers.salesChannel(host.db, customers[0]?.salesChannelId ?? ''))?.currencyIso ?? 'EUR';
        return {
          template: 'customer-prices',
          data: {
            title: 'Customer prices',
            filters: { customer: customerNumber, product: productNumber },
            filterErrors,
            filtered: Boolean(customerNumber || productNumber),
            prices: rows.map((row) => {
              const customer = row.customerId ? customerById.get(row.customerId) : undefined;
              const product = productById.get(row.productId);
              return {
                ...row,
                who: customer
                  ? `${customer.customerNumber} · ${customer.company ?? `${customer.firstName} ${customer.lastName}`}`
                  : row.customerGroupId
                    ? `Group: ${groupById.get(row.customerGroupId)?.name ?? row.customerGroupId}`
                    : '—',
                product: product ? `${product.productNumber} · ${product.name}` : row.productId,
                currency: row.currency ?? currency,
                editHref: kit.href(`${PATH}/edit`, {
                  customerNumber: customer?.customerNumber,
                  customerGroupId: row.customerGroupId,
                  productNumber: product?.productNumber,
                  minQuantity: row.minQuantity,
                }),
              };
            }),
            paging: paging(
              kit,
              PATH,
              { customer: customerNumber || undefined, product: productNumber || undefined },
              page,
              list.meta.total,
            ),
            newHref: kit.href(`${PATH}/edit`),
            importHref: kit.href(`${PATH}/import`),
            exportHref: kit.href(`${PATH}/export`, {
              customer: customerNumber || undefined,
              product: productNumber || undefined,
            }),
          },
        };
      },
    }),
    consolePage({
      path: `${PATH}/:id/delete`,
      method: 'POST',
      async handler({ ctx, params }) {
        if (!isId(params.id)) return notFoundPage('customer price');
        await kit.call(ctx, routes.deleteSuiteCustomerPrice, { params: { id: params.id } });
        return { redirect: kit.href(PATH), notice: 'The customer price is deleted.' };
      },
    }),
  ];
}

/** The form that sets one price: filled in from the list's row, saved through the upsert route. */
function priceFormPages(kit: ConsoleKit) {
  const { host } = kit;

  async function groupOptions(ctx: ConsoleContext, selected: string) {
    const groups = kit.console.has(HOST_ADMIN_ROUTES.listCustomerGroup)
      ? (await kit.call(ctx, HOST_ADMIN_ROUTES.listCustomerGroup, { query: { limit: 500 } })).data
      : [];
    return groups.map((group) => ({ id: group.id, name: group.attributes.name, selected: group.id === selected }));
  }

  async function formPage(ctx: ConsoleContext, values: PriceForm, errors: FormErrors, status = 200, editing = false) {
    return {
      template: 'customer-price-form',
      status,
      data: {
        title: editing ? 'Change a customer price' : 'New customer price',
        values,
        errors,
        groups: await groupOptions(ctx, values.customerGroupId),
        editing,
        listHref: kit.href(PATH),
      },
    };
  }

  return [
    consolePage({
      path: `${PATH}/edit`,
      async handler({ ctx, query }) {
        const values: PriceForm = {
          ...EMPTY_FORM,
          customerNumber: text(query, 'customerNumber'),
          customerGroupId: text(query, 'customerGroupId'),
          productNumber: text(query, 'productNumber'),
          minQuantity: text(query, 'minQuantity') || '1',
        };
        const editing = Boolean((values.customerNumber || values.customerGroupId) && values.productNumber);
        if (editing) {
          // The price of this key, to fill in the form (the list route filtered by customer or group and product).
          const [customer] = values.customerNumber
            ? await host.customers.findByNumbers(host.db, [values.customerNumber])
            : [];
          const [product] = await host.catalog.productIdsByNumbers(host.db, [values.productNumber]);
          const listQuery: Record<string, unknown> = {
            limit: 500,
            ...(customer ? { customerId: customer.id } : {}),
            ...(isId(values.customerGroupId) ? { customerGroupId: values.customerGroupId } : {}),
            ...(product ? { productId: product.id } : {}),
          };
          const found =
            customer || isId(values.customerGroupId)
              ? (await kit.call(ctx, routes.listSuiteCustomerPrices, { query: listQuery })).data
              : [];
          const price = product
            ? found.find(
                (row) =>
                  row.attributes.productId === product.id && String(row.attributes.minQuantity) === values.minQuantity,
              )
            : undefined;
          if (price) {
            const a = price.attributes;
            Object.assign(values, {
              price: String(a.price),
              listPrice: a.listPrice === null ? '' : String(a.listPrice),
              validFrom: a.validFrom?.slice(0, 10) ?? '',
              validUntil: a.validUntil?.slice(0, 10) ?? '',
              currency: a.currency ?? '',
            });
          }
        }
        return formPage(ctx, values, noErrors(), 200, editing);
      },
    }),
    consolePage({
      path: `${PATH}/save`,
      method: 'POST',
      async handler({ ctx, form }) {
        const values = Object.fromEntries(
          Object.keys(EMPTY_FORM).map((name) => [name, text(form, name)]),
        ) as unknown as PriceForm;
        const errors = noErrors();
        let whose: { customerId: string } | { customerGroupId: string } | null = null;
        if (values.customerNumber && values.customerGroupId)
          errors.fields.customerNumber = 'Give a customer number or a customer group, not both.';
        else if (values.customerNumber) {
          const [customer] = await host.customers.findByNumbers(host.db, [values.customerNumber]);
          if (customer) whose = { customerId: customer.id };
          else errors.fields.customerNumber = `There is no customer with the number "${values.customerNumber}".`;
        } else if (values.customerGroupId) whose = { customerGroupId: values.customerGroupId };
        else errors.fields.customerNumber = 'Give the customer number, or choose a customer group.';
        let productId: string | null = null;
        if (values.productNumber) {
          const [product] = await host.catalog.productIdsByNumbers(host.db, [values.productNumber]);
          if (product) productId = product.id;
          else errors.fields.productNumber = `There is no product with the number "${values.productNumber}".`;
        } else errors.fields.productNumber = 'Give the product number.';
        const amounts: { price?: number; listPrice?: number } = {};
        for (const [field, required] of [
          ['price', true],
          ['listPrice', false],
        ] as const) {
          if (!values[field]) {
            if (required) errors.fields[field] = 'Give the net unit price, e.g. 12.50.';
            continue;
          }
          const amount = amountOf(values[field]);
          if (amount === null) errors.fields[field] = `"${values[field]}" is not an amount like 12.50.`;
          else amounts[field] = amount;
        }
        const dates: { validFrom?: string; validUntil?: string } = {};
        for (const field of ['validFrom', 'validUntil'] as const) {
          if (!values[field]) continue;
          const instant = dayToInstant(values[field]);
          if (instant) dates[field] = instant;
          else errors.fields[field] = 'Give a date as YYYY-MM-DD.';
        }
        if (Object.keys(errors.fields).length || !whose || !productId || amounts.price === undefined)
          return formPage(ctx, values, errors, 400, false);
        const body = {
          ...whose,
          productId,
          price: amounts.price,
          ...(amounts.listPrice !== undefined ? { listPrice: amounts.listPrice } : {}),
          ...dates,
          // Unreadable: NaN, which the route refuses (400) with its own message.
          ...(values.minQuantity
            ? { minQuantity: /^\d{1,9}$/.test(values.minQuantity) ? Number(values.minQuantity) : Number.NaN }
            : {}),
          ...(values.currency ? { currency: values.currency.toUpperCase() } : {}),
        };
        try {
          await kit.call(ctx, routes.upsertSuiteCustomerPrice, { body });
        } catch (error) {
          return formPage(
            ctx,
            values,
            formErrorsOf(error, (pointer) => FIELD_OF_POINTER[pointer.split('/')[1] ?? ''] ?? null),
            400,
            false,
          );
        }
        return {
          redirect: kit.href(PATH, { customer: values.customerNumber || undefined }),
          notice: `The price of ${values.productNumber} is saved.`,
        };
      },
    }),
  ];
}

function importPages(kit: ConsoleKit) {
  const page = (data: Record<string, unknown>, status = 200) => ({
    template: 'customer-price-import',
    status,
    data: { title: 'Import customer prices', listHref: kit.href(PATH), ...data },
  });
  const byReference = () =>
    kit.console.has(routes.checkSuiteCustomerPriceImport) &&
    kit.console.has(routes.startSuiteCustomerPriceImportRunByReference);

  /**
   * "Check the file". A managing operator's checked file is kept on the server (an hour), and the
   * preview's "Import now" sends only its reference, so a file of any allowed size is posted once.
   * A chosen file is not written back into the page (a large one would make the page as large).
   */
  async function check(ctx: ConsoleContext, form: Record<string, unknown>) {
    const csv = csvOfForm(form);
    const fileName = uploadedFileName(form);
    const shown = fileName ? '' : csv;
    if (!csv.trim()) return page({ csv, errors: { csv: 'Choose a CSV file or paste its lines.' } }, 400);
    try {
      if (byReference() && !ctx.operator.readOnly) {
        const checked = await kit.call(ctx, routes.checkSuiteCustomerPriceImport, { body: csv });
        return page({ csv: shown, fileName, preview: checked, checkId: checked.checkId });
      }
      const result = await kit.call(ctx, routes.importSuiteCustomerPrices, { query: { dryRun: true }, body: csv });
      return page({ csv: shown, fileName, preview: result, keepCsv: csv });
    } catch (error) {
      const problems = importProblemsOf(error);
      return page({ csv: shown, fileName, problems, problemCount: problems.length }, 400);
    }
  }

  /** "Import now": the checked file by its reference (as a run with progress), else the file posted again. */
  async function importNow(ctx: ConsoleContext, form: Record<string, unknown>) {
    const checkId = text(form, 'checkId');
    if (checkId) {
      try {
        const started = await kit.call(ctx, routes.startSuiteCustomerPriceImportRunByReference, {
          params: { checkId },
        });
        return { redirect: kit.href(`/import-runs/${started.data.id}`) };
      } catch (error) {
        if (!(error instanceof AppError) || ![400, 404].includes(error.status)) throw error;
        const message =
          'The checked file is no longer kept (it is kept for an hour and imported once). Check the file again.';
        return page({ csv: '', problems: [{ line: null, message }], problemCount: 1 }, 400);
      }
    }
    const csv = csvOfForm(form);
    if (!csv.trim()) return page({ csv, errors: { csv: 'Choose a CSV file or paste its lines.' } }, 400);
    // The checked file is written as a run, whose page shows the progress (a host without runs imports at once).
    if (kit.console.has(routes.startSuiteCustomerPriceImportRun)) {
      const started = await kit.call(ctx, routes.startSuiteCustomerPriceImportRun, { body: csv });
      return { redirect: kit.href(`/import-runs/${started.data.id}`) };
    }
    try {
      const result = await kit.call(ctx, routes.importSuiteCustomerPrices, { query: { dryRun: false }, body: csv });
      return {
        redirect: kit.href(PATH),
        notice: `Imported: ${result.created} new, ${result.updated} changed, ${result.unchanged} unchanged.`,
      };
    } catch (error) {
      const problems = importProblemsOf(error);
      return page({ csv, problems, problemCount: problems.length }, 400);
    }
  }

  return [
    consolePage({
      path: `${PATH}/import`,
      handler: () => Promise.resolve(page({ csv: '' })),
    }),
    consolePage({
      path: `${PATH}/import/preview`,
      method: 'POST',
      changes: false,
      handler: ({ ctx, form }) => check(ctx, form),
    }),
    consolePage({
      path: `${PATH}/import`,
      method: 'POST',
      handler: ({ ctx, form }) => importNow(ctx, form),
    }),
  ];
}
