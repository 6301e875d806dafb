import { expect } from 'chai';
import { DEMO_CUSTOMER, PARTNER_CUSTOMER, PARTNER_GROUP } from '../../examples/vendure-shop/shop.js';
import { DEMO_PURCHASER } from '../../src/plugin/employee/demo.js';
import { DEMO_REPRESENTATIVE } from '../../src/plugin/sales-representative/demo.js';
import { bearer, bootShop, createNameCollection, type ShopClient } from './helpers/shop.js';

/**
 * The catalog and customer calls on Vendure's tables through the plugin routes that use them:
 * fast order search (catalog.searchProducts), product lists (catalog.productIds), the variant list
 * (catalog.variants), the sales representative's customer search (customers.search) and the
 * default address switch (customers.addresses / setDefaultAddress).
 */
describe('Suite B2B catalog and customers inside a Vendure shop', function () {
  this.timeout(60_000);
  let t: ShopClient;
  let buyer: Record<string, string>;
  let partner: Record<string, string>;
  let admin: Record<string, string>;
  const numbersOf = (body: { elements: Array<{ productNumber: string }> }) => body.elements.map((e) => e.productNumber);

  before(async function () {
    this.timeout(240_000);
    t = await bootShop({ label: 'vendure_catalog' });
    buyer = bearer(await t.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    partner = bearer(await t.vendureLogin('shop-api', PARTNER_CUSTOMER.email, PARTNER_CUSTOMER.password));
    admin = bearer(await t.vendureLogin('admin-api', 'superadmin', 'superadmin'));
    // The desk is for the customer group "Partners" only (a partial assortment rule).
    const { data } = await t.gql('shop-api', '{ product(slug: "standing-desk") { variants { id } } }');
    const groups = await t.gql('admin-api', '{ customerGroups { items { id name } } }', {}, admin);
    const group = groups.data.customerGroups.items.find((g: { name: string }) => g.name === PARTNER_GROUP);
    const ids = t.shop.state.ids;
    const assigned = await t.rest('POST', '/b2b-admin-api/suite-partial-assortment-product-rule', admin, {
      productId: ids.toPlugin(data.product.variants[0].id),
      ruleId: ids.toPlugin(group.id),
    });
    expect(assigned.status, JSON.stringify(assigned.body)).to.equal(204);
  });

  after(async function () {
    this.timeout(60_000);
    await t?.close();
  });

  describe('fast order search (catalog.searchProducts)', () => {
    it('matches a number prefix first, then names; prices for the caller; hidden products left out', async () => {
      const byNumber = await t.rest('POST', '/store-api/b2b/fast-order-product-search', buyer, { term: 'pap' });
      expect(byNumber.status, JSON.stringify(byNumber.body)).to.equal(200);
      expect(numbersOf(byNumber.body)).to.deep.equal(['PAPER-001']);
      expect(byNumber.body.elements[0]).to.include({ name: 'Copy Paper A4', stock: 5000 });
      expect(byNumber.body.elements[0].calculatedPrice.unitPrice).to.equal(5.49);

      const all = await t.rest('POST', '/store-api/b2b/fast-order-product-search', buyer, {});
      expect(all.body.total).to.equal(3);
      expect(numbersOf(all.body)).to.deep.equal(['ARM-001', 'CHAIR-001', 'PAPER-001']);
      const forPartner = await t.rest('POST', '/store-api/b2b/fast-order-product-search', partner, {});
      expect(forPartner.body.total).to.equal(4);
      expect(numbersOf(forPartner.body)).to.include('DESK-001');
      const desk = await t.rest('POST', '/store-api/b2b/fast-order-product-search', buyer, { term: 'desk' });
      expect(desk.body.total).to.equal(0);
    });

    it('filters and sorts by product fields (price in the currency, name), pages with a total', async () => {
      const cheap = await t.rest('POST', '/store-api/b2b/fast-order-product-search', partner, {
        filter: [{ type: 'range', field: 'price', parameters: { lt: 100 } }],
        sort: [{ field: 'price', order: 'DESC' }],
      });
      expect(cheap.status, JSON.stringify(cheap.body)).to.equal(200);
      expect(numbersOf(cheap.body)).to.deep.equal(['ARM-001', 'PAPER-001']);
      const page = await t.rest('POST', '/store-api/b2b/fast-order-product-search', partner, {
        sort: [{ field: 'name', order: 'ASC' }],
        limit: 2,
        page: 2,
      });
      expect(page.body.total).to.equal(4);
      expect(page.body.elements.map((e: { name: string }) => e.name)).to.deep.equal(['Office Chair', 'Standing Desk']);
      const unknown = await t.rest('POST', '/store-api/b2b/fast-order-product-search', partner, {
        filter: [{ type: 'equals', field: 'price', value: 'cheap' }],
      });
      expect(unknown.status).to.equal(400);
    });

    it('filters by category (a Vendure collection)', async () => {
      const collectionId = await createNameCollection(t, admin, 'Seating', 'Chair');
      const categoryId = t.shop.state.ids.toPlugin(collectionId);
      // Vendure fills a collection's variants in a job.
      let listed: { body: { elements: Array<{ productNumber: string }> } } = { body: { elements: [] } };
      for (let i = 0; i < 100 && listed.body.elements.length === 0; i++) {
        listed = await t.rest('POST', '/store-api/b2b/fast-order-product-search', buyer, {
          filter: [{ type: 'equals', field: 'categoryId', value: categoryId }],
        });
        if (listed.body.elements.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(numbersOf(listed.body)).to.deep.equal(['CHAIR-001']);
      const outside = await t.rest('POST', '/store-api/b2b/fast-order-product-search', buyer, {
        filter: [{ type: 'not', queries: [{ type: 'equals', field: 'categoryId', value: categoryId }] }],
      });
      expect(numbersOf(outside.body)).to.deep.equal(['ARM-001', 'PAPER-001']);
      await t.settleJobs();
    });

    it("a collection's variants in Vendure's Shop API leave out the variants the caller may not see", async () => {
      await createNameCollection(t, admin, 'Desks', 'Desk');
      const query = '{ collection(slug: "desks") { productVariants { totalItems items { sku } } } }';
      // Vendure fills a collection's variants in a job; the partner (the desk's customer group) sees it once it ran.
      let forPartner = await t.gql('shop-api', query, {}, partner);
      for (let i = 0; i < 100 && forPartner.data?.collection?.productVariants.totalItems !== 1; i++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        forPartner = await t.gql('shop-api', query, {}, partner);
      }
      expect(forPartner.data.collection.productVariants, JSON.stringify(forPartner)).to.deep.equal({
        totalItems: 1,
        items: [{ sku: 'DESK-001' }],
      });
      for (const headers of [buyer, {}]) {
        const other = await t.gql('shop-api', query, {}, headers);
        expect(other.data.collection.productVariants, JSON.stringify(other)).to.deep.equal({
          totalItems: 0,
          items: [],
        });
      }
      await t.settleJobs();
    });

    it('the variant list of a product without variants is empty; a hidden product is a 404', async () => {
      const ids = t.shop.state.ids;
      const { data } = await t.gql('shop-api', '{ products { items { slug variants { id } } } }', {}, partner);
      const variantOf = (slug: string) =>
        ids.toPlugin(data.products.items.find((p: { slug: string }) => p.slug === slug).variants[0].id);
      const chair = await t.rest('GET', `/store-api/variant-list/${variantOf('office-chair')}`, buyer);
      expect(chair.status, JSON.stringify(chair.body)).to.equal(200);
      expect(chair.body.elements).to.deep.equal([]);
      expect(chair.body.parentId).to.equal(variantOf('office-chair'));
      expect((await t.rest('GET', `/store-api/variant-list/${variantOf('standing-desk')}`, buyer)).status).to.equal(
        404,
      );
      expect((await t.rest('GET', `/store-api/variant-list/${variantOf('standing-desk')}`, partner)).status).to.equal(
        200,
      );
    });
    it("a Vendure product's variants are the variant list (options by group), each variant naming the family", async () => {
      const en = (name: string) => [{ languageCode: 'en', name }];
      const group = await t.gql(
        'admin-api',
        'mutation ($input: CreateProductOptionGroupInput!) { createProductOptionGroup(input: $input) { id options { id code } } }',
        {
          input: {
            code: 'size',
            translations: en('Size'),
            options: [
              { code: 'small', translations: en('Small') },
              { code: 'large', translations: en('Large') },
            ],
          },
        },
        admin,
      );
      expect(group.errors, JSON.stringify(group)).to.equal(undefined);
      const product = await t.gql(
        'admin-api',
        'mutation ($input: CreateProductInput!) { createProduct(input: $input) { id } }',
        { input: { translations: [{ languageCode: 'en', name: 'Box File', slug: 'box-file', description: '' }] } },
        admin,
      );
      const productId = product.data.createProduct.id as string;
      await t.gql(
        'admin-api',
        'mutation ($p: ID!, $g: ID!) { addOptionGroupToProduct(productId: $p, optionGroupId: $g) { id } }',
        { p: productId, g: group.data.createProductOptionGroup.id },
        admin,
      );
      const option = (code: string) =>
        group.data.createProductOptionGroup.options.find((o: { code: string }) => o.code === code).id as string;
      const variants = await t.gql(
        'admin-api',
        'mutation ($input: [CreateProductVariantInput!]!) { createProductVariants(input: $input) { id sku } }',
        {
          input: [
            {
              productId,
              sku: 'BOX-L',
              price: 590,
              optionIds: [option('large')],
              translations: en('Box File large'),
              stockOnHand: 50,
            },
            {
              productId,
              sku: 'BOX-S',
              price: 390,
              optionIds: [option('small')],
              translations: en('Box File small'),
              stockOnHand: 50,
            },
          ],
        },
        admin,
      );
      expect(variants.errors, JSON.stringify(variants)).to.equal(undefined);
      const ids = t.shop.state.ids;
      const [large, small] = (variants.data.createProductVariants as Array<{ id: string }>).map((v) =>
        ids.toPlugin(v.id),
      );

      const list = await t.rest('GET', `/store-api/variant-list/${small}`, buyer);
      expect(list.status, JSON.stringify(list.body)).to.equal(200);
      expect(list.body.parentId).to.equal(large);
      expect(list.body.elements.map((e: { productNumber: string }) => e.productNumber)).to.deep.equal([
        'BOX-L',
        'BOX-S',
      ]);
      expect(list.body.elements[1].options).to.deep.equal([
        {
          groupId: ids.toPlugin(group.data.createProductOptionGroup.id),
          group: 'Size',
          optionId: ids.toPlugin(option('small')),
          option: 'Small',
        },
      ]);
      expect(list.body.elements[1].calculatedPrice.unitPrice).to.equal(3.9);
      await t.settleJobs();
    });
  });

  describe('product lists (catalog.productIds)', () => {
    it("searches, filters and sorts a list's items by the products' numbers and names", async () => {
      const created = await t.rest('POST', '/store-api/product-lists/create', partner, {
        name: 'Office',
        items: [
          { articleNumber: 'PAPER-001', quantity: 10 },
          { articleNumber: 'DESK-001', quantity: 1 },
          { articleNumber: 'CHAIR-001', quantity: 2 },
        ],
      });
      expect(created.status, JSON.stringify(created.body)).to.be.oneOf([200, 201]);
      const listId = (created.body.productList ?? created.body).id as string;
      const items = (body: {
        elements: Array<{ productNumber?: string; articleNumber?: string; product?: { productNumber: string } }>;
      }) => body.elements.map((e) => e.articleNumber ?? e.productNumber ?? e.product?.productNumber);

      const sorted = await t.rest('POST', `/store-api/product-list/${listId}/items`, partner, {
        sort: [{ field: 'articleNumber', order: 'DESC' }],
      });
      expect(sorted.status, JSON.stringify(sorted.body)).to.equal(200);
      expect(items(sorted.body)).to.deep.equal(['PAPER-001', 'DESK-001', 'CHAIR-001']);
      const term = await t.rest('POST', `/store-api/product-list/${listId}/items`, partner, { term: 'desk' });
      expect(items(term.body)).to.deep.equal(['DESK-001']);
      const prefix = await t.rest('POST', `/store-api/product-list/${listId}/items`, partner, {
        filter: [{ type: 'prefix', field: 'articleNumber', value: 'CH' }],
      });
      expect(items(prefix.body)).to.deep.equal(['CHAIR-001']);
    });
  });

  describe('customers', () => {
    it("the sales representative's customer search (customers.search) finds the assigned customers by term and filter", async () => {
      const ids = t.shop.state.ids;
      // Assign the partner as well (plugin Admin API), so the search has two customers to tell apart.
      const reps = await t.rest('GET', '/b2b-admin-api/suite-sales-representative', admin);
      expect(reps.status, JSON.stringify(reps.body)).to.equal(200);
      const repId = reps.body.data[0].id as string;
      const customers = await t.gql(
        'admin-api',
        `{ customers(options: { filter: { emailAddress: { eq: "${PARTNER_CUSTOMER.email}" } } }) { items { id } } }`,
        {},
        admin,
      );
      const partnerId = ids.toPlugin(customers.data.customers.items[0].id);
      const assigned = await t.rest('POST', `/b2b-admin-api/suite-sales-representative/${repId}/customers`, admin, {
        customerIds: [partnerId],
      });
      expect(assigned.status, JSON.stringify(assigned.body)).to.equal(200);

      const rep = {
        'suite-context-token': await t.pluginLogin(DEMO_REPRESENTATIVE.email, DEMO_REPRESENTATIVE.password),
      };
      const all = await t.rest('POST', '/store-api/sales-representative/customer-search', rep, {});
      expect(all.status, JSON.stringify(all.body)).to.equal(200);
      expect(all.body.total).to.equal(2);
      const byTerm = await t.rest('POST', '/store-api/sales-representative/customer-search', rep, { term: 'partner' });
      expect(byTerm.body.elements.map((c: { email: string }) => c.email)).to.deep.equal([PARTNER_CUSTOMER.email]);
      expect(byTerm.body.elements[0]).to.include({
        id: partnerId,
        firstName: PARTNER_CUSTOMER.firstName,
        customerNumber: customers.data.customers.items[0].id,
      });
      const sorted = await t.rest('POST', '/store-api/sales-representative/customer-search', rep, {
        sort: [{ field: 'lastName', order: 'ASC' }],
      });
      expect(sorted.body.elements.map((c: { lastName: string }) => c.lastName)).to.deep.equal([
        DEMO_CUSTOMER.lastName,
        PARTNER_CUSTOMER.lastName,
      ]);
      const byGroup = await t.rest('POST', '/store-api/sales-representative/customer-search', rep, {
        filter: [{ type: 'equals', field: 'groupId', value: null }],
      });
      expect(byGroup.body.elements.map((c: { email: string }) => c.email)).to.deep.equal([DEMO_CUSTOMER.email]);
    });

    it("switches the customer's default billing address in Vendure; another customer's address is a 404", async () => {
      const address = 'mutation ($input: CreateAddressInput!) { createCustomerAddress(input: $input) { id } }';
      const input = (street: string) => ({
        fullName: 'Bea Buyer',
        company: 'Demo Company',
        streetLine1: street,
        city: 'Berlin',
        postalCode: '10115',
        countryCode: 'DE',
      });
      const first = await t.gql('shop-api', address, { input: input('Hauptstr. 1') }, buyer);
      const second = await t.gql('shop-api', address, { input: input('Nebenstr. 2') }, buyer);
      expect(second.errors, JSON.stringify(second)).to.equal(undefined);
      const ids = t.shop.state.ids;
      const purchaser = { 'suite-context-token': await t.pluginLogin(DEMO_PURCHASER.email, DEMO_PURCHASER.password) };
      for (const [headers, id] of [
        [buyer, first.data.createCustomerAddress.id],
        [purchaser, second.data.createCustomerAddress.id],
      ] as const) {
        const switched = await t.rest('GET', `/store-api/b2b/address/switch-billing/${ids.toPlugin(id)}`, headers);
        expect(switched.status, JSON.stringify(switched.body)).to.equal(200);
        const customer = await t.gql(
          'shop-api',
          '{ activeCustomer { addresses { id defaultBillingAddress } } }',
          {},
          buyer,
        );
        const defaults = customer.data.activeCustomer.addresses
          .filter((a: { defaultBillingAddress: boolean }) => a.defaultBillingAddress)
          .map((a: { id: string }) => a.id);
        expect(defaults).to.deep.equal([id]);
      }
      const foreign = await t.rest(
        'GET',
        `/store-api/b2b/address/switch-shipping/${ids.toPlugin(first.data.createCustomerAddress.id)}`,
        partner,
      );
      expect(foreign.status).to.equal(404);
    });
  });

  describe('documents (documents.*, an adapter table)', () => {
    it("the representative sends the demo offer: its PDF is in the customer's documents and downloads; not another customer's", async () => {
      const rep = {
        'suite-context-token': await t.pluginLogin(DEMO_REPRESENTATIVE.email, DEMO_REPRESENTATIVE.password),
      };
      const offers = await t.rest('POST', '/store-api/offer/list', rep, {});
      expect(offers.status, JSON.stringify(offers.body)).to.equal(200);
      const offer = offers.body.elements[0] as { id: string };
      const sent = await t.rest('POST', `/store-api/offer-mail/${offer.id}`, rep, { message: null });
      expect(sent.status, JSON.stringify(sent.body)).to.equal(200);

      const listed = await t.rest('POST', '/store-api/customer-documents/', buyer, {});
      expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
      expect(listed.body.total).to.equal(1);
      const [document] = listed.body.elements as Array<{
        id: string;
        type: string;
        downloadPath: string;
        orderNumber: string | null;
      }>;
      expect(document).to.include({ id: sent.body.documentId, type: 'offer', orderNumber: null });
      const pdf = await fetch(`${t.shop.url}${document!.downloadPath}`, { headers: buyer });
      expect(pdf.status).to.equal(200);
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).to.equal('%PDF-');
      expect((await t.rest('POST', '/store-api/customer-documents/', partner, {})).body.total).to.equal(0);
      expect((await fetch(`${t.shop.url}${document!.downloadPath}`, { headers: partner })).status).to.equal(404);
    });
  });

  describe('partial-assortment rules attached to an organisation unit (decision 0028)', () => {
    it("an employee of a unit the operator attached the Partners rule to sees the partners' desk; detached, it is gone", async () => {
      const purchaser = await t.employeeHeaders(DEMO_PURCHASER.email, DEMO_PURCHASER.password);
      const employees = await t.rest('POST', '/store-api/b2b/employees', buyer, {
        filter: [{ type: 'equals', field: 'email', value: DEMO_PURCHASER.email }],
      });
      const employeeId = employees.body.elements[0].id as string;
      const unit = await t.rest('POST', '/store-api/b2b/organisation-unit', buyer, { name: 'Partner desk team' });
      expect(unit.status, JSON.stringify(unit.body)).to.equal(200);
      const unitId = unit.body.unit.id as string;
      expect(
        (await t.rest('PUT', `/store-api/b2b/organisation-unit/${unitId}/member/${employeeId}`, buyer, {})).status,
      ).to.equal(200);
      const groups = await t.gql('admin-api', '{ customerGroups { items { id name } } }', {}, admin);
      const partners = groups.data.customerGroups.items.find((g: { name: string }) => g.name === PARTNER_GROUP);
      const rules = `/b2b-admin-api/b2b/organisation-unit/${unitId}/partial-assortment-rules`;
      const desk = async () => {
        const found = await t.rest('POST', '/store-api/b2b/fast-order-product-search', purchaser, { term: 'desk' });
        const shop = await t.gql('shop-api', '{ products { items { slug } } }', {}, purchaser);
        const inShop = (shop.data.products.items as Array<{ slug: string }>).some((p) => p.slug === 'standing-desk');
        expect(inShop, 'the Shop API agrees with the Store API').to.equal(found.body.total === 1);
        return inShop;
      };
      expect(await desk()).to.equal(false);
      const attached = await t.rest('PUT', rules, admin, { ruleIds: [t.shop.state.ids.toPlugin(partners.id)] });
      expect(attached.status, JSON.stringify(attached.body)).to.equal(200);
      expect(await desk()).to.equal(true);
      expect((await t.rest('PUT', rules, admin, { ruleIds: [] })).status).to.equal(200);
      expect(await desk()).to.equal(false);
    });
  });
});
