import { expect } from 'chai';
import { getShop, isServerDb, loginNewCustomer } from '../../helpers/shop.js';
import { appProcessesForSuite, raceCheckouts } from '../../helpers/processes.js';
import { addToCart, createEvent, participantsOf, salesStaff, ticket } from './helpers.js';

/** 20 customers, each with one ticket for the event in the cart. */
async function twentyBuyers(event: { id: string; productId: string }): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < 20; i++) {
    const { token } = await loginNewCustomer();
    const added = await addToCart(token, [ticket(event)]);
    expect(added.status, JSON.stringify(added.body)).to.equal(200);
    tokens.push(token);
  }
  return tokens;
}

describe('event manager: 20 customers race for the last 5 seats across two app processes', function () {
  this.timeout(240000);
  const twoProcesses = appProcessesForSuite(2);

  it('registers exactly 5 and puts the other 15 on the waiting list in order', async function () {
    // Row locks across processes need a database server; SQLite serialises one process's writes and is not run scaled out.
    if (!isServerDb()) this.skip();
    const apps = await twoProcesses();
    const staff = await salesStaff();
    const event = await createEvent(staff.token, { participantLimit: 5, waitingList: true });
    const buyers = await twentyBuyers(event);

    const results = await raceCheckouts(apps, buyers);
    expect(
      results.map((r) => r.status),
      JSON.stringify(results.filter((r) => r.status !== 200).map((r) => r.body)),
    ).to.deep.equal(Array(20).fill(200));
    const rows = await participantsOf(event.id);
    expect(rows).to.have.length(20);
    expect(rows.filter((r) => r.status === 'registered')).to.have.length(5);
    const waiting = rows.filter((r) => r.status === 'waiting');
    expect(waiting.map((r) => Number(r.waiting_position)).sort((a, b) => a - b)).to.deep.equal(
      Array.from({ length: 15 }, (_, i) => i + 1),
    );
    const orderIds = results.map((r) => r.body.id).sort();
    expect(rows.map((r) => r.order_id).sort()).to.deep.equal(orderIds);
  });

  it('sells exactly 5 seats and refuses the other 15 orders when the event has no waiting list', async function () {
    // As above: only a database server exercises the event row lock across processes.
    if (!isServerDb()) this.skip();
    const apps = await twoProcesses();
    const staff = await salesStaff();
    const event = await createEvent(staff.token, { participantLimit: 5, waitingList: false });
    const buyers = await twentyBuyers(event);

    const results = await raceCheckouts(apps, buyers);
    const succeeded = results.filter((r) => r.status === 200);
    expect(succeeded, JSON.stringify(results.map((r) => r.status))).to.have.length(5);
    for (const failed of results.filter((r) => r.status !== 200)) {
      expect(failed.status).to.equal(400);
      expect(failed.body.errors[0].code).to.equal('SUITE__EVENT_FULL');
    }
    const rows = await participantsOf(event.id);
    expect(rows.map((r) => r.status)).to.deep.equal(Array(5).fill('registered'));
    expect(rows.map((r) => r.order_id).sort()).to.deep.equal(succeeded.map((r) => r.body.id).sort());
    const db = (await getShop()).db;
    const ordered = await db('order_line_items').where({ product_id: event.productId }).select('order_id');
    expect(ordered).to.have.length(5);
  });
});
