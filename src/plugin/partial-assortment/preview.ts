import type { HostRuntime } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { actingContext } from '../company/index.js';
import { ASSIGNMENT_KINDS } from './kinds.js';
import { entitiesUnlockedBy, restrictedEntities } from './repository.js';

/** At most this many hidden ids per kind are listed (the count says when there are more). */
export const PREVIEW_IDS_MAX = 500;
/** Hidden products listed with their number and name. */
const PREVIEW_PRODUCTS_MAX = 100;

export interface AssortmentPreview {
  customer: { id: string; customerNumber: string | null; company: string | null };
  ruleIds: string[];
  hidden: Record<'category' | 'landingPage' | 'product', { ids: string[]; more: boolean }>;
  products: Array<{ id: string; productNumber: string; name: string }>;
}

/**
 * "See the shop as this customer": what the partial assortment hides from a customer (or one of
 * its employees) — the restricted entities none of the rules the customer matches unlocks. The
 * customer's context is built as a job builds a buyer's (company/acting-context.ts), so the rules
 * match as they do when that buyer logs in.
 */
export async function previewAssortment(
  host: HostRuntime,
  input: { customerNumber: string; employeeId?: string | null },
): Promise<AssortmentPreview> {
  const [customer] = await host.customers.findByNumbers(host.db, [input.customerNumber]);
  if (!customer) throw Errors.notFound('Customer', input.customerNumber);
  const ctx = await actingContext(host, {
    customerId: customer.id,
    salesChannelId: customer.salesChannelId,
    employeeId: input.employeeId ?? null,
  });
  if (!ctx) throw Errors.notFound(input.employeeId ? 'Employee' : 'Customer', input.employeeId ?? input.customerNumber);
  const ruleIds = await ctx.ruleIds();
  const hidden = {} as AssortmentPreview['hidden'];
  for (const kind of ASSIGNMENT_KINDS) {
    const restricted = await restrictedEntities(host.db, kind, PREVIEW_IDS_MAX);
    const unlocked = new Set(
      ruleIds.length ? await entitiesUnlockedBy(host.db, kind, ruleIds, Number.MAX_SAFE_INTEGER) : [],
    );
    const ids = restricted.filter((id) => !unlocked.has(id));
    const key = kind.idField.replace(/Id$/, '') as keyof AssortmentPreview['hidden'];
    hidden[key] = { ids: ids.slice(0, PREVIEW_IDS_MAX), more: restricted.length > PREVIEW_IDS_MAX };
  }
  const products = (await host.catalog.products(host.db, hidden.product.ids.slice(0, PREVIEW_PRODUCTS_MAX))).map(
    (p) => ({ id: p.id, productNumber: p.productNumber, name: p.name }),
  );
  return {
    customer: { id: customer.id, customerNumber: customer.customerNumber, company: customer.company },
    ruleIds,
    hidden,
    products,
  };
}
