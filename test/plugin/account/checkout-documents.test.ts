import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { nowDb } from '../../../src/lib/time.js';
import { expectError, getShop } from '../../helpers/shop.js';
import {
  as,
  createEmployee,
  employeeWith,
  loginAs,
  newCustomer,
  orderAs,
  representativeWith,
  type Customer,
} from '../sales-representative/helpers.js';

async function addAddress(customer: Customer, city: string): Promise<string> {
  const id = newId();
  await (await getShop()).db('customer_addresses').insert({
    id,
    customer_id: customer.customer.id,
    company: null,
    first_name: 'Second',
    last_name: 'Address',
    street: 'Other Street 2',
    zipcode: '54321',
    city,
    country_code: 'DE',
    created_at: nowDb(),
  });
  return id;
}

async function invoiceOf(orderId: string): Promise<{ file_name: string; id: string }> {
  return (await getShop()).db('documents').where({ order_id: orderId, type: 'invoice' }).first('id', 'file_name');
}

describe('account: address switch, express checkout, customer documents', () => {
  describe('GET /b2b/address/switch-{type}/{addressId}', () => {
    it('makes an address the default billing or shipping address, which the next order uses', async () => {
      const customer = await newCustomer();
      const munich = await addAddress(customer, 'Munich');
      const billing = await (await as(customer.token)).get(`/b2b/address/switch-billing/${munich}`);
      expect(billing.status).to.equal(200);
      expect(billing.body).to.deep.equal({ success: true });
      const account = await (await as(customer.token)).get('/account/customer');
      expect(account.body.defaultBillingAddressId).to.equal(munich);
      expect(account.body.defaultShippingAddressId).to.not.equal(munich);
      expect((await (await as(customer.token)).get(`/b2b/address/switch-shipping/${munich}`)).status).to.equal(200);
      expect((await (await as(customer.token)).get('/account/customer')).body.defaultShippingAddressId).to.equal(
        munich,
      );
      const orderId = await orderAs(customer.token);
      const order = await (await as(customer.token)).get(`/order/${orderId}`);
      expect(order.body.billingAddress.city).to.equal('Munich');
    });

    it('refuses another customer’s address (404), bad input (400), guests (401) and employees without orders.create (403)', async () => {
      const customer = await newCustomer();
      const stranger = await newCustomer();
      const theirs = await addAddress(stranger, 'Elsewhere');
      expectError(await (await as(customer.token)).get(`/b2b/address/switch-billing/${theirs}`), 404);
      expectError(await (await as(customer.token)).get(`/b2b/address/switch-billing/${newId()}`), 404);
      expectError(await (await as(customer.token)).get(`/b2b/address/switch-delivery/${theirs}`), 400);
      expectError(await (await as(customer.token)).get('/b2b/address/switch-billing/nope'), 400);
      expectError(await (await as(null)).get(`/b2b/address/switch-billing/${theirs}`), 401);
      const reader = await employeeWith(['orders.read'], customer);
      expectError(
        await (await as(reader.token)).get(`/b2b/address/switch-billing/${await addAddress(customer, 'Bonn')}`),
        403,
        'SUITE__PERMISSION_DENIED',
      );
    });
  });

  describe('GET|PATCH /express-checkout-setting', () => {
    it('keeps settings per customer and buyer, with defaults before the first change', async () => {
      const customer = await newCustomer();
      const client = await as(customer.token);
      expect((await client.get('/express-checkout-setting')).body).to.deep.equal({
        enabled: false,
        defaultPaymentMethod: null,
        defaultShippingMethod: null,
        defaultBillingAddressId: null,
        defaultShippingAddressId: null,
      });
      const address = await addAddress(customer, 'Hamburg');
      const patched = await client.patch('/express-checkout-setting', {
        enabled: true,
        defaultPaymentMethod: 'invoice',
        defaultShippingMethod: 'standard',
        defaultShippingAddressId: address,
      });
      expect(patched.status).to.equal(200);
      expect(patched.body).to.deep.equal({ success: true });
      await client.patch('/express-checkout-setting', { defaultBillingAddressId: address });
      await client.patch('/express-checkout-setting', { defaultShippingAddressId: null });
      expect((await client.get('/express-checkout-setting')).body).to.deep.equal({
        enabled: true,
        defaultPaymentMethod: 'invoice',
        defaultShippingMethod: 'standard',
        defaultBillingAddressId: address,
        defaultShippingAddressId: null,
      });

      const buyer = await employeeWith(['orders.create'], customer);
      expect((await (await as(buyer.token)).get('/express-checkout-setting')).body.enabled).to.equal(false);
      await (
        await as(buyer.token)
      ).patch('/express-checkout-setting', { enabled: true, defaultShippingAddressId: address });
      expect((await (await as(buyer.token)).get('/express-checkout-setting')).body).to.include({
        enabled: true,
        defaultShippingAddressId: address,
        defaultBillingAddressId: null,
      });
      expect((await client.get('/express-checkout-setting')).body.defaultShippingAddressId).to.equal(null);
    });

    it('survives concurrent first changes (one row per buyer)', async () => {
      const customer = await newCustomer();
      const results = await Promise.all(
        [true, false, true, false, true].map(async (enabled) =>
          (await as(customer.token)).patch('/express-checkout-setting', { enabled }),
        ),
      );
      expect(results.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 200]);
      expect(
        await (await getShop()).db('b2b_express_checkout_settings').where({ customer_id: customer.customer.id }),
      ).to.have.length(1);
    });

    it('refuses other customers’ addresses (404), bad input (400), guests (401) and employees without orders.create (403)', async () => {
      const customer = await newCustomer();
      const stranger = await newCustomer();
      const theirs = await addAddress(stranger, 'Elsewhere');
      const client = await as(customer.token);
      const refused = expectError(
        await client.patch('/express-checkout-setting', { defaultBillingAddressId: theirs }),
        404,
      );
      expect(refused.source?.pointer).to.equal('/defaultBillingAddressId');
      expectError(await client.patch('/express-checkout-setting', {}), 400);
      expectError(await client.patch('/express-checkout-setting', { defaultPaymentMethod: 'cash' }), 400);
      expectError(await client.patch('/express-checkout-setting', { enabled: 'yes' }), 400);
      expectError(await client.patch('/express-checkout-setting', { defaultShippingAddressId: 'x' }), 400);
      expect((await client.get('/express-checkout-setting')).body.defaultBillingAddressId).to.equal(null);
      expectError(await (await as(null)).get('/express-checkout-setting'), 401);
      expectError(await (await as(null)).patch('/express-checkout-setting', { enabled: true }), 401);
      const reader = await employeeWith(['orders.read'], customer);
      expectError(await (await as(reader.token)).get('/express-checkout-setting'), 403);
      expectError(await (await as(reader.token)).patch('/express-checkout-setting', { enabled: true }), 403);
    });
  });

  describe('customer documents', () => {
    it('lists the customer’s invoices and downloads them by file name', async () => {
      const customer = await newCustomer();
      const first = await orderAs(customer.token);
      const second = await orderAs(customer.token);
      await orderAs((await newCustomer()).token);
      const res = await (await as(customer.token)).post('/customer-documents/', {});
      expect(res.status).to.equal(200);
      expect(res.body.total).to.equal(2);
      expect(res.body.elements.map((d: { orderId: string }) => d.orderId)).to.deep.equal([second, first]);
      const invoice = res.body.elements[1];
      expect(invoice).to.include({
        type: 'invoice',
        mimeType: 'application/pdf',
        fileName: (await invoiceOf(first)).file_name,
      });
      expect(invoice.downloadPath).to.equal(`/store-api/customer-document/${invoice.fileName}`);

      const filtered = await (
        await as(customer.token)
      ).post('/customer-documents', { filter: [{ type: 'equals', field: 'orderId', value: first }] });
      expect(filtered.body.elements.map((d: { orderId: string }) => d.orderId)).to.deep.equal([first]);
      const byNumber = await (await as(customer.token)).post('/customer-documents/', { term: invoice.documentNumber });
      expect(byNumber.body.elements.map((d: { id: string }) => d.id)).to.deep.equal([invoice.id]);

      const pdf = await (await as(customer.token)).get(`/customer-document/${invoice.fileName}`).buffer(true);
      expect(pdf.status).to.equal(200);
      expect(pdf.headers['content-type']).to.equal('application/pdf');
      expect(pdf.headers['content-disposition']).to.contain(invoice.fileName);
      expect(Buffer.from(pdf.body).subarray(0, 5).toString()).to.equal('%PDF-');
    });

    it('shows an employee without orders.read-all only the documents of their own orders; a representative all', async () => {
      const { customers, token: repToken } = await representativeWith(1);
      const owner = customers[0]!;
      const employee = await createEmployee(owner.token, { permissions: ['orders.create', 'orders.read'] });
      const employeeToken = await loginAs(employee.email, employee.password);
      const own = await orderAs(employeeToken);
      const company = await orderAs(owner.token);
      const mine = await (await as(employeeToken)).post('/customer-documents/', {});
      expect(mine.body.elements.map((d: { orderId: string }) => d.orderId)).to.deep.equal([own]);
      const companyInvoice = await invoiceOf(company);
      expectError(await (await as(employeeToken)).get(`/customer-document/${companyInvoice.file_name}`), 404);
      expect(
        (await (await as(employeeToken)).get(`/customer-document/${(await invoiceOf(own)).file_name}`)).status,
      ).to.equal(200);
      const supervisor = await employeeWith(['orders.read-all'], owner);
      expect((await (await as(supervisor.token)).post('/customer-documents/', {})).body.total).to.equal(2);
      expect((await (await as(repToken)).post('/customer-documents/', {})).body.total).to.equal(2);
      expect((await (await as(repToken)).get(`/customer-document/${companyInvoice.file_name}`)).status).to.equal(200);
    });

    it('refuses another customer’s file (404), unsafe names and bad criteria (400), guests (401) and missing orders.read (403)', async () => {
      const customer = await newCustomer();
      const stranger = await newCustomer();
      const theirs = await invoiceOf(await orderAs(stranger.token));
      expectError(await (await as(customer.token)).get(`/customer-document/${theirs.file_name}`), 404);
      expectError(await (await as(customer.token)).get('/customer-document/missing-file.pdf'), 404);
      expect(
        (
          await (
            await as(customer.token)
          ).post('/customer-documents/', { filter: [{ type: 'equals', field: 'id', value: theirs.id }] })
        ).body,
      ).to.deep.equal({
        total: 0,
        page: 1,
        limit: 25,
        elements: [],
        aggregations: {},
        apiAlias: 'dal_entity_search_result',
      });
      for (const name of ['..%2F..%2Fetc%2Fpasswd', '.hidden.pdf', 'a..pdf', 'a%20b.pdf'])
        expectError(await (await as(customer.token)).get(`/customer-document/${name}`), 400);
      expectError(await (await as(customer.token)).post('/customer-documents/', { limit: 0 }), 400);
      expectError(
        await (
          await as(customer.token)
        ).post('/customer-documents/', { filter: [{ type: 'equals', field: 'content', value: 'x' }] }),
        400,
      );
      expectError(await (await as(null)).post('/customer-documents/', {}), 401);
      expectError(await (await as(null)).get(`/customer-document/${theirs.file_name}`), 401);
      const noRights = await employeeWith(['employee.read'], customer);
      expectError(await (await as(noRights.token)).post('/customer-documents/', {}), 403);
      expectError(await (await as(noRights.token)).get(`/customer-document/${theirs.file_name}`), 403);
    });
  });
});
