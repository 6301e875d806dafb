import { expect } from 'chai';
import { newId } from '../../../src/lib/ids.js';
import { adminToken, expectError, getShop, http } from '../../helpers/shop.js';
import { createEvent, salesStaff } from '../event-manager/helpers.js';
import { CONSOLE, loginOperator, requestAccount } from './helpers.js';

async function adminGet(path: string) {
  return (await http()).get(path).set('authorization', `Bearer ${await adminToken()}`);
}

describe('console and Admin API: lists sorted by choice', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('account requests sort newest first, oldest first or by company; the console keeps the choice in its paging', async () => {
    const marker = newId().slice(0, 6);
    const zeta = await requestAccount(`0000 Zeta ${marker}`);
    const alpha = await requestAccount(`0000 Alpha ${marker}`);
    const ids = (res: { body: { data: Array<{ id: string }> } }) =>
      res.body.data.map((r) => r.id).filter((id) => id === zeta.id || id === alpha.id);

    expect(ids(await adminGet('/api/b2b-account-request?limit=500'))).to.deep.equal([alpha.id, zeta.id]);
    expect(ids(await adminGet('/api/b2b-account-request?limit=500&sort=createdAt'))).to.deep.equal([zeta.id, alpha.id]);
    expect(ids(await adminGet('/api/b2b-account-request?limit=500&sort=company'))).to.deep.equal([alpha.id, zeta.id]);
    expect(ids(await adminGet('/api/b2b-account-request?limit=500&sort=-company'))).to.deep.equal([zeta.id, alpha.id]);
    expectError(await adminGet('/api/b2b-account-request?sort=email'), 400);

    const operator = await loginOperator();
    const page = await operator.agent.get(`${CONSOLE}/account-requests`).query({ sort: 'company' });
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('<option value="company" selected>Company name</option>');
    expect(page.text.indexOf(`0000 Alpha ${marker}`)).to.be.greaterThan(-1);
    expect(page.text.indexOf(`0000 Alpha ${marker}`)).to.be.lessThan(page.text.indexOf(`0000 Zeta ${marker}`));
    // An unknown sort is the default order, never a 400 (a console link never fails).
    expect((await operator.agent.get(`${CONSOLE}/account-requests`).query({ sort: 'nonsense' })).status).to.equal(200);
  });

  it('events sort by start either way or by name; another sort field is a 400', async () => {
    const staff = await salesStaff();
    const day = 24 * 3600 * 1000;
    for (const inDays of [40, 20, 30])
      await createEvent(staff.token, {
        startsAt: new Date(Date.now() + inDays * day).toISOString(),
        endsAt: new Date(Date.now() + inDays * day + 3600 * 1000).toISOString(),
      });
    const starts = async (sort: string) =>
      (
        (await adminGet(`/api/suite-event?limit=100&sort=${sort}`)).body.data as Array<{
          attributes: { startsAt: string };
        }>
      ).map((e) => Date.parse(e.attributes.startsAt));
    const ascending = await starts('startsAt');
    expect(ascending.length).to.be.at.least(3);
    expect(ascending).to.deep.equal([...ascending].sort((a, b) => a - b));
    const descending = await starts('-startsAt');
    expect(descending).to.deep.equal([...descending].sort((a, b) => b - a));
    expectError(await adminGet('/api/suite-event?sort=capacity'), 400);

    const operator = await loginOperator();
    const page = await operator.agent.get(`${CONSOLE}/events`).query({ sort: 'name' });
    expect(page.status).to.equal(200);
    expect(page.text)
      .to.contain('<option value="name" selected>Name</option>')
      .and.to.contain('<caption>Name</caption>');
  });
});
