import { expect } from 'chai';
import { newId } from '../../src/lib/ids.js';
import { deliverMail, getShop } from '../helpers/shop.js';

describe('test helpers: deliverMail', () => {
  it('runs no plugin schedule unless asked to (the queued mail only)', async () => {
    const shop = await getShop();
    const scheduled = `test.scheduled-${newId().slice(0, 8)}`;
    const ran: string[] = [];
    shop.runtime.jobs.register(scheduled, async () => void ran.push(scheduled));
    shop.runtime.jobs.schedule(scheduled, 3600);
    await deliverMail();
    expect(ran).to.deep.equal([]);
    await deliverMail({ schedules: 'all' });
    expect(ran).to.deep.equal([scheduled]);
  });
});
