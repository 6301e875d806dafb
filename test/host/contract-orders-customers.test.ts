import { expect } from 'chai';
import type { Actor, CustomerRef } from '../../src/contract/index.js';
import { AppError } from '../../src/lib/errors.js';
import { newId } from '../../src/lib/ids.js';
import { writeJson } from '../../src/lib/db.js';
import { nowDb, toDbTime } from '../../src/lib/time.js';
import { insertProduct, storeContextFor, type TestProduct } from '../helpers/checkout.js';
import { createTestCustomer, getShop } from '../helpers/shop.js';

/**
 * The contract calls plugins use instead of reading the host's order, customer, document and CMS
 * tables, called through the runtime as a plugin would (contract v2: orders, customers, documents).
 */
describe('host: contract calls for orders, customers and documents', () => {
  const employee = (id: string): Actor => ({ type: 'employee', id, name: 'Eve Employee', email: 'eve@example.test' });

  async function order(
    customer: CustomerRef,
    product: TestProduct,
    input: { actor?: Actor; totalNet?: number; orderDate?: string; state?: string } = {},
  ) {
    const shop = await getShop();
    const ctx = await storeContextFor(customer, input.actor);
    const totalNet = input.totalNet ?? 1000;
    const line = {
      lineItemId: newId(),
      productId: product.id,
      productNumber: product.number,
      label: product.name,
      type: 'product',
      quantity: 1,
      unitNet: totalNet,
      totalNet,
      taxRateBp: 1900,
      payload: {},
    };
    const placed = await shop.runtime.checkout.placeOrder(shop.runtime.db, ctx, { lines: [line] });
    const update: Record<string, unknown> = {};
    if (input.orderDate) update.order_date = toDbTime(input.orderDate);
    if (input.state) update.state = input.state;
    if (Object.keys(update).length) await shop.db('orders').where({ id: placed.id }).update(update);
    return placed;
  }

  describe('orders', () => {
    it('search: only the named customers, narrowed to an actor, by criteria, in the Store API order shape', async () => {
      const shop = await getShop();
      const { customer } = await createTestCustomer();
      const { customer: other } = await createTestCustomer();
      const product = await insertProduct();
      const eveId = newId();
      const first = await order(customer, product, { orderDate: '2026-01-10T10:00:00.000Z' });
      const byEve = await order(customer, product, { actor: employee(eveId), orderDate: '2026-02-10T10:00:00.000Z' });
      await order(other, product);

      const all = await shop.runtime.orders.search(shop.db, { customerIds: [customer.id] }, {});
      expect(all.total).to.equal(2);
      expect(all.elements.map((o) => o.id)).to.deep.equal([byEve.id, first.id]);
      expect(all.elements[0]).to.deep.equal(await shop.runtime.orders.get(shop.db, byEve.id));
      expect(all).to.include({ page: 1, limit: 25 });

      const eves = await shop.runtime.orders.search(
        shop.db,
        { customerIds: [customer.id], placedBy: { type: 'employee', id: eveId } },
        {},
      );
      expect(eves.elements.map((o) => o.id)).to.deep.equal([byEve.id]);

      const filtered = await shop.runtime.orders.search(
        shop.db,
        { customerIds: [customer.id, other.id] },
        {
          filter: [
            { type: 'equals', field: 'customerId', value: customer.id },
            { type: 'equals', field: 'placedByType', value: 'customer' },
          ],
          sort: [{ field: 'orderDate', order: 'ASC' }],
        },
      );
      expect(filtered.elements.map((o) => o.id)).to.deep.equal([first.id]);
      const byTerm = await shop.runtime.orders.search(
        shop.db,
        { customerIds: [customer.id] },
        { term: first.orderNumber, limit: 1 },
      );
      expect(byTerm.elements.map((o) => o.id)).to.deep.equal([first.id]);

      expect((await shop.runtime.orders.search(shop.db, { customerIds: [] }, {})).total).to.equal(0);
      let refused: unknown = null;
      await shop.runtime.orders
        .search(shop.db, { customerIds: [customer.id] }, { filter: [{ type: 'equals', field: 'netTotal', value: 1 }] })
        .catch((error) => (refused = error));
      expect(refused).to.be.instanceOf(AppError).with.property('status', 400);
    });

    it("search with latestPerCustomer answers each customer's most recent order", async () => {
      const shop = await getShop();
      const { customer: a } = await createTestCustomer();
      const { customer: b } = await createTestCustomer();
      const product = await insertProduct();
      await order(a, product, { orderDate: '2026-03-01T08:00:00.000Z' });
      const latestOfA = await order(a, product, { orderDate: '2026-03-05T08:00:00.000Z' });
      const latestOfB = await order(b, product, { orderDate: '2026-03-03T08:00:00.000Z' });
      const page = await shop.runtime.orders.search(
        shop.db,
        { customerIds: [a.id, b.id], latestPerCustomer: true },
        {},
      );
      expect(page.elements.map((o) => o.id)).to.deep.equal([latestOfA.id, latestOfB.id]);
    });

    it('belongsTo and latestWithProduct answer for the customer (and actor) only', async () => {
      const shop = await getShop();
      const { customer } = await createTestCustomer();
      const { customer: other } = await createTestCustomer();
      const product = await insertProduct();
      const older = await order(customer, product, { orderDate: '2026-01-01T00:00:00.000Z' });
      const newer = await order(customer, product, { actor: employee(newId()), orderDate: '2026-01-02T00:00:00.000Z' });
      expect(await shop.runtime.orders.belongsTo(shop.db, older.id, customer.id)).to.equal(true);
      expect(await shop.runtime.orders.belongsTo(shop.db, older.id, other.id)).to.equal(false);
      expect(await shop.runtime.orders.belongsTo(shop.db, newId(), customer.id)).to.equal(false);

      expect(
        await shop.runtime.orders.latestWithProduct(shop.db, { customerId: customer.id, productId: product.id }),
      ).to.deep.equal({ orderId: newer.id, lineItemId: newer.lines[0]!.id });
      const own = await shop.runtime.orders.latestWithProduct(shop.db, {
        customerId: customer.id,
        productId: product.id,
        placedBy: { type: 'customer', id: customer.id },
      });
      expect(own).to.deep.equal({ orderId: older.id, lineItemId: older.lines[0]!.id });
      expect(
        await shop.runtime.orders.latestWithProduct(shop.db, { customerId: other.id, productId: product.id }),
      ).to.equal(null);
    });

    it('figuresByCustomer and figuresByPeriod sum net revenue in minor units, without cancelled orders', async () => {
      const shop = await getShop();
      const { customer } = await createTestCustomer();
      const { customer: quiet } = await createTestCustomer();
      const product = await insertProduct();
      await order(customer, product, { totalNet: 1000, orderDate: '2026-01-15T12:00:00.000Z' });
      await order(customer, product, { totalNet: 2550, orderDate: '2026-02-15T12:00:00.000Z' });
      await order(customer, product, { totalNet: 9999, orderDate: '2026-02-16T12:00:00.000Z', state: 'cancelled' });

      expect(await shop.runtime.orders.figuresByCustomer(shop.db, [customer.id, quiet.id])).to.deep.equal([
        { customerId: customer.id, orderCount: 2, netTotal: 3550, lastOrderDate: '2026-02-15T12:00:00.000Z' },
      ]);
      const february = await shop.runtime.orders.figuresByCustomer(shop.db, [customer.id], {
        from: '2026-02-01T00:00:00.000Z',
        to: '2026-02-15T12:00:00.000Z',
      });
      expect(february).to.deep.equal([
        { customerId: customer.id, orderCount: 1, netTotal: 2550, lastOrderDate: '2026-02-15T12:00:00.000Z' },
      ]);

      const perMonth = await shop.runtime.orders.figuresByPeriod(shop.db, customer.id, [
        { from: '2026-01-01T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z' },
        { from: '2026-02-01T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z' },
        { from: '2026-03-01T00:00:00.000Z', to: '2026-04-01T00:00:00.000Z' },
      ]);
      expect(perMonth).to.deep.equal([
        { orderCount: 1, netTotal: 1000 },
        { orderCount: 1, netTotal: 2550 },
        { orderCount: 0, netTotal: 0 },
      ]);
    });
  });

  describe('customers', () => {
    it('search: the named customers of a sales channel, active ones only when asked, by criteria', async () => {
      const shop = await getShop();
      const tag = newId().slice(0, 8);
      const { customer: beta } = await createTestCustomer({ company: `Beta ${tag}` });
      const { customer: alpha } = await createTestCustomer({ company: `Alpha ${tag}` });
      const { customer: gone } = await createTestCustomer({ company: `Gamma ${tag}` });
      await shop.db('customers').where({ id: gone.id }).update({ active: false });
      const ids = [beta.id, alpha.id, gone.id];

      const all = await shop.runtime.customers.search(shop.db, { ids }, {});
      expect(all.elements.map((c) => c.id)).to.deep.equal([alpha.id, beta.id, gone.id]);
      expect(all.elements[0]).to.deep.equal(await shop.runtime.customers.get(shop.db, alpha.id));
      const active = await shop.runtime.customers.search(
        shop.db,
        { ids, salesChannelId: alpha.salesChannelId, activeOnly: true },
        { limit: 1 },
      );
      expect(active).to.deep.include({ total: 2, page: 1, limit: 1 });
      expect(active.elements.map((c) => c.id)).to.deep.equal([alpha.id]);
      expect((await shop.runtime.customers.search(shop.db, { ids, salesChannelId: newId() }, {})).total).to.equal(0);
      const byTerm = await shop.runtime.customers.search(
        shop.db,
        { ids },
        { term: `beta ${tag}`, sort: [{ field: 'customerNumber', order: 'DESC' }] },
      );
      expect(byTerm.elements.map((c) => c.id)).to.deep.equal([beta.id]);
      const byNumber = await shop.runtime.customers.search(
        shop.db,
        { ids },
        { filter: [{ type: 'equals', field: 'customerNumber', value: gone.customerNumber }] },
      );
      expect(byNumber.elements.map((c) => c.id)).to.deep.equal([gone.id]);
    });

    it('findByNumbers, defaultAddressIds and customerGroups.getMany', async () => {
      const shop = await getShop();
      const { customer } = await createTestCustomer();
      const found = await shop.runtime.customers.findByNumbers(shop.db, [customer.customerNumber, 'NO-SUCH-NUMBER']);
      expect(found).to.deep.equal([customer]);

      const [address] = await shop.runtime.customers.addresses(shop.db, customer.id);
      expect(await shop.runtime.customers.defaultAddressIds(shop.db, customer.id)).to.deep.equal({
        billing: address!.id,
        shipping: address!.id,
      });
      expect(await shop.runtime.customers.defaultAddressIds(shop.db, newId())).to.deep.equal({
        billing: null,
        shipping: null,
      });

      const groupId = newId();
      await shop.db('customer_groups').insert({ id: groupId, name: 'Resellers', created_at: nowDb() });
      expect(await shop.runtime.customerGroups.getMany(shop.db, [newId(), groupId])).to.deep.equal([
        { id: groupId, name: 'Resellers' },
      ]);
    });
  });

  describe('documents', () => {
    it("getMeta and search: a customer's documents without content, narrowed to an actor's orders plus those of no order", async () => {
      const shop = await getShop();
      const { customer } = await createTestCustomer();
      const product = await insertProduct();
      const eveId = newId();
      const own = await order(customer, product);
      const eves = await order(customer, product, { actor: employee(eveId) });
      const pdf = (number: string, orderId: string | null) =>
        shop.runtime.documents.createPdf(shop.db, {
          type: 'invoice',
          number,
          customerId: customer.id,
          orderId,
          title: `Invoice ${number}`,
          lines: [{ text: 'x' }],
        });
      const tag = newId().slice(0, 8);
      const ownDoc = await pdf(`own-${tag}`, own.id);
      const evesDoc = await pdf(`eve-${tag}`, eves.id);
      const looseDoc = await pdf(`loose-${tag}`, null);

      const [meta] = await shop.runtime.documents.getMeta(shop.db, [ownDoc.id, newId()]);
      expect(meta).to.deep.include({
        id: ownDoc.id,
        fileName: ownDoc.fileName,
        mimeType: 'application/pdf',
        type: 'invoice',
        documentNumber: `own-${tag}`,
        customerId: customer.id,
        orderId: own.id,
        orderNumber: own.orderNumber,
      });
      expect(meta).to.not.have.property('content');

      // Placing an order writes its own documents too; the term keeps to the ones made here.
      const all = await shop.runtime.documents.search(shop.db, { customerId: customer.id }, { term: tag });
      expect(all.elements.map((d) => d.id)).to.have.members([ownDoc.id, evesDoc.id, looseDoc.id]);
      const forEve = await shop.runtime.documents.search(
        shop.db,
        { customerId: customer.id, placedBy: { type: 'employee', id: eveId } },
        { term: tag },
      );
      expect(forEve.elements.map((d) => d.id)).to.have.members([evesDoc.id, looseDoc.id]);
      const everyOfEve = await shop.runtime.documents.search(
        shop.db,
        { customerId: customer.id, placedBy: { type: 'employee', id: eveId } },
        {},
      );
      expect(everyOfEve.elements.every((d) => d.orderId === null || d.orderId === eves.id)).to.equal(true);
      const byOrderNumber = await shop.runtime.documents.search(
        shop.db,
        { customerId: customer.id },
        {
          filter: [
            { type: 'equals', field: 'orderNumber', value: own.orderNumber },
            { type: 'equals', field: 'type', value: 'invoice' },
          ],
          term: tag,
        },
      );
      expect(byOrderNumber.elements).to.deep.equal([meta]);
      expect((await shop.runtime.documents.search(shop.db, { customerId: newId() }, {})).total).to.equal(0);
    });
  });

  describe('CMS pages and catalog lookups', () => {
    it('cms.get names the categories and landing pages that use a page; visibleEntityIds keeps the active ones', async () => {
      const shop = await getShop();
      const pageId = newId();
      await shop.db('cms_pages').insert({
        id: pageId,
        name: 'Layout',
        title: 'Our layout',
        sections: writeJson([{ type: 'text', content: 'Hi' }]),
        created_at: nowDb(),
      });
      const [active, inactive] = [newId(), newId()].sort();
      for (const [id, isActive] of [
        [active!, true],
        [inactive!, false],
      ] as const)
        await shop.db('categories').insert({
          id,
          version_id: newId(),
          name: `Category ${id.slice(0, 6)}`,
          position: 0,
          active: isActive,
          cms_page_id: pageId,
          created_at: nowDb(),
        });
      const landingPageId = newId();
      await shop.db('landing_pages').insert({
        id: landingPageId,
        version_id: newId(),
        name: 'Landing',
        url: `/landing-${landingPageId}`,
        active: true,
        cms_page_id: pageId,
        created_at: nowDb(),
      });

      expect(await shop.runtime.cms.get(shop.db, pageId)).to.deep.equal({
        id: pageId,
        name: 'Layout',
        title: 'Our layout',
        sections: [{ type: 'text', content: 'Hi' }],
        categoryIds: [active, inactive],
        landingPageIds: [landingPageId],
      });
      expect(await shop.runtime.cms.get(shop.db, newId())).to.equal(null);

      const { customer } = await createTestCustomer();
      const ctx = await storeContextFor(customer);
      expect(
        await shop.runtime.catalog.visibleEntityIds(shop.runtime.db, ctx, 'category', [inactive!, active!, newId()]),
      ).to.deep.equal([active]);
      expect(
        await shop.runtime.catalog.visibleEntityIds(shop.runtime.db, ctx, 'landing_page', [landingPageId]),
      ).to.deep.equal([landingPageId]);
    });

    it('productIdsByNumbers finds products by number', async () => {
      const shop = await getShop();
      const product = await insertProduct();
      expect(
        await shop.runtime.catalog.productIdsByNumbers(shop.db, [product.number, 'NO-SUCH-PRODUCT']),
      ).to.deep.equal([{ id: product.id, productNumber: product.number }]);
    });
  });
});
