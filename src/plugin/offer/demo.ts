import { inTransaction } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { nowDb } from '../../lib/time.js';
import type { DemoShop, HostRuntime } from '../../contract/index.js';
import { representativeOfCustomer } from '../sales-representative/index.js';
import { hasOfferWithSubject, insertOffer, insertOfferLines, totalsOf } from './repository.js';

const DEMO_SUBJECT = 'Workshop equipment for the new site';

/**
 * An offer the demo customer requested (two products at the list price), waiting for the sales
 * representative to price and send it, so the offer pages on both sides are not empty. Seeding
 * twice is a no-op. Runs after the representative demo (the offer names them).
 */
export async function seedOfferDemo(host: HostRuntime, demo: DemoShop): Promise<string[]> {
  const customer = await host.customers.get(host.db, demo.customerId);
  const products = (await host.catalog.products(host.db, demo.productIds.slice(0, 2))).filter(
    (product) => product.active,
  );
  if (!customer || products.length === 0) return [];
  const salesChannel = await host.customers.salesChannel(host.db, demo.salesChannelId);
  await inTransaction(host.db, async (trx) => {
    if (await hasOfferWithSubject(trx, customer.id, DEMO_SUBJECT)) return;
    const representative = await representativeOfCustomer(trx, customer.id);
    const lines = products.map((product, index) => ({ product, quantity: index === 0 ? 10 : 4 }));
    const totals = totalsOf(
      lines.map(({ product, quantity }) => ({ totalNet: product.priceNet * quantity, taxRateBp: product.taxRateBp })),
    );
    const id = newId();
    const now = nowDb();
    await insertOffer(trx, {
      id,
      offerNumber: await host.nextNumber(trx, 'offer', 'OF'),
      customerId: customer.id,
      salesChannelId: demo.salesChannelId,
      status: 'requested',
      source: 'items',
      requestedBy: {
        type: 'customer',
        id: customer.id,
        name: `${customer.firstName} ${customer.lastName}`,
        email: customer.email,
      },
      salesRepresentativeId: representative?.id ?? null,
      subject: DEMO_SUBJECT,
      commission: 'Site 2',
      customerComment: 'We need these for the opening in spring; is there a volume price?',
      billingAddressId: null,
      shippingAddressId: null,
      currencyIso: salesChannel?.currencyIso ?? 'EUR',
      totals,
      createdAt: now,
    });
    await insertOfferLines(
      trx,
      id,
      0,
      lines.map(({ product, quantity }) => ({
        type: 'product',
        productId: product.id,
        productNumber: product.productNumber,
        label: product.name,
        quantity,
        unitNet: product.priceNet,
        taxRateBp: product.taxRateBp,
        comment: null,
        sourceLineItemId: null,
        payload: {},
      })),
      now,
    );
  });
  return [`Offer: "${DEMO_SUBJECT}", requested by the demo customer, to be priced by the sales representative`];
}
