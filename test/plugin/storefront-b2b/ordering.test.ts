import { expect } from 'chai';
import { addToCart, insertProduct, placeOrder } from '../../helpers/checkout.js';
import { getShop } from '../../helpers/shop.js';
import { admin } from '../sales-representative/helpers.js';
import { as } from '../employee/helpers.js';
import { companyAdmin, decoded, employeeBrowser, expectPage, expectRefused, newCustomer, textOf } from './helpers.js';

const cartLines = (html: string) => [...html.matchAll(/data-test="cart-line" data-line-id="[0-9a-f]{32}"/g)].length;

describe('storefront B2B: fast order, product lists, customer product numbers, prices and documents pages', function () {
  this.timeout(60000);
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  describe('fast order', () => {
    it('adds many lines by shop and customer product number (fields and a pasted CSV) to the cart', async () => {
      const { customer, browser } = await companyAdmin();
      const [a, b, c] = [await insertProduct(), await insertProduct(), await insertProduct()];
      expect(
        (
          await (
            await as(customer.token)
          ).post('/b2b/customer-product-number', { productId: c.id, customerProductNumber: 'OUR-C' })
        ).status,
      ).to.equal(200);
      expect(expectPage(await browser.get('/account/fast-order')))
        .to.contain('data-test="fast-order"')
        .and.contain('name="lines"');
      const res = await browser.post('/account/fast-order', {
        productNumber: [a.number, '', '', '', ''],
        quantity: ['2', '', '', '', ''],
        lines: `product_number;quantity\n${b.number};3\nOUR-C,4\n`,
      });
      expect(res.status, textOf(res.text)).to.equal(303);
      expect(res.headers.location).to.equal('/cart?done=added');
      const cart = expectPage(await browser.get('/cart'));
      expect(cartLines(cart)).to.equal(3);
      expect(textOf(cart)).to.contain(a.name).and.contain(b.name).and.contain('OUR-C');
    });

    it('reports lines it could not add and keeps them in the form; a malformed line adds nothing', async () => {
      const { browser } = await companyAdmin();
      const a = await insertProduct();
      const malformed = await browser.post('/account/fast-order', { lines: `${a.number};2\n${a.number};many` });
      expect(malformed.status).to.equal(400);
      expect(textOf(malformed.text)).to.contain('Line 2: the quantity');
      expect(cartLines(expectPage(await browser.get('/cart')))).to.equal(0);
      const unknown = await browser.post('/account/fast-order', { lines: `${a.number};2\nNO-SUCH-NUMBER;1` });
      expect(unknown.status).to.equal(400);
      expect(unknown.text).to.contain('data-test="fast-order-failed"').and.contain('NO-SUCH-NUMBER');
      expect(decoded(unknown.text)).to.match(
        /<textarea id="fast-lines" name="lines" rows="8">NO-SUCH-NUMBER;1<\/textarea>/,
      );
      expect(cartLines(expectPage(await browser.get('/cart'))), 'the good line is in the cart').to.equal(1);
      expect((await browser.post('/account/fast-order', {})).status).to.equal(400);
    });

    it('needs orders.create (403)', async () => {
      const customer = await newCustomer();
      const { browser } = await employeeBrowser(customer, ['orders.read']);
      expectRefused(await browser.get('/account/fast-order'), 403);
      expectRefused(await browser.post('/account/fast-order', { lines: 'X;1' }), 403);
      expect(expectPage(await browser.get('/account'))).not.to.contain('href="/account/fast-order"');
    });
  });

  describe('product lists', () => {
    it('creates a list, adds from the product page and by number, saves the cart as a list, puts a list into the cart', async () => {
      const { browser } = await companyAdmin();
      const [a, b] = [await insertProduct(), await insertProduct()];
      const productPage = expectPage(await browser.get(`/product/${a.id}`));
      expect(decoded(productPage)).to.contain(`href="/account/product-lists/add?productId=${a.id}"`);

      const created = await browser.post('/account/product-lists', { name: 'Monthly' });
      expect(created.status, textOf(created.text)).to.equal(303);
      const listUrl = created.headers.location!.replace(/\?.*$/, '');
      expect(listUrl).to.match(/^\/account\/product-lists\/[0-9a-f]{32}$/);
      const listId = listUrl.split('/').pop()!;

      const addPage = expectPage(await browser.get(`/account/product-lists/add?productId=${a.id}`));
      expect(addPage).to.contain(`<option value="${listId}">Monthly (0 products)</option>`);
      expect(
        (await browser.post('/account/product-lists/add', { productId: a.id, quantity: '3', listId })).status,
      ).to.equal(303);
      expect((await browser.post(`${listUrl}/items`, { articleNumber: b.number, quantity: '2' })).status).to.equal(303);
      const list = expectPage(await browser.get(listUrl));
      expect(textOf(list)).to.contain(`${a.name} ${a.number} 3`).and.contain(`${b.name} ${b.number} 2`);

      const badNumber = await browser.post(`${listUrl}/items`, { articleNumber: 'NOPE-404', quantity: '1' });
      expect(badNumber.status).to.be.oneOf([400, 404]);

      expect((await browser.post(`${listUrl}/to-cart`)).headers.location).to.equal('/cart?done=added');
      const cart = expectPage(await browser.get('/cart'));
      expect(cartLines(cart)).to.equal(2);
      expect(decoded(cart)).to.contain('href="/account/product-lists/add?fromCart=1"');

      expect(expectPage(await browser.get('/account/product-lists/add?fromCart=1'))).to.contain(
        'The 2 products of your cart',
      );
      const fromCart = await browser.post('/account/product-lists/add', { fromCart: '1', name: 'From the cart' });
      expect(fromCart.status).to.equal(303);
      expect(textOf(expectPage(await browser.get(fromCart.headers.location!))))
        .to.contain('From the cart')
        .and.contain('The cart was saved as a product list.')
        .and.contain(a.number);

      const itemRemove = /action="(\/account\/product-lists\/[0-9a-f]{32}\/items\/[0-9a-f]{32}\/remove)"/.exec(
        list,
      )![1]!;
      expect((await browser.post(itemRemove)).status).to.equal(303);
      expect((await browser.post(`${listUrl}/rename`, { name: 'Weekly' })).status).to.equal(303);
      expect(textOf(expectPage(await browser.get('/account/product-lists')))).to.contain('Weekly 1');
      expect((await browser.post(`${listUrl}/delete`)).status).to.equal(303);
      expectRefused(await browser.get(listUrl), 404);
    });

    it("needs product-list.manage (403); another customer's list is a 404", async () => {
      const { customer, browser } = await companyAdmin();
      const stranger = await newCustomer();
      const theirs = await (await as(stranger.token)).post('/product-lists/create', { name: 'Theirs' });
      expect(theirs.status).to.equal(200);
      const theirId = theirs.body.productList.id;
      expectRefused(await browser.get(`/account/product-lists/${theirId}`), 404);
      expectRefused(await browser.post(`/account/product-lists/${theirId}/to-cart`), 404);
      expectRefused(await browser.post(`/account/product-lists/${theirId}/delete`), 404);
      expectRefused(await browser.get('/account/product-lists/add?productId=ffffffffffffffffffffffffffffffff'), 404);

      const { browser: buyer } = await employeeBrowser(customer, ['orders.create']);
      expectRefused(await buyer.get('/account/product-lists'), 403);
      expectRefused(await buyer.post('/account/product-lists', { name: 'x' }), 403);
      const product = await insertProduct();
      expectRefused(await buyer.get(`/account/product-lists/add?productId=${product.id}`), 403);
      expect(expectPage(await buyer.get(`/product/${product.id}`)), 'no link to a page the role does not allow')
        .to.contain('data-test="add-to-cart"')
        .and.not.contain('data-test="add-to-product-list"');
      expect((await buyer.post('/cart/add', { productId: product.id, quantity: '1' })).status).to.equal(303);
      expect(expectPage(await buyer.get('/cart'))).not.to.contain('data-test="save-as-product-list"');
    });
  });

  describe('customer product numbers', () => {
    it('adds, edits, imports and deletes numbers; a bad CSV line changes nothing', async () => {
      const { browser } = await companyAdmin();
      const [a, b] = [await insertProduct(), await insertProduct()];
      expect(
        (
          await browser.post('/account/customer-product-numbers/add', {
            productNumber: a.number,
            customerProductNumber: 'MY-A',
          })
        ).status,
      ).to.equal(303);
      let page = expectPage(await browser.get('/account/customer-product-numbers?done=saved'));
      expect(textOf(page)).to.contain(`${a.name} ${a.number}`).and.contain('The number was saved.');
      expect(page).to.contain('value="MY-A"');

      expect(
        (
          await browser.post('/account/customer-product-numbers/save', {
            productId: a.id,
            customerProductNumber: 'MY-A2',
          })
        ).status,
      ).to.equal(303);
      expect(expectPage(await browser.get('/account/customer-product-numbers'))).to.contain('value="MY-A2"');

      const taken = await browser.post('/account/customer-product-numbers/add', {
        productNumber: b.number,
        customerProductNumber: 'my-a2',
      });
      expect(taken.status).to.equal(400);
      expect(taken.text).to.contain('data-test="form-error"');

      const bad = await browser.post('/account/customer-product-numbers/import', {
        csv: `product_number,customer_product_number\n${b.number},MY-B\nNO-SUCH,MY-X\n`,
      });
      expect(bad.status).to.equal(400);
      expect(textOf(bad.text)).to.contain('Line 3');
      expect(expectPage(await browser.get('/account/customer-product-numbers'))).not.to.contain('value="MY-B"');
      expect(
        (
          await browser.post('/account/customer-product-numbers/import', {
            csv: `product_number;customer_product_number\n${b.number};MY-B\n`,
          })
        ).status,
      ).to.equal(303);
      page = expectPage(await browser.get('/account/customer-product-numbers?q=MY-B'));
      expect(page).to.contain('value="MY-B"').and.not.contain('value="MY-A2"');

      const remove = /action="(\/account\/customer-product-numbers\/[0-9a-f]{32}\/delete)"/.exec(page)![1]!;
      expect((await browser.post(remove)).status).to.equal(303);
      expect(expectPage(await browser.get('/account/customer-product-numbers'))).not.to.contain('value="MY-B"');
    });

    it("needs customer-product-number.manage (403); another customer's number is a 404", async () => {
      const { customer, browser } = await companyAdmin();
      const stranger = await newCustomer();
      const product = await insertProduct();
      const theirs = await (
        await as(stranger.token)
      ).post('/b2b/customer-product-number', { productId: product.id, customerProductNumber: 'THEIRS' });
      expectRefused(
        await browser.post(`/account/customer-product-numbers/${theirs.body.customerProductNumber.id}/delete`),
        404,
      );
      expect(expectPage(await browser.get('/account/customer-product-numbers'))).not.to.contain('THEIRS');
      const { browser: buyer } = await employeeBrowser(customer, ['orders.create']);
      expectRefused(await buyer.get('/account/customer-product-numbers'), 403);
      expectRefused(await buyer.post('/account/customer-product-numbers/import', { csv: 'x' }), 403);
    });
  });

  describe('customer prices and documents', () => {
    it("shows the company's own prices; needs orders.create", async () => {
      const { customer, browser } = await companyAdmin();
      const product = await insertProduct({ priceNet: 2000 });
      expect(
        (
          await (
            await admin()
          ).post('/suite-customer-price', {
            customerId: customer.customer.id,
            productId: product.id,
            minQuantity: 10,
            price: 17.5,
          })
        ).status,
      ).to.equal(201);
      const page = textOf(expectPage(await browser.get('/account/customer-prices')));
      expect(page).to.contain(`${product.name} ${product.number} 10 €17.50 Your company`);
      expect(textOf(expectPage(await browser.get('/account/customer-prices?q=nothing-like-this')))).to.contain(
        'No prices of your own',
      );
      const { browser: reader } = await employeeBrowser(customer, ['orders.read']);
      expectRefused(await reader.get('/account/customer-prices'), 403);
      const stranger = await companyAdmin();
      expect(textOf(expectPage(await stranger.browser.get('/account/customer-prices')))).not.to.contain(product.number);
    });

    it("lists the invoices and downloads one; needs orders.read; another customer's file is a 404", async () => {
      const { customer, browser } = await companyAdmin();
      const product = await insertProduct();
      expect((await addToCart(customer.token, [{ productId: product.id, quantity: 1 }])).status).to.be.oneOf([
        200, 201,
      ]);
      expect((await placeOrder(customer.token)).status).to.equal(200);
      const page = expectPage(await browser.get('/account/documents'));
      const href = /href="(\/account\/documents\/(invoice-[^"]+\.pdf))" data-test="document-download"/.exec(page);
      expect(href, page.slice(0, 200)).to.not.equal(null);
      const pdf = await browser.agent.get(href![1]!).buffer(true);
      expect(pdf.status).to.equal(200);
      expect(pdf.headers['content-type']).to.contain('application/pdf');
      expect(pdf.headers['content-disposition']).to.contain('attachment');

      const stranger = await companyAdmin();
      expectRefused(await stranger.browser.get(href![1]!), 404);
      expectRefused(await stranger.browser.get('/account/documents/..%2Fsecret'), 404);
      const { browser: buyer } = await employeeBrowser(customer, ['orders.create']);
      expectRefused(await buyer.get('/account/documents'), 403);
      expectRefused(await buyer.get(href![1]!), 403);
    });
  });
});
