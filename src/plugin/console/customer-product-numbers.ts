import { consolePage, csvOfForm, importProblemsOf, text, type ConsoleContext, type ConsoleKit } from './kit.js';
import { routeRefs } from '../../lib/routes.js';
import type { CustomerProductNumberAdminRoute } from '../customer-product-number/index.js';

const routes = routeRefs<CustomerProductNumberAdminRoute>();

const PATH = '/customer-product-numbers';

/**
 * The import of a customer's own product numbers (importSuiteCustomerProductNumbers): a customer
 * number and a CSV file or pasted lines → "Check the file" (dryRun: every bad line named, or what the
 * import would add, change and leave) → "Import now" (all lines or none), as the price import does.
 */
export function customerProductNumberPages(kit: ConsoleKit) {
  const { host } = kit;
  const page = (data: Record<string, unknown>, status = 200) => ({
    template: 'customer-product-number-import',
    status,
    data: { title: 'Import customer product numbers', errors: {}, ...data },
  });

  async function run(ctx: ConsoleContext, form: Record<string, unknown>, dryRun: boolean) {
    const csv = csvOfForm(form);
    const customerNumber = text(form, 'customerNumber');
    const errors: Record<string, string> = {};
    if (!customerNumber) errors.customerNumber = 'Enter the customer number the numbers are for.';
    if (!csv.trim()) errors.csv = 'Choose a CSV file or paste its lines.';
    const [customer] = customerNumber ? await host.customers.findByNumbers(host.db, [customerNumber]) : [];
    if (customerNumber && !customer)
      errors.customerNumber = `There is no customer with the number "${customerNumber}".`;
    if (Object.keys(errors).length) return page({ csv, customerNumber, errors }, 400);
    try {
      const result = await kit.call(ctx, routes.importSuiteCustomerProductNumbers, {
        query: { customerId: customer!.id, dryRun },
        body: csv,
      });
      const company = customer!.company ?? `${customer!.firstName} ${customer!.lastName}`;
      if (dryRun) return page({ csv, customerNumber, company, preview: result });
      return {
        redirect: kit.href(PATH),
        notice: `Imported for ${company} (${customerNumber}): ${result.created} new, ${result.updated} changed, ${result.unchanged} unchanged.`,
      };
    } catch (error) {
      const problems = importProblemsOf(error);
      return page({ csv, customerNumber, problems, problemCount: problems.length }, 400);
    }
  }

  return [
    consolePage({
      path: PATH,
      menu: { label: 'Customer product numbers', position: 35 },
      handler: () => Promise.resolve(page({ csv: '', customerNumber: '' })),
    }),
    consolePage({
      path: `${PATH}/preview`,
      method: 'POST',
      changes: false,
      handler: ({ ctx, form }) => run(ctx, form, true),
    }),
    consolePage({
      path: PATH,
      method: 'POST',
      handler: ({ ctx, form }) => run(ctx, form, false),
    }),
  ];
}
