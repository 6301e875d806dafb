import { expect } from 'chai';
import { insertProduct } from '../../helpers/checkout.js';
import { getShop } from '../../helpers/shop.js';
import { createRole, uniqueEmail } from '../employee/helpers.js';
import { companyAdmin, employeeBrowser, expectPage, expectRefused, textOf } from './helpers.js';

const cartLines = (html: string) => [...html.matchAll(/data-test="cart-line" data-line-id="[0-9a-f]{32}"/g)].length;

describe('storefront B2B: CSV files uploaded with a file input (multipart/form-data)', function () {
  this.timeout(60000);
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('imports employees from an uploaded file; a file with a bad line changes nothing and comes back to correct', async () => {
    const { customer, browser } = await companyAdmin();
    await createRole(customer.token, ['orders.read'], { name: 'Readers' });
    const page = expectPage(await browser.get('/account/employees'));
    expect(page).to.contain('enctype="multipart/form-data"').and.contain('type="file"').and.contain('name="csvFile"');

    const email = uniqueEmail('uploaded');
    const bad = await browser.upload(
      '/account/employees/import',
      {},
      {
        csvFile: {
          fileName: 'staff.csv',
          content: `\uFEFFemail,first_name,last_name,department,role,active\n${email},Ulla,Upload,Sales,Readers,true\nbroken,,,,,\n`,
        },
      },
    );
    expect(bad.status).to.equal(400);
    expect(textOf(bad.text)).to.contain('Line 3');
    expect(bad.text, 'the file content is shown in the text area to correct it').to.contain(email);
    expect(textOf(expectPage(await browser.get('/account/employees')))).not.to.contain(email);

    const good = await browser.upload(
      '/account/employees/import',
      { csv: '' },
      {
        csvFile: {
          fileName: 'staff.csv',
          content: `\uFEFFemail;first_name;last_name;department;role;active\r\n${email};Ulla;Upload;Sales;Readers;true\r\n`,
        },
      },
    );
    expect(good.status, textOf(good.text)).to.equal(303);
    expect(textOf(expectPage(await browser.get('/account/employees?done=imported'))))
      .to.contain('The CSV file was imported.')
      .and.contain(`${email} Sales Readers`);

    const pasted = await browser.upload('/account/employees/import', {
      csv: `email,first_name,last_name,department,role,active\n${uniqueEmail('pasted')},Pia,Paste,,,true\n`,
    });
    expect(pasted.status, 'the pasted text still works when no file is chosen').to.equal(303);
  });

  it('imports customer product numbers and fills the fast order from uploaded files', async () => {
    const { browser } = await companyAdmin();
    const [a, b] = [await insertProduct(), await insertProduct()];
    await browser.get('/account/customer-product-numbers');
    const imported = await browser.upload(
      '/account/customer-product-numbers/import',
      {},
      { csvFile: { fileName: 'numbers.csv', content: `product_number,customer_product_number\n${a.number},UP-A\n` } },
    );
    expect(imported.status, textOf(imported.text)).to.equal(303);
    expect(expectPage(await browser.get('/account/customer-product-numbers?q=UP-A'))).to.contain('value="UP-A"');

    const form = expectPage(await browser.get('/account/fast-order'));
    expect(form).to.contain('enctype="multipart/form-data"').and.contain('name="csvFile"');
    const added = await browser.upload(
      '/account/fast-order',
      { productNumber: ['', '', '', '', ''], quantity: ['', '', '', '', ''], lines: '' },
      { csvFile: { fileName: 'order.csv', content: `product_number;quantity\nUP-A;2\n${b.number};5\n` } },
    );
    expect(added.status, textOf(added.text)).to.equal(303);
    const cart = expectPage(await browser.get('/cart'));
    expect(cartLines(cart)).to.equal(2);
    expect(textOf(cart)).to.contain('Your number: UP-A');

    const rows = await browser.upload('/account/fast-order', {
      productNumber: [b.number, '', '', '', ''],
      quantity: ['1', '', '', '', ''],
      lines: '',
    });
    expect(rows.status, 'the rows of a multipart form arrive as lists, as from a urlencoded form').to.equal(303);
  });

  it('refuses a multipart form without the CSRF field, an oversized file and a form that cannot be read; asks the permission', async () => {
    const { customer, browser } = await companyAdmin();
    await browser.get('/account/employees');
    const forged = await browser.upload(
      '/account/employees/import',
      {},
      { csvFile: { fileName: 'x.csv', content: 'email\n' } },
      false,
    );
    expect(forged.status).to.equal(403);
    const huge = await browser.upload(
      '/account/employees/import',
      {},
      { csvFile: { fileName: 'huge.csv', content: Buffer.alloc(5 * 1024 * 1024 + 10, 'a') } },
    );
    expect(huge.status).to.equal(413);
    expect(textOf(huge.text)).to.contain('The file is larger than 5 MB.');
    const broken = await browser.agent
      .post('/account/employees/import')
      .set('content-type', 'multipart/form-data')
      .send('no boundary here');
    expect(broken.status).to.equal(400);
    const { browser: reader } = await employeeBrowser(customer, ['employee.read']);
    await reader.get('/account/employees');
    expectRefused(
      await reader.upload('/account/employees/import', {}, { csvFile: { fileName: 'x.csv', content: 'email\n' } }),
      403,
    );
  });
});
