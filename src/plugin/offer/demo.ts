import { inTransaction, writeJson } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { nowDb } from '../../lib/time.js';
import type { DemoShop, HostRuntime } from '../../host/contract.js';
import { representativeOfCustomer } from '../sales-representative/index.js';
import { OFFER_LINES, OFFERS, totalsOf } from './repository.js';

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
    if (await trx(OFFERS).where({ customer_id: customer.id, subject: DEMO_SUBJECT }).first('id')) return;
    const representative = await representativeOfCustomer(trx, customer.id);
    const lines = products.map((product, index) => ({ product, quantity: index === 0 ? 10 : 4 }));
    const totals = totalsOf(
      lines.map(({ product, quantity }) => ({ totalNet: product.priceNet * quantity, taxRateBp: product.taxRateBp })),
    );
    const id = newId();
    const now = nowDb();
    await trx(OFFERS).insert({
      id,
      offer_number: await host.nextNumber(trx, 'offer', 'OF'),
      customer_id: customer.id,
      sales_channel_id: demo.salesChannelId,
      status: 'requested',
      source: 'items',
      requested_by_type: 'customer',
      requested_by_id: customer.id,
      requested_by_name: `${customer.firstName} ${customer.lastName}`,
      requested_by_email: customer.email,
      sales_representative_id: representative?.id ?? null,
      subject: DEMO_SUBJECT,
      commission: 'Site 2',
      customer_comment: 'We need these for the opening in spring; is there a volume price?',
      currency_iso: salesChannel?.currencyIso ?? 'EUR',
      net_total: totals.netTotal,
      tax_total: totals.taxTotal,
      total: totals.total,
      created_at: now,
    });
    for (const [position, { product, quantity }] of lines.entries())
      await trx(OFFER_LINES).insert({
        id: newId(),
        offer_id: id,
        type: 'product',
        product_id: product.id,
        product_number: product.productNumber,
        label: product.name,
        quantity,
        list_unit_net: product.priceNet,
        unit_net: product.priceNet,
        total_net: product.priceNet * quantity,
        tax_rate_bp: product.taxRateBp,
        comment: null,
        source_line_item_id: null,
        payload: writeJson({}),
        position,
        created_at: now,
      });
  });
  return [`Offer: "${DEMO_SUBJECT}", requested by the demo customer, to be priced by the sales representative`];
}
